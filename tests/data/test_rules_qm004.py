"""The rules of document 004 (issue #8): every rule row has a condition and a polarity, no prose
condition is left, the rescues name the rule they modify, and the 格 of 004 hold (or not) on a real
chart as the classical definitions say.

The chart: 2024-02-10 12:00 +08:00 — 甲辰 day, 庚午 hour; Qimen 陽遁2局, 旬首 甲子戊, 值符 天芮 in 巽四
(over earth 庚), 值使 死門 in 艮八 (over earth 丁), 休門 in 離九, 乾六 heaven 丁 over earth 壬
(docs/engine-qimen.md shows the grid).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

import leishen
from leishen.service.book import reader

FACTS = Path(__file__).resolve().parents[2] / "ontology" / "facts" / "004"


def _rows():
    for path in sorted(FACTS.glob("*.csv")):
        with open(path, encoding="utf-8") as fh:
            for n, row in enumerate(csv.DictReader(fh), 2):
                yield f"{path.name}#{n}", row


def test_no_prose_condition_and_every_rule_has_a_polarity():
    for where, row in _rows():
        assert "condition=" not in row["qualifiers"], where
        if row["relation"] == "REQUIRES" or "topic=" in row["qualifiers"] and row["relation"] not in ("SYMBOLIZES", "IS"):
            assert row.get("when"), f"{where}: a rule without a condition"
        if row.get("when"):
            assert row["polarity"] in ("吉", "凶", "平", "混"), where
        if row.get("judgment"):
            assert row["when"], f"{where}: a judgment needs the structured part of its condition"


def test_rescues_name_the_rule_they_modify():
    rows = [r for _, r in _rows()]
    base = {r["item"]: r for r in rows if r["item"] in ("4.05.31", "4.05.32")}
    # (#29: 入墓網羅 is a pass not to be called without a good natal year; 不第 is 熒入白's)
    assert {r["object"] for r in base.values()} == {"Concept:未可言中"}
    assert {r["polarity"] for r in base.values()} == {"凶"}
    rescues = [r for r in rows if r["object"] == "Concept:可言中"]
    assert sorted(q for r in rescues for q in r["qualifiers"].split("|") if q.startswith("modifies=")) == \
        ["modifies=4.05.31", "modifies=4.05.32"]
    # 年命吉 is read as 年命無傷 (004:163, conventions-qm004 §8): the rescue tests the natal palace and is decided
    assert all(r["polarity"] == "吉" and not r["judgment"] and "本命盤干" in r["when"] for r in rescues)
    modifies = {r["item"]: r["qualifiers"] for r in rows if "modifies=" in r["qualifiers"] and r["item"]}
    assert "modifies=4.41.01" in modifies["4.41.03"] and "modifies=4.41.04" in modifies["4.41.06"]
    assert "modifies=4.17.24" in modifies["4.17.27"] and "modifies=4.34.03" in modifies["4.34.05"]


@pytest.fixture(scope="module")
def reading():
    return leishen.read("2024-02-10T12:00+08:00", topic="求財")


@pytest.fixture(scope="module")
def held():
    """The Qimen patterns of facts/004 whose REQUIRES rows of one case all hold on the chart."""
    r, chart = reader(), leishen.chart("2024-02-10T12:00+08:00")
    cases = defaultdict(list)
    for _, row in _rows():
        if row["relation"] == "REQUIRES":
            case = dict(q.partition("=")[::2] for q in row["qualifiers"].split("|")).get("case", "")
            cases[(row["subject"].removeprefix("Pattern:"), case)].append(row["when"])
    system = lambda w: "liuren" if "位" in w else "qimen"  # noqa: E731
    return {p for (p, _), whens in cases.items() if all(r.test(chart, w, system=system(w))["holds"] for w in whens)}


@pytest.mark.parametrize("name", ["五不遇時", "飛宮格", "玉女守門", "反吟", "三奇得使", "凶格", "吉格"])
def test_patterns_that_hold(held, name):
    assert name in held


@pytest.mark.parametrize("name", ["伏吟", "青龍返首", "飛鳥跌穴", "伏干格", "六儀擊刑", "羅網"])
def test_patterns_that_do_not_hold(held, name):
    assert name not in held


def test_topic_rules_follow_the_chart(reading):
    got = {(f["rule"]["item"], f["polarity"]) for f in reading["findings"] if f["topic"] == "求財"}
    assert ("4.06.08", "凶") in got            # 時尅日: 庚 overcomes 甲
    assert ("4.06.07", "吉") not in got        # 日尅時 does not hold
    assert ("4.10.04", "吉") in got            # 孟甲: the decade 甲子, the 值符 carries 戊
    assert ("4.11.27", "凶") in got            # 五不遇時 in 求財
    assert ("4.11.01", "吉") not in got        # no 青龍返首


def test_a_void_palace_is_read_through_its_branches():
    """空亡 戌亥 on the chart: 乾六 (戌 亥) is void, 坎一 (子) is not; the witness is the void branch."""
    r, chart = reader(), leishen.chart("2024-02-10T12:00+08:00")
    void = next(row["when"] for _, row in _rows() if row["item"] == "4.36.06")  # 符入空鄉: the 值符's palace void
    branch_test = void.removeprefix("all(topic(Topic.疾病), at(值符宮, ").removesuffix("))")
    got = r.test(chart, f"some(宮, all(eq(宮, Palace.乾六), {branch_test}))", system="qimen")
    assert got["holds"]
    assert {w[0]["node"]["name"] for w in got["walks"]} >= {"戌", "亥"}
    assert not r.test(chart, f"some(宮, all(eq(宮, Palace.坎一), {branch_test}))", system="qimen")["holds"]


def test_the_natal_palace_is_read_from_the_birth_year():
    """命宮 = the natal year stem on the earth plate (3.P.12 若合凶格於命宮 墓絕或朱雀): on 2026-11-20 08:00
    +09:00 a 辛酉 (1981) asker's 辛 stands at its 絕 stage in its palace; a 壬戌 (1982) asker's does not;
    without a birth year the rule has no natal stem and does not hold."""
    from leishen.engine.chart import ChartRequest
    rows = csv.DictReader(open(Path(__file__).parents[2] / "ontology/facts/003/n_crops_silk.csv", encoding="utf-8"))
    when = next(row["when"] for row in rows if row["item"] == "3.P.12")
    r = reader()
    chart = lambda year: leishen.chart("2026-11-20T08:00+09:00", request=ChartRequest(birth_year=year))  # noqa: E731
    got = r.test(chart(1981), when, system="qimen")
    assert got["holds"]
    assert not r.test(chart(1982), when, system="qimen")["holds"]
    assert not r.test(chart(None), when, system="qimen")["holds"]
