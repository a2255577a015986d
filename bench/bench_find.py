"""擇時 at scale (issue #38), every row over one range: the 8,760 hours of a year (--year, 2026 by default:
01-01T00:00 to 12-31T23:00 at +08:00), ``find --topic 出行 --verdict 吉``.

Why a year: it holds every solar term and both halves of the Qimen layouts (the yang ones from 冬至, the yin ones
from 夏至), so a worker's share costs what a long search costs; a month of hours is over in about a second, most
of it the process's start, which no number of workers shortens.

Rows:

- in process: the year judged in this process (reader warm): CPU seconds, hits, moments per second per core;
- ``--jobs 2`` against ``--jobs 1``: whole ``leishen find`` processes, wall medians;
- Dask: for each run a fresh ``distributed.LocalCluster`` on 127.0.0.1 of 1 worker process and of 2 (one thread
  each, started as README says: ``--preload leishen.service.findwork``, each loading the book from the disk cache
  at its start), then the whole ``leishen find --scheduler ADDRESS`` process timed, wall medians (one untimed find
  on a cluster first, so that no timed one compiles distributed's bytecode); the clusters' start is timed apart, and
  the ratio with it counted in is shown;
- every topic over the year, in process: CPU seconds a moment of all topics, and a century's cost at that rate.

Run: ``python3 bench/bench_find.py [--year 2026] [--runs 3] [--json FILE]`` on an idle machine (the speed-ups
need 2 idle cores; the load average is printed beside each row; on a shared machine, run it in a session of its own
whose autogroup has nice -20: ``setsid sh -c 'echo -20 > /proc/self/autogroup; exec python3 bench/bench_find.py'``).
Writes nothing unless --json names a file."""

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

import startup  # noqa: E402

from leishen import readings  # noqa: E402
from leishen.engine.moment import parse_moment  # noqa: E402
from leishen.judgments.choose import choose  # noqa: E402
from leishen.service import book

CENTURY_HOURS = 100 * 8766


def year_span(year: int) -> tuple[str, str]:
    """The first and the last hour of *year* at +08:00, as ISO text."""
    return f"{year}-01-01T00:00+08:00", f"{year}-12-31T23:00+08:00"


def load() -> str:
    """The 1-minute load average."""
    return f"{os.getloadavg()[0]:.2f}"


def medians(walls: dict) -> dict:
    """key → {"wall": median, "spread": min–max, "runs": each run} of *walls* (key → list of seconds)."""
    return {k: {"wall": statistics.median(w), "spread": f"{min(w):.2f}–{max(w):.2f} s",
                "runs": [round(one, 3) for one in w]} for k, w in walls.items()}


def find_command(year: int, *extra: str, last: str | None = None) -> list[str]:
    """``leishen find --topic 出行 --verdict 吉`` over the year (or to *last*), with *extra* options."""
    start, end = year_span(year)
    return [*startup.leishen_command(), "find", "--topic", "出行", "--verdict", "吉", "--from", start, "--to",
            last or end, *extra]


def whole_jobs(year: int, runs: int, env: dict) -> dict:
    """jobs → wall median (and spread) of whole ``leishen find`` processes over the year, --jobs 1 and 2 in turn."""
    walls: dict[int, list] = {1: [], 2: []}
    for _ in range(runs):
        for jobs in walls:
            walls[jobs].append(startup.timed(find_command(year, "--jobs", str(jobs)), env, 1)["wall"])
    return medians(walls)


def whole_dask(year: int, runs: int, env: dict) -> dict:
    """workers → wall median of the whole ``leishen find --scheduler`` process over the year on a fresh
    LocalCluster of that many worker processes, and of the cluster's start (``"start"``)."""
    from distributed import LocalCluster

    def cluster(workers: int) -> LocalCluster:
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                            dashboard_address=None, preload=["leishen.service.findwork"])
    with cluster(1) as first:  # (distributed's bytecode written by one untimed find, as the other rows' caches are)
        startup.timed(find_command(year, "--scheduler", first.scheduler_address, last=f"{year}-01-01T01:00+08:00"),
                      env, 1)
    walls: dict[int, list] = {1: [], 2: []}
    starts: dict[int, list] = {1: [], 2: []}
    for _ in range(runs):
        for workers in walls:
            t0 = time.perf_counter()
            with cluster(workers) as running:
                starts[workers].append(time.perf_counter() - t0)
                command = find_command(year, "--scheduler", running.scheduler_address)
                walls[workers].append(startup.timed(command, env, 1)["wall"])
    out = medians(walls)
    for workers, start in medians(starts).items():
        out[workers]["start"] = start["wall"]
    return out


