"""Bench: datetime → Qimen chart, leishen side by side with the peers, as ratios.

    python bench/bench_qimen.py [--rounds 5] [--sample 20000] [--record tests/engine/data/qimen_rs_oracle.json]

Peers (each optional; a missing one is reported, not fatal):

* qimen-rs — the Rust crate ``qimen`` (atopx/qimen-rs) through the harness in
  ``bench/peers/qimen_rs`` (built here with ``cargo build --release`` if cargo is present).
  The harness times ``SolarTime::qimen()`` inside the binary, so process start-up and I/O
  are not counted.
* kinqimen — the PyPI package, when installed (``pip install kinqimen``).

Workloads: a year of hourly charts (2024, UTC+8) and a random sample of moments 1900–2100.
Rounds of leishen and of each peer are interleaved and the best round of each is kept, so
that load from other processes on the machine hits both sides alike. A fresh-process run
also measures the cold year (term tables and plates computed on the way).

``--record FILE`` also writes the qimen-rs charts of a fixed sample as the oracle fixture
used by tests/engine/test_qimen_oracle.py.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from leishen.engine.calendar import CHINA_STANDARD_TIME
from leishen.engine.qimen.chart import qimen_chart

ROOT = Path(__file__).resolve().parent
HARNESS_DIR = ROOT / "peers" / "qimen_rs"
HARNESS = HARNESS_DIR / "target" / "release" / "qimen_rs_bench"


def year_of_hours(year: int = 2024) -> list[datetime]:
    start = datetime(year, 1, 1, tzinfo=CHINA_STANDARD_TIME)
    hours = (datetime(year + 1, 1, 1, tzinfo=CHINA_STANDARD_TIME) - start) // timedelta(hours=1)
    return [start + timedelta(hours=i) for i in range(hours)]


def random_moments(n: int, seed: int = 2024) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(1900, 2, 1, tzinfo=CHINA_STANDARD_TIME)
    span = int((datetime(2100, 12, 1, tzinfo=CHINA_STANDARD_TIME) - start).total_seconds())
    return [start + timedelta(seconds=rng.randrange(span)) for _ in range(n)]


def clock_lines(moments: list[datetime]) -> str:
    return "\n".join(m.strftime("%Y-%m-%dT%H:%M:%S") for m in moments) + "\n"


def build_harness() -> bool:
    if HARNESS.exists():
        return True
    if shutil.which("cargo") is None:
        return False
    done = subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=HARNESS_DIR)
    return done.returncode == 0 and HARNESS.exists()


def time_qimen_rs(lines: str, rounds: int = 1) -> float:
    """Seconds per chart measured inside the harness."""
    out = subprocess.run([str(HARNESS), "time", str(rounds)], input=lines, capture_output=True, text=True, check=True)
    fields = dict(part.split("=") for part in out.stdout.split())
    return float(fields["per_chart_us"]) * 1e-6


def time_leishen(moments: list[datetime]) -> float:
    """Seconds per chart (caches: the plates, the term tables, the 局 of each term and day)."""
    start = time.perf_counter()
    for moment in moments:
        qimen_chart(moment)
    return (time.perf_counter() - start) / len(moments)


def kinqimen_timer(samples: int = 3):
    """kinqimen's ``Qimen(...).pan(1)`` (拆補), or None when it is not installed.

    kinqimen 0.0.6.6 imports its own ``config`` module as a top-level name, so its package folder
    is put on sys.path first. It takes seconds per chart, so only a few charts are timed.
    """
    spec = importlib.util.find_spec("kinqimen")
    if spec is None or spec.origin is None:
        return None
    sys.path.insert(0, os.path.dirname(spec.origin))
    try:
        kinqimen = importlib.import_module("kinqimen")   # the module kinqimen/kinqimen.py
    except ImportError:
        return None

    def run(moments: list[datetime]) -> float:
        chosen = moments[:samples]
        start = time.perf_counter()
        for m in chosen:
            kinqimen.Qimen(m.year, m.month, m.day, m.hour, m.minute).pan(1)
        return (time.perf_counter() - start) / len(chosen)
    return run


def cold_year_seconds() -> float:
    """A fresh interpreter: import, then a year of hourly charts with empty caches."""
    code = ("import time;t=time.perf_counter();import bench_qimen as b;m=b.year_of_hours();"
            "t0=time.perf_counter();[b.qimen_chart(x) for x in m];print(time.perf_counter()-t0)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def record_oracle(path: Path, n: int = 240, seed: int = 4) -> None:
    """qimen-rs charts of a fixed sample (plus late-December and 中五 旬首 cases) as JSON."""
    moments = random_moments(n, seed)
    moments += [datetime(y, 12, 27, 10, 30, tzinfo=CHINA_STANDARD_TIME) for y in (1915, 1951, 2016, 2032, 2077)]
    out = subprocess.run([str(HARNESS), "dump"], input=clock_lines(moments), capture_output=True, text=True, check=True)
    charts = [json.loads(line) for line in out.stdout.splitlines()]
    for chart in charts:   # one string per palace, in palace order 1-9: "earth heaven star gate deity"
        fields = ("earth", "heaven", "star", "gate", "deity")
        chart["palaces"] = [" ".join(str(chart["palaces"][str(p)][k]) for k in fields) for p in range(1, 10)]
    doc = {
        "source": "qimen crate 1.0.0-alpha.3 (github atopx/qimen-rs), via bench/peers/qimen_rs (dump mode)",
        "recorded_with": "python bench/bench_qimen.py --record tests/engine/data/qimen_rs_oracle.json",
        "clock": "China standard time (UTC+8) wall clock, as given to SolarTime::from_ymd_hms",
        "palaces": "palaces 1-9, each 'earth heaven star gate deity' as the crate prints them "
                   "(simplified; None = none)",
        "charts": charts,
    }
    head = json.dumps({k: v for k, v in doc.items() if k != "charts"}, ensure_ascii=False, indent=1)[:-2]
    rows = ",\n".join(json.dumps(chart, ensure_ascii=False, separators=(",", ":")) for chart in charts)
    path.write_text(f'{head},\n "charts": [\n{rows}\n]}}\n', encoding="utf-8")
    print(f"recorded {len(charts)} qimen-rs charts into {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=20000)
    parser.add_argument("--record", type=Path)
    args = parser.parse_args()
    have_rs = build_harness()
    kin = kinqimen_timer()
    if args.record:
        if not have_rs:
            sys.exit("qimen-rs harness could not be built (cargo missing?)")
        record_oracle(args.record)
    workloads = {"year 2024 hourly": year_of_hours(), f"random {args.sample} (1900-2100)": random_moments(args.sample)}
    print(f"{'workload':28} {'leishen µs':>11} {'qimen-rs µs':>12} {'ratio':>6} {'kinqimen µs (3 charts)':>23}")
    for name, moments in workloads.items():
        lines = clock_lines(moments)
        best = {"leishen": float("inf"), "qimen-rs": float("inf"), "kinqimen": float("inf")}
        time_leishen(moments[:1000])                     # warm the caches once (plates, terms)
        for _ in range(args.rounds):
            best["leishen"] = min(best["leishen"], time_leishen(moments))
            if have_rs:
                best["qimen-rs"] = min(best["qimen-rs"], time_qimen_rs(lines))
        if kin is not None:
            best["kinqimen"] = kin(moments)
        rs = best["qimen-rs"]
        ratio = f"{best['leishen'] / rs:6.2f}" if have_rs else "   n/a"
        kin_text = f"{best['kinqimen'] * 1e6:23.0f}" if kin is not None else f"{'(absent)':>23}"
        rs_text = f"{rs * 1e6:12.2f}" if have_rs else "   (absent)"
        print(f"{name:28} {best['leishen'] * 1e6:11.2f} {rs_text} {ratio} {kin_text}")
    print(f"cold year of hourly charts in a fresh process: {cold_year_seconds():.2f} s (target <= 2 s)")


if __name__ == "__main__":
    main()
