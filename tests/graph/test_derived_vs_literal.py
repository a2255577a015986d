"""Where a table can be computed, the computation and the text's rows agree, except the flagged variants."""

from __future__ import annotations

import pytest

from leishen.loaders import derive
from leishen.loaders.build import load_facts


@pytest.fixture(scope="module")
def facts():
    return [f for f in load_facts() if f["src"][0].startswith("000:")]


def literal(facts, relation):
    return [f for f in facts if f["relation"] == relation and not f["variant"]]


def test_life_stages_agree(facts):
    for f in literal(facts, "LIFE_STAGE"):
        assert derive.life_stage(f["subject"]["name"], f["object"]["name"]) == f["qualifiers"]["stage"]["name"], f


def test_the_flagged_life_stage_variant_disagrees(facts):
    (v,) = [f for f in facts if f["relation"] == "LIFE_STAGE" and f["variant"]]
    assert derive.life_stage(v["subject"]["name"], v["object"]["name"]) != v["qualifiers"]["stage"]["name"]


def test_kin_agrees(facts):
    for f in literal(facts, "KIN_BRANCH"):
        assert derive.kin(f["subject"]["name"], f["object"]["name"]) == f["qualifiers"]["kin"]["name"], f


def test_voids_agree(facts):
    got = {(f["subject"]["name"][:2], f["object"]["name"]) for f in literal(facts, "VOID")}
    assert got == {(h, b) for h in derive.XUN_HEADS for b in derive.xun_void(h)}


@pytest.mark.parametrize("relation,rule", [("CLASHES", derive.clash), ("COMBINES", derive.six_combination),
                                           ("HARMS", derive.harm), ("BREAKS", derive.destruction),
                                           ("PUNISHES", derive.punishment)])
def test_branch_relations_agree(facts, relation, rule):
    rows = literal(facts, relation)
    assert rows and all(rule(f["subject"]["name"]) == f["object"]["name"] for f in rows)


def test_horse_and_vigour_agree(facts):
    for f in literal(facts, "HORSE"):
        if f["subject"]["label"] == "Branch":
            assert derive.horse(f["subject"]["name"]) == f["object"]["name"]
    for f in literal(facts, "VIGOUR"):
        assert derive.vigour(f["qualifiers"]["season"]["name"], f["subject"]["name"]) == f["object"]["name"]


def test_month_tables_agree(facts):
    names = "正月 二月 三月 四月 五月 六月 七月 八月 九月 十月 十一月 十二月".split()
    for f in literal(facts, "MONTH_BRANCH"):
        assert derive.month_branch(names.index(f["subject"]["name"]) + 1) == f["object"]["name"]
    for f in literal(facts, "MONTH_GENERAL"):
        assert derive.month_general_by_month(names.index(f["subject"]["name"]) + 1) == f["object"]["name"]
