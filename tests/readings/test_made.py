"""The findings store (readings/findings.py ``Made``) and the pieces it shares (readings/walks.py): a
finding handed out again, from either generation of the store, is the one a reading makes afresh; the
pieces findings share are not changed by later readings; the store and the pieces stay bounded."""

from __future__ import annotations

import copy
import random
from datetime import datetime, timedelta, timezone

import pytest

import leishen
from leishen.readings import reader
from leishen.readings.findings import Made

TOPICS = (None, "*", "求財")
MADE = {"rules", "patterns"}


def _charts(n: int, seed: int) -> list[dict]:
    """Charts of *n* random hours of 1950–2049 (UTC+8)."""
    rng, start = random.Random(seed), datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    return [leishen.chart(start + timedelta(hours=rng.randrange(100 * 8766))) for _ in range(n)]


def _made(reading: dict) -> list[dict]:
    return [f for f in reading["findings"] if f["query"] in MADE]


@pytest.fixture()
def swap():
    """The shared reader, a function that gives it another Made, and its own Made (put back after)."""
    r = reader()
    own = r.made

    def use(made: Made) -> None:
        r.made = made

    yield r, use, own
    r.made = own


def test_kept_findings_are_the_ones_made_afresh(swap):
    """Readings by a store that turns its generations every reading (and empties its pieces), and by
    the reader's own warm store, equal readings by a store that keeps nothing yet; each chart is read
    again later, so those findings come from the store (patterns' walks included)."""
    r, use, own = swap
    charts = _charts(24, seed=5)
    tiny = Made(r, limit=0)
    tiny.pieces.limit = 0
    for chart in charts + charts[::2]:
        for topic in TOPICS:
            use(Made(r))
            fresh = _made(r.read(chart, topic=topic))
            for made in (tiny, own):
                use(made)
                assert _made(r.read(chart, topic=topic)) == fresh
    # bounded: a generation holds at most one reading past the limit, the pieces likewise
    assert len(tiny.store) + len(tiny._older) <= 2 * 1_000 and len(tiny.pieces.walks) <= 1_000


def test_pieces_are_not_changed_by_later_readings():
    """A reading's findings (paths, evidence, bindings, meanings: pieces other findings share) are the
    same after a hundred further readings as when they were made."""
    r = reader()
    charts = _charts(101, seed=8)
    first = r.read(charts[0], topic="*")
    before = copy.deepcopy(_made(first))
    assert before, "the chart has findings of rules or patterns"
    for chart in charts[1:]:
        r.read(chart, topic="*")
    assert _made(first) == before
