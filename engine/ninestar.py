"""The flying Nine Stars (紫白九星): the centre star of the year, month and day, and their plates.

Stars: 一白 二黑 三碧 四綠 五黃 六白 七赤 八白 九紫; palaces by the 洛書 (坎1 坤2 震3 巽4
中5 乾6 兌7 艮8 離9). A plate puts the ruling star in the centre and flies the others
through the palaces in the 洛書 path 5→6→7→8→9→1→2→3→4 (順飛: the star number rises
along the path; 逆飛: it falls).

* Year (年紫白): the year turns at 立春. 上元甲子 (1864) is 一白 and each year steps one star
  back (上元一白中宮起, 中元四綠, 下元七赤, 逆行): star = 11 − (year mod 9), wrapped to 1–9.
* Month (月紫白): 子午卯酉 years open 寅 month with 八白, 辰戌丑未 years with 五黃, 寅申巳亥
  years with 二黑; each 節 month steps one star back.
* Day (日紫白): from the 甲子 day nearest 冬至 the stars rise from 一白 (陽遁); from the 甲子
  day nearest 夏至 they fall from 九紫 (陰遁) (冬至陽生前後節 … 陰生夏至九宮逆). Two 甲子
  are 60 days apart, so a half-year holds 180 days, or 240 when the solstice has drifted
  past a 甲子 (the 閏 half). :class:`DayLeap` names the two readings of that fourth cycle.

Year and month plates fly 順; the day plate flies 順 in 陽遁 and 逆 in 陰遁 by default
(有是何星當值日, 移入中宮順逆飛), or always 順 (``day_flight="forward"``).

The plates of a chart are shared read-only dicts (as in the Qimen engine); ``copy.deepcopy``
or :func:`fly` give writable ones.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from functools import lru_cache
from math import floor

from leishen.engine.calendar import (
    BRANCHES, CHINA_STANDARD_TIME, DAY_BOUNDARIES, MomentFacts, chart_clock, check_moment, day_number, moment_facts,
    solstice,
)
from leishen.engine.qimen.ju import sexagenary_of_day_number
from leishen.engine.qimen.frozen import FrozenDict
from leishen.engine.qimen.plate import parse_option
from leishen.engine.options import NinestarOptions, choice_enum
from leishen.errors import ChartError

__all__ = ["STARS", "DayLeap", "DayFlight", "year_star", "month_star", "day_star", "fly", "ninestar_chart",
           "ninestar_from_facts", "check_options",
           "validate_ninestar", "render_ninestar"]

STARS = ("一白", "二黑", "三碧", "四綠", "五黃", "六白", "七赤", "八白", "九紫")
_ALIASES = {"四绿": "四綠", "五黄": "五黃"}
#: The 洛書 flight path from the centre (the order the plate is filled in).
PATH = (5, 6, 7, 8, 9, 1, 2, 3, 4)
_GRID = ((4, 9, 2), (3, 5, 7), (8, 1, 6))


#: How the day stars run through a 240-day half-year (the 閏 half) (engine/options.csv).
DayLeap = choice_enum("ninestar_day_leap", "DayLeap", __name__)
#: How the day plate flies (engine/options.csv).
DayFlight = choice_enum("ninestar_day_flight", "DayFlight", __name__)
#: the options' defaults, from engine/options.csv
DEFAULT = NinestarOptions()


def _star(number: int) -> str:
    return STARS[(number - 1) % 9]


def year_star(year: int) -> str:
    """Centre star of the 立春-year *year*: 1864 (上元甲子) 一白, then one star back each year."""
    return _star(11 - year % 9)


def month_star(year_branch: str, month_branch: str) -> str:
    """Centre star of a 節 month: 寅 month opens on 八白 (子午卯酉 years), 五黃 (辰戌丑未), 二黑 (寅申巳亥)."""
    opening = {0: 8, 1: 5, 2: 2}[BRANCHES.index(year_branch) % 3]
    return _star(opening - (BRANCHES.index(month_branch) - 2) % 12)


#: the day ordinal of 冬至 1999, solstice number 4000 (see :func:`leishen.engine.calendar.solstice`), and the mean
#: days from one solstice to the next: a day's solstice number give or take one, which :func:`day_star` settles
_SOLSTICE_4000 = date(1999, 12, 22).toordinal()
_HALF_YEAR = 365.2422 / 2


@lru_cache(maxsize=1024)
def _turn(m: int, zone: tzinfo, day_boundary: str, longitude: float | None) -> int:
    """Day ordinal of the 甲子 nearest solstice number *m* (冬至 for an even *m*, 夏至 for an odd one), the day
    read on *zone*'s clock (or at *longitude*'s true solar time): where the day stars turn 陽 (冬至) or 陰 (夏至)."""
    n = day_number(chart_clock(solstice(m).astimezone(zone), longitude), day_boundary)
    offset = sexagenary_of_day_number(n)
    return n - offset if offset < 30 else n + 60 - offset


@lru_cache(maxsize=128)
def _turning_days(year: int, zone: tzinfo, day_boundary: str, longitude: float | None) -> tuple[tuple[int, str], ...]:
    """(day ordinal, 陽 or 陰) of the 甲子 nearest each 冬至 and 夏至 of year-1 to year+1 (夏至 of year-1 is
    solstice 2·year − 1, 冬至 of year+1 solstice 2·year + 4): a day of *year* (give or take a day) has its turn
    before it and the one after it among them."""
    return tuple((_turn(m, zone, day_boundary, longitude), "陰" if m % 2 else "陽")
                 for m in range(2 * year - 1, 2 * year + 5))


def day_star(n: int, year: int, zone: tzinfo = CHINA_STANDARD_TIME, *, day_boundary: str = "23:00",
             longitude: float | None = None, leap: DayLeap | str = DEFAULT.day_leap) -> tuple[str, str]:
    """(star, 陽 or 陰) of the day with ordinal *n*. *year*, the day's UTC+8 Gregorian year, is not needed: the
    turns before and after *n* are found from *n* itself, each from its solstice's term alone."""
    leap = leap if leap.__class__ is DayLeap else parse_option(DayLeap, leap, "day_leap")
    m = 4000 + floor((n - _SOLSTICE_4000) / _HALF_YEAR)
    while _turn(m, zone, day_boundary, longitude) > n:
        m -= 1
    while _turn(m + 1, zone, day_boundary, longitude) <= n:
        m += 1
    start, dun = _turn(m, zone, day_boundary, longitude), "陰" if m % 2 else "陽"
    if dun == "陽":
        return _star(1 + (n - start) % 9), dun
    if leap is DayLeap.CONTINUE:
        return _star(9 - (n - start) % 9), dun
    return _star(1 + (_turn(m + 1, zone, day_boundary, longitude) - n - 1) % 9), dun


