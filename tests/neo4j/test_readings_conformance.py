"""Both backends give the same reading: 300 random moments × every topic on NetworkX and Neo4j.

The backend-specific part of a reading is the answer to its ground checks (the named query
``rule_checks``) and the relations among its slots (``relations_among``): the answers are compared
check by check, then the finding lists (ids, paths, src) of every topic. A reading on Neo4j without a
cache takes at most 3 round trips (counted on the real backend).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

import leishen
from leishen.readings import Reader

pytestmark = pytest.mark.neo4j
ZONES = [timezone(timedelta(hours=h)) for h in (8, 9, 0, -5, 5.5, 3, -8, 10)]


def _moments(n: int, seed: int = 20261201) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 1, tzinfo=timezone.utc)
    return [(start + timedelta(minutes=rng.randrange(200 * 365 * 24 * 60))).astimezone(rng.choice(ZONES))
            for _ in range(n)]


@pytest.fixture(scope="module")
def readers(neo4j_backend, nx_store):
    return Reader(neo4j_backend, cache=False), Reader(nx_store, cache=False)


def test_readings_agree_on_300_moments_and_every_topic(readers):
    """Every ground check the rule book can ask (readings/book.py: every graph leaf's and lore reading's) gets
    from Neo4j, in one call, the answer the book holds (NetworkX's traversal, witness included); then the finding
    lists (ids, paths, src) of each of 300 moments are compared for every topic at once (``topic="*"``: every rule
    of every topic) and for one rotating topic alone (the general reading among them), each reading asking
    rule_checks, relations_among and relations_from of its backend."""
    from leishen.readings.records import FactCheck, PathCheck
    from leishen.service.book import kept_book
    neo, nx = readers
    book = kept_book()
    asked = neo.ask({(PathCheck if c[0] == "path" else FactCheck)(*c) for c in book.answers})
    assert {tuple(c): hops for c, hops in asked.items()} == book.answers
    topics = [None] + [t["id"] for t in nx.topics()]
    charts = [leishen.chart(m) for m in _moments(300)]
    compared, checks = 0, len(asked)
    for i in range(0, len(charts), 100):
        batch = charts[i:i + 100]
        for j, chart in enumerate(batch):
            for topic in ("*", topics[(i + j) % len(topics)]):  # every topic at once, and one topic alone
                a, b = neo.read(chart, topic=topic), nx.read(chart, topic=topic)
                assert [(f["id"], f["path"], f["src"]) for f in a["findings"]] == \
                       [(f["id"], f["path"], f["src"]) for f in b["findings"]]
                compared += len(a["findings"])
    assert compared > 300 * 10 and checks > 300 * 20


def test_a_neo4j_reading_takes_at_most_three_round_trips(neo4j_backend):
    reader = Reader(neo4j_backend, cache=False)
    calls = []
    run = neo4j_backend.run

    def counting(name, **params):
        calls.append(name)
        return run(name, **params)

    neo4j_backend.run = counting
    try:
        reading = reader.read(leishen.chart("2026-12-01T10:00+09:00"), topic="射覆")
    finally:
        del neo4j_backend.run
    assert reading["findings"] and 1 <= len(calls) <= 3, calls


def test_without_a_cache_the_relations_are_asked_beside_the_checks(neo4j_backend, readers):
    """A Neo4j reading without a cache asks relations_among and relations_from from a worker thread
    while this thread collects the checks and asks rule_checks, and reads the same as NetworkX: 20
    moments, each read for every topic and as the general reading."""
    import threading

    neo, nx = Reader(neo4j_backend, cache=False), readers[1]
    threads = []
    run = neo4j_backend.run

    def recording(name, **params):
        threads.append((name, threading.current_thread() is threading.main_thread()))
        return run(name, **params)

    neo4j_backend.run = recording
    try:
        for chart in [leishen.chart(m) for m in _moments(20, seed=7)]:
            for topic in ("*", None):
                a, b = neo.read(chart, topic=topic), nx.read(chart, topic=topic)
                assert [(f["id"], f["path"], f["src"], f["evidence"]) for f in a["findings"]] == \
                       [(f["id"], f["path"], f["src"], f["evidence"]) for f in b["findings"]]
                assert a["tally"] == b["tally"]
    finally:
        del neo4j_backend.run
    assert {name for name, main in threads if main} == {"rule_checks"}
    assert {name for name, main in threads if not main} == {"relations_among", "relations_from"}


def test_readings_made_at_once_on_one_reader_read_as_networkx(neo4j_backend, readers):
    """One Neo4j reader without a cache, read from six threads at once (as the HTTP service does), each
    reading with its relation queries in the shared worker pool, reads 24 charts as NetworkX does."""
    from concurrent.futures import ThreadPoolExecutor

    neo, nx = Reader(neo4j_backend, cache=False), readers[1]
    charts = [leishen.chart(m) for m in _moments(24, seed=31)]

    def key(reading):
        return [(f["id"], f["path"], f["src"]) for f in reading["findings"]]

    expected = [key(nx.read(c, topic="*")) for c in charts]
    with ThreadPoolExecutor(6) as pool:
        assert list(pool.map(lambda c: key(neo.read(c, topic="*")), charts)) == expected


def test_a_new_condition_kind_reads_on_neo4j_as_on_networkx(neo4j_backend, readers):
    """The kind a test adds (``clashes``: one class and one vocabulary row, tests/readings/test_evaluator_kinds.py)
    holds on Neo4j where it holds on NetworkX, with the same walk."""
    from tests.readings.test_evaluator_kinds import read_clashes

    neo = Reader(neo4j_backend, cache=False)
    holds, fails = read_clashes(neo)
    assert holds["holds"] and not fails["holds"]
    assert (holds, fails) == read_clashes(Reader(readers[1].backend, cache=False))
