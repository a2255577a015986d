"""A chart's reading is one small object (issue #37): :class:`leishen.readings.reading.Reading` holds at most twelve
public attributes, one memo among them, and nothing else can be set on it; the evaluators' conditions read it."""

from __future__ import annotations

import pytest

import leishen
from leishen.readings.reading import Reading
from leishen.service.book import reader

MOST = 12


def _public(names) -> list[str]:
    return [n for n in names if not n.startswith("_")]


def test_a_reading_has_at_most_twelve_public_attributes():
    r = reader()
    reading = Reading(r, leishen.chart("2026-12-01T10:00+09:00"), r.topic_id("射覆"))
    attributes = _public(Reading.__slots__)
    assert len(attributes) <= MOST, attributes
    assert not hasattr(reading, "__dict__")  # (slots alone: no attribute can be added)
    assert _public(dir(reading)) == sorted(attributes)  # (no public method either: its look-ups are functions)
    assert reading.memo == {} and reading.scope.facts and reading.bindings.systems == ("liuren", "qimen", "ninestar")
    with pytest.raises(AttributeError):
        reading.kept = {}  # (what lasts between readings is the reader's)


def test_a_reading_holds_what_its_chart_was_read_with():
    """The door's reading and the Reading's parts agree: the patterns the evaluator found are the reading's, and
    its one memo holds what it looked up more than once."""
    r = reader()
    chart = leishen.chart("2026-12-01T10:00+09:00")
    reading = Reading(r, chart, None)
    findings, _, _ = r.evaluator_now().run(reading)
    assert [f["id"] for f in findings] == [f["id"] for f in r.read(chart, lore=False)["findings"]]
    patterns = {f["rule"]["name"] for f in findings if f["query"] == "patterns"}
    assert patterns and {r.props[p]["name"] for _, p in reading.patterns} == patterns
    assert reading.answers is not None and reading.undecided == frozenset()
