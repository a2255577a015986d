"""Recalled outcomes (leishen.readings.outcomes): a reader that recalls each rule's outcome under the chart
values its condition reads gives the same readings as one that evaluates every rule each time."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from leishen.engine.chart import build_chart
from leishen.readings.read import Reader
from leishen.service.book import new_reader

SHANGHAI = timezone(timedelta(hours=8))


@pytest.fixture(scope="module")
def readers():
    return new_reader(), new_reader(recall=False)


def _moments(count: int, seed: int) -> list[datetime]:
    """Random moments, and for each a moment sharing much of its chart (the next hour, the same hour 60
    days later: the same day pillar), so outcomes are recalled within the test."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        m = datetime(1950, 1, 1, tzinfo=SHANGHAI) + timedelta(hours=rng.randrange(100 * 365 * 24))
        out += [m, m + timedelta(hours=2), m + timedelta(days=60), m + timedelta(days=360)]
    return out


@pytest.mark.parametrize("topic", ["*", None, "求財"])
def test_recalled_readings_are_the_evaluated_ones(readers, topic):
    recalled, evaluated = readers
    before = recalled.recall.recalled
    for moment in _moments(25, {"*": 1, None: 2}.get(topic, 3)):
        chart = build_chart(moment)
        a, b = recalled.read(chart, topic=topic), evaluated.read(chart, topic=topic)
        a.pop("counts"), b.pop("counts")  # (rules_tried: the index's, or every rule in scope)
        assert a == b, moment
    assert recalled.recall.recalled > before  # outcomes were recalled, not only evaluated


def test_repeated_chart_recalls_every_outcome(readers):
    recalled, _ = readers
    chart = build_chart(datetime(2024, 3, 5, 10, tzinfo=SHANGHAI))
    recalled.read(chart, topic="*")  # (a scope's first reading is evaluated plainly, whichever test reads it first)
    first = recalled.read(chart, topic="*")
    evaluated = recalled.recall.evaluated
    again = recalled.read(chart, topic="*")
    assert recalled.recall.evaluated == evaluated  # nothing evaluated again
    assert again == first  # the counts too: a reading never shows what was recalled


def test_what_a_scope_rule_reads(readers):
    """``some(位, all(eq(將, General.貴人), eq(地, Branch.寅)))`` (002 天將 placements) reads the 位 instances,
    the general and the earth of each, and no other slot of the chart."""
    recalled, _ = readers
    fact = "facts/002/tianjiang_placements.csv#2"
    atoms = set(recalled.book.reads[fact])
    assert {("inst", "位"), ("local", "位", "將", "將", ()), ("local", "位", "地", "地", ())} <= atoms
    assert {a for a in atoms if a[0] == "local"} == {("local", "位", "將", "將", ()), ("local", "位", "地", "地", ())}


def test_over_reads_the_earth_under_its_slot(readers):
    """``over(上, 日干)`` reads where the heaven branch stands (the earth under it), 日干 and its 寄宮."""
    recalled, _ = readers
    fact = next(r.fact for r in recalled.rules if "over(上, 日干)" in recalled.facts[r.fact].when)
    atoms = set(recalled.book.reads[fact])
    assert ("localbelow", "位", "上", "上", ()) in atoms
    assert {("slot", "日干", ()), ("slot", "寄宮", ())} <= atoms