def fly(centre: str, *, forward: bool = True) -> dict[str, str]:
    """The plate with *centre* in palace 5, flown along 5→6→7→8→9→1→2→3→4 (順) or falling (逆)."""
    return dict(_flown(centre, forward))


@lru_cache(maxsize=32)
def _flown(centre: str, forward: bool) -> FrozenDict:
    """:func:`fly`, kept: the plates of a chart are these shared read-only dicts."""
    if centre not in STARS:
        raise ChartError(f"centre: {centre!r} is not one of the nine stars {' '.join(STARS)}")
    number = STARS.index(centre) + 1
    sign = 1 if forward else -1
    flown = {p: _star(number + sign * i) for i, p in enumerate(PATH)}
    return FrozenDict({str(p): flown[p] for p in range(1, 10)})


def ninestar_chart(moment: datetime, *, day_boundary: str = "23:00", longitude: float | None = None,
                   day_leap: DayLeap | str = DEFAULT.day_leap, day_flight: DayFlight | str = DEFAULT.day_flight) -> dict:
    """Centre stars of the year, month and day of *moment*, and the flying plate of each."""
    check_moment(moment)
    facts = moment_facts(moment, day_boundary=day_boundary, longitude=longitude)
    return ninestar_from_facts(facts, day_leap=day_leap, day_flight=day_flight)


def check_options(*, day_boundary: str = "23:00", longitude: float | None = None,
                  day_leap: DayLeap | str = DEFAULT.day_leap, day_flight: DayFlight | str = DEFAULT.day_flight) -> dict:
    """Check Nine Star options without computing a chart; return them as the chart shows them."""
    if day_boundary not in DAY_BOUNDARIES:
        raise ChartError(f"day_boundary: {day_boundary!r} is not one of {', '.join(DAY_BOUNDARIES)}")
    if longitude is not None and not -180.0 <= longitude <= 180.0:
        raise ChartError(f"longitude: {longitude!r} is outside -180..180 degrees")
    return {"day_boundary": day_boundary, "longitude": longitude,
            "day_leap": parse_option(DayLeap, day_leap, "day_leap").value,
            "day_flight": parse_option(DayFlight, day_flight, "day_flight").value}


