"""What a reader keeps of the lore readings (its ``answers`` store, readings/cache.py: the relation rows and the
lists of findings made of them): a finding handed out again is the one the reading would make afresh; without
the cache every reading still asks the backend; the store is the reader's own."""

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


def test_a_kept_finding_is_the_one_made_afresh():
    """Readings of new charts by a reader whose store holds other charts' findings equal the readings
    made with an empty store: every key holds all a finding depends on."""
    r = reader()
    for chart in _charts(30, seed=21):
        for topic in TOPICS:
            r.read(chart, topic=topic)
    later = _charts(30, seed=22)
    kept = [_lore(r.read(chart, topic=topic)) for chart in later for topic in TOPICS]
    fresh = []
    for chart in later:
        for topic in TOPICS:
            r.kept.stores["answers"].clear()
            fresh.append(_lore(r.read(chart, topic=topic)))
    assert kept == fresh
    assert sum(len(f) for f in kept) > 30 * len(TOPICS)  # kin, stages, vigour at least, for each reading


def test_without_the_cache_each_reading_asks_the_backend(asking):
    """Cache off: each reading asks relations_among and relations_from once, the same chart read twice
    included; with the cache on, a chart already read asks neither again."""
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


def test_the_answers_are_the_readers_own(asking):
    """A reader keeps the relation rows and the lore lists only with the cache on, in a store of its own."""
    r = reader()
    for each in (asking, r):
        each.read(_charts(1, seed=24)[0], topic="*")
    assert ("among",) in r.kept.stores["answers"] and not asking.kept.stores["answers"]
