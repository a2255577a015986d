"""陰陽遁 and 局 of the hour Qimen: the 三元 of the day and the two ways of joining them to terms.

A 局 is read from :data:`~.symbols.TERM_JU` with two keys: a solar term and a 元 (上 中 下).

* The 元 comes from the 符頭 of the day: the last 甲 or 己 day (five days make one 元). A
  符頭 on 子 午 卯 酉 opens the 上元, on 寅 申 巳 亥 the 中元, on 辰 戌 丑 未 the 下元; in
  the 60-day cycle this is ``day % 15 // 5`` (甲子 己卯 甲午 己酉 → 上元).
* The term is where the two methods differ (:class:`JuMethod`):

  ``chai_bu`` (拆補, default) — the term in force at the moment, switching at the exact
  instant of the term; the 元 is the day's own. A 元 cut by a term is "split" (拆) and its
  remainder is "filled" (補) from the new term. No 閏 is ever needed.

  ``zhi_run`` (置閏) — every 元 is kept whole: the 15 days opened by an 上元 符頭 all use one
  term. The 上元 符頭 of a term may come before the term's day (超神, the coming term is used
  early), on it (正授) or after it (接氣, the old term runs on until the 符頭). The 符頭 drifts
  earlier by about 0.22 days per term; when at 芒種 or 大雪 it comes ``leap_threshold`` days
  (default 9) or more before the term, the term's three 元 are used twice (閏奇, 置閏) and the
  following 夏至 or 冬至 starts 15 days later. Reference: the classical passage on 超接
  (超神接氣; the 閏 placed only before the two solstices) in Ming–Qing compilations such as
  《奇門遁甲統宗》 (attribution as commonly given); kinqimen's ``qimen_ju_name_zhirun`` also
  uses "9 days or more". Some manuals read 超神 "past nine days" as ten or more: pass
  ``leap_threshold=10``.

The 置閏 rule is applied locally and exactly: after each 芒種/大雪 decision the 符頭 lead
``g`` satisfies ``threshold - 15 <= g < threshold`` (the drift between two solstice terms is
under 15 days), so the 上元 符頭 of a 芒種 or 大雪 is the unique 符頭 ``F`` with
``threshold - 15 <= (day of the previous 大雪/芒種) + 180 - F < threshold``. This equals the
result of running the rule day by day from any past 正授, without an epoch.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from functools import lru_cache

from leishen.engine.calendar import (
    CHINA_STANDARD_TIME, SOLAR_TERMS, chart_clock, day_index, day_number, sexagenary_name, terms_between,
)
from leishen.engine.options import QimenOptions, choice_enum
from leishen.errors import ChartError

from .symbols import TERM_JU, YANG_TERMS

__all__ = ["JuMethod", "JuFacts", "YUAN_NAMES", "yuan_of_day", "fu_tou_of_day", "ju_of_term", "dun_of_term",
           "chai_bu", "zhi_run", "day_number", "sexagenary_of_day_number"]

YUAN_NAMES = ("上元", "中元", "下元")
_MANG_ZHONG, _DA_XUE = SOLAR_TERMS.index("芒種"), SOLAR_TERMS.index("大雪")
_DAY_OFFSET = (day_index(date.fromordinal(1)) - 1) % 60   # sexagenary index of ordinal n = (n + offset) % 60


#: How the 局 follows the terms: ``chai_bu`` (拆補, default) or ``zhi_run`` (置閏) (engine/options.csv).
JuMethod = choice_enum("qimen_method", "JuMethod", __name__)


@dataclass(frozen=True, slots=True)
class JuFacts:
    """The 局 of a moment and how it was found."""

    dun: str                 # 陽 or 陰
    ju: int                  # 1-9
    yuan: int                # 0 上元, 1 中元, 2 下元
    term: str                # the term whose 局 is used
    fu_tou: str              # the 符頭 day of the 元, e.g. 己卯
    leap: bool = False       # 置閏: the repeated (閏) 三元 of 芒種 or 大雪
    lead_days: int | None = None  # 置閏: days the 上元 符頭 comes before the term's day (<0: 接氣)


def sexagenary_of_day_number(n: int) -> int:
    """Sexagenary index (0 = 甲子) of the civil day with proleptic ordinal *n*."""
    return (n + _DAY_OFFSET) % 60


def yuan_of_day(day: int) -> int:
    """The 元 of a day (sexagenary index): 符頭 on 子午卯酉 → 0 上元, 寅申巳亥 → 1 中元, 辰戌丑未 → 2 下元."""
    return day % 15 // 5


def fu_tou_of_day(day: int) -> str:
    """The 符頭 of a day: the last 甲 or 己 day on or before it (e.g. 丙寅 → 甲子)."""
    return sexagenary_name(day - day % 5)


def dun_of_term(term: str) -> str:
    """陽遁 from 冬至 to 芒種, 陰遁 from 夏至 to 大雪."""
    return "陽" if term in YANG_TERMS else "陰"


def ju_of_term(term: str, yuan: int) -> tuple[str, int]:
    """(遁, 局) of a term and 元, from the table 冬至驚蟄一七四 …"""
    try:
        return dun_of_term(term), TERM_JU[term][yuan]
    except KeyError:
        raise ChartError(f"term: {term!r} is not one of the 24 solar terms") from None


def chai_bu(term: str, day: int) -> JuFacts:
    """拆補: the term in force and the day's own 元."""
    yuan = yuan_of_day(day)
    dun, ju = ju_of_term(term, yuan)
    return JuFacts(dun, ju, yuan, term, fu_tou_of_day(day))


