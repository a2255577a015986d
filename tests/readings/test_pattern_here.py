"""``pattern_here(P)``: a Qimen 格 in one palace, for the lines that read the 格 of the palace a star falls in
(各看所落之宮 003:91, the silk palace 003:103, 相逢凶格 003:111) — not any 格 anywhere in the chart."""

from __future__ import annotations

from datetime import datetime

import pytest

from leishen.backends import get_backend
from leishen.engine.chart import build_chart
from leishen.loaders.conditions import ConditionError
from leishen.service.book import reader
from leishen.readings.read import Reader

# 天任 in 艮八; 三奇入墓 in 乾六, 格 in 坎一, 六儀擊刑 in 巽四; and a whole-plate 伏吟 (天蓬 and 休門 at home)
APART = "1971-01-18T04:52:00+08:00"
# audit 2026-12-02 (test_audit3_pat_r3): 伏吟/反吟 name no palace now (the rings turn as one), so APART has a 凶格
# in 天任's palace; this chart has 凶格 (門迫 格 悖格) but none in 天任's palace, and no 伏吟/反吟
ELSEWHERE = "2076-06-26T03:15:00+08:00"
# 天任 in 艮八; 羅網 (the hour stem 壬 or 癸: it names no palace) holds in every palace
EVERYWHERE = "1977-07-24T23:57:00+08:00"
TIANREN_XIONGGE = "facts/003/t_terrain_numbers.csv#12"  # 天任 相逢凶格擬墳墩 (003:111)


def _chart(moment: str) -> dict:
    return build_chart(datetime.fromisoformat(moment))


def _here(pattern: str, palace: str) -> str:
    return f"some(宮, all(eq(宮, Palace.{palace}), pattern_here(Pattern.{pattern})))"


@pytest.mark.parametrize("pattern,yes,no", [("三奇入墓", "乾六", "艮八"), ("格", "坎一", "乾六"),
                                            ("六儀擊刑", "巽四", "坎一")])
def test_a_pattern_holds_in_the_palace_its_case_holds_in_only(pattern, yes, no):
    r, chart = reader(), _chart(APART)
    assert r.test(chart, f"pattern(Pattern.{pattern})", system="qimen")["holds"]
    got = r.test(chart, _here(pattern, yes), system="qimen")
    assert got["holds"] and got["where"] == [r.lex.id("Palace", yes)]
    assert any(h.get("node", {}).get("id") == f"Pattern:{pattern}" for walk in got["walks"] for h in walk)
    assert not r.test(chart, _here(pattern, no), system="qimen")["holds"]


def test_a_case_that_names_no_palace_holds_in_every_palace():
    r, chart = reader(), _chart(EVERYWHERE)
    assert r.test(chart, "every(宮, pattern_here(Pattern.羅網))", system="qimen")["holds"]
    assert not r.test(chart, "some(宮, pattern_here(Pattern.三奇入墓))", system="qimen")["holds"]  # not in the chart


def test_xiongge_with_tianren_is_the_xiongge_of_its_palace():
    """相逢凶格擬墳墩 (003:111): 天任 meets the bad pattern in its own palace. In ELSEWHERE the chart has 凶格
    (門迫 格 悖格) but none in 天任's palace (the rule held there before); in APART the whole-plate 伏吟 reaches
    艮八, where 天任 stands (before 2026-12-02 伏吟 was read only in 天蓬's palace)."""
    def found(moment):
        reading = reader().read(_chart(moment), topic="地理")
        return [f for f in reading["findings"] if f["rule"]["fact"] == TIANREN_XIONGGE]
    assert found(ELSEWHERE) == []
    assert [f["id"].rsplit("@", 1)[1] for f in found(APART)] == ["Palace:p8"]
    [finding] = found(EVERYWHERE)
    assert finding["id"].endswith("@Palace:p8") and finding["bindings"] == {"宮": "Palace:p8", "時干": "Stem:ren"}
    steps = [h["node"]["name"] if "node" in h else (h["rel"], h["chart"], h["src"]) for h in finding["path"]]
    assert steps == ["艮八", ("STAR", True, None), "天任", ("SIGNIFIES", False, ["003:111"]), "墓"]
    assert finding["src"] == ["003:111"] and finding["polarity"] == "平"
    [net, _] = finding["evidence"]  # 羅網: the hour stem 壬 (or 癸), a case that names no palace
    assert [h["node"]["name"] if "node" in h else (h["rel"], h["src"]) for h in net] == [
        "壬", ("MEETS", None), "癸", ("REQUIRES", ["004:119"]), "羅網"]


@pytest.mark.parametrize("when", ["pattern_here(Pattern.格)", "some(位, pattern_here(Pattern.格))"])
def test_pattern_here_outside_a_palace_is_refused(when):
    with pytest.raises(ConditionError, match="pattern_here tests one instance of 宮"):
        reader().test(_chart(APART), when, system="qimen")


def test_a_reader_that_asks_its_checks_finds_the_same_palaces():
    """Without the cache the checks are collected first: pattern_here asks those of every palace of the
    pattern's cases, so the palaces are the same as the cached reader's."""
    asking = Reader(get_backend("networkx"), cache=False)
    for moment in (APART, EVERYWHERE):
        chart = _chart(moment)
        for topic in ("地理", "栽植", "蠶"):
            assert asking.read(chart, topic=topic)["findings"] == reader().read(chart, topic=topic)["findings"]


def test_the_witness_is_the_patterns_walk_through_this_palace():
    """1998-08-13 20:25: 門迫 in 坎一 坤二 震三 乾六. The reading's walk of 門迫 goes through 坎一 (the first);
    pattern_here(門迫) in 乾六 shows the walk through 乾六 (景門, whose fire overcomes 乾's metal)."""
    r, chart = reader(), _chart("1998-08-13T20:25:00+08:00")
    names = lambda walk: [h["node"]["name"] for h in walk if "node" in h]  # noqa: E731
    assert names(r.test(chart, "pattern(Pattern.門迫)", system="qimen")["walks"][0]) == ["坎一", "死門", "生門", "門迫"]
    walks = r.test(chart, _here("門迫", "乾六"), system="qimen")["walks"]
    assert names(walks[1]) == ["乾六", "景門", "門迫"]
    assert all("坎一" not in names(w) for w in walks)
