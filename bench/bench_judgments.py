"""Judgments, timed in one process on the shared NetworkX reader (issue #28's rows):

- what a judgment of one topic adds to its reading (median over random charts, the reading alone against the
  reading and its judgments, the same charts);
- 擇時: ``choose(topic=出行, verdict=吉)`` over a month of hours (744 charts) and a year (8,760), one process,
  and ``leishen find --topic 出行 --verdict 吉`` over the year as a user runs it, whole processes with ``--jobs 1``
  and ``--jobs 2`` (the ratio of their median wall times is the speed-up).

Run: ``python3 bench/bench_judgments.py [--charts N] [--year 2026] [--json FILE]``. Prints one table; writes
nothing unless --json names a file."""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import leishen  # noqa: E402
from leishen import readings  # noqa: E402
from leishen.engine.moment import parse_moment  # noqa: E402
from leishen.judgments import judge  # noqa: E402
from leishen.judgments.choose import choose  # noqa: E402
from leishen.service import book

TOPICS = ("射覆", "天時", "出行", "疾病")


def random_charts(n: int, seed: int = 28) -> list[dict]:
    rng = random.Random(seed)
    start = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    return [leishen.chart(start + timedelta(minutes=rng.randrange(0, 100 * 365 * 24 * 60))) for _ in range(n)]


def judgment_cost(reader, charts: list[dict], topic: str) -> dict:
    """Median ms of a reading of *topic*, and of the same reading with its judgments (the general reading's and
    the topic's, as a reading's JSON holds them), on the same charts (each chart read once before timing, so both
    sides read warm); and the median of the topic's own judgment alone (``judge_topic``), on the same readings."""
    from leishen.judgments.procedure import DEFAULT_OPTIONS, judge_topic
    topic_id = reader.topic_id(topic)
    plain, judged, own = [], [], []
    for chart in charts:
        reader.read(chart, topic=topic)
        t0 = time.perf_counter()
        reading = reader.read(chart, topic=topic)
        t1 = time.perf_counter()
        judge(reading, chart, reader)
        t2 = time.perf_counter()
        judge_topic(topic_id, reading, chart, reader, DEFAULT_OPTIONS)
        own.append((time.perf_counter() - t2) * 1000)
        plain.append((t1 - t0) * 1000)
        judged.append((t2 - t0) * 1000)
    added = statistics.median(j - p for j, p in zip(judged, plain))
    return {"topic": topic, "reading_ms": round(statistics.median(plain), 3),
            "with_judgment_ms": round(statistics.median(judged), 3), "added_ms": round(added, 3),
            "topic_alone_ms": round(statistics.median(own), 3)}


