"""Coverage of the inventory cannot drop silently: every gap must be listed with a reason."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.loaders.build import read_registry
from leishen.loaders.coverage import coverage_report

INVENTORY_TOTALS = {"000": 1080, "002": 859, "003": 516, "004": 659}


@pytest.fixture(scope="module")
def report(corpus_dir):
    result = CliRunner().invoke(main, ["coverage", "--json", "--corpus", str(corpus_dir)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_document_expectations_are_the_inventory_totals(report):
    assert {d: v["expected"] for d, v in report["documents"].items()} == INVENTORY_TOTALS
    assert report["total"]["expected"] == 3114


def test_no_citation_fails(report):
    assert report["citations"]["failed"] == 0 and report["citations"]["checked"] > 0


def test_every_gap_is_listed_with_a_reason(report):
    unlisted = {s["section"]: s["unlisted"] for s in report["sections"] if s["unlisted"]}
    assert unlisted == {}
    assert all(m["reason"].strip() for s in report["sections"] for m in s["missing"])


def test_every_item_belongs_to_a_known_section(report):
    assert report["sections_without_expectation"] == []


def test_no_section_holds_more_items_than_the_inventory_counts(report):
    assert [s["section"] for s in report["sections"] if s["present"] > s["expected"]] == []


def test_total_coverage_at_least_98_percent(report):
    assert report["total"]["present"] >= 0.98 * 3114


def test_coverage_report_counts_distinct_items():
    _, facts = read_registry()
    rep = coverage_report(facts)
    by_section = {s["section"]: s["present"] for s in rep["sections"]}
    assert by_section["000-S08"] == 46 and by_section["000-S07"] == 132
