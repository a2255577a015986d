"""擇時 at scale (issue #38), measured:

- a year of hours of one topic (``leishen find --topic 出行 --verdict 吉``, 8,760 charts), one whole process:
  wall and CPU seconds, and moments judged per second per core (from the in-process CPU time);
- ``--jobs 2`` against ``--jobs 1``: whole ``leishen find`` processes over the year, wall medians;
- Dask: the same year on a ``distributed.LocalCluster`` on 127.0.0.1 of 2 worker processes against 1 (each worker
  warmed by a day's find first: its reader loaded once), wall medians of the find;
- every topic over a week of hours, in process: the CPU seconds per moment of all topics, and what a century of
  every topic costs at that rate (CPU hours).

Run: ``python3 bench/bench_find.py [--year 2026] [--runs 3] [--json FILE]`` on an idle machine (the speed-ups
need 2 idle cores). Prints one table; writes nothing unless --json names a file."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from leishen import readings  # noqa: E402
from leishen.engine.moment import parse_moment  # noqa: E402
from leishen.judgments.choose import choose  # noqa: E402

CENTURY_HOURS = 100 * 8766


def year_span(year: int) -> tuple[str, str]:
    return f"{year}-01-01T00:00+08:00", f"{year}-12-31T23:00+08:00"


def whole_process(year: int, runs: int) -> dict:
    """jobs → {"wall": median, "cpu": best, "spread"} of ``leishen find`` over the year, alternating --jobs 1, 2."""
    import startup
    start, end = year_span(year)
    walls: dict[int, list] = {1: [], 2: []}
    cpus: dict[int, list] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="leishen-bench-find-") as folder:
        env, ls = startup.child_env(Path(folder)), startup.leishen_command()

        def command(jobs: int, last: str = end) -> list[str]:
            return [*ls, "find", "--topic", "出行", "--verdict", "吉", "--from", start, "--to", last, "--jobs", str(jobs)]

        startup.timed(command(1, f"{year}-01-01T01:00+08:00"), env, 1)  # the disk cache written
        for _ in range(runs):
            for jobs in walls:
                got = startup.timed(command(jobs), env, 1)
                walls[jobs].append(got["wall"])
                cpus[jobs].append(got["cpu"])
    return {jobs: {"wall": statistics.median(w), "cpu": min(cpus[jobs]), "spread": f"{min(w):.2f}–{max(w):.2f} s"}
            for jobs, w in walls.items()}


def in_process(year: int) -> dict:
    """The year judged in this process (reader warm): CPU seconds, hits, moments per second per core."""
    reader = readings.reader()
    start, end = (parse_moment(t) for t in year_span(year))
    list(choose(reader, "出行", start, parse_moment(f"{year}-01-02T00:00+08:00"), verdict="吉"))
    t0 = time.process_time()
    hits = list(choose(reader, "出行", start, end, verdict="吉"))
    cpu = time.process_time() - t0
    count = int((end - start).total_seconds() // 3600) + 1
    return {"cpu": cpu, "hits": len(hits), "moments": count, "per_core": count / cpu}


def dask_walls(year: int, runs: int) -> dict:
    """workers → wall median of the year's find on a LocalCluster of that many worker processes (warm)."""
    from distributed import Client, LocalCluster
    reader = readings.reader()
    start, end = (parse_moment(t) for t in year_span(year))
    out = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as cluster, Client(cluster) as client:
            executor = client.get_executor(pure=False)
            list(choose(reader, "出行", start, parse_moment(f"{year}-01-02T00:00+08:00"), verdict="吉",
                        executor=executor))  # each worker's reader loaded
            walls = []
            for _ in range(runs):
                t0 = time.perf_counter()
                list(choose(reader, "出行", start, end, verdict="吉", executor=executor))
                walls.append(time.perf_counter() - t0)
        out[workers] = {"wall": statistics.median(walls), "spread": f"{min(walls):.2f}–{max(walls):.2f} s"}
    return out


def every_topic_rate(year: int) -> dict:
    """CPU seconds per moment of judging every topic (a week of hours each, in process), and a century's cost."""
    reader = readings.reader()
    start, end = parse_moment(f"{year}-03-01T00:00+08:00"), parse_moment(f"{year}-03-07T23:00+08:00")
    topics = [t["zh"] for t in reader.topics()]
    t0 = time.process_time()
    for topic in topics:
        list(choose(reader, topic, start, end, verdict="吉"))
    cpu = time.process_time() - t0
    per_moment = cpu / 168
    return {"topics": len(topics), "per_moment_all_topics_s": per_moment,
            "century_cpu_hours": per_moment * CENTURY_HOURS / 3600}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--year", type=int, default=2026)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    one = in_process(args.year)
    whole = whole_process(args.year, args.runs)
    dask = dask_walls(args.year, args.runs)
    every = every_topic_rate(args.year)
    out = {"in_process": one, "whole": whole, "dask": dask, "every_topic": every, "cores": os.cpu_count(),
           "jobs2_speedup": whole[1]["wall"] / whole[2]["wall"], "dask2_speedup": dask[1]["wall"] / dask[2]["wall"]}
    print(f"a year of 出行 吉 (8,760 charts) in process: {one['cpu']:.2f} s CPU, {one['hits']} hits, "
          f"{one['per_core']:.0f} moments/s/core")
    print(f"leishen find over the year, whole process: --jobs 1 {whole[1]['wall']:.2f} s wall ({whole[1]['spread']}, "
          f"CPU {whole[1]['cpu']:.2f} s); --jobs 2 {whole[2]['wall']:.2f} s ({whole[2]['spread']}): "
          f"{out['jobs2_speedup']:.2f}× (target ≥ 1.6)")
    print(f"Dask LocalCluster over the year: 1 worker {dask[1]['wall']:.2f} s ({dask[1]['spread']}); 2 workers "
          f"{dask[2]['wall']:.2f} s ({dask[2]['spread']}): {out['dask2_speedup']:.2f}× (target ≥ 1.6)")
    print(f"every topic ({every['topics']}): {every['per_moment_all_topics_s'] * 1000:.1f} ms CPU a moment; a century "
          f"of every topic ≈ {every['century_cpu_hours']:.1f} CPU hours")
    if args.json:
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
