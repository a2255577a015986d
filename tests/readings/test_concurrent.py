"""Readings made at once on one reader (the HTTP service's threads share one): each reading's own state
(its options keys, its patterns' walks) is its thread's, so eight threads reading 60 charts give what
a reader used by one thread gives (it once raised a KeyError, or mixed one reading's walks into another)."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

import leishen
from leishen.readings import Reader
from leishen.service.book import new_reader

ZONES = [timezone(timedelta(hours=h)) for h in (8, 9, 0, -5, 5.5)]


def _moments(n: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 1, tzinfo=timezone.utc)
    return [(start + timedelta(minutes=rng.randrange(200 * 365 * 24 * 60))).astimezone(rng.choice(ZONES))
            for _ in range(n)]


def _key(reading: dict) -> list:
    return [(f["id"], f["path"], f["src"], f["evidence"], f["bindings"]) for f in reading["findings"]]


def test_eight_threads_read_as_one():
    charts = [leishen.chart(m) for m in _moments(60, 7)]
    alone = new_reader()
    expected = [_key(alone.read(c, topic="*")) for c in charts]
    shared = new_reader()
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(lambda c: _key(shared.read(c, topic="*")), charts)) == expected
