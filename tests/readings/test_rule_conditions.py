"""The loader refuses a malformed condition, naming file, row and column; nothing is built."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.loaders.schema import ontology_dir

HEADER = "item,relation,subject,object,qualifiers,src,terms,variant,note,when,polarity,judgment\n"
ROW = ",SIGNIFIES,Pattern:斫輪,Concept:受印乘軒,,000:3,,,,{when},{polarity},\n"


@pytest.fixture()
def ontology_copy(tmp_path):
    copy = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _build(folder, when: str, polarity: str = "吉", corpus_dir=None):
    (folder / "facts" / "000" / "zz_rules.csv").write_text(HEADER + ROW.format(when=when, polarity=polarity),
                                                          encoding="utf-8")
    env = {"LEISHEN_ONTOLOGY": str(folder)}
    if corpus_dir:
        env["LEISHEN_CORPUS"] = str(corpus_dir)
    return CliRunner().invoke(main, ["build"], env=env)


@pytest.mark.parametrize("when,message", [
    ('"eqq(初傳, Branch.卯)"', "column when (at 0): unknown predicate 'eqq'"),
    ('"eq(初傳, Branch.貓)"', "column when (at 7): unknown symbol Branch.貓"),
    ('"eq(頭傳, Branch.卯)"', "column when (at 3): unknown slot '頭傳'"),
    ('"eq(初傳, Branch.卯, Branch.戌)"', "column when (at 0): eq takes 2 argument(s), got 3"),
    ('"eq(初傳, Branch.卯"', "column when (at 2): not an expression"),
    ('"all(eq(初傳, Branch.卯), eq(局, 2))"', "column when (at 25): mixes slots of different systems"),
    ('"some(盤, eq(地, Branch.卯))"', "column when (at 5): some: '盤' is not a scope"),
    ('"some(位, eq(門, Gate.休門))"', "column when (at 11): unknown slot '門'; local slots here: 地, 上, 將"),
    ('"eq(初傳.宮, Palace.坎一)"', "column when (at 3): 初傳.宮: .宮 applies to a Stem slot, not Branch"),
    ('"eq(初傳.頭, Branch.卯)"', "column when (at 3): unknown slot suffix .頭"),
    ('"rel(初傳, CLASH, 日支)"', "column when (at 8): unknown relation type 'CLASH'"),
    ('"pattern(Branch.卯)"', "column when (at 8): Branch.卯: expected a Pattern"),
    ('"eq(初傳, 2)"', "column when (at 7): eq: 初傳 is a Branch slot; a number compares only with a number slot (局)"),
    ('"all(eq(初傳, Branch.卯), eq(日納, Element.火))"', "column when (at 25): mixes slots of different systems"),
    ('"eq(日納.宮, Palace.坎一)"', "column when (at 3): 日納.宮: .宮 applies to a Stem slot, not Element"),
    ('"topic(Topic.買賣)"', "column when (at 6): unknown symbol Topic.買賣"),
])
def test_malformed_conditions_name_file_row_and_column(ontology_copy, when, message):
    result = _build(ontology_copy, when)
    assert result.exit_code == 2, result.output
    assert f"facts/000/zz_rules.csv row 2, {message}" in result.output
    assert "Traceback" not in result.output


def test_a_condition_needs_a_known_polarity(ontology_copy):
    result = _build(ontology_copy, '"eq(初傳, Branch.卯)"', polarity="好")
    assert result.exit_code == 2
    assert "facts/000/zz_rules.csv row 2, column polarity: '好' is not one of 吉 凶 平 混" in result.output


def test_a_wellformed_condition_builds(ontology_copy, corpus_dir):
    result = _build(ontology_copy, '"all(eq(初傳, Branch.卯), eq(中傳, Branch.戌), eq(末傳, Branch.巳))"',
                    corpus_dir=corpus_dir)
    assert result.exit_code == 0, result.output


def test_check_refuses_a_malformed_condition_too(ontology_copy, corpus_dir):
    (ontology_copy / "facts" / "000" / "zz_rules.csv").write_text(
        HEADER + ROW.format(when='"eqq(初傳, Branch.卯)"', polarity="吉"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check"], env={"LEISHEN_ONTOLOGY": str(ontology_copy),
                                                      "LEISHEN_CORPUS": str(corpus_dir)})
    assert result.exit_code == 2 and "facts/000/zz_rules.csv row 2, column when (at 0): unknown predicate" in result.output
