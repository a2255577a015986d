"""What a reader keeps (readings/cache.py): a finding handed out again (readings/findings.py ``Made``) is the one a
reading makes afresh; the pieces findings share (readings/walks.py) are not changed by later readings; the stores
stay within their budget; one switch keeps nothing."""

from __future__ import annotations

import copy
import random
from datetime import datetime, timedelta, timezone

import pytest

import leishen
from leishen.service.book import reader
from leishen.readings.read import Reader

TOPICS = (None, "*", "求財")
MADE = {"rules", "patterns"}


def _charts(n: int, seed: int) -> list[dict]:
    """Charts of *n* random hours of 1950–2049 (UTC+8)."""
    rng, start = random.Random(seed), datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    return [leishen.chart(start + timedelta(hours=rng.randrange(100 * 8766))) for _ in range(n)]


def _made(reading: dict) -> list[dict]:
    return [f for f in reading["findings"] if f["query"] in MADE]


def test_kept_findings_are_the_ones_made_afresh():
    """Readings by a reader whose budget is 0 (every store emptied before each reading: nothing kept from one
    reading to the next) equal those of the shared reader, whose stores are warm; each chart is read again
    later, so those findings come from the stores (patterns' walks included); the budget holds."""
    r = reader()
    tiny = Reader(r.backend)
    tiny.kept.budget = 0
    charts = _charts(24, seed=5)
    for chart in charts + charts[::2]:
        for topic in TOPICS:
            assert _made(tiny.read(chart, topic=topic)) == _made(r.read(chart, topic=topic))
    # bounded: the stores hold at most one reading past the budget
    assert tiny.kept.size() < 20_000


def test_one_switch_keeps_nothing(monkeypatch):
    """LEISHEN_NO_READING_CACHE=1: nothing lasts from one reading to the next (the Batched evaluator, as on a
    server), and the reading is the same."""
    r = reader()
    chart = _charts(1, seed=9)[0]
    before = r.read(chart, topic="*")
    monkeypatch.setenv("LEISHEN_NO_READING_CACHE", "1")
    fresh = Reader(r.backend)
    assert fresh.live and fresh.evaluator_now() is fresh.evaluators["batched"]
    again = fresh.read(chart, topic="*")
    fresh.kept.start()  # what the next reading starts with: nothing
    assert again["findings"] == before["findings"] and fresh.kept.size() == 0


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
