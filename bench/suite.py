"""The benchmark suite behind ``bench/run``: every row side by side in one run, as ratios.

Rows (each one line of the table; a peer that is not installed is reported, not fatal):

* Liu Ren — datetime → chart (``liuren_chart``) vs kinliuren's pipeline (lunar_python gives
  the 節氣, lunar month and pillars, then ``kinliuren.Liuren(...).result(0)``): ratio = peer / leishen.
* Qimen — datetime → chart (``qimen_chart``) vs qimen-rs (the Rust crate, timed inside its
  harness, bench/peers/qimen_rs): ratio = leishen / qimen-rs (below 1: leishen is faster).
* Nine Star — datetime → year, month and day stars and plates (``ninestar_chart``) vs tyme4py
  (``SolarTime`` → ``SixtyCycleDay`` → the three ``get_nine_star``): ratio = peer / leishen.
* Liu Ren vs bazaar-of-fates (``fortune.casting.liuren.cast``), for information.
* Whole chart — ``build_chart`` of all three systems, the calendar computed once.
* Graph build in process (bench/bench_build.py's cold build), NetworkX.
* Neo4j first load and reload (bench/bench_neo4j.py, the neo4j helper's bench), when a server can start.
* Readings — ``leishen.service.book.read(chart)`` per chart (median of N) and ``leishen.service.readings.find_rule``
  over a year of hours, when the readings engine has them.
* Peak memory — the process's maximum resident set size at the end of the run.

Leishen and each peer are timed on the same inputs in CPU time (``time.process_time``; for
qimen-rs, the harness process's CPU time by ``getrusage``, its start-up spread over 10 passes),
so that the load other processes put on a shared machine is not counted; the best of several
rounds is kept, and Qimen rounds of the two sides are interleaved. The whole-chart row is CPU
time too; the graph build, Neo4j and readings rows are wall-clock time.
"""

from __future__ import annotations

import importlib
import importlib.util
import platform
import random
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

BENCH = Path(__file__).resolve().parent
SHANGHAI = ZoneInfo("Asia/Shanghai")
SIMPLIFIED = str.maketrans({"绿": "綠", "黄": "黃"})


def random_moments(count: int, seed: int = 1, first: int = 1950, years: int = 100) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(first, 1, 1, tzinfo=SHANGHAI)
    return [start + timedelta(minutes=rng.randrange(years * 365 * 24 * 60)) for _ in range(count)]


def year_of_hours(year: int = 2024) -> list[datetime]:
    start = datetime(year, 1, 1, tzinfo=SHANGHAI)
    return [start + timedelta(hours=i) for i in range(24 * (366 if year % 4 == 0 else 365))]


def per_item(func, items, rounds: int = 3) -> float:
    """Best-of-*rounds* CPU seconds per item (process time: a shared machine's load is not counted)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for item in items:
            func(item)
        best = min(best, time.process_time() - t0)
    return best / len(items)


def child_cpu_per_item(command: list[str], text: str, items: int, repeat: int) -> float:
    """CPU seconds per item of a child process that handles *items* inputs *repeat* times."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*command, str(repeat)], input=text, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu / (items * repeat)


def row(name: str, ours: float | None, peer: float | None, peer_name: str, ratio_kind: str,
        target: str, note: str = "") -> dict:
    """One table row: times in seconds per item; ratio 'faster' = peer/ours, 'time' = ours/peer."""
    ratio = None
    if ours and peer:
        ratio = peer / ours if ratio_kind == "faster" else ours / peer
    return {"name": name, "leishen_us": None if ours is None else ours * 1e6,
            "peer": peer_name, "peer_us": None if peer is None else peer * 1e6,
            "ratio": ratio, "ratio_kind": ratio_kind, "target": target, "note": note}


# ---------------------------------------------------------------- the chart engines

