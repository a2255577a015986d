"""The lore readings over the rule book (readings/book.py: the relation rows are the book's): the findings are
those a live reader, asking the backend, makes; a live reader asks at each reading, a book reader never."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

import leishen
from leishen.service.book import reader

LORE = {"kin", "stages", "vigour", "relations", "leixiang", "shensha"}
TOPICS = (None, "*", "人物")


def _charts(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    start = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    return [leishen.chart(start + timedelta(minutes=rng.randrange(100 * 365 * 24 * 60))) for _ in range(n)]


def _lore(reading: dict) -> list[dict]:
    return [f for f in reading["findings"] if f["query"] in LORE]


@pytest.fixture(scope="module")
def asking():
    from leishen.backends import get_backend
    from leishen.readings.read import Reader
    return Reader(get_backend("networkx"), cache=False)


def test_the_books_lore_is_the_backends(asking):
    """Readings of charts by the book reader (after other charts) give the lore findings a live reader gives."""
    r = reader()
    for chart in _charts(30, seed=21):
        for topic in TOPICS:
            r.read(chart, topic=topic)
    later = _charts(30, seed=22)
    kept = [_lore(r.read(chart, topic=topic)) for chart in later for topic in TOPICS]
    assert kept == [_lore(asking.read(chart, topic=topic)) for chart in later for topic in TOPICS]
    assert sum(len(f) for f in kept) > 30 * len(TOPICS)  # kin, stages, vigour at least, for each reading


def test_without_the_cache_each_reading_asks_the_backend(asking):
    """A live reader: each reading asks relations_among and relations_from once, the same chart read twice
    included; a book reader asks neither."""
    chart = _charts(1, seed=23)[0]
    cached = reader()
    for r, wanted in ((asking, 2), (cached, 0)):
        r.read(chart, topic="*")
        asked, run = [], r.backend.run

        def counting(name, **params):
            asked.append(name)
            return run(name, **params)
        r.backend.run = counting
        try:
            r.read(chart, topic="*")
            r.read(chart, topic="*")
        finally:
            del r.backend.run
        assert asked.count("relations_among") == asked.count("relations_from") == wanted, asked
