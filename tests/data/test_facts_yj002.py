"""Spot checks of doc 002 卷1 (十二月將, sections 002-S02 … 002-S13) as loaded from
ontology/facts/002/yuejiang_*.csv — helper yj002.  Conventions: docs/conventions-yj002.md."""

from __future__ import annotations

import collections
import csv
from pathlib import Path

import pytest

from factmatch import find

from leishen.loaders.build import load_facts

SECTIONS = tuple(f"002-S{n:02d}." for n in range(2, 14))
EXPECTED = Path(__file__).resolve().parents[2] / "ontology" / "coverage" / "expected_yj002.csv"


@pytest.fixture(scope="module")
def facts() -> list[dict]:
    return [f for f in load_facts(doc="002") if (f["item"] or "").startswith(SECTIONS)]


# (relation, subject, object, src, item, variant, qualifiers)
SPOT = [
    # headers
    ("HAS_NUMBER", "Branch:子", "Number:九", "002:23", "002-S02.h2", None, {}),
    ("HAS_TASTE", "Branch:子", "Taste:咸", "002:23", "002-S02.h3", None, {}),
    ("HAS_MANSION", "Branch:子", "Mansion:危", "002:23", "002-S02.h6", None, {}),
    ("ALIAS_OF", "Branch:丑", "Branch:丑", "002:31", "002-S03.h1", None, {}),
    ("HAS_NUMBER", "Branch:寅", "Number:七", "002:39", "002-S04.h2", None, {}),
    ("HAS_MANSION", "Branch:卯", "Mansion:氐", "002:43", None, None, {}),
    ("HAS_TASTE", "Branch:辰", "Taste:甘", "002:47", "002-S06.h3", None, {}),
    ("HAS_MANSION", "Branch:巳", "Mansion:軫", "002:51", "002-S07.h5", None, {}),
    ("HAS_MANSION", "Branch:午", "Mansion:張", "002:59", "002-S08.h6", None, {}),
    ("HAS_MANSION", "Branch:未", "Mansion:鬼", "002:63", "002-S09.h5", None, {}),
    ("HAS_TASTE", "Branch:申", "Taste:辛", "002:67", "002-S10.h3", None, {}),
    ("HAS_NUMBER", "Branch:酉", "Number:六", "002:71", "002-S11.h2", None, {}),
    ("HAS_MANSION", "Branch:戌", "Mansion:婁", "002:79", "002-S12.h5", None, {}),
    ("HAS_NUMBER", "Branch:亥", "Number:四", "002:87", "002-S13.h2", None, {}),
    # 子
    ("PLACEMENT_MEANS", "Branch:子", "Person:小女", "002:23", "002-S02.子-01", None,
     {"position": "日干", "rides": "General:天后", "category": "person"}),
    ("PLACEMENT_MEANS", "Branch:子", "Person:老婦", "002:23", "002-S02.子-02", None, {"on": "Branch:未"}),
    ("PLACEMENT_MEANS", "Branch:子", "Person:老婦", "002:23", "002-S02.子-02", None, {"on": "Branch:戌"}),
    ("PLACEMENT_MEANS", "Branch:子", "Person:公姑", "002:23", "002-S02.子-04", None,
     {"position": "日辰", "day": "甲子|丙子|戊子|庚子|壬子"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Person:孩童", "002:23", "002-S02.子-08", None, {"on": "Branch:子"}),
    ("PLACEMENT_MEANS", "Branch:子", "Person:嫁婦", "002:23", "002-S02.子-10", None, {"position": "日干", "day": "巳", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:子", "Concept:水沉", "002:23", "002-S02.子-11b", None, {"on": "Branch:辰", "category": "event"}),
    ("PLACEMENT_MEANS", "Branch:子", "Food:糖", "002:27", "002-S02.子-17", None, {"on": "Branch:亥", "rides": "General:玄武"}),
    ("PLACEMENT_MEANS", "Branch:子", "Creature:燕子", "002:27", "002-S02.子-18", None, {"shensha": "Shensha:生氣"}),
    ("PLACEMENT_MEANS", "Branch:未", "Concept:鬼神", "002:27", "002-S02.子-22", None, {"on": "Branch:子", "category": "spirit"}),
    ("PLACEMENT_MEANS", "Branch:子", "Weather:雪", "002:27", "002-S02.子-23", None, {"on": "Branch:午"}),
    ("PLACEMENT_MEANS", "Branch:子", "Weather:大雨", "002:27", "002-S02.子-27", None, {"rides": "General:玄武", "day": "子"}),
    ("PLACEMENT_MEANS", "Branch:子", "Weather:大雨", "002:27", "002-S02.子-27", "原本作", {"rides": "General:青龍"}),
    # 丑
    ("PLACEMENT_MEANS", "Branch:丑", "Person:宰執人", "002:31", "002-S03.丑-05", None, {"position": "太歲"}),
    ("PLACEMENT_MEANS", "Branch:寅", "Place:橋", "002:31", "002-S03.丑-07", None, {"on": "Branch:丑"}),
    ("PLACEMENT_MEANS", "Branch:丑", "Place:墓", "002:31", "002-S03.丑-08", None, {"day": "庚|辛", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:丑", "Creature:牛", "002:31", "002-S03.丑-12", None, {"day": "丑", "flag": "odd"}),
    ("PLACEMENT_MEANS", "Branch:丑", "Building:家", "002:35", "002-S03.丑-16", None, {"rides": "General:六合"}),
    ("PLACEMENT_MEANS", "Branch:丑", "Thing:枷", "002:35", "002-S03.丑-16", "金氏旁註", {"rides": "General:六合"}),
    ("PLACEMENT_MEANS", "Branch:丑", "Illness:腸洩", "002:35", "002-S03.丑-20", None, {"on": "Branch:亥", "category": "illness"}),
    ("PLACEMENT_MEANS", "General:六合", "Building:僧道院室", "002:35", "002-S03.丑-22", None, {"on": "Branch:丑", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:丑", "Weather:雨雷", "002:35", "002-S03.丑-25a", None, {"on": "Branch:卯", "season": "Season:夏"}),
    ("PLACEMENT_MEANS", "Branch:卯", "Weather:先雷後雨", "002:35", "002-S03.丑-26", None, {"on": "Branch:丑"}),
    # 寅
    ("PLACEMENT_MEANS", "Branch:寅", "Person:秀才", "002:39", "002-S04.寅-01", None, {"rides": "General:青龍"}),
    ("PLACEMENT_MEANS", "Branch:寅", "Person:公吏", "002:39", "002-S04.寅-04", None, {"rides": "General:勾陳"}),
    ("PLACEMENT_MEANS", "Branch:寅", "Thing:棒杖", "002:39", "002-S04.寅-10", None, {"rides": "General:天空"}),
    ("PLACEMENT_MEANS", "Branch:寅", "Concept:遠行", "002:39", "002-S04.寅-15", None, {"day": "申|子|辰"}),
    # 卯
    ("PLACEMENT_MEANS", "Branch:卯", "Person:朋友", "002:43", "002-S05.卯-01b", None, {"position": "日干", "day": "甲|乙"}),
    ("PLACEMENT_MEANS", "Branch:卯", "Person:梢子", "002:43", "002-S05.卯-06", "金氏旁註", {"on": "Branch:亥"}),
    ("PLACEMENT_MEANS", "Branch:卯", "Thing:竹籬", "002:43", "002-S05.卯-07", None, {"day": "丑|未", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:卯", "Person:目患人", "002:43", "002-S05.卯-08", None, {"category": "person"}),
    ("PLACEMENT_MEANS", "Branch:卯", "Illness:疫病", "002:43", "002-S05.卯-13", None,
     {"rides": "General:天后", "on": "Branch:子", "season": "Season:春"}),
    ("PLACEMENT_MEANS", "Branch:卯", "Concept:私約", "002:43", "002-S05.卯-14", None, {"position": "日辰", "rides": "General:天后", "flag": "ambiguous"}),
    # 辰
    ("PLACEMENT_MEANS", "Branch:辰", "Person:宰公監司", "002:47", "002-S06.辰-01", None, {"position": "月建"}),
    ("PLACEMENT_MEANS", "Branch:辰", "Concept:殺人", "002:47", "002-S06.辰-03", None, {"slot": "初傳"}),
    ("PLACEMENT_MEANS", "Branch:辰", "Concept:多慮", "002:47", "002-S06.辰-10", None, {"slot": "末傳"}),
    ("PLACEMENT_MEANS", "Branch:辰", "BodyPart:手有龍文", "002:47", "002-S06.辰-13b", "金氏旁註", {"on": "Branch:卯"}),
    ("PLACEMENT_MEANS", "Branch:辰", "BodyPart:怪足", "002:47", "002-S06.辰-14", None, {"on": "Branch:戌", "flag": "ambiguous"}),
    # 巳
    ("PLACEMENT_MEANS", "Branch:巳", "Person:娼婦", "002:51", "002-S07.巳-01", None, {"on": "Branch:子", "rides": "General:太陰"}),
    ("PLACEMENT_MEANS", "Branch:巳", "Creature:蛇", "002:55", "002-S07.巳-03", None, {"vigour": "Vigour:旺"}),
    ("PLACEMENT_MEANS", "Branch:巳", "Thing:金", "002:55", "002-S07.巳-07b", None, {"day": "甲申", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Shensha:月厭", "Concept:夢蛇", "002:55", "002-S07.巳-11", None, {"on": "Branch:巳"}),
    ("PLACEMENT_MEANS", "Branch:巳", "Place:灶傍有井", "002:55", "002-S07.巳-12", None, {"on": "Branch:未"}),
    # 午
    ("PLACEMENT_MEANS", "Branch:午", "Person:妾", "002:59", "002-S08.午-01", None, {}),
    ("PLACEMENT_MEANS", "Branch:午", "Building:屋", "002:59", "002-S08.午-04", None, {"position": "行年"}),
    ("PLACEMENT_MEANS", "Branch:午", "Person:笄妻", "002:59", "002-S08.午-05", None, {"position": "日干", "day": "庚|辛"}),
    ("PLACEMENT_MEANS", "Branch:午", "Thing:衣服", "002:59", "002-S08.午-07", None, {"rides": "General:太常", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:午", "Illness:癆病", "002:59", "002-S08.午-10", None, {"flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:午", "Illness:股病", "002:59", "002-S08.午-12", None, {"on": "Branch:酉", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:午", "Concept:信至", "002:59", "002-S08.午-13", None, {"on": "Branch:戌"}),
    ("PLACEMENT_MEANS", "Branch:午", "Concept:燒衣", "002:59", "002-S08.午-14", None,
     {"rides": "General:朱雀", "day": "丙|丁"}),
    # 未
    ("SIGNIFIES", "Concept:陽比", "Person:兄", "002:63", "002-S09.未-03a", None, {}),
    ("PLACEMENT_MEANS", "Branch:未", "Thing:招椅", "002:63", "002-S09.未-05b", None, {"on": "Branch:寅"}),
    ("PLACEMENT_MEANS", "Branch:巳", "Weather:風生", "002:63", "002-S09.未-10", None, {"on": "Branch:未"}),
    ("PLACEMENT_MEANS", "Branch:未", "Concept:信", "002:63", "002-S09.未-14", None, {"shensha": "Shensha:生氣", "position": "日辰"}),
    ("PLACEMENT_MEANS", "Branch:未", "Building:廟墓", "002:63", "002-S09.未-20", None, {"modifies": "002-S09.未-19"}),
    ("PLACEMENT_MEANS", "Branch:未", "Person:酌人", "002:63", "002-S09.未-04", None, {"day": "丙|丁"}),
    # 申
    ("PLACEMENT_MEANS", "Branch:申", "Thing:刀斧", "002:67", "002-S10.申-02b", None, {"day": "癸", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:申", "Person:客人", "002:67", "002-S10.申-03", None, {"on": "Branch:卯"}),
    ("PLACEMENT_MEANS", "Branch:申", "Person:軍人", "002:67", "002-S10.申-06", None, {"on": "Branch:辰"}),
    ("PLACEMENT_MEANS", "Branch:申", "Thing:刀斧", "002:67", "002-S10.申-09", None, {"rides": "General:白虎"}),
    ("PLACEMENT_MEANS", "Branch:申", "Direction:東北", "002:67", "002-S10.申-14", None,
     {"rides": "General:太陰", "position": "日辰", "category": "direction"}),
    # 酉
    ("PLACEMENT_MEANS", "Branch:酉", "Thing:財帛", "002:71", "002-S11.酉-06b", None, {"rides": "General:太陰"}),
    ("PLACEMENT_MEANS", "Branch:酉", "Place:江", "002:71", "002-S11.酉-09", None, {"on": "Branch:子"}),
    ("PLACEMENT_MEANS", "Branch:酉", "Illness:刀傷", "002:75", "002-S11.酉-14", None, {"position": "行年"}),
    ("PLACEMENT_MEANS", "Branch:酉", "Weather:霜雪", "002:75", "002-S11.酉-21", None, {"position": "日辰", "day": "壬|癸"}),
    ("PLACEMENT_MEANS", "Branch:午", "Weather:雪", "002:75", "002-S11.酉-23", None, {"on": "Branch:酉"}),
    # 戌
    ("PLACEMENT_MEANS", "Branch:戌", "Person:健奴", "002:79", "002-S12.戌-01", "金氏旁註", {"rides": "General:天空"}),
    ("PLACEMENT_MEANS", "Branch:戌", "Person:奴僕", "002:79", "002-S12.戌-01", "金氏旁註", {"rides": "General:玄武"}),
    ("PLACEMENT_MEANS", "Branch:戌", "Person:都轄", "002:79", "002-S12.戌-08", None, {"position": "太歲"}),
    ("PLACEMENT_MEANS", "Branch:戌", "Person:官長", "002:79", "002-S12.戌-09", None, {"rides": "General:太常", "flag": "garbled"}),
    ("PLACEMENT_MEANS", "Branch:辰", "Person:官長", "002:79", "002-S12.戌-09", None, {"rides": "General:勾陳", "flag": "garbled"}),
    ("PLACEMENT_MEANS", "General:勾陳", "Person:官長", "002:79", "002-S12.戌-09", "原本作", {"position": "日支"}),
    ("PLACEMENT_MEANS", "Branch:戌", "Concept:牆損", "002:83", "002-S12.戌-10", "金氏旁註", {"on": "Branch:寅", "day": "甲"}),
    ("PLACEMENT_MEANS", "Branch:戌", "Building:牆壁", "002:83", "002-S12.戌-12", None, {"on": "Branch:丑", "position": "日辰"}),
    ("PLACEMENT_MEANS", "Branch:戌", "Illness:足病", "002:83", "002-S12.戌-17", None, {"position": "本命"}),
    # 亥
    ("PLACEMENT_MEANS", "Branch:亥", "Person:幼子", "002:87", "002-S13.亥-01", None, {"on": "Branch:未"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Person:幼子", "002:87", "002-S13.亥-01", "原本作", {"on": "Branch:午"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Person:獄人", "002:87", "002-S13.亥-05", None, {"day": "壬|癸", "flag": "garbled"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Concept:傷殺人", "002:87", "002-S13.亥-08", None, {"slot": "初傳", "day": "寅|午|戌"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Person:僕", "002:87", "002-S13.亥-09b", "一云", {"rides": "General:青龍"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Person:天上吏", "002:91", "002-S13.亥-15b", "一為", {"position": "太歲", "rides": "General:天空"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Concept:行人來", "002:91", "002-S13.亥-17", None, {"topic": "Topic:行人", "position": "日干", "day": "巳"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Illness:病", "002:91", "002-S13.亥-20", None, {"position": "歲刑"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Illness:病", "002:91", "002-S13.亥-20", "原本作", {"position": "行年"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Concept:不明", "002:91", "002-S13.亥-23", None, {"on": "Branch:子", "flag": "ambiguous"}),
    ("PLACEMENT_MEANS", "Branch:亥", "Concept:重疊", "002:91", "002-S13.亥-25", "一云", {"vigour": "Vigour:旺"}),
]


def test_enough_spot_checks():
    assert len(SPOT) >= 60
    assert {s[4].split(".")[0] for s in SPOT if s[4]} >= {f"002-S{n:02d}" for n in range(2, 14)}


@pytest.mark.parametrize("rel,subj,obj,src,item,variant,quals", SPOT,
                         ids=[f"{s[4] or s[1]}->{s[2]}{'/' + s[5] if s[5] else ''}" for s in SPOT])
def test_spot_fact(facts, rel, subj, obj, src, item, variant, quals):
    assert find(facts, rel, subj, obj, src, item=item, variant=variant, **quals), \
        f"missing {rel} {subj} -> {obj} {quals} @{src} item={item} variant={variant}"


def test_item_counts_per_section(facts):
    items = collections.defaultdict(set)
    for f in facts:
        items[f["item"].rsplit(".", 1)[0]].add(f["item"])
    with EXPECTED.open(encoding="utf-8") as fh:
        expected = {r["section"]: int(r["expected"]) for r in csv.DictReader(fh)}
    for section, n in expected.items():
        assert len(items.get(section, ())) == n, section
    assert sum(len(v) for v in items.values()) == 306  # 64 header facts + 242 meanings


def test_header_counts(facts):
    heads = collections.Counter(f["relation"] for f in facts if ".h" in f["item"])
    assert heads == {"ALIAS_OF": 12, "HAS_NUMBER": 12, "HAS_TASTE": 12, "HAS_MANSION": 28}


def test_meanings_have_category_and_known_qualifiers(facts):
    allowed = {"on", "position", "rides", "shensha", "slot", "day", "season", "vigour", "topic",
               "modifies", "category", "flag"}
    for f in facts:
        if ".h" in f["item"]:
            continue
        assert f["relation"] in {"PLACEMENT_MEANS", "SIGNIFIES"}
        assert f["qualifiers"].get("category"), f["item"]
        assert set(f["qualifiers"]) <= allowed, f["item"]
        for key, label in (("on", "Branch"), ("rides", "General"), ("season", "Season"), ("vigour", "Vigour"),
                           ("shensha", "Shensha"), ("topic", "Topic")):
            if key in f["qualifiers"]:
                assert f["qualifiers"][key]["label"] == label, f["item"]


def test_flagged_rules(facts):
    flagged = {f["item"].split(".")[1].rstrip("ab") for f in facts if f["qualifiers"].get("flag")}
    assert flagged == {"子-10", "丑-08", "丑-09", "丑-12", "丑-19", "丑-22", "卯-07", "卯-14", "辰-14",
                       "巳-07", "午-07", "午-10", "午-12", "申-02", "戌-09", "亥-05", "亥-23"}


def test_variant_rows(facts):
    got = collections.Counter((f["item"].split(".")[1], f["variant"]) for f in facts if f["variant"])
    assert got == {("子-27", "原本作"): 1, ("丑-16", "金氏旁註"): 1, ("卯-06", "金氏旁註"): 1,
                   ("辰-13b", "金氏旁註"): 1, ("戌-01", "金氏旁註"): 2, ("戌-09", "原本作"): 1,
                   ("戌-10", "金氏旁註"): 1, ("亥-01", "原本作"): 4, ("亥-09b", "一云"): 1,
                   ("亥-15b", "一為"): 1, ("亥-20", "原本作"): 1, ("亥-25", "一云"): 1}


def test_every_variant_item_also_has_a_regular_reading_or_is_an_alternative_meaning(facts):
    regular = {f["item"] for f in facts if not f["variant"]}
    alternative_meanings = {"002-S13.亥-09b", "002-S13.亥-15b", "002-S13.亥-25"}
    for f in facts:
        if f["variant"] and f["item"] not in alternative_meanings:
            assert f["item"] in regular, f["item"]


# ---------------------------------------------------------------- conditions (issue #8, docs/rules.md)

FACTS = Path(__file__).resolve().parents[2] / "ontology" / "facts" / "002"


def _placements() -> list[dict]:
    rows = []
    for path in sorted(FACTS.glob("yuejiang_*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            rows += [r for r in csv.DictReader(fh) if ".h" not in r["item"]]
    return rows


def test_every_placement_rule_has_a_condition_and_no_prose():
    rows = _placements()
    assert len(rows) == 326
    for r in rows:
        assert r["when"] and r["polarity"] in {"吉", "凶", "平", "混"}, r["item"]
        assert "condition=" not in r["qualifiers"], r["item"]
        label, name = r["subject"].split(":")
        if label == "Branch" and "slot=" not in r["qualifiers"] and "太陽" not in r["note"]:
            assert f"eq(上, Branch.{name})" in r["when"], r["item"]  # the subject's own placement


def test_conditions_follow_the_text():
    when = {(r["item"].split(".")[1], r["subject"], r["object"], r["qualifiers"]): r["when"] for r in _placements()}
    pick = {k[0] + " " + k[2]: v for k, v in when.items()}
    # 卯作六合加日辰為羅網 (002:43): 卯, ridden by 六合, over the day stem or the day branch
    assert pick["卯-05 Thing:羅網"] == \
        "some(位, all(eq(上, Branch.卯), any(over(上, 日干), over(上, 日支)), eq(將, General.六合)))"
    # 雀臨亥為監引 (002:91): the general 朱雀 over ground 亥 (corrected from 亥 carrying 朱雀)
    assert pick["亥-22 Concept:監引"] == "some(位, all(eq(將, General.朱雀), eq(地, Branch.亥)))"
    # 作虎克日血病 (002:27): 子 with 白虎, overcoming the day stem; audit3 lr002 (2026-12-02): 子 overcomes only 丙丁,
    # on which days 白虎 never rides 子, so 白虎's own metal overcoming the day is read too (with judgment)
    assert pick["子-19 Illness:血病"] == \
        "some(位, all(eq(上, Branch.子), eq(將, General.白虎), any(overcomes(上, 日干), overcomes(將, 日干))))"
    # 午作太陽為妾 (002:59): 午 is the month general
    assert pick["午-01 Person:妾"] == "eq(月將, Branch.午)"
    # 亥加歲刑 (002:91): on the branch the year branch punishes (the 原本作 row: on 行年)
    assert sorted(v for k, v in when.items() if k[0] == "亥-20") == [
        "some(位, all(eq(上, Branch.亥), over(上, 行年)))",
        "some(位, all(eq(上, Branch.亥), rel(太歲, PUNISHES, 地)))"]
