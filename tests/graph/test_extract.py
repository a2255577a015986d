"""The texts' regular enumerations, read by pattern, against the hand-written fact tables.

Each extractor must find its expected number of tuples in the real corpus, and ``cross_check``
must report no difference except the documented ones in KNOWN (each with its reason, kept as data
in ``ontology/coverage/extraction_known.csv``).  The
comparison rules themselves are tested on small synthetic passages.
"""

from __future__ import annotations

import copy

import pytest

from leishen.loaders import extract as X
from leishen.loaders.build import load_facts
from leishen.loaders.corpus import load_corpus
from leishen.loaders.coverage import known_extraction_differences

SPEC = {spec.name: spec for spec in X.SPECS}

COUNTS = {
    # 000: shensha tables
    "patterns": 12, "core": 12, "relations": 36, "wuyong": 120, "changsheng": 121,
    "shensha_horse": 28, "shensha_vigour": 72, "shensha_months": 24, "shensha_void": 12,
    "generals": 12, "meanings": 51,
    # 000: 類象
    "mulu": 22, "tianwen": 97, "dili": 66, "gongshi": 59, "renwu": 56, "xingshi": 137,
    "zangfu": 14, "yinshi": 48, "qiyong": 58, "shumu": 28, "yanse": 16, "dongzhi": 64,
    # 002
    "yuejiang": 64, "tianjiang_identity": 52, "tianjiang_governs": 75,
    "tianjiang_placements": 158, "xunzhong": 52, "shefu_tables": 40,
    # 003, 004
    "a_day_star": 10, "k_year_regions": 22, "t_terrain_numbers": 25, "jiazhai": 79, "jibing": 65,
}

# Differences that are real and understood: (spec, kind, tuple) → why (ontology/coverage/extraction_known.csv).
KNOWN = known_extraction_differences()


@pytest.fixture(scope="module")
def corpus(corpus_dir):
    return load_corpus(corpus_dir)


@pytest.fixture(scope="module")
def facts(corpus_dir):
    return load_facts(corpus=corpus_dir)


def test_every_extractor_has_an_expected_count():
    assert len(SPEC) == len(X.SPECS)
    assert set(COUNTS) == set(SPEC)


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_extractor_finds_its_items(corpus, name):
    spec = SPEC[name]
    assert len(spec.extract(X.passage_text(corpus, spec))) == COUNTS[name]


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_table_agrees_with_the_text(corpus, facts, name):
    found = X.differences(corpus, facts, {name})
    assert [str(d) for d in found if (d.spec, d.kind, d.row) not in KNOWN] == []


def test_known_differences_are_still_there(corpus, facts):
    """A known difference that disappeared (the table was fixed) must leave KNOWN."""
    found = {(d.spec, d.kind, d.row) for d in X.differences(corpus, facts)}
    assert set(KNOWN) <= found
    assert len(X.cross_check(corpus, facts)) == len(KNOWN)


def test_raw_readings_of_the_variant_rows_are_extracted(corpus):
    got = X.extract_all(corpus)
    assert ("PUNISHES", "亥", "害") in got["relations"]  # 000:51 亥刑害 (typo row)
    assert {("LIFE_STAGE", "甲", "卯", "帝旺"), ("LIFE_STAGE", "乙", "卯", "帝旺")} <= got["changsheng"]
    assert {("SYMBOLIZES", "未", "柳"), ("SYMBOLIZES", "卯", "氏")} <= got["tianwen"]
    assert ("SYMBOLIZES", "寅", "龍", "primary") in got["dongzhi"]
    assert ("XUN_SHENSHA", "甲寅旬", "酉", "五良心神") in got["xunzhong"]
    assert ("ALLOTTED_TO", "離九", "梁州", "州") in got["k_year_regions"]


