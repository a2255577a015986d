"""The lore readings, positive and negative, with their exact path and src.

Chart: 2026-12-01 10:00 +09:00 — day 己酉, 三傳 午 卯 子, 占時 巳, 太歲 午, 月建 亥 (winter)."""

from __future__ import annotations

import pytest

import leishen
from leishen.service.book import new_reader


@pytest.fixture(scope="module")
def reading():
    return leishen.read("2026-12-01T10:00+09:00")


def _by_query(reading, query):
    return {f["id"]: f for f in reading["findings"] if f["query"] == query}


def _walk(f):
    return [h.get("node", {}).get("name") or h["rel"] for h in f["path"]]


def test_kin_of_the_transmissions(reading):
    """己 is earth: 午 (fire) generates it — 印; 子 (water) it overcomes — 財; 卯 (wood) overcomes it — 鬼."""
    kin = _by_query(reading, "kin")
    assert set(kin) == {"liuren/kin/初傳/Kin:yin", "liuren/kin/中傳/Kin:gui", "liuren/kin/末傳/Kin:cai"}
    f = kin["liuren/kin/初傳/Kin:yin"]
    assert _walk(f)[0] == "午" and f["path"][0]["slot"] == "初傳" and _walk(f)[-1] == "印"
    assert [h["rel"] for h in f["path"] if "rel" in h] == ["OBJECT", "QUALIFIER"]
    assert f["src"] == ["000:23"] and [h.get("slot") for h in f["evidence"][0] if "node" in h] == ["日干", "初傳"]


def test_stages_and_vigour(reading):
    """己 at 午 is 臨官, at 卯 病, at 子 絕 (000:39-47); in winter 子 is 旺, 卯 相, 午 死 (000:63-67)."""
    stages = {f["path"][0]["slot"]: f["meaning"]["zh"] for f in _by_query(reading, "stages").values()}
    assert stages == {"初傳": "臨官", "中傳": "病", "末傳": "絕"}
    vigour = {f["path"][0]["slot"]: (f["meaning"]["zh"], f["src"]) for f in _by_query(reading, "vigour").values()}
    assert vigour == {"初傳": ("死", ["000:67"]), "中傳": ("相", ["000:63"]), "末傳": ("旺", ["000:63"])}


def test_relations_among_the_slots(reading):
    rel = _by_query(reading, "relations")
    clash = rel["liuren/relations/初傳-末傳/CLASHES"]
    assert _walk(clash) == ["午", "CLASHES", "子"] and clash["src"] == ["000:51"]
    assert clash["path"][1]["forward"] is False  # the table states 子 沖 午
    assert "liuren/relations/初傳-中傳/CLASHES" not in rel  # 午 and 卯 do not clash
    assert "liuren/relations/太歲-初傳/PUNISHES" in rel  # 午 punishes itself (自刑), both slots 午


def test_leixiang_only_for_a_topic_that_consults_a_domain():
    people = _by_query(leishen.read("2026-12-01T10:00+09:00", topic="人物"), "leixiang")
    names = {f["meaning"]["zh"]: f for f in people.values()}
    assert {"蠶婦", "馬伕", "和尚", "尼姑"} <= set(names)
    assert names["蠶婦"]["src"] == ["000:111"] and _walk(names["蠶婦"]) == ["午", "SYMBOLIZES", "蠶婦"]
    assert _walk(names["和尚"]) == ["午", "RIDDEN_BY", "天空", "SYMBOLIZES", "和尚"]
    assert all(f["topic"] == "人物" for f in people.values())
    assert not _by_query(leishen.read("2026-12-01T10:00+09:00"), "leixiang")


def test_the_decade_shensha_where_they_count(reading):
    """甲辰旬 (002:147): its 儀 is 辰, which stands on 干上 (課1上) — it counts there (000:3, 000:23);
    the decade's other 神煞 fall on no place of the asker, the transmissions, the hour or the 本命."""
    sha = _by_query(reading, "shensha")
    assert [(_walk(f), f["path"][-1]["slot"], f["meaning"]["zh"], f["src"]) for f in sha.values()] == \
        [(["甲辰旬", "XUN_SHENSHA", "辰"], "課1上", "儀神", ["002:147"])]


def test_the_places_a_shensha_counts_are_the_seen_at_rows():
    """Where a 神煞 counts is data: the SEEN_AT rows of 000-S05.g1 (000:23 干支三傳占時本命), in row order;
    ``lessons=all`` adds the 2nd lesson's upper after 干上 and the 4th's after 支上."""
    from leishen.readings.lore import lesson_places, shensha_places
    r = leishen.service.book.reader()
    seen = [f for f in r.data.facts if f.relation == "SEEN_AT" and f.subject == "Shensha:神煞"]
    assert [str(c) for f in seen for c in f.src] == ["000:23"] * 7
    assert r.shensha_places == shensha_places(r.data.facts) == ("干上", "支上", "初傳", "中傳", "末傳", "占時", "本命")
    assert lesson_places(r.shensha_places, "all") == ("干上", "課2上", "支上", "課4上", "初傳", "中傳", "末傳", "占時",
                                                      "本命")
    assert shensha_places([f for f in r.data.facts if f.object != "Concept:干上"])[:2] == ("支上", "初傳")


def test_a_place_left_out_of_the_seen_at_rows_is_not_read():
    """The reading follows the rows: a reader whose SEEN_AT rows lack 干上 no longer finds the 儀 辰 on 課1上
    (the chart of the test above)."""
    from leishen.readings.lore import shensha_places
    from leishen.readings.read import Reader
    r = new_reader()
    r.shensha_places = shensha_places([f for f in r.data.facts if f.object != "Concept:干上"])
    chart = leishen.chart("2026-12-01T10:00+09:00")
    assert [f for f in r.read(chart)["findings"] if f["query"] == "shensha"] == []


def test_relations_of_a_chart_without_liuren():
    """A chart of Qimen alone has no Liu Ren lore (no kin, stages or vigour of transmissions), but the
    刑 沖 破 害 合 among its own slots (日干 日支 時干 時支) are read as in a chart of every system:
    2026-03-05 16:00 +08:00 is a 戊寅 day at a 庚申 hour, and 寅 and 申 clash."""
    from leishen.engine.chart import ChartRequest

    moment = "2026-03-05T16:00+08:00"
    alone = leishen.read(leishen.chart(moment, request=ChartRequest(systems=("qimen",))))
    every = leishen.read(moment)
    qimen = [(f["id"], f["path"], f["src"]) for f in every["findings"] if f["query"] == "relations" and f["system"] == "qimen"]
    assert qimen and [(f["id"], f["path"], f["src"]) for f in alone["findings"] if f["query"] == "relations"] == qimen
    assert any("CLASHES" in f["id"] for f in alone["findings"] if f["query"] == "relations")
    assert not [f for f in alone["findings"] if f["query"] in ("kin", "stages", "vigour", "shensha")]