def ninestar_from_facts(facts: MomentFacts, *, day_leap: DayLeap | str = DEFAULT.day_leap,
                        day_flight: DayFlight | str = DEFAULT.day_flight) -> dict:
    """The Nine Star part from the calendar of a moment already computed (the chart pipeline's path)."""
    leap = day_leap if day_leap.__class__ is DayLeap else parse_option(DayLeap, day_leap, "day_leap")
    flight = day_flight if day_flight.__class__ is DayFlight else parse_option(DayFlight, day_flight, "day_flight")
    four = facts.pillars
    day, dun = day_star(facts.day_number, facts.cst_year, facts.moment.tzinfo, day_boundary=facts.day_boundary,
                        longitude=facts.longitude, leap=leap)
    stars = {"year": year_star(facts.solar_year), "month": month_star(four.year[1], four.month[1]), "day": day}
    day_forward = flight is DayFlight.FORWARD or dun == "陽"
    return {
        **stars,
        "day_dun": dun,
        "plates": {"year": _flown(stars["year"], True), "month": _flown(stars["month"], True),
                   "day": _flown(day, day_forward)},
        "options": {"day_boundary": facts.day_boundary, "longitude": facts.longitude, "day_leap": leap.value,
                    "day_flight": flight.value},
    }


# ---------------------------------------------------------------- hand-typed charts

def _star_field(value, field: str) -> str:
    value = _ALIASES.get(value, value) if isinstance(value, str) else value
    if value not in STARS:
        raise ChartError(f"{field}: {value!r} is not a star (one of {' '.join(STARS)})")
    return value


def validate_ninestar(d: dict) -> dict:
    """Check a hand-typed Nine-Star chart and return it normalised (traditional names).

    Each of ``year``/``month``/``day`` must be a star; each plate in ``plates`` must hold the nine
    stars once each, with its own centre star in palace 5, flown 順 (or, for the day, 逆).
    """
    if not isinstance(d, dict):
        raise ChartError(f"ninestar: expected an object, found {type(d).__name__}")
    out = dict(d)
    for key in ("year", "month", "day"):
        if key in d:
            out[key] = _star_field(d[key], f"ninestar.{key}")
    if "plates" not in d:
        return out
    plates = d["plates"]
    if not isinstance(plates, dict):
        raise ChartError("ninestar.plates: expected an object of plates keyed year/month/day")
    out["plates"] = {key: _check_plate(plate, key, out.get(key)) for key, plate in plates.items()}
    return out


def _check_plate(plate, key: str, centre: str | None) -> dict[str, str]:
    field = f"ninestar.plates.{key}"
    if key not in ("year", "month", "day"):
        raise ChartError(f"{field}: unknown plate (expected year, month or day)")
    if not isinstance(plate, dict) or sorted(plate) != [str(p) for p in range(1, 10)]:
        found = sorted(plate) if isinstance(plate, dict) else plate
        raise ChartError(f"{field}: expected palaces '1'..'9', found {found!r}")
    stars = {p: _star_field(v, f"{field}.{p}") for p, v in plate.items()}
    seen: dict[str, str] = {}
    for p in sorted(stars):
        if stars[p] in seen:
            raise ChartError(f"{field}.{p}: {stars[p]!r} appears twice (also in palace {seen[stars[p]]})")
        seen[stars[p]] = p
    if centre is not None and stars["5"] != centre:
        raise ChartError(f"{field}.5: centre is {stars['5']!r} but ninestar.{key} is {centre!r}")
    flights = [True, False] if key == "day" else [True]
    for forward in flights:
        expected = fly(stars["5"], forward=forward)
        if expected == {p: stars[p] for p in expected}:
            return expected
    expected = fly(stars["5"])
    wrong = next(p for p in sorted(stars) if stars[p] != expected[p])
    raise ChartError(f"{field}.{wrong}: {stars[wrong]!r} breaks the flight of {stars['5']} from the centre "
                     f"(順飛 puts {expected[wrong]!r} there)")


def render_ninestar(chart: dict) -> str:
    """The year, month and day plates side by side as 3×3 grids (巽4 離9 坤2 / 震3 中5 兌7 / 艮8 坎1 乾6)."""
    titles = [(key, f"{label} {chart[key]}") for key, label in (("year", "年"), ("month", "月"), ("day", "日"))]
    lines = ["    ".join(f"{title:<10}" for _, title in titles).rstrip()]
    for row in _GRID:
        lines.append("    ".join(" ".join(chart["plates"][key][str(p)] for p in row) for key, _ in titles))
    return "\n".join(lines)
