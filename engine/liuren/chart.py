"""The Liu Ren part of a chart: from a moment (pipeline) or from pillars (pure).

:func:`liuren_section` is a pure function of (day pillar, hour branch, 月將, options);
the section without the year/month/birth extras is cached per (day, offset, 晝/夜, options).
As in the Qimen engine, the nested objects of a section (``plate``, ``generals``, ``dun``,
``noble``, ``options``, each lesson and each transmission detail) are shared read-only
:class:`~leishen.engine.qimen.frozen.FrozenDict` objects; the top-level dict and its lists are
fresh on every call, and ``copy.deepcopy`` gives a wholly writable section.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from leishen.engine.calendar import (
    BRANCHES, STEMS, MomentFacts, lunar_month, moment_facts, sexagenary_index,
)
from leishen.engine.liuren.course import compute_course
from leishen.engine.liuren.generals import generals_on_plate, is_daytime, noble_branch, runs_forward
from leishen.engine.liuren.lessons import plate_offset
from leishen.engine.liuren.options import LiurenOptions, MonthGeneralRule
from leishen.engine.liuren.shensha import ben_ming, dun_stems, horse, void_with_exception, xing_nian
from leishen.engine.liuren.tables import MONTH_GENERAL_BY_LUNAR_MONTH, MONTH_GENERAL_BY_MIDDLE_TERM
from leishen.engine.qimen.frozen import FrozenDict, freeze
from leishen.errors import ChartError

_BRANCH_INDEX = {b: i for i, b in enumerate(BRANCHES)}
#: the list-valued keys of a section: copied on every call (their members are shared read-only)
_LISTS = ("lessons", "transmissions", "course", "void", "transmission_details")


def month_general(facts: MomentFacts, rule: MonthGeneralRule, longitude: float | None = None) -> int:
    """月將 (branch index) in force at the moment: by the 中氣 (default) or the lunar month."""
    if rule is MonthGeneralRule.LUNAR_MONTH:
        month, _leap = lunar_month(facts.moment, longitude=longitude)
        return MONTH_GENERAL_BY_LUNAR_MONTH[month]
    return MONTH_GENERAL_BY_MIDDLE_TERM[facts.middle]


@lru_cache(maxsize=8192)
def _core(day: str, offset: int, daytime: bool, options: LiurenOptions) -> dict:
    """Everything fixed by the day, the plate, 晝/夜 and the options."""
    course = compute_course(day, offset, options)
    index = sexagenary_index(day)
    stem = index % 10
    generals = generals_on_plate(stem, offset, daytime, options.noble_table)
    noble = noble_branch(stem, daytime, options.noble_table)
    dun = dun_stems(index)
    void = void_with_exception(index, options.void_exception)
    return freeze({
        "plate": course.plate,
        "lessons": course.lessons_json(),
        "transmissions": course.transmission_names,
        "method": course.method,
        "course": list(course.course),
        "generals": {BRANCHES[b]: generals[b] for b in range(12)},
        "void": [BRANCHES[b] for b in void],
        "transmission_details": [
            {"branch": BRANCHES[b], "general": generals[b], "dun": STEMS[dun[b]] if b in dun else None,
             "void": b in void}
            for b in course.transmissions
        ],
        "xun": "甲" + BRANCHES[(index - index % 10) % 12],
        "dun": {BRANCHES[b]: STEMS[s] for b, s in sorted(dun.items())},
        "horse": BRANCHES[horse(index % 12)],
        "noble": {"branch": BRANCHES[noble], "daytime": daytime,
                  "direction": "順" if runs_forward(noble, offset) else "逆"},
        "offset": offset,
    })


def liuren_section(day: str, hour_branch: str, general: str, options: LiurenOptions = LiurenOptions(), *,
                   month_branch: str | None = None, year_branch: str | None = None,
                   birth: dict | None = None) -> dict:
    """The Liu Ren chart section for day pillar *day*, hour branch and 月將 (all as characters).

    ``birth`` (``{"year": 1984, "sex": "male", "chart_year": 2024}``) adds 本命 and 行年.
    """
    hour, general_index = _BRANCH_INDEX.get(hour_branch), _BRANCH_INDEX.get(general)
    for field, value, index in (("hour_branch", hour_branch, hour), ("month_general", general, general_index)):
        if index is None:
            raise ChartError(f"liuren.{field}: {value!r} is not a branch")
    try:
        sexagenary_index(day)
    except ChartError as exc:
        raise ChartError(f"liuren.day: {day!r} is not a stem-branch pair of the 60-cycle") from exc
    offset = plate_offset(general_index, hour)
    section = {"month_general": general, "day": day, "hour_branch": hour_branch}
    section.update(_fresh(_core(day, offset, is_daytime(hour, options.day_night), options)))
    if month_branch:
        section["month_branch"] = month_branch
    if year_branch:
        section["tai_sui"] = year_branch
    if birth:
        section["birth"] = birth_section(birth)
    section["options"] = _options_dict(options)
    return section


def _fresh(core: FrozenDict) -> dict:
    """A copy of the cached section: a fresh top level and fresh lists, the nested dicts shared read-only."""
    out = dict(core)
    for key in _LISTS:
        out[key] = [*core[key]]
    return out


@lru_cache(maxsize=64)
def _options_dict(options: LiurenOptions) -> FrozenDict:
    return FrozenDict(options.to_dict())


def birth_section(birth: dict) -> dict:
    """The asker's birth: ``{year, ben_ming}`` (本命), with the sex and the chart's year also ``sex, xing_nian`` (行年)."""
    year = birth.get("year")
    if not isinstance(year, int) or isinstance(year, bool):
        raise ChartError(f"birth.year: {year!r} is not a year such as 1984")
    now = birth.get("chart_year")
    if now is not None and not now - 150 <= year <= now:  # checked with or without sex (行年 needs it)
        raise ChartError(f"birth_year: {year} is {'after' if year > now else 'more than 150 years before'} "
                         f"the chart's year {now}")
    out = {"year": year, "ben_ming": ben_ming(year)}
    if birth.get("sex") and birth.get("chart_year"):
        out["sex"] = birth["sex"]
        out["xing_nian"] = xing_nian(year, birth["chart_year"], birth["sex"])
    return out


def chart_year(facts: MomentFacts) -> int:
    """The Gregorian number of the sexagenary year in force (changes at 立春)."""
    return facts.solar_year


def liuren_from_facts(facts: MomentFacts, options: LiurenOptions = LiurenOptions(), *,
                      longitude: float | None = None, birth_year: int | None = None,
                      sex: str | None = None) -> dict:
    """The Liu Ren section from calendar facts already computed for a moment."""
    general = BRANCHES[month_general(facts, options.month_general, longitude)]
    birth = {"year": birth_year, "sex": sex, "chart_year": chart_year(facts)} if birth_year is not None else None
    return liuren_section(facts.pillars.day, facts.pillars.hour[1], general, options,
                          month_branch=facts.pillars.month[1], year_branch=facts.pillars.year[1], birth=birth)


def liuren_chart(moment: datetime, options: LiurenOptions = LiurenOptions(), *, day_boundary: str = "23:00",
                 longitude: float | None = None, birth_year: int | None = None, sex: str | None = None) -> dict:
    """The Liu Ren section for an aware moment (the whole datetime pipeline)."""
    facts = moment_facts(moment, day_boundary=day_boundary, longitude=longitude)
    return liuren_from_facts(facts, options, longitude=longitude, birth_year=birth_year, sex=sex)
