"""The day-star 閏 rule (DayLeap) against lunar-python and tyme4py.

Both libraries turn at the 甲子 nearest 冬至 (一白, rising) and nearest 夏至 (九紫, falling) and
agree whenever a half-year lasts 180 days. They part in the 240-day 陰遁 halves (1905, 1928,
1939, 1951, 1962, 1985, 2008, 2031, …):

* lunar-python counts the half on from its 夏至 甲子 (``continue``) — except for the days from
  1 January to the next 冬至 甲子, which it counts back from that 甲子 (its "before the first
  甲子 of the year" branch), so its own sequence jumps twice in such a half.
* tyme4py counts the whole 陰遁 half back from the next 冬至 甲子 (``end_anchored``).

leishen's default ``continue`` equals lunar-python everywhere except those January days (a
lunar-python inconsistency, documented here); ``end_anchored`` equals tyme4py everywhere. The
tyme4py values are recorded in tests/engine/data/ninestar_tyme4py.json (tyme4py is not a
dependency); run this file as a script to record them again.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from lunar_python import Solar

from leishen.engine.calendar import CHINA_STANDARD_TIME
from leishen.engine.ninestar import _turning_days, ninestar_chart

DATA = Path(__file__).parent / "data" / "ninestar_tyme4py.json"
LONG_YIN_HALVES = (date(1985, 5, 25), date(2008, 5, 24), date(2031, 5, 24))


def _noon(d: date) -> datetime:
    return datetime(d.year, d.month, d.day, 12, tzinfo=CHINA_STANDARD_TIME)


def _lunar_python_day(d: date) -> str:
    star = Solar.fromYmd(d.year, d.month, d.day).getLunar().getDayNineStar()
    return (star.getNumber() + star.getColor()).replace("绿", "綠").replace("黄", "黃")


def _long_half_january_tail(d: date) -> bool:
    """Is *d* in January before the 冬至 甲子 that closes a 240-day 陰遁 half?"""
    turns = _turning_days(d.year, CHINA_STANDARD_TIME, "23:00", None)
    for (start, dun), (end, _) in zip(turns, turns[1:]):
        if dun == "陰" and end - start == 240 and start <= d.toordinal() < end:
            return d.month == 1
    return False


def _sample_days(random_days: int = 80, step: int = 2) -> list[date]:
    """Random days 1901-2100 and every *step*-th day through three long 陰遁 halves."""
    rng = random.Random(8)
    days = [date(1901, 1, 1) + timedelta(days=rng.randrange(200 * 365)) for _ in range(random_days)]
    for opening in LONG_YIN_HALVES:
        days += [opening + timedelta(days=k) for k in range(-3, 245, step)]
    return sorted(set(days))


def test_continue_equals_lunar_python_outside_its_january_tail():
    checked = tail = 0
    for d in _sample_days(random_days=30, step=9):      # lunar-python takes ~10 ms a day
        ours = ninestar_chart(_noon(d))["day"]
        if _long_half_january_tail(d):                # lunar-python counts these back from the 甲子
            tail += 1
            assert _lunar_python_day(d) == ninestar_chart(_noon(d), day_leap="end_anchored")["day"] != ours, d
            continue
        assert ours == _lunar_python_day(d), d
        checked += 1
    assert checked > 80 and tail > 0


def test_both_rules_agree_outside_long_yin_halves():
    for d in _sample_days():
        turns = _turning_days(d.year, CHINA_STANDARD_TIME, "23:00", None)
        k = max(i for i, (n, _) in enumerate(turns) if n <= d.toordinal())
        long_yin = turns[k][1] == "陰" and turns[k + 1][0] - turns[k][0] == 240
        same = ninestar_chart(_noon(d))["day"] == ninestar_chart(_noon(d), day_leap="end_anchored")["day"]
        assert same == (not long_yin), d            # in a 240-day 陰遁 half the two never agree


def test_long_yin_half_of_2008_in_both_rules():
    opening = date(2008, 5, 24)                                       # the 甲子 nearest 夏至 2008
    assert ninestar_chart(_noon(opening))["day"] == "九紫"              # continue: the verse's 九紫
    assert ninestar_chart(_noon(opening), day_leap="end_anchored")["day"] == "六白"
    closing = date(2009, 1, 18)                                        # the day before the 冬至 甲子
    assert ninestar_chart(_noon(closing))["day"] == "四綠"
    assert ninestar_chart(_noon(closing), day_leap="end_anchored")["day"] == "一白"
    assert ninestar_chart(_noon(closing + timedelta(days=1)))["day"] == "一白"


def test_end_anchored_equals_tyme4py_recorded():
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    assert doc["source"].startswith("tyme4py")
    for day, star in doc["days"].items():
        assert ninestar_chart(_noon(date.fromisoformat(day)), day_leap="end_anchored")["day"] == star, day


def test_end_anchored_equals_tyme4py_live():
    solar = pytest.importorskip("tyme4py.solar")
    for d in _sample_days()[::3]:
        star = str(solar.SolarDay(d.year, d.month, d.day).get_nine_star())[:2].replace("绿", "綠").replace("黄", "黃")
        assert ninestar_chart(_noon(d), day_leap="end_anchored")["day"] == star, d


def _record() -> None:
    from tyme4py.solar import SolarDay
    import tyme4py
    days = {}
    for d in _sample_days():
        star = str(SolarDay(d.year, d.month, d.day).get_nine_star())[:2]
        days[d.isoformat()] = star.replace("绿", "綠").replace("黄", "黃")
    version = getattr(tyme4py, "__version__", "1.5.0")
    doc = {"source": f"tyme4py {version} SolarDay.get_nine_star (day star, civil date in UTC+8)",
           "recorded_with": "python tests/engine/test_ninestar_schools.py", "days": days}
    DATA.write_text(json.dumps(doc, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"recorded {len(days)} days into {DATA}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    _record()
