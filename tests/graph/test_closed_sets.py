"""The closed vocabularies and the relation tables of 000, exactly as the text gives them."""

from __future__ import annotations

import pytest

from leishen.loaders.build import load_facts

COUNTS = {"Stem": 10, "Branch": 12, "Element": 5, "Polarity": 2, "General": 12, "FlyingStar": 9,
          "QimenStar": 9, "Gate": 8, "Deity": 8, "Palace": 9, "Trigram": 8, "Mansion": 28, "LifeStage": 12,
          "Kin": 5, "Vigour": 5, "Season": 5, "Month": 12, "Xun": 6, "Frame": 4}


@pytest.fixture(scope="module")
def facts():
    """The facts of 000 (the tables of 刑沖破害合, 長生, 五用神 … are that text's)."""
    return [f for f in load_facts() if f["src"][0].startswith("000:")]


def regular(facts, relation):
    return [f for f in facts if f["relation"] == relation and not f["variant"]]


def pairs(facts, relation):
    return {(f["subject"]["name"], f["object"]["name"]) for f in regular(facts, relation)}


@pytest.mark.parametrize("label,count", sorted(COUNTS.items()))
def test_closed_vocabulary_sizes(nx_backend, label, count):
    assert nx_backend.run("stats")[0]["nodes"][label] == count


def test_six_clashes(facts):
    assert pairs(facts, "CLASHES") == {("子", "午"), ("丑", "未"), ("寅", "申"), ("卯", "酉"), ("辰", "戌"), ("巳", "亥")}


def test_six_combinations_as_written(facts):
    assert pairs(facts, "COMBINES") == {("子", "丑"), ("午", "未"), ("卯", "戌"), ("酉", "辰"), ("寅", "亥"), ("巳", "申")}


def test_six_breaks_and_harms(facts):
    assert pairs(facts, "BREAKS") == {("子", "酉"), ("午", "卯"), ("丑", "辰"), ("戌", "未"), ("亥", "寅"), ("申", "巳")}
    assert pairs(facts, "HARMS") == {("子", "未"), ("丑", "午"), ("寅", "巳"), ("申", "亥"), ("卯", "辰"), ("酉", "戌")}


def test_punishments_of_000_with_self_punishment(facts):
    assert pairs(facts, "PUNISHES") == {("寅", "巳"), ("巳", "申"), ("申", "寅"), ("丑", "戌"), ("戌", "未"), ("未", "丑"),
                                        ("子", "卯"), ("卯", "子"), ("辰", "辰"), ("午", "午"), ("酉", "酉"), ("亥", "亥")}
    assert len(regular(facts, "PUNISHES")) == 12


def test_text_variant_hai_punishes_harm_is_kept_and_flagged(facts):
    flagged = [f for f in facts if f["relation"] == "PUNISHES" and f["variant"]]
    assert len(flagged) == 1
    assert flagged[0]["variant"] == "typo" and "亥刑害" in flagged[0]["note"]
    assert flagged[0]["src"] == ["000:51"]


def test_120_life_stage_cells(facts):
    cells = {(f["subject"]["name"], f["qualifiers"]["stage"]["name"]): f["object"]["name"] for f in regular(facts, "LIFE_STAGE")}
    assert len(regular(facts, "LIFE_STAGE")) == 120 and len(cells) == 120
    assert cells[("甲", "長生")] == "亥" and cells[("丁", "帝旺")] == "巳" and cells[("癸", "墓")] == "未"


def test_text_variant_di_wang_jia_yi_mao_is_flagged(facts):
    flagged = [f for f in facts if f["relation"] == "LIFE_STAGE" and f["variant"]]
    assert [(f["subject"]["name"], f["qualifiers"]["stage"]["name"], f["object"]["name"], f["variant"]) for f in flagged] \
        == [("乙", "帝旺", "卯", "text")]


def test_kin_branches_partition(facts):
    rows = regular(facts, "KIN_BRANCH")
    assert len(rows) == 120
    assert len({(f["subject"]["name"], f["object"]["name"]) for f in rows}) == 120


def test_void_horse_vigour_month_tables(facts):
    assert len(regular(facts, "VOID")) == 12
    assert len(regular(facts, "HORSE")) == 12 + 4  # 12 day branches + 4 frames
    assert len(regular(facts, "VIGOUR")) == 60
    assert pairs(facts, "MONTH_BRANCH") >= {("正月", "寅"), ("十二月", "丑")}
    assert pairs(facts, "MONTH_GENERAL") >= {("正月", "亥"), ("十二月", "子")}


def test_general_home_branches(facts):
    homes = dict(pairs(facts, "HOME_BRANCH"))
    assert homes["貴人"] == "丑" and homes["玄武"] == "亥" and homes["天后"] == "子" and len(homes) >= 12


def test_every_node_has_three_readings(nx_backend):
    g = nx_backend.graph
    lacking = [n for n, a in g.nodes(data=True) if not (a.get("name") and a.get("ko") and a.get("en"))]
    assert lacking == []
