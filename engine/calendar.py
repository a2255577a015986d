"""Calendar layer: moments, the 24 solar terms and the four pillars (四柱).

Every chart starts here. The astronomy (the instants of the 24 節氣) comes from
lunar_python 1.4.8 (the arithmetic of ``LunarYear.getJieQiJulianDays``, term by term, so that a chart
computes the few terms it reads and not a lunar year's months); this module caches those instants and does
the sexagenary arithmetic on top of them.

Conventions (see docs/calendar.md):

* A *moment* is a timezone-aware :class:`datetime.datetime`.
* Solar-term instants are absolute instants. lunar_python computes them in China
  standard time (UTC+8); they are returned as aware datetimes in UTC+8 and compared
  with the moment as instants, whatever the moment's own zone is.
* The year pillar changes at the exact instant of 立春, the month pillar at the exact
  instant of each 節 (立春 驚蟄 清明 立夏 芒種 小暑 立秋 白露 寒露 立冬 大雪 小寒).
* The day and hour pillars follow the moment's *local* clock (its own UTC offset),
  or local true solar time when a longitude is given.
* All names are in traditional characters (lunar_python's simplified 惊蛰 谷雨 小满
  芒种 处暑 are never exposed; term names come from :data:`SOLAR_TERMS` by position).
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple turns each string annotation into a
# ForwardRef, compiling it at import (21 compiles for Pillars and MomentFacts); evaluated ones cost nothing.

from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from math import floor
from typing import NamedTuple

from lunar_python import Solar
from lunar_python.util import ShouXingUtil

from leishen.engine.moment import (  # noqa: F401  (re-exported: the calendar's public API)
    MAX_YEAR, MIN_YEAR, chart_clock, check_moment, equation_of_time, parse_moment, true_solar_time,
)
from leishen.errors import ChartError

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"

#: The 24 solar terms in order from 立春; even positions are 節, odd positions are 中氣.
SOLAR_TERMS = (
    "立春", "雨水", "驚蟄", "春分", "清明", "穀雨", "立夏", "小滿", "芒種", "夏至", "小暑", "大暑",
    "立秋", "處暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至", "小寒", "大寒",
)
#: Simplified spellings lunar_python uses, mapped to the traditional ones used here.
SIMPLIFIED_TERM_NAMES = {"惊蛰": "驚蟄", "谷雨": "穀雨", "小满": "小滿", "芒种": "芒種", "处暑": "處暑"}

CHINA_STANDARD_TIME = timezone(timedelta(hours=8), "UTC+08:00")
DAY_BOUNDARIES = ("23:00", "00:00")

# lunar_python's table for lunar year Y starts at 大雪 of Y-1 (position 20 in SOLAR_TERMS).
_TABLE_FIRST_TERM = 20
_LICHUN_SLOT = 4  # 大雪 冬至 小寒 大寒 立春: 立春 of the table's own year
_SLOTS = 31  # 大雪 of year-1 … 驚蟄 of year+1
_SLOT_POSITIONS = tuple((_TABLE_FIRST_TERM + slot) % 24 for slot in range(_SLOTS))
_TERM_STEP = 15.2184  # lunar_python's mean days from one term to the next
#: Term number n is slot n % 24 of year n // 24's table (slot 24 + k of a table is slot k of the next one's:
#: the same float for every table year, as lunar_python's ``qiAccurate2`` rounds an estimate to its term; checked
#: against ``LunarYear.getJieQiJulianDays`` over all of TABLE_YEARS when this numbering came in). The mean
#: seconds from one term to the next and the mean instant of term 0 give a moment's term number give or take
#: one, which :func:`_locate` then settles.
_TERM_SECONDS = 365.2422 * 86400 / 24
_TERM_EPOCH = datetime(1999, 12, 7, 12, tzinfo=CHINA_STANDARD_TIME).timestamp() - 2000 * 24 * _TERM_SECONDS
_J2000 = datetime(2000, 1, 1, 12, tzinfo=CHINA_STANDARD_TIME)  # JD 2451545.0 read as UTC+8 clock
_JD_J2000 = 2451545.0
_DAY_CYCLE_OFFSET = 1721414  # (date.toordinal() + offset) % 60 is the sexagenary day index
#: Gregorian years whose term tables may be read: the supported years and three on each side,
#: so that a moment on 1800-01-01 in any offset, and the solstices around it, have their terms.
TABLE_YEARS = range(MIN_YEAR - 3, MAX_YEAR + 4)


_NAMES = tuple(STEMS[i % 10] + BRANCHES[i % 12] for i in range(60))
_INDEX = {name: i for i, name in enumerate(_NAMES)}


def sexagenary_name(index: int) -> str:
    """Return the stem-branch name of position *index* (0 = 甲子) of the 60-cycle."""
    return _NAMES[index % 60]


def sexagenary_index(name: str) -> int:
    """Return the position (0 = 甲子 … 59 = 癸亥) of a stem-branch name such as '丙午'."""
    index = _INDEX.get(name) if isinstance(name, str) else None
    if index is not None:
        return index
    if not isinstance(name, str) or len(name) != 2 or name[0] not in STEMS or name[1] not in BRANCHES:
        raise ChartError(f"{name!r} is not a stem-branch pair such as '甲子'")
    raise ChartError(f"{name!r} is not in the sexagenary cycle (stem and branch differ in yin/yang)")


class Pillars(NamedTuple):
    """The four pillars (四柱) of a moment, each a stem-branch name such as '壬辰'."""

    year: str
    month: str
    day: str
    hour: str


class MomentFacts(NamedTuple):
    """Everything the chart engines read from the calendar, computed once per moment.

    The chart pipeline computes this once and hands it to Liu Ren, Qimen and the Nine Stars.
    """

    moment: datetime
    pillars: Pillars
    term: str            # the 節氣 (any of the 24) in force
    term_start: datetime
    jie: str             # the 節 in force (sets the month)
    jie_start: datetime
    middle: str          # the 中氣 in force (sets the 月將)
    middle_start: datetime
    day_boundary: str = "23:00"
    longitude: float | None = None
    clock: datetime | None = None   # the clock the day and hour follow: the moment, or naive true solar time
    day_number: int = 0             # proleptic ordinal of the sexagenary day (23:00 opens the next by default)
    day_index: int = 0              # 0 = 甲子
    hour_index: int = 0
    term_position: int = 0          # position in SOLAR_TERMS of the term in force
    solar_year: int = 0             # Gregorian number of the 立春 year in force
    cst_year: int = 0               # Gregorian year of the moment in UTC+8


# ---------------------------------------------------------------- solar terms

def _jd_to_datetime(jd: float) -> datetime:
    """Julian day (China standard time clock) → aware datetime in UTC+8, whole seconds."""
    seconds = round((jd - _JD_J2000) * 86400.0)
    return _J2000 + timedelta(seconds=seconds)


def _check_table_year(year: int) -> None:
    if year not in TABLE_YEARS:
        raise ChartError(f"moment: year {year} is outside the calendar's tables "
                         f"({TABLE_YEARS.start}-{TABLE_YEARS.stop - 1}; charts cover {MIN_YEAR}-{MAX_YEAR})")


@lru_cache(maxsize=512)
def _solstice_guess(year: int) -> float:
    """lunar_python's first estimate (days from J2000) of the 冬至 that opens *year*'s table
    (``LunarYear.compute``'s ``w``)."""
    jd = floor((year - 2000) * 365.2422 + 180)
    w = floor((jd - 355 + 183) / 365.2422) * 365.2422 + 355
    return w - 365.2422 if ShouXingUtil.calcQi(w) > jd else w


def _slot_jd(year: int, slot: int) -> float:
    """Julian day (UTC+8 clock) of term *slot* of *year*'s table (0 = 大雪 of year-1 … 30 = 驚蟄 of year+1):
    lunar_python's accurate term from the estimate ``LunarYear.compute`` starts it from, the same floats."""
    w = _solstice_guess(year)
    if slot == 0:
        guess = ShouXingUtil.calcQi(w) - _TERM_STEP
    elif slot <= 26:
        guess = ShouXingUtil.calcQi(w + _TERM_STEP * (slot - 1))
    else:
        guess = ShouXingUtil.calcQi(w + _TERM_STEP * 25) + _TERM_STEP * (slot - 26)
    return ShouXingUtil.qiAccurate2(guess) + Solar.J2000


@lru_cache(maxsize=8192)
def _term(n: int) -> tuple[datetime, float]:
    """The instant of term number *n* (slot n % 24 of year n // 24's table) and its timestamp: a chart
    computes the few terms it reads, not whole years."""
    instant = _jd_to_datetime(_slot_jd(*divmod(n, 24)))
    return instant, instant.timestamp()


def _position(n: int) -> int:
    """The position in SOLAR_TERMS of term number *n*."""
    return (_TABLE_FIRST_TERM + n) % 24


@lru_cache(maxsize=512)
def _year_table(year: int) -> tuple[tuple[datetime, ...], tuple[int, ...], tuple[float, ...]]:
    """Terms from 大雪 of ``year-1`` to 驚蟄 of ``year+1``: (instants, SOLAR_TERMS positions, timestamps).

    Covers every instant of Gregorian ``year`` in UTC+8 together with the term before and
    after it. Cached: lunar_python takes a few milliseconds per year.
    """
    _check_table_year(year)
    terms = [_term(24 * year + slot) for slot in range(_SLOTS)]
    return tuple(instant for instant, _ in terms), _SLOT_POSITIONS, tuple(stamp for _, stamp in terms)


def _locate(moment: datetime) -> tuple[int, datetime]:
    """The number of the last term at or before *moment* (checked) and that term's instant."""
    check_moment(moment)
    stamp = moment.timestamp()
    n = floor((stamp - _TERM_EPOCH) / _TERM_SECONDS)
    term = _term(n)
    while term[1] > stamp:
        n -= 1
        term = _term(n)
    while (after := _term(n + 1))[1] <= stamp:
        n, term = n + 1, after
    return n, term[0]


def solar_term(moment: datetime) -> tuple[str, datetime]:
    """The 節氣 (any of the 24) in force at *moment* and its start instant (UTC+8)."""
    n, instant = _locate(moment)
    return SOLAR_TERMS[_position(n)], instant


def _last_of_kind(moment: datetime, parity: int) -> tuple[str, datetime]:
    n = _locate(moment)[0]
    if _position(n) % 2 != parity:
        n -= 1
    return SOLAR_TERMS[_position(n)], _term(n)[0]


def jie_term(moment: datetime) -> tuple[str, datetime]:
    """The 節 in force (立春, 驚蟄, … 小寒): it fixes the month branch."""
    return _last_of_kind(moment, 0)


def middle_term(moment: datetime) -> tuple[str, datetime]:
    """The 中氣 in force (雨水, 春分, … 大寒): it fixes the Liu Ren 月將."""
    return _last_of_kind(moment, 1)


def terms_between(start: datetime, end: datetime) -> list[tuple[str, datetime]]:
    """All terms whose instant lies in ``[start, end)``, in order (uses the per-year cache).

    Works over :data:`TABLE_YEARS` (three years beyond the charts' range on each side).
    """
    first = start.astimezone(CHINA_STANDARD_TIME).year
    last = end.astimezone(CHINA_STANDARD_TIME).year
    found: dict[datetime, str] = {}
    for year in range(first, last + 1):
        instants, positions, _ = _year_table(year)
        for instant, pos in zip(instants, positions):
            if start <= instant < end:
                found[instant] = SOLAR_TERMS[pos]
    return [(name, instant) for instant, name in sorted(found.items())]


def solstice(m: int) -> datetime:
    """The instant (UTC+8) of solstice number *m*: 冬至 for an even *m*, 夏至 for an odd one, 冬至 of 1999 being
    number 4000 (it is term number 12·m + 1); computed alone, not with its year."""
    return _term(12 * m + 1)[0]


def term_start(name: str, year: int) -> datetime:
    """The instant of term *name* in Gregorian *year* (UTC+8), e.g. ``term_start('立春', 2024)``."""
    name = SIMPLIFIED_TERM_NAMES.get(name, name)
    if name not in SOLAR_TERMS:
        raise ChartError(f"term: {name!r} is not one of the 24 solar terms")
    instants, positions, _ = _year_table(year)
    for instant, pos in zip(instants, positions):
        if instant.year == year and SOLAR_TERMS[pos] == name:
            return instant
    raise ChartError(f"term: {name!r} not found in {year}")  # unreachable for supported years


# ---------------------------------------------------------------- pillars

def day_index(day: date) -> int:
    """Sexagenary index of a civil date (0 = 甲子); 1952-12-26 → 42 (丙午)."""
    return (day.toordinal() + _DAY_CYCLE_OFFSET) % 60


def hour_branch_index(clock: datetime) -> int:
    """子 = 23:00–00:59, 丑 = 01:00–02:59, … 亥 = 21:00–22:59 (index into BRANCHES)."""
    return (clock.hour + 1) // 2 % 12


def _check_boundary(day_boundary: str) -> None:
    if day_boundary not in DAY_BOUNDARIES:
        raise ChartError(f"day_boundary: {day_boundary!r} is not one of {', '.join(DAY_BOUNDARIES)}")


def day_number(clock: datetime, day_boundary: str = "23:00") -> int:
    """Proleptic ordinal of the sexagenary day a clock reading belongs to (23:00 opens the next day by default)."""
    return clock.toordinal() + (day_boundary == "23:00" and clock.hour == 23)


def day_and_hour(clock: datetime, day_boundary: str) -> tuple[int, int]:
    """(sexagenary day index, sexagenary hour index) of a clock reading (an aware moment's own
    local clock, or a naive true solar time: only the date and the hour are read).

    With ``23:00`` (子初換日) the day changes at 23:00. With ``00:00`` the day changes at
    midnight and 23:00–23:59 keeps the old day; its hour pillar is still the next day's
    子 hour (夜子時), as in lunar_python's sect 2 and tyme4py's LunarSect2 provider.
    The one place the day and hour pillars are computed (Qimen's hot path calls it too).
    """
    civil = clock.toordinal() + _DAY_CYCLE_OFFSET
    late_zi = clock.hour == 23
    branch = (clock.hour + 1) // 2 % 12
    stem = ((civil + late_zi) % 5 * 2 + branch) % 10           # 五鼠遁: 甲己日起甲子時 …
    return (civil + (late_zi and day_boundary == "23:00")) % 60, (6 * stem - 5 * branch) % 60


def _pair_index(stem: int, branch: int) -> int:
    return (6 * stem - 5 * branch) % 60


def _year_and_month(n: int) -> tuple[int, int, int]:
    """(sexagenary year index, sexagenary month index, 立春 year) of a moment whose last term is number *n*,
    switching at 立春 / each 節: 立春 of year Y is term 24·Y + 4."""
    jie_pos = (_TABLE_FIRST_TERM + n) % 24 // 2 * 2  # 0 = 立春 … 22 = 小寒
    month_branch = (2 + jie_pos // 2) % 12     # 立春 → 寅
    year = (n - _LICHUN_SLOT) // 24
    year_index = (year - 4) % 60
    months_since_yin = (month_branch - 2) % 12
    month_stem = ((year_index % 5) * 2 + 2 + months_since_yin) % 10   # 五虎遁: 甲己之年丙作首
    return year_index, _pair_index(month_stem, month_branch), year


def pillars(moment: datetime, *, day_boundary: str = "23:00", longitude: float | None = None) -> Pillars:
    """The four pillars of *moment* (the :attr:`MomentFacts.pillars` of :func:`moment_facts`).

    Year and month switch at the exact instants of 立春 and of each 節; the day and hour
    follow the local clock (or true solar time at ``longitude``), with the day changing at
    ``day_boundary`` ('23:00' 子初換日, default; or '00:00').
    """
    return moment_facts(moment, day_boundary=day_boundary, longitude=longitude).pillars


def moment_facts(moment: datetime, *, day_boundary: str = "23:00", longitude: float | None = None) -> MomentFacts:
    """The calendar of a moment in one pass: pillars, terms in force, the chart clock and day.

    The chart pipeline computes it once per chart and hands it to every system.
    """
    _check_boundary(day_boundary)
    n, instant = _locate(moment)
    position = (_TABLE_FIRST_TERM + n) % 24
    current, before = (SOLAR_TERMS[position], instant), (SOLAR_TERMS[position - 1], _term(n - 1)[0])
    jie, middle = (current, before) if position % 2 == 0 else (before, current)  # even positions are 節
    year, month, solar_year = _year_and_month(n)
    clock = chart_clock(moment, longitude)
    day, hour = day_and_hour(clock, day_boundary)
    four = Pillars(_NAMES[year], _NAMES[month], _NAMES[day], _NAMES[hour])
    return MomentFacts(moment, four, SOLAR_TERMS[position], instant, *jie, *middle, day_boundary, longitude, clock,
                       day_number(clock, day_boundary), day, hour, position, solar_year,
                       moment.astimezone(CHINA_STANDARD_TIME).year)


def lunar_month(moment: datetime, *, longitude: float | None = None) -> tuple[int, bool]:
    """(lunar month number 1–12, is-leap) of the local civil date, from lunar_python."""
    clock = chart_clock(moment, longitude)
    lunar = Solar.fromYmdHms(clock.year, clock.month, clock.day, clock.hour, clock.minute, 0).getLunar()
    month = lunar.getMonth()
    return abs(month), month < 0
