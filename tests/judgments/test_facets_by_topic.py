"""Facets topic by topic on real charts, positive and negative: each expected answer is computed here from the
chart alone (the stems, the palaces), by the line of the text the rule reads, and compared with the judgment."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from tests.judgments.conftest import facet, values

PHASE = dict(zip("甲乙丙丁戊己庚辛壬癸", "木木火火土土金金水水"))
OVERCOMES = {"木": "土", "土": "水", "水": "火", "火": "金", "金": "木"}
GENERATES = {"木": "火", "火": "土", "土": "金", "金": "水", "水": "木"}
COMBINE = {frozenset(p) for p in ("甲己", "乙庚", "丙辛", "丁壬", "戊癸")}
RING = [1, 8, 3, 4, 9, 2, 7, 6]  # the eight palaces in their turning order (conventions-qm003 §2)


def moments(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    start = datetime(1980, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    return [(start + timedelta(hours=rng.randrange(0, 50 * 365 * 24))).isoformat() for _ in range(n)]


def stems(reading: dict) -> tuple[str, str]:
    p = reading["pillars"]
    return p["day"][0], p["hour"][0]


def deciding(judgment: dict, name: str) -> set:
    """The findings a facet is decided by (or that conflict in it)."""
    f = facet(judgment, name)
    return set(f["findings"]) | {x for a in f["conflict"] or () for x in a["findings"]}


# 004's 論干支: the day stem is the asker (日元為人), the hour stem the matter; the relation of the two is read first
STEM_RULES = [
    ("出行", "可行否", "qimen/rules/facts/004/chuxing.csv#4", "吉",
     lambda d, h: OVERCOMES[PHASE[d]] == PHASE[h]),  # 004:71 人元尅地去向利
    ("出行", "可行否", "qimen/rules/facts/004/chuxing.csv#5", "凶",
     lambda d, h: OVERCOMES[PHASE[h]] == PHASE[d]),  # 004:71 (時元) 尅人元 多不濟
    ("求財", "得否", "qimen/rules/facts/004/qiucai.csv#8", "吉",
     lambda d, h: OVERCOMES[PHASE[d]] == PHASE[h]),  # 004:23 日尅時兮財可就
    ("行人", "來否", "qimen/rules/facts/004/xingren.csv#4", "吉",
     lambda d, h: frozenset((d, h)) in COMBINE or GENERATES[PHASE[h]] == PHASE[d]),  # 004:47 時元合生日元
]


@pytest.mark.parametrize("topic, name, fact_id, polarity, holds", STEM_RULES, ids=[r[2] for r in STEM_RULES])
def test_lun_ganzhi_decides_at_the_asker(judged, topic, name, fact_id, polarity, holds):
    """Positive and negative: where the stems stand as the line says, its finding is among those that decide the
    verdict facet (it is read at the 用神, the day stem, first); where they do not, it is not there. When it
    decides alone, the verdict is its polarity."""
    seen = {True: 0, False: 0}
    for moment in moments(40, hash(fact_id) % 1000):
        reading, js = judged(moment, topic)
        day, hour = stems(reading)
        expected = holds(day, hour)
        ids = {f["id"] for f in reading["findings"]}
        assert (fact_id in ids) == expected, (moment, day, hour)
        assert (fact_id in deciding(js[topic], name)) == expected, (moment, day, hour)
        f = facet(js[topic], name)
        if expected and f["status"] == "decided":
            assert values(js[topic], name) == {polarity} and js[topic]["verdict"] == polarity
        seen[expected] += 1
    assert seen[True] and seen[False]  # both cases were met


def _rain_palaces(palaces: dict) -> list[int]:
    """003:55 the rain stars where they rain: 天蓬 in 坎一 兌七 震三, or 天柱 / 天沖 on 壬 or 癸 there."""
    out = []
    for n in (1, 7, 3):
        p = palaces[str(n)]
        if p.get("star") == "天蓬" or (p.get("star") in ("天柱", "天沖") and p.get("heaven") in ("壬", "癸")):
            out.append(n)
    return out


def _near(a: int, b: int) -> bool:
    """The same palace, or the next on the ring (the 中五 palace is read where it is hosted)."""
    if b not in RING or a not in RING:
        return a == b
    return abs(RING.index(a) - RING.index(b)) in (0, 1, len(RING) - 1)


def test_tianshi_soon_or_late_003_55(judged):
    """003:55 與值符近則雨速，遠則雨遲: where every raining rain star is near the 值符 the facet 遲速 is 速, where
    every one is far it is 遲, where there is none it is open."""
    seen = set()
    for moment in moments(60, 55):
        reading, js = judged(moment, "天時")
        q = reading["chart"]["qimen"]
        rains = _rain_palaces(q["palaces"])
        duty = q["duty_star_palace"] if q["duty_star_palace"] != 5 else {"kun2": 2}.get(q["centre_host"], 2)
        expected = {"速" if _near(p, duty) else "遲" for p in rains}
        f = facet(js["天時"], "遲速")
        if not expected:
            assert f["status"] == "open", moment
        elif len(expected) == 1:
            assert f["status"] == "decided" and values(js["天時"], "遲速") == expected, moment
        seen.add(frozenset(expected))
    assert len(seen) >= 3
