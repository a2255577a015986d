"""A year of hourly charts (8,760 moments): the whole datetime → chart pipeline.

Run:  python bench/bench_year.py [--year 2024] [--tz Asia/Shanghai]

Target (issue 4): ≤ 2 s for the year. Printed: Liu Ren alone, each peer system alone, and the
whole chart (all systems), each from cold caches (cleared first) and warm (best of three).
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from leishen.engine.calendar import _year_table
from leishen.engine.chart import ChartRequest, build_chart
from leishen.engine.liuren.chart import _core
from leishen.engine.liuren.course import compute_course


def hours_of(year: int, zone: str) -> list[datetime]:
    start = datetime(year, 1, 1, tzinfo=ZoneInfo(zone))
    return [start + timedelta(hours=h) for h in range(8760)]


def run(moments: list[datetime], request: ChartRequest) -> float:
    t0 = time.perf_counter()
    for moment in moments:
        build_chart(moment, request)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--year", type=int, default=2024)
    parser.add_argument("--tz", default="Asia/Shanghai")
    args = parser.parse_args()
    moments = hours_of(args.year, args.tz)
    print(f"{len(moments)} hourly moments of {args.year} ({args.tz}); target ≤ 2.0 s for the whole pipeline")
    for label, systems in (("liuren", ("liuren",)), ("qimen", ("qimen",)), ("ninestar", ("ninestar",)),
                           ("whole chart", ("liuren", "qimen", "ninestar"))):
        request = ChartRequest(systems=systems)
        for cached in (_year_table, _core, compute_course):
            cached.cache_clear()
        cold = run(moments, request)
        warm = min(run(moments, request) for _ in range(3))
        print(f"  {label:12s} cold {cold:6.2f} s   warm {warm:6.2f} s   ({warm / len(moments) * 1e6:6.1f} µs/chart)")


if __name__ == "__main__":
    main()