def test_a_changed_row_is_reported_both_ways(corpus, facts):
    changed = copy.deepcopy(facts)
    row = next(f for f in changed if f["id"] == "facts/000/changsheng.csv#2")
    row["object"]["name"] = "子"  # 甲 長生 亥 → 子
    found = {(d.spec, d.kind, d.row) for d in X.differences(corpus, changed, {"changsheng"})}
    assert found == {("changsheng", "text-only", ("LIFE_STAGE", "甲", "亥", "長生")),
                     ("changsheng", "table-only", ("LIFE_STAGE", "甲", "子", "長生"))}


def test_a_row_citing_the_wrong_passage_is_reported(corpus, facts):
    changed = copy.deepcopy(facts)
    row = next(f for f in changed if f["id"] == "facts/000/changsheng.csv#2")
    row["src"] = ["000:43"]  # 長生 is listed at 000:35
    found = X.differences(corpus, changed, {"changsheng"})
    assert [(d.kind, d.row) for d in found] == [("wrong-line", ("LIFE_STAGE", "甲", "亥", "長生"))]
    assert "the text gives it at 000:35" in str(found[0])


# --- the comparison rules on synthetic passages -------------------------------------------

def fact(fid, rel, s, o, variant=None, item=None, src="000:51", sl="Branch", ol="Branch", **quals):
    return {"id": fid, "relation": rel, "subject": {"label": sl, "name": s},
            "object": {"label": ol, "name": o}, "src": [src], "variant": variant, "item": item,
            "qualifiers": {k: {"name": v} for k, v in quals.items()}}


def diffs(name, text, rows):
    spec = SPEC[name]
    return {(d.kind, d.row) for d in X.compare(spec, spec.extract(text), rows)}


def test_a_slip_needs_a_variant_row():
    text = "刑 寅刑巳，亥刑害。"
    rows = [fact("r#2", "PUNISHES", "寅", "巳"), fact("r#3", "PUNISHES", "亥", "亥")]
    assert diffs("relations", text, rows + [fact("r#4", "PUNISHES", "亥", "亥", "typo")]) == set()
    assert diffs("relations", text, rows) == {("text-only", ("PUNISHES", "亥", "害"))}


def test_a_text_variant_explains_the_regular_row_it_replaces():
    text = "帝旺 甲乙卯，乙日寅。"
    rows = [fact(f"c#{n}", "LIFE_STAGE", s, b, v, sl="Stem", src="000:39", stage="帝旺")
            for n, s, b, v in ((2, "甲", "卯", None), (3, "乙", "寅", None), (9, "乙", "卯", "text"))]
    assert diffs("changsheng", text, rows) == set()
    assert diffs("changsheng", text, rows[:2]) == {("text-only", ("LIFE_STAGE", "乙", "卯", "帝旺"))}
    # the variant row stands for its nearest one-slot neighbour (乙寅, found), not for any row
    wrong = rows + [fact("c#40", "LIFE_STAGE", "乙", "午", sl="Stem", src="000:39", stage="帝旺")]
    assert diffs("changsheng", text, wrong) == {("table-only", ("LIFE_STAGE", "乙", "午", "帝旺"))}


def test_one_variant_explains_one_regular_row_of_its_item():
    text = "值符：值符，宅艮山向。"
    rows = [fact("j#3", "SYMBOLIZES", "值符", "坐山", None, "4.22.02", "004:87", "Deity", "Concept"),
            fact("j#4", "SYMBOLIZES", "值符", "艮山", "typo", "4.22.02", "004:87", "Deity", "Concept"),
            fact("j#5", "SYMBOLIZES", "值符", "朝向", None, "4.22.03", "004:87", "Deity", "Concept")]
    assert diffs("jiazhai", text, rows) == {("table-only", ("SYMBOLIZES", "值符", "朝向"))}


def test_names_are_compared_through_the_aliases_of_the_entity_tables():
    rows = [fact("a#2", "ALIAS_OF", "一白", "一白", src="003:3", sl="FlyingStar", ol="FlyingStar")]
    assert diffs("a_day_star", "一白太乙號貪狼", rows) == set()
    assert diffs("a_day_star", "一白巨門", rows) == {("text-only", ("ALIAS_OF", "一白", "二黑")),
                                                   ("table-only", ("ALIAS_OF", "一白", "一白"))}