def in_process(year: int) -> dict:
    """The year judged in this process (reader warm): CPU seconds, hits, moments per second per core."""
    reader = book.reader()
    start, end = (parse_moment(t) for t in year_span(year))
    list(choose(reader, "出行", start, parse_moment(f"{year}-01-02T00:00+08:00"), verdict="吉"))
    t0 = time.process_time()
    hits = list(choose(reader, "出行", start, end, verdict="吉"))
    cpu = time.process_time() - t0
    count = int((end - start).total_seconds() // 3600) + 1
    return {"cpu": cpu, "hits": len(hits), "moments": count, "per_core": count / cpu}


def every_topic_rate(year: int) -> dict:
    """CPU seconds a moment of judging every topic over the year in this process, and a century's cost."""
    reader = book.reader()
    start, end = (parse_moment(t) for t in year_span(year))
    topics = [t["zh"] for t in reader.topics()]
    t0 = time.process_time()
    for topic in topics:
        list(choose(reader, topic, start, end, verdict="吉"))
    per_moment = (time.process_time() - t0) / (int((end - start).total_seconds() // 3600) + 1)
    return {"topics": len(topics), "per_moment_all_topics_s": per_moment,
            "century_cpu_hours": per_moment * CENTURY_HOURS / 3600}


def report(year: int, out: dict) -> None:
    """The rows, printed."""
    one, whole, dask, every = out["in_process"], out["whole"], out["dask"], out["every_topic"]
    print(f"range: every hour of {year} at +08:00 ({one['moments']:,} moments), find --topic 出行 --verdict 吉")
    print(f"in process: {one['cpu']:.2f} s CPU, {one['hits']} hits, {one['per_core']:.0f} moments/s/core "
          f"[load {out['loads']['in_process']}]")
    print(f"leishen find, whole process: --jobs 1 {whole[1]['wall']:.2f} s ({whole[1]['spread']}); --jobs 2 "
          f"{whole[2]['wall']:.2f} s ({whole[2]['spread']}): {out['jobs2_speedup']:.2f}× (target ≥ 1.6) "
          f"[load {out['loads']['whole']}]")
    print(f"leishen find --scheduler, whole process on a fresh LocalCluster: 1 worker {dask[1]['wall']:.2f} s "
          f"({dask[1]['spread']}); 2 workers {dask[2]['wall']:.2f} s ({dask[2]['spread']}): "
          f"{out['dask2_speedup']:.2f}× (target ≥ 1.6); the cluster's start {dask[1]['start']:.2f} s and "
          f"{dask[2]['start']:.2f} s, counted in: {out['dask2_speedup_with_start']:.2f}× [load {out['loads']['dask']}]")
    print(f"every topic ({every['topics']}): {every['per_moment_all_topics_s'] * 1000:.1f} ms CPU a moment; a century "
          f"of every topic ≈ {every['century_cpu_hours']:.1f} CPU hours [load {out['loads']['every_topic']}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--year", type=int, default=2026)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="leishen-bench-find-") as folder:
        env = startup.child_env(Path(folder))
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ.update(env)  # (the Dask workers, started from here, read the same bytecode and disk cache)
        startup.timed(find_command(args.year, last=f"{args.year}-01-01T01:00+08:00"), env, 1)  # caches written
        out, loads = {}, {}
        for name, measure in (("in_process", lambda: in_process(args.year)),
                              ("whole", lambda: whole_jobs(args.year, args.runs, env)),
                              ("dask", lambda: whole_dask(args.year, args.runs, env)),
                              ("every_topic", lambda: every_topic_rate(args.year))):
            before = load()
            out[name] = measure()
            loads[name] = f"{before} → {load()}"
    whole, dask = out["whole"], out["dask"]
    out.update(loads=loads, cores=os.cpu_count(), jobs2_speedup=whole[1]["wall"] / whole[2]["wall"],
               dask2_speedup=dask[1]["wall"] / dask[2]["wall"],
               dask2_speedup_with_start=(dask[1]["wall"] + dask[1]["start"]) / (dask[2]["wall"] + dask[2]["start"]))
    report(args.year, out)
    if args.json:
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
