"""Rows whose reading the Korean translation settles (issue #8), positive and negative, on real charts.

002 SF-08c 用加支合正當時: the 用 placed on the day branch **and** combining with it (it was either).
2024-02-19 01:30 +08:00 — 初傳 子 over the day branch 丑 (子丑 combine): holds. 2024-02-10 03:30 +08:00 —
only one of the two holds: no finding.
002 未-03a/b 陽比 / 陰比: the 比 (劫) branch of the day stem's own polarity is the elder brother, of the
other polarity the younger; a 甲 day (yang) reads 寅 / 卯, a 癸 day (yin) 亥 / 子 (亥 is yin, 000:7).
"""

from __future__ import annotations

import pytest

import leishen
from leishen.service.book import reader

BOTH, ONE = "2024-02-19T01:30+08:00", "2024-02-10T03:30+08:00"


@pytest.fixture(scope="module")
def r():
    return reader()


def _names(walk: list) -> list:
    return [h["node"]["name"] if "node" in h else h["rel"] for h in walk]


def _found(r, iso: str) -> dict:
    return {f["rule"]["item"]: f for f in r.read(leishen.chart(iso), topic="射覆")["findings"] if f["rule"]["item"]}


def test_the_yong_on_the_day_branch_and_combining_with_it(r):
    f = _found(r, BOTH)["002-S29.SF-08c"]
    assert _names(f["path"]) == ["子", "IS_SLOT", "初傳", "SIGNIFIES", "正當時"] and f["path"][0]["slot"] == "初傳"
    assert f["certainty"] == "holds" and f["src"] == ["002:155"]
    # 初傳 子 over the day branch 丑 (the walk down, then 日支 itself), and 子 combining with 丑
    assert [_names(e) for e in f["evidence"]] == [["子", "UNDER", "丑"], ["丑"], ["子", "COMBINES", "丑"]]
    assert f["evidence"][1][0]["slot"] == "日支"


def test_only_one_of_placed_and_combining_is_no_finding(r):
    chart = leishen.chart(ONE)
    assert r.test(chart, "any(over(初傳, 日支), rel(初傳, COMBINES, 日支))", system="liuren")["holds"]
    assert "002-S29.SF-08c" not in _found(r, ONE)


# audit3 lr002 (2026-12-02): 未-03a/b now look for the 比 in the lessons and transmissions (anywhere on the plate
# held on every chart); on ONE's 甲 day 卯 is in neither, so the 甲 case reads 2024-03-01 15:30, where 寅 and 卯 both are
YANG_BROTHERS = "2024-03-01T15:30+08:00"


@pytest.mark.parametrize("iso,elder,younger", [(YANG_BROTHERS, "寅", "卯"), (BOTH, "亥", "子")])
def test_the_brothers_by_the_day_stems_polarity(r, iso, elder, younger):
    found = _found(r, iso)
    a, b = found["002-S09.未-03a"], found["002-S09.未-03b"]
    assert _names(a["path"])[1:] == ["KIN_BRANCH", elder, "MEETS", "陽比", "SIGNIFIES", "兄"]
    assert _names(b["path"])[1:] == ["KIN_BRANCH", younger, "MEETS", "陰比", "SIGNIFIES", "弟"]
    assert a["path"][0]["slot"] == "日干" and a["src"] == b["src"] == ["002:63"]
    assert a["certainty"] == b["certainty"] == "holds"


def test_a_brother_of_the_other_polarity_is_not_the_elder(r):
    """On a 甲 day 卯 is 比 but yin: the 陽比 condition holds at 寅 and not at 卯."""
    chart, same = leishen.chart(ONE), "any(all(has(日干, HAS_POLARITY, Polarity.陽), has(上, HAS_POLARITY, Polarity.陽)), " \
        "all(has(日干, HAS_POLARITY, Polarity.陰), has(上, HAS_POLARITY, Polarity.陰)))"
    assert not r.test(chart, f"some(位, all(kin(上, Kin.劫), eq(上, Branch.卯), {same}))")["holds"]
    assert r.test(chart, f"some(位, all(kin(上, Kin.劫), eq(上, Branch.寅), {same}))")["holds"]



def test_the_day_branch_is_never_in_its_own_xun_void_but_the_days_positions_can_be(r):
    """未-20 日辰作空亡: the day branch is never in the day's 旬空 (it belongs to its own 旬), so the row
    reads the day's lodging or the branches over the day stem and branch; 60 days at noon, one cycle."""
    import datetime as dt

    from leishen.readings.bindings import chart_bindings

    seen = []
    for i in range(60):
        chart = leishen.chart((dt.date(2024, 2, 10) + dt.timedelta(days=i)).isoformat() + "T12:00+08:00")
        s = chart_bindings(chart, r.lex, r.seasons).slots
        void = s["旬空"].value
        assert s["日支"].value not in void
        seen.append(any(s[k].value in void for k in ("寄宮", "課1上", "課3上")))
    assert any(seen) and not all(seen)