# ---------------------------------------------------------------- 置閏

def _term_day(instant: datetime, zone: tzinfo, day_boundary: str, longitude: float | None) -> int:
    return day_number(chart_clock(instant.astimezone(zone), longitude), day_boundary)


def _first_fu_tou_after(day: int) -> int:
    """The first 上元 符頭 (甲子 己卯 甲午 己酉: sexagenary index % 15 == 0) strictly after *day*."""
    return day + 15 - sexagenary_of_day_number(day) % 15


@lru_cache(maxsize=256)
def _zhi_run_table(year: int, zone: tzinfo, day_boundary: str, longitude: float | None,
                   threshold: int) -> tuple[tuple[int, ...], tuple[tuple[str, bool, int], ...]]:
    """置閏 blocks covering Gregorian *year* (UTC+8) and its neighbours.

    Returns the first day (ordinal) of every 15-day block and, for each, (term, is 閏, lead days).
    """
    start = datetime(year - 2, 1, 1, tzinfo=CHINA_STANDARD_TIME)
    end = datetime(year + 2, 1, 1, tzinfo=CHINA_STANDARD_TIME)
    terms = [(name, _term_day(instant, zone, day_boundary, longitude)) for name, instant in terms_between(start, end)]
    solstice_terms = [i for i, (name, _) in enumerate(terms) if name in ("芒種", "大雪")]
    firsts: list[int] = []
    entries: list[tuple[str, bool, int]] = []
    for previous, current in zip(solstice_terms, solstice_terms[1:]):
        if current + 12 > len(terms):
            break
        first = _first_fu_tou_after(terms[previous][1] + 180 - threshold)
        name, term_day = terms[current]
        leap = term_day - first >= threshold
        for step in range(12):
            name, term_day = terms[current + step]
            block = first + 15 * (step + (leap and step > 0))
            firsts.append(block)
            entries.append((name, False, term_day - block))
            if leap and step == 0:
                firsts.append(block + 15)
                entries.append((name, True, term_day - block - 15))
    return tuple(firsts), tuple(entries)


def zhi_run(moment: datetime, *, day_boundary: str = "23:00", longitude: float | None = None,
            leap_threshold: int = QimenOptions().leap_threshold) -> JuFacts:
    """置閏: whole 元 of 15 days joined to terms by 超神/接氣, with a 閏 at 芒種 or 大雪."""
    n = day_number(chart_clock(moment, longitude), day_boundary)
    return zhi_run_of_day(n, moment, day_boundary, longitude, leap_threshold)


def zhi_run_of_day(n: int, moment: datetime, day_boundary: str, longitude: float | None,
                   leap_threshold: int = QimenOptions().leap_threshold) -> JuFacts:
    """置閏 of the sexagenary day with ordinal *n* (the calendar's ``day_number``) at *moment*."""
    if not (isinstance(leap_threshold, int) and 1 <= leap_threshold <= 14):
        raise ChartError(f"leap_threshold: {leap_threshold!r} is not a number of days 1-14")
    day = sexagenary_of_day_number(n)
    block_start = n - day % 15
    year = moment.astimezone(CHINA_STANDARD_TIME).year
    firsts, entries = _zhi_run_table(year, moment.tzinfo, day_boundary, longitude, leap_threshold)
    k = bisect_right(firsts, block_start) - 1
    if k < 0 or firsts[k] != block_start:
        raise ChartError(f"moment: {moment.isoformat()} is outside the 置閏 table")  # unreachable in range
    term, leap, lead = entries[k]
    yuan = yuan_of_day(day)
    dun, ju = ju_of_term(term, yuan)
    return JuFacts(dun, ju, yuan, term, fu_tou_of_day(day), leap, lead)
