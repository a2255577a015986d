"""Spot checks of the 類象 book of document 000 (sections 000-S15 … 000-S32, helper lx000).

Each check names one exact fact (relation, subject, object, citation, qualifiers, variant) that must
be in the graph as ``leishen facts --json`` exports it; the item counts per section must equal the
inventory's counts (ontology/coverage/expected_lx000.csv).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from factmatch import find

from leishen.loaders.build import load_facts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def facts() -> list[dict]:
    return [f for f in load_facts("000") if "/leixiang_" in f["id"]]


# (relation, subject, object, src, variant, qualifiers) — spread over every section
CASES = [
    # S15 catalogue and the generic rule
    ("HAS_MEMBER", "Concept:類象", "Domain:天文", "000:91", None, {"order": "1"}),
    ("HAS_MEMBER", "Concept:類象", "Domain:飛潛動植", "000:91", None, {"order": "11"}),
    ("CONSULTS", "Topic:臟腑", "Domain:臟腑", "000:131", None, {}),
    ("CONSULTS", "Topic:宮室", "Domain:宮室", "000:107", None, {}),
    # S16 天文
    ("SYMBOLIZES", "Branch:亥", "Weather:天", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "Shensha:月將", "Weather:日", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "Branch:戌", "Weather:土星", "000:95", None, {"category": "天文"}),
    ("ALLOTTED_TO", "Weather:木星", "Direction:東", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "Branch:卯", "Mansion:氐", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "Branch:卯", "Mansion:氐", "000:95", "typo", {"category": "天文"}),
    ("SYMBOLIZES", "Branch:午", "Mansion:張", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "Branch:未", "Mansion:柳", "000:95", "text", {"category": "天文"}),
    ("SYMBOLIZES", "Branch:申", "Mansion:參", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "Branch:巳", "Weather:風", "000:95", None, {"category": "天文", "with": "白虎"}),
    ("SYMBOLIZES", "General:螣蛇", "Weather:虹霓", "000:95", None, {"category": "天文", "with": "巳"}),
    ("SYMBOLIZES", "General:青龍", "Weather:雲", "000:95", None, {"category": "天文", "with": "寅"}),
    ("SYMBOLIZES", "Stem:癸", "Weather:雨澤", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "General:玄武", "Weather:雨澤", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "General:玄武", "Weather:雨澤", "000:95", "typo", {"category": "天文"}),
    ("SYMBOLIZES", "General:太陰", "Weather:雪雹", "000:95", None, {"category": "天文"}),
    ("SYMBOLIZES", "Branch:酉", "Weather:雪雹", "000:95", None, {"category": "天文"}),
    # S17 地理
    ("SYMBOLIZES", "Branch:申", "Place:地", "000:99", None, {"category": "地理"}),
    ("SYMBOLIZES", "Branch:未", "Place:田畝", "000:99", None, {"category": "地理"}),
    ("HAS_DIRECTION", "Branch:巳", "Direction:東南", "000:99", None, {"category": "地理"}),
    ("HAS_DIRECTION", "Branch:亥", "Direction:西北", "000:99", None, {"category": "地理"}),
    ("SYMBOLIZES", "Branch:卯", "Mansion:柳", "000:99", "text", {"category": "地理", "scope": "所照處"}),
    ("SYMBOLIZES", "Branch:戌", "Mansion:婁", "000:99", None, {"category": "地理", "scope": "所照處"}),
    ("SYMBOLIZES", "Branch:寅", "Place:橋樑", "000:99", None, {"category": "地理"}),
    ("SYMBOLIZES", "Branch:亥", "Place:港澗", "000:99", None, {"category": "地理"}),
    # S18 / S19 宮室
    ("SYMBOLIZES", "Branch:子", "Building:內堂", "000:103", None, {"category": "宮室"}),
    ("SYMBOLIZES", "Branch:戌", "Building:牢獄", "000:103", None, {"category": "宮室"}),
    ("SYMBOLIZES", "Branch:午", "Building:命館", "000:103", None, {"category": "宮室"}),
    ("SYMBOLIZES", "General:青龍", "Building:喜慶宅", "000:107", None, {"category": "宮室"}),
    ("SYMBOLIZES", "General:玄武", "Building:耗費宅", "000:107", None, {"category": "宮室"}),
    # S20 / S21 人物
    ("SYMBOLIZES", "Branch:卯", "Person:船戶", "000:111", None, {"category": "人物"}),
    ("SYMBOLIZES", "Branch:申", "Person:驛卒", "000:111", None, {"category": "人物"}),
    ("SYMBOLIZES", "General:天空", "Person:尼姑", "000:115", None, {"category": "人物"}),
    ("SYMBOLIZES", "General:太常", "Person:業食", "000:115", None, {"category": "人物"}),
    ("SYMBOLIZES", "Kin:財", "Person:妾", "000:115", None, {"category": "人物", "scope": "六親"}),
    ("SYMBOLIZES", "Kin:劫", "Person:姊妹", "000:115", None, {"category": "人物", "scope": "六親"}),
    ("SYMBOLIZES", "Kin:盜", "Person:男女", "000:115", None, {"category": "人物", "scope": "六親"}),
    # S22 / S23 姓氏
    ("SYMBOLIZES", "Branch:子", "Surname:任", "000:119", None, {"category": "姓氏"}),
    ("SYMBOLIZES", "Branch:寅", "Surname:燕", "000:119", None, {"category": "姓氏"}),
    ("SYMBOLIZES", "Branch:丑", "Surname:巳字", "000:119", None, {"category": "姓氏", "scope": "上下傍"}),
    ("SYMBOLIZES", "Branch:卯", "Surname:草頭", "000:119", None, {"category": "姓氏", "scope": "上下傍"}),
    ("SYMBOLIZES", "Branch:午", "Surname:馬字", "000:123", None, {"category": "姓氏", "scope": "上下傍"}),
    ("SYMBOLIZES", "Branch:申", "Surname:走之", "000:123", None, {"category": "姓氏", "scope": "上下傍"}),
    ("SYMBOLIZES", "Branch:戌", "Surname:魯", "000:123", None, {"category": "姓氏"}),
    ("SYMBOLIZES", "General:勾陳", "Surname:干戈姓", "000:127", None, {"category": "姓氏"}),
    ("SYMBOLIZES", "General:太常", "Surname:衣食姓", "000:127", None, {"category": "姓氏"}),
    ("SYMBOLIZES", "General:太常", "Surname:及食姓", "000:127", "typo", {"category": "姓氏"}),
    # S24 臟腑
    ("SYMBOLIZES", "Branch:子", "Organ:膀胱", "000:131", None, {"category": "臟腑"}),
    ("SYMBOLIZES", "Branch:巳", "Organ:三焦", "000:131", None, {"category": "臟腑"}),
    ("SYMBOLIZES", "Branch:亥", "Organ:陰", "000:131", None, {"category": "臟腑"}),
    ("SYMBOLIZES", "Branch:戌", "Organ:脾", "000:131", None, {"category": "臟腑"}),
    # S25 / S26 飲食
    ("SYMBOLIZES", "Branch:午", "Food:蒸燒炒炙", "000:135", None, {"category": "飲食"}),
    ("SYMBOLIZES", "Branch:子", "Food:水中所出", "000:135", None, {"category": "飲食"}),
    ("SYMBOLIZES", "Branch:丑", "Food:黃色物", "000:135", None, {"category": "飲食"}),
    ("SYMBOLIZES", "General:太常", "Food:酒穀食", "000:139", None, {"category": "飲食"}),
    ("SYMBOLIZES", "General:天空", "Food:不實食", "000:139", None, {"category": "飲食"}),
    # S27 / S28 器用
    ("SYMBOLIZES", "Branch:卯", "Thing:舟車", "000:143", None, {"category": "器用"}),
    ("SYMBOLIZES", "Branch:戌", "Thing:印綬", "000:143", None, {"category": "器用"}),
    ("SYMBOLIZES", "Branch:酉", "Thing:金器", "000:143", None, {"category": "器用"}),
    ("SYMBOLIZES", "Branch:未", "Thing:土器", "000:143", None, {"category": "器用"}),
    ("SYMBOLIZES", "General:勾陳", "Thing:吊掛物", "000:147", None, {"category": "器用"}),
    ("SYMBOLIZES", "General:玄武", "Thing:戲弄物", "000:147", None, {"category": "器用"}),
    # S29 數目
    ("HAS_NUMBER", "Branch:亥", "Number:一", "000:151", None, {"category": "數目", "system": "五行"}),
    ("HAS_NUMBER", "Branch:未", "Number:五", "000:151", None, {"category": "數目", "system": "五行"}),
    ("HAS_NUMBER", "Branch:子", "Number:九", "000:151", None, {"category": "數目", "system": "先天"}),
    ("HAS_NUMBER", "Branch:亥", "Number:四", "000:151", None, {"category": "數目", "system": "先天"}),
    ("MODIFIES", "Vigour:相", "Concept:多", "000:151", None, {"category": "數目"}),
    ("MODIFIES", "Vigour:囚", "Concept:少", "000:151", None, {"category": "數目"}),
    # S30 顏色
    ("HAS_COLOUR", "Branch:寅", "Colour:青", "000:155", None, {"category": "顏色"}),
    ("HAS_COLOUR", "Branch:戌", "Colour:黃", "000:155", None, {"category": "顏色"}),
    ("MODIFIES", "Vigour:旺", "Concept:鮮明", "000:155", None, {"category": "顏色"}),
    ("MODIFIES", "Vigour:休", "Concept:淡舊", "000:155", None, {"category": "顏色"}),
    # S31 / S32 飛潛動植
    ("SYMBOLIZES", "Branch:寅", "Creature:虎", "000:159", None, {"category": "飛潛動植", "rank": "primary"}),
    ("SYMBOLIZES", "Branch:寅", "Creature:龍", "000:159", "typo", {"category": "飛潛動植"}),
    ("SYMBOLIZES", "Branch:辰", "Creature:龍", "000:159", None, {"category": "飛潛動植", "rank": "primary"}),
    ("SYMBOLIZES", "Branch:辰", "Creature:鱉", "000:159", None, {"category": "飛潛動植", "rank": "secondary"}),
    ("SYMBOLIZES", "Branch:亥", "Creature:貐", "000:159", None, {"category": "飛潛動植", "rank": "secondary"}),
    ("SYMBOLIZES", "Branch:卯", "Creature:花草", "000:163", None, {"category": "飛潛動植"}),
    ("SYMBOLIZES", "General:朱雀", "Creature:飛鳴物", "000:163", None, {"category": "飛潛動植"}),
    ("SYMBOLIZES", "General:天后", "Creature:閨藏物", "000:163", None, {"category": "飛潛動植"}),
]


def test_enough_spot_checks():
    assert len(CASES) >= 60
    sections = {c[3] for c in CASES}
    assert len(sections) == 19  # every Chinese paragraph of lines 91–163


@pytest.mark.parametrize("rel,subj,obj,src,variant,quals", CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[4] or 'reg'}" for c in CASES])
def test_fact_present(facts, rel, subj, obj, src, variant, quals):
    assert find(facts, rel, subj, obj, src, variant, **quals), (rel, subj, obj, src, variant, quals)


def test_absent_readings(facts):
    # the regular readings do not keep the text's slips
    assert not find(facts, "SYMBOLIZES", "Branch:寅", "Creature:龍", "000:159")
    assert not find(facts, "SYMBOLIZES", "Branch:未", "Mansion:柳", "000:95")
    assert not find(facts, "SYMBOLIZES", "General:太常", "Surname:及食姓", "000:127")
    # 天空 has no entry in the 宮室 and 姓氏 tables by general
    assert not [f for f in facts if f["subject"]["name"] == "天空" and f["qualifiers"].get("category") in ("宮室", "姓氏")]


def _expected() -> dict[str, int]:
    path = ROOT / "ontology" / "coverage" / "expected_lx000.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        return {r["section"]: int(r["expected"]) for r in csv.DictReader(fh)}


def test_item_counts_per_section(facts):
    items = defaultdict(set)
    for f in facts:
        if f["item"]:
            items[f["item"].rsplit(".", 1)[0]].add(f["item"])
    counts = {k: len(v) for k, v in items.items()}
    assert counts == _expected()
    assert counts["000-S16"] == 73 and counts["000-S22"] == 126 and counts["000-S27"] == 46


def test_expected_totals():
    exp = _expected()
    assert len(exp) == 18 and sum(exp.values()) == 602  # the 11-門 catalogue is not counted


def test_variant_rows_have_notes(facts):
    flagged = [f for f in facts if f["variant"]]
    assert flagged and all(f["note"] for f in flagged)
    assert {f["variant"] for f in flagged} == {"typo", "text"}


def test_group_expansion(facts):
    earth = {f["subject"]["name"] for f in facts if f["object"]["name"] == "土器" and f["relation"] == "SYMBOLIZES"}
    assert earth == {"辰", "丑", "未"}  # the text leaves 戌 out of the earth group
    water = {f["subject"]["name"] for f in facts if f["relation"] == "HAS_NUMBER" and f["object"]["name"] == "一"}
    assert water == {"亥", "子"}
    xiantian_five = {f["subject"]["name"] for f in facts if f["relation"] == "HAS_NUMBER"
                     and f["object"]["name"] == "五" and f["qualifiers"].get("system") == "先天"}
    assert xiantian_five == {"辰", "戌"}


def test_surname_components(facts):
    comps = [f for f in facts if f["qualifiers"].get("scope") == "上下傍" and f["item"]]
    assert len(comps) == 78
    tian = {f["subject"]["name"] for f in comps if f["object"]["name"] == "田字"}
    assert tian == {"丑", "辰", "未", "戌"}


def test_weather_pairs_are_rules_of_the_plate():
    """X與G屬W (000:95): the branch carries the general — one condition on both rows (#8)."""
    from leishen.loaders.build import build_graph
    from leishen.loaders.rule_coverage import rule_coverage
    data = build_graph()
    rows = {f.row: f for f in data.facts if f.file == "facts/000/leixiang_tianwen.csv"}
    both = "some(位, all(eq(上, Branch.巳), eq(將, General.白虎)))"
    assert rows[55].when == rows[56].when == both and rows[55].polarity == "平"
    assert "among(將, General.白虎, General.太陰)" in rows[76].when
    assert not any(k == "condition" for f in rows.values() for k, _ in f.qualifiers)
    doc = rule_coverage(data.facts)["documents"]["000"]
    assert doc["prose"] == [] and doc["unstructured"] == [] and doc["structured"] >= 0.95 * doc["rules"]
