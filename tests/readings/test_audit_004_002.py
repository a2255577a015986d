"""Rules of 004 and 002 mended after the audit against the texts (2026-12-01): each fires where the text
says and no longer where the old condition held against it."""

from __future__ import annotations

from datetime import datetime

import pytest

from leishen.engine.chart import build_chart
from leishen.readings import reader


def _facts(moment: str, topic: str) -> set[str]:
    reading = reader().read(build_chart(datetime.fromisoformat(moment)), topic=topic)
    return {f["rule"]["fact"] for f in reading["findings"]}


@pytest.mark.parametrize("rule, topic, holds, fails, why", [
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
])
def test_mended_rules(rule, topic, holds, fails, why):
    assert rule in _facts(holds, topic), why
    assert rule not in _facts(fails, topic), why
