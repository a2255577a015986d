"""Each predicate of the vocabulary, positive and negative, on the real graph and a real chart.

The chart: 2026-12-01 10:00 +09:00 — Liu Ren 己酉 day, 巳 hour, 月將 寅; 三傳 午 卯 子 (午 over 酉,
riding 天空); 旬空 寅卯; 太歲 午; winter. Qimen 陰遁 5局, 值使 死門 in 離九, palace 1 庚 over 壬,
馬星 亥 (void 戌亥). Nine Star year 一白 (六白 in 坎一).
"""

from __future__ import annotations

import pytest

import leishen
from leishen.loaders.conditions import vocabulary
from leishen.service.book import reader

CASES = [  # (predicate, system, holds, does not hold)
    ("eq", None, "eq(初傳, Branch.午)", "eq(初傳, Branch.子)"),
    ("among", None, "among(中傳, Branch.寅, Branch.卯)", "among(中傳, Branch.子, Branch.丑)"),
    ("same", None, "same(初傳, 太歲)", "same(初傳, 日支)"),
    ("over", None, "over(初傳, 日支)", "over(初傳, 日干)"),
    ("void", None, "void(中傳)", "void(初傳)"),
    ("has", None, "has(初傳, HAS_ELEMENT, Element.火)", "has(初傳, HAS_ELEMENT, Element.水)"),
    ("isa", None, "isa(初傳, Frame.寅午戌)", "isa(初傳, Frame.亥卯未)"),
    ("rel", None, "rel(初傳, CLASHES, 末傳)", "rel(初傳, CLASHES, 中傳)"),
    ("rel", None, "rel(初傳, PUNISHES, 太歲)", "rel(初傳, PUNISHES, 日支)"),
    ("generates", None, "generates(初傳, 日干)", "generates(日干, 初傳)"),
    ("overcomes", None, "overcomes(末傳, 初傳)", "overcomes(初傳, 末傳)"),
    ("same_phase", None, "same_phase(初傳, 占時)", "same_phase(初傳, 末傳)"),
    ("stage", None, "stage(日干, 初傳, LifeStage.臨官)", "stage(日干, 初傳, LifeStage.帝旺)"),
    ("vigour", None, "vigour(末傳, Vigour.旺)", "vigour(初傳, Vigour.旺, Vigour.相)"),
    ("kin", None, "kin(末傳, Kin.財)", "kin(末傳, Kin.鬼)"),
    ("all", None, "all(eq(初傳, Branch.午), void(中傳))", "all(eq(初傳, Branch.午), void(初傳))"),
    ("any", None, "any(eq(初傳, Branch.子), void(中傳))", "any(eq(初傳, Branch.子), void(初傳))"),
    ("not", None, "not(void(初傳))", "not(void(中傳))"),
    ("some", None, "some(位, all(eq(地, Branch.酉), eq(上, Branch.午)))", "some(位, all(eq(地, Branch.酉), eq(上, Branch.子)))"),
    ("every", None, "every(傳, not(eq(上, Branch.丑)))", "every(傳, not(eq(上, Branch.子)))"),
    ("at", None, "at(初傳, eq(將, General.天空))", "at(初傳, eq(將, General.貴人))"),
    ("at", None, "at(日支, eq(上, Branch.午))", "at(日支, eq(上, Branch.子))"),
    ("eq", None, "eq(初傳.將, General.天空)", "eq(中傳.將, General.天空)"),
    ("eq", "qimen", "eq(局, 5)", "eq(局, 4)"),
    ("eq", "qimen", "eq(遁, Polarity.陰)", "eq(遁, Polarity.陽)"),
    ("some", "qimen", "some(宮, all(eq(天, Stem.庚), eq(地, Stem.壬)))", "some(宮, all(eq(天, Stem.壬), eq(地, Stem.庚)))"),
    ("at", "qimen", "at(值使宮, eq(門, Gate.死門))", "at(值使宮, eq(門, Gate.生門))"),
    ("at", "qimen", "at(日干.宮, eq(星, QimenStar.天輔))", "at(日干.宮, eq(星, QimenStar.天蓬))"),
    ("void", "qimen", "void(馬星)", "void(時支)"),
    ("eq", "ninestar", "eq(年星, FlyingStar.一白)", "eq(年星, FlyingStar.二黑)"),
    ("some", "ninestar", "some(年盤, all(eq(宮, Palace.坎一), eq(星, FlyingStar.六白)))",
     "some(年盤, all(eq(宮, Palace.坎一), eq(星, FlyingStar.一白)))"),
]


@pytest.fixture(scope="module")
def chart():
    return leishen.chart("2026-12-01T10:00+09:00")


@pytest.fixture(scope="module")
def graph():
    return leishen.graph()


def _check_walks(walks, graph):
    """Every hop that is not a chart hop is an edge of the graph with that type and its src."""
    for walk in walks:
        for i in range(1, len(walk) - 1, 2):
            hop, a, b = walk[i], walk[i - 1]["node"]["id"], walk[i + 1]["node"]["id"]
            if hop["chart"]:
                continue
            u, v = (a, b) if hop["forward"] else (b, a)
            data = graph.get_edge_data(u, v, hop["key"])
            assert data is not None and data["type"] == hop["rel"], hop
            assert hop["src"] and hop["src"] == list(data.get("src") or graph.nodes[u]["src"])  # reified: the fact's


@pytest.mark.parametrize("pred,system,yes,no", CASES, ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_predicate_positive_and_negative(chart, graph, pred, system, yes, no):
    r = reader()
    got = r.test(chart, yes, system=system)
    assert got["holds"], yes
    _check_walks(got["walks"], graph)
    assert not r.test(chart, no, system=system)["holds"], no


def test_topic_predicate(chart):
    r = reader()
    assert r.test(chart, "topic(Topic.射覆)", topic="射覆")["holds"]
    assert not r.test(chart, "topic(Topic.射覆)")["holds"]


def test_every_predicate_of_the_vocabulary_is_tested():
    tested = {c[0] for c in CASES} | {"topic", "pattern", "pattern_here"}  # pattern: test_readings.py; pattern_here: test_pattern_here.py
    assert tested == set(vocabulary().predicates)


def test_a_graph_walk_starts_at_its_slot(chart):
    walk = reader().test(chart, "generates(初傳, 日干)")["walks"][0]
    names = [h["node"]["name"] for h in walk if "node" in h]
    assert names == ["午", "火", "土", "己"] and walk[0]["slot"] == "初傳" and walk[-1]["slot"] == "日干"


def test_void_is_the_void_of_the_rules_own_system():
    """2024-02-19 12:00 is a 癸丑 day (Liu Ren 旬空 寅卯) at a 戊午 hour (Qimen 空亡 子丑): the day branch 丑
    is void for a Qimen rule and not for a Liu Ren one."""
    import leishen
    from leishen.service.book import reader
    chart = leishen.chart("2024-02-19T12:00+08:00")
    assert chart["liuren"]["void"] == ["寅", "卯"] and chart["qimen"]["void"] == ["子", "丑"]
    r = reader()
    assert r.test(chart, "void(日支)", system="qimen")["holds"]
    assert not r.test(chart, "void(日支)", system="liuren")["holds"]
