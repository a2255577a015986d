"""擇時 on executors: a pool of forked processes (--jobs 2), any concurrent.futures executor and a real Dask
LocalCluster of two worker processes on 127.0.0.1 give every hit that one process gives, over a month, in the
range's order, each Dask worker taking its own stretch of consecutive blocks, also when this process loads no book
(a worker checks the request: a bad one refused here as it is alone); the blocks a range is cut into are
consecutive, complete, cut at the solar terms and never between the two hours of a double hour, and sent in runs
of consecutive blocks, a few a worker; --jobs past the cores is refused naming the limit."""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta

import distributed  # the test extra (leishen[dask])
import pytest

from leishen.engine.calendar import solar_term
from leishen.engine.moment import moments, parse_moment
from leishen.errors import FindError
from leishen.judgments.choose import choose
from leishen.service import findwork

MONTH = parse_moment("2026-12-01T00:00+08:00"), parse_moment("2026-12-31T23:00+08:00")


@pytest.fixture(scope="module")
def alone(reader):
    """The month's 出行 吉 hits judged in this process alone."""
    hits = list(choose(reader, "出行", *MONTH, verdict="吉"))
    assert len(hits) > 20
    return hits


def test_two_jobs_give_every_hit_of_one(reader, alone):
    assert list(choose(reader, "出行", *MONTH, verdict="吉", jobs=2)) == alone
    assert not multiprocessing.active_children()


def test_any_executor_gives_every_hit_of_one(reader, alone):
    with ThreadPoolExecutor(2) as executor:
        assert list(choose(reader, "出行", *MONTH, verdict="吉", executor=executor)) == alone


def test_a_dask_local_cluster_of_two_workers_gives_every_hit_of_one(reader, alone):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        found = list(choose(reader, "出行", *MONTH, verdict="吉", executor=client.get_executor(pure=False)))
        pids = set(client.run(os.getpid).values())
    assert found == alone
    assert len(pids) == 2 and os.getpid() not in pids


def test_a_dask_cluster_checks_the_request_for_a_process_that_loads_no_book(alone):
    from leishen.judgments.choose import ChooseError
    from leishen.service import readings
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        executor = client.get_executor(pure=False)
        found = list(readings.find(None, *MONTH, topic="出行", verdict="吉", executor=executor))
        with pytest.raises(ChooseError, match="可行否 is never answered 'maybe'") as info:
            readings.find(None, *MONTH, topic="出行", facets={"可行否": "maybe"}, executor=executor)
    assert found == alone
    assert info.value.field == "facet"


@dataclass(frozen=True)
class Where:
    """A find's task that answers, for each block, the process that judged it."""

    def judged(self, reader, moments_: list) -> list[int]:
        return [os.getpid()]


def test_each_dask_worker_takes_its_own_stretch_of_the_range():
    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # (Where, sent to workers that cannot import this)
    every = list(moments(*MONTH, "hour"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        work = findwork.Work(findwork.Source(), Where())
        pids = [pid for _, _, found in findwork.spread(work, every, executor=client.get_executor(pure=False))
                for pid in found]
    assert len(pids) == len(findwork.blocks(every)) and os.getpid() not in pids
    half = len(pids) // 2  # (a worker done first may take blocks left at the end of the other's stretch)
    assert len(set(pids[:half - 1])) == 1 and pids[half + 1] != pids[0], pids


def test_blocks_are_consecutive_cut_at_the_terms_and_keep_double_hours():
    every = list(moments(parse_moment("2026-11-20T00:00+08:00"), parse_moment("2026-12-31T23:00+08:00"), "hour"))
    parts = findwork.blocks(every, 96)
    assert [t for part in parts for t in part] == every
    assert all(len(part) <= 97 for part in parts)
    for before, after in zip(parts, parts[1:]):
        assert after[0] - before[-1] == timedelta(hours=1)
        assert after[0].hour % 2 == 1, after[0]  # a double hour (子 23:00, 丑 01:00 …) starts on an odd hour
    terms = {solar_term(t)[0] for t in every}
    assert len(terms) == 4  # 小雪 大雪 冬至 小寒 …
    assert all(len({solar_term(t)[0] for t in part[:-1]}) == 1 for part in parts)  # (a cut moved one hour later)
    assert len(parts) >= len(terms) + 9  # a cut at each term's start, and every 96 hours


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_runs_are_consecutive_blocks_a_few_a_worker_each_worker_a_stretch(workers):
    parts = findwork.blocks(list(moments(parse_moment("2026-01-01T00:00+08:00"), parse_moment("2026-12-31T23:00+08:00"),
                                         "hour")))
    dealt = findwork.runs(parts, workers)
    assert [part for _, run in dealt for part in run] == parts
    assert [k for k, _ in dealt] == sorted(k for k, _ in dealt)  # worker k's runs: one stretch, the k-th
    assert all(sum(k == j for k, _ in dealt) == findwork.RUNS for j in range(workers))
    share = [sum(len(part) for k, run in dealt if k == j for part in run) for j in range(workers)]
    assert max(share) - min(share) <= 2 * findwork.BLOCK  # (each block in the share its middle moment falls in)


@pytest.mark.parametrize("jobs", [0, findwork.MAX_JOBS + 1, 10**9, 1.5, True])
def test_jobs_past_the_cores_are_refused_naming_the_limit(reader, jobs):
    with pytest.raises(FindError, match=f"jobs: expected a whole number from 1 to {findwork.MAX_JOBS}") as info:
        list(choose(reader, "出行", *MONTH, verdict="吉", jobs=jobs))
    assert info.value.field == "jobs"
    assert not multiprocessing.active_children()
