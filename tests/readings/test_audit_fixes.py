"""Rules mended after an audit against the texts (2026-12-01): each fires where the text says and not
where the text says it must not; a pattern name two systems share (伏吟) is two patterns; 進茹 退茹 are
連茹; a tested condition sees the patterns; a 甲 pillar stands on the Qimen plates as its 儀.
The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations

from datetime import datetime

import pytest

from leishen.engine.chart import build_chart
from leishen.service.book import reader
from leishen.readings.read import Reader

from fired import findings

LIUREN_FUYIN = "2033-03-12T21:06:00+08:00"  # 月將 over 占時: the Liu Ren 伏吟; no Qimen 伏吟
QIMEN_FUYIN = "2029-06-24T07:45:00+08:00"  # 休門 in 坎一: the Qimen 伏吟; the Liu Ren course is not 伏吟


def test_a_qimen_rule_tests_the_qimen_fuyin_only():
    """反伏門迫雖入試 未免狼當 (004:19) is the Qimen 伏吟: not the Liu Ren course of the same name."""
    rule = "facts/004/kesi.csv#74"
    assert rule in findings(QIMEN_FUYIN, "科試")
    assert rule not in findings(LIUREN_FUYIN, "科試")


def test_a_liuren_rule_tests_the_liuren_fuyin_only():
    """伏吟近出 (002:159) is the Liu Ren 伏吟 (the engine's 課體, or the Liu Ren REQUIRES): not the Qimen one."""
    rule = "facts/002/shefu_rules.csv#23"
    assert rule in findings(LIUREN_FUYIN, "射覆")
    assert rule not in findings(QIMEN_FUYIN, "射覆")


def test_the_qimen_fuyin_finding_starts_in_the_qimen_chart():
    reading = reader().read(build_chart(datetime.fromisoformat(LIUREN_FUYIN)), topic="科試")
    for f in reading["findings"]:
        if f["system"] == "qimen":
            assert all(h.get("slot") != "課體" for walk in (f["path"], *f["evidence"]) for h in walk), f["id"]


MENDED = [  # (rule, topic, a moment it holds, a moment it must not hold (a rule too broad: one it held at), why)
    ("facts/003/f_rain_fine_snow.csv#16", "天時", "1986-11-30T14:21:00+08:00", "2032-10-21T09:45:00+08:00",
     "乘旺相 governs 或剋日時二干 too (003:51): 天英 in 震三 is 囚 in autumn"),
    ("facts/003/f_rain_fine_snow.csv#18", "天時", "1975-02-14T05:28:00+08:00", "2032-10-21T09:45:00+08:00",
     "乘旺相 governs 或剋日時干 too (003:51)"),
    ("facts/003/f_rain_fine_snow.csv#40", "天時", "2044-08-24T18:42:00+08:00", "2017-08-18T15:32:00+08:00",
     "天蓬 is a water spirit: 天蓬 in 坎 兌 震 is rain (3.H.09), not 無雨 (003:55)"),
    ("facts/003/n_crops_silk.csv#8", "田禾", "2029-06-24T07:45:00+08:00", "2038-02-05T03:43:00+08:00",
     "flood or drought only when 天任 is not in 艮 震 (003:87): 天任 in 艮八 is 年豐"),
    ("facts/004/kesi.csv#7", "科試", "1970-01-05T19:14:00+08:00", "2029-06-24T07:45:00+08:00",
     "a 酉 day branch alone is not punished (004:3): 辰 hour and 酉 day combine"),
    ("facts/004/xingren.csv#26", "行人", "1995-09-30T23:10:00+08:00", "2029-06-24T07:45:00+08:00",
     "開休生景 are the 值使's gates (004:55)"),
    ("facts/004/xingren.csv#27", "行人", "2033-03-12T21:06:00+08:00", "1964-06-11T18:43:00+08:00",
     "開休生景 加臨乾 (004:55): the gate is the subject of both clauses"),
    # 003
    ("facts/003/f_rain_fine_snow.csv#37", "天時", "2038-02-05T03:43:00+08:00", "2048-12-17T16:01:00+08:00",
     "near to 值符 times a rain already found (003:55): no raining star of 3.H.09/11/12 in the second chart"),
    ("facts/003/f_rain_fine_snow.csv#38", "天時", "2044-08-24T18:42:00+08:00", "1982-08-05T14:24:00+08:00",
     "far from 值符 times a rain already found (003:55): no rain star of 3.H.09/11 in the second chart"),
    # 3.Q: the day stem's gate is one gate; the old test saw neither chart (丙 of 中五 hosted; a 甲 day); since
    # issue #29 the day stem is read on the heaven plate (conventions-qm003 §6)
    ("facts/003/n_crops_silk.csv#43", "蝗", "2025-03-18T10:00:00+08:00", "2025-02-03T23:30:00+08:00",
     "丙 day: 丙 of 中五 hosted (天寄) in 巽四 with 杜門 (003:99); 甲辰 day: its 儀 壬 stands with 開門, not listed"),
    ("facts/003/n_crops_silk.csv#44", "蝗", "2025-02-03T23:30:00+08:00", "2025-03-18T10:00:00+08:00",
     "甲辰 day: its 儀 壬 stands with 開門 (非此, 003:99); 丙 day: 杜門 with the hosted 丙"),
    # 3.Y.05: a hosted 天禽 carries 天寄 丙 in the first chart (the old test missed it); no 芮禽 with 丙丁 in the second
    ("facts/003/w_dig.csv#40", "穿地", "2029-06-24T07:45:00+08:00", "1982-08-05T14:24:00+08:00",
     "芮禽 carrying 丙 or 丁 (003:131): the hosted 天禽's stem is 天寄"),
    ("facts/003/w_dig.csv#41", "穿地", "2029-06-24T07:45:00+08:00", "1982-08-05T14:24:00+08:00",
     "芮禽 carrying 丙 or 丁 (003:131): the hosted 天禽's stem is 天寄"),
    ("facts/003/w_dig.csv#42", "穿地", "2029-06-24T07:45:00+08:00", "1982-08-05T14:24:00+08:00",
     "芮禽 carrying 丙 or 丁 (003:131): the hosted 天禽's stem is 天寄"),
    # 004 and 002
    ("facts/004/xingren.csv#25", "行人", "1995-09-30T23:10:00+08:00", "2044-08-24T18:42:00+08:00",
     "迫 in the 論值使 verse (004:55) is the 值使 gate overcoming its palace: another gate's 門迫 is not it"),
    ("facts/004/xingren.csv#49", "行人", "1953-09-13T17:47:00+08:00", "2044-08-24T18:42:00+08:00",
     "詐 (004:67) is the pattern 三詐 itself, not a stem and gate of it beside 白虎 朱雀 螣蛇"),
    ("facts/004/xingren.csv#50", "行人", "2029-06-24T07:45:00+08:00", "1982-08-05T14:24:00+08:00",
     "假 (004:67) is the pattern 五假 itself, not a gate and stem of it beside 白虎 朱雀 螣蛇"),
    ("facts/004/chuxing.csv#25", "出行", "1970-01-05T19:14:00+08:00", "2033-03-12T21:06:00+08:00",
     "格 (004:75) is of the 值使: 庚 at the 值使 palace, not anywhere in the chart"),
    ("facts/002/shefu_rules.csv#35", "射覆", "2044-05-28T18:32:00+08:00", "2044-08-24T18:42:00+08:00",
     "旺 (002:159) is the day stem's: a 旺 初傳 is read from its own phase (shefu_tables.csv)"),
    ("facts/002/shefu_rules.csv#36", "射覆", "1982-08-05T14:24:00+08:00", "2029-06-24T07:45:00+08:00",
     "相 (002:159) is the day stem's: 乙 day, 初傳 未 相 in summer is 土相 白 (shefu_tables.csv#13), not 盜"),
    ("facts/002/shefu_rules.csv#37", "射覆", "2044-08-24T18:42:00+08:00", "2009-11-07T04:50:00+08:00",
     "死 (002:159) is the day stem's"),
    ("facts/002/shefu_rules.csv#38", "射覆", "2017-08-18T15:32:00+08:00", "2044-05-28T18:32:00+08:00",
     "囚 (002:159) is the day stem's"),
    ("facts/002/shefu_rules.csv#39", "射覆", "2029-06-24T07:45:00+08:00", "1953-09-13T17:47:00+08:00",
     "休 (002:159) is the day stem's"),
    ("facts/002/shefu_rules.csv#72", "射覆", "2033-01-20T17:53:00+08:00", "1973-12-21T10:11:00+08:00",
     "不備 (002:175): a 別責 course has three distinct lessons; a 昴星 course four (the old condition never held)"),
    # pattern_here: the 格 of one palace
    ("facts/003/n_crops_silk.csv#19", "栽植", "2009-11-30T22:18:00+08:00", "1951-07-27T04:59:00+08:00",
     "吉格為生 in the palace 天沖 or 天輔 falls in (各看所落之宮, 003:91), not a 吉格 elsewhere"),
    ("facts/003/n_crops_silk.csv#45", "蠶", "2009-11-30T22:18:00+08:00", "1964-05-05T03:59:00+08:00",
     "加臨金木之宮而合吉格 (003:103): the 吉格 in the good star's 金木 palace, not elsewhere"),
]


def test_jinru_and_tuiru_are_lianru():
    """The engine's 進茹 / 退茹 (三傳 子 亥 戌: consecutive, backwards) are the texts' 連茹, so the rules that
    test 連茹 (002:91, 002:179) can hold; a course that is neither is not 連茹."""
    r = reader()
    chart = build_chart(datetime.fromisoformat("2044-05-28T18:32:00+08:00"))
    assert chart["liuren"]["transmissions"] == ["子", "亥", "戌"] and "退茹" in chart["liuren"]["course"]
    found = r.test(chart, "pattern(Pattern.連茹)", system="liuren")
    assert found["holds"] and found["walks"][0][0]["slot"] == "課體"
    assert not r.test(build_chart(datetime.fromisoformat(QIMEN_FUYIN)), "pattern(Pattern.連茹)", system="liuren")["holds"]


def test_a_tested_condition_sees_the_patterns_a_reading_finds():
    """``Reader.test`` decides the patterns first, as ``read`` does: pattern(熒入白) holds where a reading
    finds 熒入白 (丙 over 庚 in 兌七), in the Qimen system only, on a reader with or without the cache."""
    from leishen.backends import get_backend
    chart = build_chart(datetime.fromisoformat("1999-09-10T02:15:00+08:00"))
    assert any(f["rule"]["name"] == "熒入白" for f in reader().read(chart)["findings"] if f["query"] == "patterns")
    for r in (reader(), Reader(get_backend("networkx"), cache=False)):
        found = r.test(chart, "pattern(Pattern.熒入白)", system="qimen")
        assert found["holds"] and found["walks"][0][-1]["node"]["id"] == "Pattern:熒入白"
        assert not r.test(chart, "pattern(Pattern.熒入白)", system="liuren")["holds"]


@pytest.mark.parametrize("rule, moment, branch", [
    ("facts/002/yuejiang_wu.csv#26", "1982-08-05T14:24:00+08:00", "午"),  # 庚申 day: 庚辛加午 → 癆病
    ("facts/002/yuejiang_yin.csv#26", "1982-08-05T14:24:00+08:00", "寅"),  # a 申 day: 寅 → 遠行
])
def test_a_placement_the_plate_always_has_is_no_verdict(rule, moment, branch):
    """Every branch stands on the plate, so 'X on the plate' always holds: it is never a verdict the reading asserts
    (002:39, 002:59). Until issue #29 the row held as needs_judgment on every such day; now where X must stand is read
    every way at once (over the day and the initial transmission, docs/conventions-yj002.md), which this chart lacks."""
    r = reader()
    chart = build_chart(datetime.fromisoformat(moment))
    assert r.test(chart, f"some(位, eq(上, Branch.{branch}))")["holds"]
    reading = r.read(chart)
    assert not [f for f in reading["findings"] if f["rule"]["fact"] == rule]


def test_a_jia_pillar_stands_on_the_plates_as_its_yi():
    """六甲遁於六儀: on a 甲午 day (旬 甲午, 儀 辛) the day stem stands on the plates as 辛, so 庚 over 辛
    is 伏干格 (庚加日干), its walk ``甲 -HIDES_AS-> 辛``; a stem other than 甲 stands as itself (the same Bound)."""
    r = reader()
    chart = build_chart(datetime.fromisoformat("1970-05-14T02:17:00+08:00"))
    assert chart["qimen"]["day_pillar"] == "甲午" and chart["qimen"]["palaces"]["7"]["heaven"] == "庚"
    from leishen.readings.bindings import chart_bindings
    b = chart_bindings(chart, r.lex, r.seasons)
    assert b.slots["日盤干"].chain == (("Stem:jia", "日干"), ("HIDES_AS", "Stem:xin"))
    assert b.slots["時盤干"] is b.slots["時干"] and chart["qimen"]["hour_pillar"][0] != "甲"
    found = [f for f in r.read(chart)["findings"] if f["query"] == "patterns" and f["rule"]["name"] == "伏干格"]
    assert found and found[0]["id"].endswith("@Palace:p7")
    names = [[h.get("node", {}).get("name") or h["rel"] for h in walk] for walk in found[0]["evidence"]]
    assert ["甲", "HIDES_AS", "辛"] in names