def choose_seconds(reader, start: str, end: str, jobs: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    hits = list(choose(reader, "出行", parse_moment(start), parse_moment(end), verdict="吉", jobs=jobs))
    return time.perf_counter() - t0, len(hits)


def bench_rows(row, charts: int = 300, year: int = 2026, quick: bool = False) -> list[dict]:
    """bench/run's judgment rows (*row* is suite.row), in process on the shared reader and as whole processes
    (``leishen find --topic 出行 --verdict 吉`` over a month, as a user runs it, CPU best of 3):

    * what a judgment of one topic adds to its reading (target ≤ 1 ms), one row per topic of TOPICS;
    * 擇時 出行 吉 over a month of hours (744 charts, ≤ 2 s) and a year (8,760, ≤ 20 s on one core);
    * the year with ``--jobs 2`` against ``--jobs 1``, whole ``leishen find`` processes, wall medians (≥ 1.7×; the
      ratio column is the speed-up)."""
    import startup
    reader = book.reader()
    sample = random_charts(60 if quick else charts)
    out = []
    for topic in TOPICS:
        r = judgment_cost(reader, sample, topic)
        out.append(row(f"Judgment of one topic ({topic}): added to its reading", r["added_ms"] / 1e3, None, "—",
                       "time", "≤ 1 ms", f"median of {len(sample)} random charts, in process; the reading alone "
                       f"{r['reading_ms']} ms, with its judgments (the general reading's and the topic's) "
                       f"{r['with_judgment_ms']} ms; the topic's own judgment alone {r['topic_alone_ms']} ms"))
    month = (f"{year}-12-01T00:00+08:00", f"{year}-12-31T23:00+08:00")
    t_month, hits = choose_seconds(reader, *month, 1)
    out.append(row("擇時 出行 吉 over a month of hours (744 charts), in process", t_month, None, "—", "time", "≤ 2 s",
                   f"{hits} moments chosen"))
    with tempfile.TemporaryDirectory(prefix="leishen-bench-find-") as folder:
        env, ls = startup.child_env(Path(folder)), startup.leishen_command()
        command = [*ls, "find", "--topic", "出行", "--verdict", "吉", "--from", month[0], "--to", month[1]]
        subprocess.run(command, env=env, check=True, capture_output=True)  # bytecode and the cache written
        whole = startup.timed(command, env, 1 if quick else 3)
    out.append(row("擇時 出行 吉 over a month of hours, whole process (leishen find --topic 出行 --verdict 吉)",
                   whole["cpu"], None, "—", "time", "≤ 2 s",
                   f"CPU best of {whole['runs']} (warm disk cache); wall median {whole['wall']:.2f} s"))
    if quick:
        return out
    span = (f"{year}-01-01T00:00+08:00", f"{year}-12-31T23:00+08:00")
    year1, year_hits = choose_seconds(reader, *span, 1)
    out.append(row("擇時 出行 吉 over a year of hours (8,760 charts), one process", year1, None, "—", "time",
                   "≤ 20 s", f"{year_hits} moments chosen"))
    jobs = find_year_walls(year)
    out.append(row("擇時 出行 吉 over a year, whole process: leishen find --jobs 2 against --jobs 1",
                   jobs[2]["wall"], jobs[1]["wall"], "the same with --jobs 1", "faster", "≥ 1.7×",
                   f"wall median of {jobs[1]['runs']} runs each (--jobs 1: {jobs[1]['spread']}; --jobs 2: "
                   f"{jobs[2]['spread']}), warm disk cache, {os.cpu_count()} cores shared with whatever else runs"))
    return out


def find_year_walls(year: int, runs: int = 3) -> dict[int, dict]:
    """jobs → the wall seconds of ``leishen find --topic 出行 --verdict 吉`` over *year*'s hours as a user runs it
    (a whole process: start, the disk-cached reader loaded, the hits written), *runs* runs of each, alternating:
    {"wall": median, "spread": "min–max s", "runs": n}. The processes' start and the reader's load are the
    serial part the workers cannot share."""
    import startup
    walls: dict[int, list] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="leishen-bench-find-") as folder:
        env, ls = startup.child_env(Path(folder)), startup.leishen_command()

        def find(end: str, jobs: int) -> list[str]:
            return [*ls, "find", "--topic", "出行", "--verdict", "吉", "--from", f"{year}-01-01T00:00+08:00",
                    "--to", end, "--jobs", str(jobs)]

        subprocess.run(find(f"{year}-01-01T01:00+08:00", 1), env=env, check=True, capture_output=True)  # the cache
        for _ in range(runs):
            for jobs in walls:
                walls[jobs].append(startup.timed(find(f"{year}-12-31T23:00+08:00", jobs), env, 1)["wall"])
    return {jobs: {"wall": statistics.median(w), "spread": f"{min(w):.2f}–{max(w):.2f} s", "runs": len(w)}
            for jobs, w in walls.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--charts", type=int, default=300)
    ap.add_argument("--year", type=int, default=2026)
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args()
    reader = book.reader()
    charts = random_charts(args.charts)
    rows = [judgment_cost(reader, charts, t) for t in TOPICS]
    y = args.year
    month = choose_seconds(reader, f"{y}-12-01T00:00+08:00", f"{y}-12-31T23:00+08:00", 1)
    year1 = choose_seconds(reader, f"{y}-01-01T00:00+08:00", f"{y}-12-31T23:00+08:00", 1)
    walls = find_year_walls(y)
    out = {"judgment": rows, "choose_month_s": round(month[0], 2), "choose_month_hits": month[1],
           "choose_year_jobs1_s": round(year1[0], 2), "year_hits": year1[1],
           "find_year_walls": {str(j): w for j, w in walls.items()},
           "jobs2_speedup": round(walls[1]["wall"] / walls[2]["wall"], 2)}
    print("topic  reading ms  with judgment ms  added ms (target ≤ 1)")
    for r in rows:
        print(f"{r['topic']:<6} {r['reading_ms']:>10} {r['with_judgment_ms']:>17} {r['added_ms']:>9}")
    print(f"choose 出行 吉, a month of hours (744 charts): {out['choose_month_s']} s (target ≤ 2), {month[1]} moments")
    print(f"choose 出行 吉, a year (8,760 charts), in process: {out['choose_year_jobs1_s']} s (target ≤ 20)")
    print(f"leishen find 出行 吉 over the year, whole process, wall median of {walls[1]['runs']}: --jobs 1 "
          f"{walls[1]['wall']:.2f} s ({walls[1]['spread']}), --jobs 2 {walls[2]['wall']:.2f} s ({walls[2]['spread']}): "
          f"{out['jobs2_speedup']}× (target ≥ 1.7)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