def bench_liuren(count: int) -> list[dict]:
    from leishen.engine.calendar import _year_table
    from leishen.engine.liuren.chart import _core, liuren_chart
    from leishen.engine.liuren.course import compute_course
    sample = random_moments(count)
    for cached in (_year_table, _core, compute_course):
        cached.cache_clear()
    cold = per_item(liuren_chart, sample, rounds=1)          # every year's term table read on the way
    rows = []
    if importlib.util.find_spec("kinliuren") is None:
        ours = per_item(liuren_chart, sample)
        return [row("Liu Ren chart", ours, None, "kinliuren (not installed: pip install -e '.[bench]')",
                    "faster", "≥ 50×")]
    sys.path.insert(0, str(BENCH))
    peers = importlib.import_module("bench_liuren")     # lunar_inputs, kin_engine: the same pipeline as there
    inputs, engine = peers.lunar_inputs, peers.kin_engine
    few = sample[: max(50, count // 4)]
    given = [inputs(m) for m in few]
    peer_engine = per_item(engine, given, rounds=2)
    peer = per_item(lambda m: engine(inputs(m)), few, rounds=2)
    ours = per_item(liuren_chart, sample)
    note = f"{count} random moments 1950-2050, term tables warm"
    rows.append(row("Liu Ren chart vs kinliuren engine", ours, peer_engine,
                    "kinliuren 0.1.2.9 engine only (its inputs precomputed)", "faster", "≥ 50×", note))
    rows.append(row("Liu Ren chart vs kinliuren pipeline", ours, peer, "kinliuren 0.1.2.9 + lunar_python",
                    "faster", "≥ 50×", note))
    rows.append(row("Liu Ren chart, cold caches, vs kinliuren pipeline", cold, peer,
                    "kinliuren 0.1.2.9 + lunar_python", "faster", "≥ 50×",
                    "first pass: term tables of ~100 years and the 720 courses computed on the way"))
    if importlib.util.find_spec("fortune") is not None:
        rows.append(_bazaar(sample[:40], ours))
    return rows


def _bazaar(sample: list[datetime], ours: float) -> dict:
    """bazaar-of-fates' Liu Ren cast (``fortune.casting.liuren.cast``), for information."""
    try:
        from fortune.casting import liuren as bz

        def cast(moment):
            return bz.cast(bz.BirthInput(birth_date=moment.date(), birth_time=moment.timetz().replace(tzinfo=None),
                                         tz_offset_hours=moment.utcoffset().total_seconds() / 3600))
        peer = per_item(cast, sample, rounds=1)
        return row("Liu Ren chart (bazaar-of-fates)", ours, peer, "bazaar-of-fates 0.3.3", "faster", "info")
    except Exception as exc:                                   # a peer's own failure is reported, not fatal
        return row("Liu Ren chart (bazaar-of-fates)", ours, None, f"bazaar-of-fates: {type(exc).__name__}: {exc}",
                   "faster", "info")


def _qimen_harness() -> Path | None:
    harness = BENCH / "peers" / "qimen_rs" / "target" / "release" / "qimen_rs_bench"
    if not harness.exists() and shutil.which("cargo"):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=harness.parents[2])
    return harness if harness.exists() else None


def bench_qimen(rounds: int) -> list[dict]:
    from leishen.engine.qimen.chart import qimen_chart
    harness = _qimen_harness()
    rows = []
    for label, moments in (("Qimen chart, year 2024 hourly", year_of_hours()),
                           ("Qimen chart, random 1900-2100", random_moments(20000, 2024, 1900, 200))):
        for m in moments[:2000]:
            qimen_chart(m)
        lines = "\n".join(m.strftime("%Y-%m-%dT%H:%M:%S") for m in moments) + "\n"
        ours = peer = float("inf")
        for _ in range(rounds):                               # interleaved: machine load hits both alike
            ours = min(ours, per_item(qimen_chart, moments, 1))
            if harness is not None:                           # its CPU time, start-up spread over 10 passes
                peer = min(peer, child_cpu_per_item([str(harness), "time"], lines, len(moments), 10))
        peer = None if harness is None else peer
        name = "qimen-rs 1.0.0-alpha.3 (Rust)" if harness else "qimen-rs (harness not built: cargo missing)"
        rows.append(row(label, ours, peer, name, "time", "≤ 0.7"))
    return rows


def bench_ninestar(count: int) -> list[dict]:
    from leishen.engine.ninestar import ninestar_chart
    sample = random_moments(count, 5)
    for m in sample:
        ninestar_chart(m)
    ours = per_item(ninestar_chart, sample)
    if importlib.util.find_spec("tyme4py") is None:
        return [row("Nine Star chart", ours, None, "tyme4py (not installed)", "faster", "≥ 10×")]
    from tyme4py.solar import SolarTime

    def tyme(moment):
        day = SolarTime.from_ymd_hms(moment.year, moment.month, moment.day, moment.hour, moment.minute, 0).get_solar_day()
        cycle = day.get_sixty_cycle_day().get_sixty_cycle_month()
        return (str(cycle.get_sixty_cycle_year().get_nine_star()), str(cycle.get_nine_star()), str(day.get_nine_star()))
    peer = per_item(tyme, sample[: max(50, count // 4)], rounds=2)
    agree = sum(tuple(s[:2].translate(SIMPLIFIED) for s in tyme(m)) ==
                tuple(ninestar_chart(m, day_leap="end_anchored")[k] for k in ("year", "month", "day"))
                for m in sample[:200])
    return [row("Nine Star chart", ours, peer, "tyme4py 1.5.0", "faster", "≥ 10×",
                f"stars equal to tyme4py's (end_anchored) on {agree}/{min(200, count)}; tyme4py takes the "
                f"month by civil day and the day at midnight")]


def bench_whole_chart(count: int) -> list[dict]:
    from leishen.engine.chart import build_chart
    sample = random_moments(count, 9)
    for m in sample:
        build_chart(m)
    hours = year_of_hours(2025)
    t0 = time.process_time()
    for m in hours:
        build_chart(m)
    year = time.process_time() - t0
    return [row("Whole chart (3 systems)", per_item(build_chart, sample), None, "—", "faster", "—",
                f"calendar computed once; a year of hourly charts (first pass): {year:.2f} s of CPU")]


# ---------------------------------------------------------------- graph, Neo4j, readings

def bench_graph() -> list[dict]:
    sys.path.insert(0, str(BENCH))
    bench_build = importlib.import_module("bench_build")
    runs = [bench_build.one_build() for _ in range(5)]
    total = statistics.median(r[0] + r[2] for r in runs)
    cpu = statistics.median(r[1] + r[3] for r in runs)
    nodes, relations = runs[-1][4:]
    return [row("Graph build in process", total, None, "—", "faster", "≤ 0.1 s",
                f"median of 5 cold builds: records + NetworkX, {nodes} nodes, {relations} relations; "
                f"{cpu:.3f} s of CPU")]


def bench_neo4j() -> list[dict]:
    """First load and reload, by the neo4j helper's bench (bench/bench_neo4j.py)."""
    sys.path.insert(0, str(BENCH))
    module = importlib.import_module("bench_neo4j")
    if hasattr(module, "load_times"):
        try:
            first, reload_ = module.load_times()
        except Exception as exc:                              # no Java, no server, no driver
            return [_skipped("Neo4j first load / reload", f"{type(exc).__name__}: {exc}")]
    else:
        done = subprocess.run([sys.executable, str(BENCH / "bench_neo4j.py"), "--loads", "2", "--charts", "3"],
                              capture_output=True, text=True, timeout=900)
        lines: dict = {}
        for line in done.stdout.splitlines():  # the first line of each name (a later one may say the target)
            if len(line.split()) > 2:
                lines.setdefault(line.split()[0] + " " + line.split()[1], line)
        if done.returncode != 0 or "first load" not in lines:
            reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return [_skipped("Neo4j first load / reload", reason)]
        first = float(lines["first load"].split()[2])
        reload_ = float(lines["reload (median)"].split()[2])
    return [row("Neo4j first load", first, None, "—", "faster", "≤ 15 s"),
            row("Neo4j reload", reload_, None, "—", "faster", "≤ 5 s")]


def _skipped(name: str, reason: str) -> dict:
    return {**row(name, None, None, "—", "faster", "—"), "note": f"skipped: {reason}"}


def bench_readings(count: int) -> list[dict]:
    """Readings beside chart-only time on the same charts: the general reading, every topic in one
    reading, ``find`` of a pattern over a year of hours, and a reading on Neo4j when NEO4J_URI names a
    loaded server (``leishen neo4j start && leishen build --backend neo4j``)."""
    names = ("Chart only (3 systems), the general row's charts", "Reading per chart, general (NetworkX)",
             "Reading per chart, every topic (NetworkX)", "find over a year of hours (8,760 charts)",
             "Reading per chart on Neo4j (every topic)", "Reading per chart on Neo4j, general",
             "Reading per chart, every topic, warm reader (NetworkX)",
             "Reading per chart, every topic, every outcome recalled (NetworkX)")
    try:  # (before #37 the readers were made by leishen.readings: the same rows of the code before it)
        readings = importlib.import_module("leishen.service.book")
    except ImportError:
        try:
            readings = importlib.import_module("leishen.readings")
        except ImportError:
            return [_skipped(name, "leishen.service.book is not importable") for name in names]
    from leishen.engine.chart import build_chart
    from leishen.service.readings import find_rule
    moments = random_moments(count, 13)
    chart_times, charts = [], []
    for m in moments:  # timed as they are first computed (a moment computed again hits the engine's caches)
        t0 = time.perf_counter()
        charts.append(build_chart(m))
        chart_times.append(time.perf_counter() - t0)
    # each row reads charts no other row has read (a reader keeps what depends on node ids only)
    fresh = [build_chart(m) for m in random_moments(count, 14)]
    readings.read(build_chart(random_moments(1, 99)[0]), topic="*")  # builds the graph, on a chart not timed
    rows = [row(names[0], statistics.median(chart_times), None, "—", "faster", "—",
                f"median of {count} moments, each computed for the first time")]
    rows.append(row(names[1], _median_time(readings.read, charts), None, "—", "faster", "≤ 3 ms",
                    f"median of {count} random charts, rules of no topic + patterns + lore"))
    rows.append(row(names[2], _median_time(lambda c: readings.read(c, topic="*"), fresh), None, "—", "faster",
                    "≤ 10 ms", f"median of {count} other random charts, every topic at once (--topic '*')"))
    for chart in (build_chart(m) for m in random_moments(2 * count, 16)):  # a long-running reader's caches
        readings.read(chart, topic="*")
    steady = [build_chart(m) for m in random_moments(count, 17)]
    rows.append(row(names[6], _median_time(lambda c: readings.read(c, topic="*"), steady), None, "—", "faster",
                    "—", f"median of {count} more random charts, read after {3 * count} readings of every topic "
                    "(what the reader keeps — answers, graph results, findings, the outcomes it recalls by the chart values "
                    "each rule reads — is warm, as in a service)"))
    median, evaluated = _second_reading_time(readings, steady)
    rows.append(row(names[7], median, None, "—", "faster", "—",
                    f"the warm row's {count} charts, each read again right after it is read once ({evaluated:g} rules "
                    "evaluated per second reading): what a reading of every topic costs besides evaluating its rules "
                    "(bindings, recalled outcomes, lore, the reading's JSON)"))
    start = datetime(2025, 1, 1, tzinfo=SHANGHAI)
    t0 = time.perf_counter()
    hits = sum(1 for _ in find_rule(readings.reader(), "斫輪", start, start + timedelta(hours=8759)))
    rows.append(row(names[3], time.perf_counter() - t0, None, "—", "faster", "≤ 3 s",
                    f"pattern 斫輪 (000:3): {hits} moments"))
    rows += _neo4j_readings(readings, [build_chart(m) for m in random_moments(100, 15)], names[4:6])
    return rows


def _second_reading_time(readings, charts) -> tuple[float, float]:
    """(median time of each chart's second reading of every topic, right after its first: every outcome recalled,
    even just after the reader forgot earlier charts'; rules the second readings evaluated, per chart)."""
    recall, times, evaluated = readings.reader().recall, [], 0
    for chart in charts:
        readings.read(chart, topic="*")
        before = recall.evaluated
        t0 = time.perf_counter()
        readings.read(chart, topic="*")
        times.append(time.perf_counter() - t0)
        evaluated += recall.evaluated - before
    return statistics.median(times), evaluated / len(charts)


def _median_time(func, items) -> float:
    times = []
    for item in items:
        t0 = time.perf_counter()
        func(item)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


NEO4J_WARM_READINGS = 200  # readings of every topic before the Neo4j rows are timed (the JVM compiles the hot paths)
NEO4J_EARLY_READINGS = 25  # readings timed before that warm-up (as the earlier method timed the rows)


def _neo4j_readings(readings, charts, names) -> list[dict]:
    """A reading of every topic and the general reading on Neo4j, without the cache (the server is asked
    every time), timed after NEO4J_WARM_READINGS readings of other charts: a server that has just started
    answers more slowly (up to about twice) until its JIT has compiled the queries' paths, and the note gives the
    median of the NEO4J_EARLY_READINGS readings before that warm-up too. The note also gives the median time the server
    reported (its summaries) and the median time in the backend's calls (server, driver, packing), the rest
    of a reading being Python."""
    if not os.environ.get("NEO4J_URI"):
        return [_skipped(name, "set NEO4J_URI to a loaded server (leishen neo4j start; leishen build --backend neo4j)")
                for name in names]
    from leishen.backends import get_backend, neo4j_config
    backend = get_backend("neo4j", **neo4j_config())
    reader = readings.Reader(backend, cache=False)
    reader.read(charts[0], topic="*")                        # the long query's first plan (about 1 s)
    from leishen.engine.chart import build_chart
    early_charts = [build_chart(m) for m in random_moments(NEO4J_EARLY_READINGS, 18)]
    early = _median_time(lambda c: reader.read(c, topic="*"), early_charts)
    for moment in random_moments(NEO4J_WARM_READINGS, 19):  # the server's JIT, warm as in a running service
        reader.read(build_chart(moment), topic="*")
    clock = _backend_clock(backend)
    rows, half = [], (len(charts) + 1) // 2
    for name, topic, charts in ((names[0], "*", charts[1:half]), (names[1], None, charts[half:])):  # charts not read before
        server, calls = [], []

        def one(chart, topic=topic, server=server, calls=calls):
            clock.update(server=0.0, calls=0.0)
            reader.read(chart, topic=topic)
            server.append(clock["server"]), calls.append(clock["calls"])

        median = _median_time(one, charts)
        note = (f"median of {len(charts)} charts, no cache: at most 3 round trips each; server "
                f"{statistics.median(server) * 1e3:.1f} ms, backend calls {statistics.median(calls) * 1e3:.1f} ms; "
                f"timed after {NEO4J_WARM_READINGS} warm-up readings")
        if topic == "*":
            note += f" (the {NEO4J_EARLY_READINGS} readings before them: {early * 1e3:.1f} ms)"
        rows.append(row(name, median, None, "—", "faster", "≤ 60 ms" if topic == "*" else "—", note))
    return rows


def _backend_clock(backend) -> dict:
    """Wrap the backend's named queries to add up, per reading, the time the server reports for each query
    (available + consumed) and the time spent in the calls; read and reset by the caller."""
    clock = {"server": 0.0, "calls": 0.0}
    read, run = backend._read, backend.run

    def timed_read(text, params, action, **kwargs):
        records, keys, summary = read(text, params, action, **kwargs)
        clock["server"] += ((summary.result_available_after or 0) + (summary.result_consumed_after or 0)) / 1000
        return records, keys, summary

    def timed_run(name, **params):
        t0 = time.perf_counter()
        try:
            return run(name, **params)
        finally:
            clock["calls"] += time.perf_counter() - t0

    backend._read, backend.run = timed_read, timed_run
    return clock


# ---------------------------------------------------------------- machine and memory

def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()}", "when": datetime.now().astimezone().isoformat(
                timespec="seconds")}


def peak_memory_row() -> dict:
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {**row("Peak memory (whole run)", None, None, "—", "faster", "—"), "note": f"{peak_kb / 1024:.0f} MB max RSS"}
