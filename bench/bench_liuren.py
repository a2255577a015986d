"""Liu Ren: datetime → chart, leishen side by side with kinliuren, in one run, as ratios.

Run:  python bench/bench_liuren.py [--count 300] [--seed 1]

Peers (bench-only, not dependencies of leishen):

* ``kinliuren`` (PyPI 0.1.2.9): its engine ``Liuren(節氣, 農曆月, 日干支, 時干支).result(0)``.
  The package has no datetime pipeline of its own, so two are timed:

  - *kinliuren + lunar_python*: the 節氣, lunar month and pillars from lunar_python, then the
    engine (the fastest honest pipeline for it);
  - *kinliuren app pipeline*: what its app does (``jieqi.jq`` by ephem iteration, ``jieqi.gangzhi1``
    by sxtwl), when ``KINLIUREN_APP_DIR`` names a folder holding the app's ``jieqi.py`` and
    ``ephem`` and ``sxtwl`` are installed. Skipped otherwise.

The 三傳 agreement with kinliuren is printed for information only: kinliuren is not an oracle
(its 三傳 change with the hour for one plate; see bench/README-liuren.md).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from leishen.engine.calendar import _year_table
from leishen.engine.liuren.chart import _core, liuren_chart
from leishen.engine.liuren.course import compute_course

SHANGHAI = ZoneInfo("Asia/Shanghai")
LUNAR_MONTHS = list("正二三四五六七八九十") + ["十一", "十二"]
SIMPLIFIED = str.maketrans({"惊": "驚", "谷": "穀", "满": "滿", "种": "種", "处": "處", "蛰": "蟄"})


def moments(count: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(1950, 1, 1, tzinfo=SHANGHAI)
    return [start + timedelta(minutes=rng.randrange(100 * 365 * 24 * 60)) for _ in range(count)]


def clear_caches() -> None:
    for cached in (_year_table, _core, compute_course):
        cached.cache_clear()


def timed(label: str, func, items) -> tuple[float, list]:
    t0 = time.perf_counter()
    out = [func(item) for item in items]
    return time.perf_counter() - t0, out


def leishen(moment: datetime) -> tuple[str, ...]:
    return tuple(liuren_chart(moment)["transmissions"])


def lunar_inputs(moment: datetime) -> tuple[str, str, str, str]:
    from lunar_python import Solar
    t = moment.astimezone(SHANGHAI)
    lunar = Solar.fromYmdHms(t.year, t.month, t.day, t.hour, t.minute, 0).getLunar()
    eight = lunar.getEightChar()
    eight.setSect(1)
    term = lunar.getPrevJieQi().getName().translate(SIMPLIFIED)
    return term, LUNAR_MONTHS[abs(lunar.getMonth()) - 1], eight.getDay(), eight.getTime()


def kin_engine(inputs: tuple[str, str, str, str]):
    from kinliuren import kinliuren
    result = kinliuren.Liuren(*inputs).result(0)["三傳"]
    return tuple(result[k][0] for k in ("初傳", "中傳", "末傳"))


def kin_with_lunar(moment: datetime):
    return kin_engine(lunar_inputs(moment))


def load_app_calendar():
    folder = os.environ.get("KINLIUREN_APP_DIR")
    if not folder:
        return None
    sys.path.insert(0, folder)
    try:
        return importlib.import_module("jieqi")
    except ImportError as exc:
        print(f"(kinliuren app pipeline skipped: {exc})")
        return None


def kin_app(jieqi_module):
    def run(moment: datetime):
        t = moment.astimezone(SHANGHAI)
        term = jieqi_module.jq(t.year, t.month, t.day, t.hour, t.minute)
        _, _, day, hour = jieqi_module.gangzhi1(t.year, t.month, t.day, t.hour, t.minute)
        month = lunar_inputs(moment)[1]           # the app takes the lunar month from sxtwl; same value
        return kin_engine((term, month, day, hour))
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sample = moments(args.count, args.seed)

    clear_caches()
    cold, ours = timed("leishen cold", leishen, sample)
    warm = min(timed("leishen warm", leishen, sample)[0] for _ in range(5))   # best of 5: machine noise
    inputs = [lunar_inputs(m) for m in sample]
    engine_only, kin = timed("kinliuren engine", kin_engine, inputs)
    with_lunar, _ = timed("kinliuren + lunar_python", kin_with_lunar, sample)
    rows = [("leishen (cold caches)", cold), ("leishen (warm caches)", warm),
            ("kinliuren engine only (inputs precomputed)", engine_only),
            ("kinliuren + lunar_python pipeline", with_lunar)]
    app = load_app_calendar()
    if app is not None:
        app_time, _ = timed("kinliuren app pipeline", kin_app(app), sample[: max(1, args.count // 10)])
        rows.append(("kinliuren app pipeline (ephem + sxtwl)", app_time * len(sample) / max(1, args.count // 10)))

    print(f"{args.count} moments 1950–2050 (seed {args.seed}), per-chart time and ratio to leishen (warm / cold)")
    for label, seconds in rows:
        per = seconds / len(sample) * 1e6
        print(f"  {label:45s} {per:10.1f} µs/chart   ×{seconds / warm:8.1f} warm   ×{seconds / cold:7.1f} cold")
    agree = sum(a == b for a, b in zip(ours, kin))
    print(f"三傳 agreement with kinliuren (information only, not an oracle): {agree}/{len(sample)}")


if __name__ == "__main__":
    main()
