"""The tables a judgment makes once per reader (judgments/prepared.py) give what the per-finding lookups they
replace give, and 擇時's worker processes (judgments/workers.py) return every chunk's hits in order."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

import leishen
from leishen.engine.moment import parse_moment
from leishen.judgments.choose import chosen_chunks
from leishen.judgments.prepared import best_answers, topic_facts
from leishen.judgments import workers
from leishen.judgments.workers import WorkerError, claim, judged_in_order, run_bounds, runs
from leishen.readings.topics import TopicError

MOMENTS = ("2026-12-01T10:00+08:00", "1984-12-29T12:00+08:00", "2023-08-29T10:00+08:00", "1961-05-04T03:00+08:00")


@pytest.fixture(scope="module")
def findings(reader):
    """The findings of every topic's reading (and the general reading's) on a few moments."""
    out = []
    for moment in MOMENTS:
        out += reader.read(leishen.chart(moment), topic="*")["findings"]
    return out


def test_answer_index_agrees_with_each_facets_own_lookup(reader, findings):
    """For every topic and every finding, the index gives each facet of the finding's system the answer the
    facet's own answer_for gives, and no answer to a facet answer_for gives none."""
    index, props = topic_facts(reader), reader.props
    answered = 0
    for table in index.tables.values():
        for f in findings:
            hits = best_answers(table.answers_in(f["system"]), f, index.info, props)
            i = index.info.get(f["rule"]["fact"])
            meaning = (f.get("meaning") or {}).get("id")
            for n, facet in enumerate(table.facets):
                if facet.system and facet.system != f["system"]:
                    assert n not in hits
                    continue
                own = facet.answer_for(meaning, props.get(meaning, {}).get("label"),
                                       i.category if i is not None else None, f.get("polarity"))
                assert (hits[n][1] if n in hits else None) == own, (table.topic, facet.name, f["id"])
                answered += own is not None
    assert answered > 100  # the sample reaches the answers (node, label, category and polarity ones)


def test_topic_names_map_as_the_reader_does(reader):
    index = topic_facts(reader)
    for t in reader.topics():
        for name in (t["zh"], t["en"], t["id"]):
            assert index.topic_id(reader, name) == reader.topic_id(name)
    with pytest.raises(TopicError, match="unknown topic"):
        index.topic_id(reader, "no such topic")


def test_topic_tables_hold_every_topics_scope(reader):
    index = topic_facts(reader)
    assert index.table(None).names == {None}
    for topic_id in reader.topic_ids:
        assert index.table(topic_id).names == {reader.props[t]["name"] for t in reader.topic_scope(topic_id)}


@pytest.mark.parametrize("count, jobs, sizes", [(10, 2, [5, 5]), (7, 2, [4, 3]), (3, 4, [1, 1, 1]), (9, 3, [3, 3, 3])])
def test_runs_split_the_chunks_in_order(count, jobs, sizes):
    chunks = list(range(count))
    parts = runs(chunks, jobs)
    assert [len(p) for p in parts] == sizes
    assert [c for p in parts for c in p] == chunks


def test_a_worker_done_with_its_run_takes_from_the_end_of_the_run_with_most_left():
    bounds = run_bounds(runs(list(range(9)), 3))  # runs [0, 1, 2] [3, 4, 5] [6, 7, 8]
    assert bounds == [0, 3, 3, 6, 6, 9]
    assert [claim(bounds, 0) for _ in range(3)] == [0, 1, 2]  # its own run, first to last
    assert claim(bounds, 1) == 3
    assert claim(bounds, 0) == 8  # run 2 has 3 left, run 1 has 2: the last of run 2
    assert claim(bounds, 0) == 5  # now runs 1 and 2 have 2 left each: the first such run's last
    assert [claim(bounds, 2) for _ in range(2)] == [6, 7]
    assert claim(bounds, 2) == 4 and claim(bounds, 1) is None and claim(bounds, 0) is None


def _slow_first_half(chunk: list[int]) -> int:
    if chunk[0] < 10:
        time.sleep(0.02)
    return sum(chunk)


def test_chunks_taken_from_another_run_come_back_in_order():
    chunks = [[k] for k in range(20)]
    assert list(judged_in_order(_slow_first_half, chunks, 2)) == list(range(20))
    assert not multiprocessing.active_children()


def _square_sum(chunk: list[int]) -> int:
    return sum(x * x for x in chunk)


def _fails_on_seven(chunk: list[int]) -> int:
    if 7 in chunk:
        raise ValueError("seven")
    return len(chunk)


@pytest.mark.parametrize("jobs", [2, 3])
def test_workers_return_each_chunk_in_order(jobs):
    chunks = [list(range(k, k + 3)) for k in range(0, 30, 3)]
    assert list(judged_in_order(_square_sum, chunks, jobs)) == [_square_sum(c) for c in chunks]
    assert not multiprocessing.active_children()


def test_a_workers_error_is_raised_here_and_the_workers_end():
    chunks = [[k] for k in range(10)]
    with pytest.raises(ValueError, match="seven"):
        list(judged_in_order(_fails_on_seven, chunks, 2))
    assert not multiprocessing.active_children()


def _dies_on_five(chunk: list[int]) -> int:
    if 5 in chunk:
        os._exit(3)  # as a worker killed, or out of memory: nothing sent back
    return len(chunk)


def test_a_worker_that_dies_gives_a_one_line_error(monkeypatch):
    monkeypatch.setattr(workers, "POLL", 0.05)
    with pytest.raises(WorkerError, match=r"exit code 3"):
        list(judged_in_order(_dies_on_five, [[k] for k in range(10)], 2))
    assert not multiprocessing.active_children()


def test_stopping_early_ends_the_workers():
    found = judged_in_order(_square_sum, [[k] for k in range(40)], 2)
    assert next(found) == 0
    found.close()
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("size", [5, 48])
def test_chunks_of_two_jobs_are_those_of_one(reader, size):
    start, end = parse_moment("2026-03-01T00:00+08:00"), parse_moment("2026-03-03T23:00+08:00")
    one = list(chosen_chunks(reader, "出行", start, end, verdict="吉", jobs=1, size=size))
    two = list(chosen_chunks(reader, "出行", start, end, verdict="吉", jobs=2, size=size))
    assert one == two
    assert sum(n for _, n, _ in one) == 72 and one[-1][0] == end
    assert any(hits for _, _, hits in one)
