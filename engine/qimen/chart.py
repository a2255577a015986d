"""The hour Qimen chart (時家奇門 轉盤) of a moment, as a JSON-ready dict.

``qimen_chart(moment)`` joins three steps: the calendar (:mod:`leishen.engine.calendar`:
the day and hour pillars and the term in force), the 局 (:mod:`.ju`, by 拆補 or 置閏) and
the plate (:mod:`.plate`, one of 1,080 cached plates). The shape::

    {"dun": "陽", "ju": 3, "yuan": "上元", "term": "驚蟄", "xun_head": "甲子戊",
     "duty_star": "天蓬", "duty_star_palace": 4, "duty_gate": "休門", "duty_gate_palace": 6,
     "palaces": {"1": {"earth": "戊", "heaven": "…", "star": "…", "gate": "…", "deity": "…"}, …,
                 "5": {"earth": "…", "heaven": None, "star": None, "gate": None, "deity": None}, …},
     "void": ["戌", "亥"], "horse": "寅", "centre_host": 2, "options": {…}, …}

The centre (中五) is hosted (寄宮, ``centre_host``): the palace that hosts it carries the
centre's earth stem as ``earth_hosted``; the palace the host star has turned to carries
``star_hosted`` (天禽) and ``heaven_hosted`` (the centre stem on the heaven plate). The
centre palace itself keeps only its earth stem.

Speed: a chart is a few dictionary look-ups. The terms of each year are cached as
timestamps, the 局 of each (term, day) and the plate part of each of the 1,080 plates are
cached; the nested ``palaces`` and ``options`` objects are therefore shared read-only
:class:`~.frozen.FrozenDict` objects (``copy.deepcopy`` gives writable ones). The day and
hour pillars come from the calendar's own :func:`~leishen.engine.calendar.day_and_hour`;
the chart pipeline passes the whole calendar (:func:`qimen_from_facts`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import date, datetime, timezone
from functools import lru_cache

from leishen.engine.calendar import (
    CHINA_STANDARD_TIME, DAY_BOUNDARIES, MAX_YEAR, MIN_YEAR, SOLAR_TERMS, TABLE_YEARS, MomentFacts, chart_clock,
    check_moment, day_and_hour, day_number, sexagenary_name, solar_term, terms_between,
)
from leishen.engine.moment import is_zone
from leishen.engine.options import QimenOptions
from leishen.errors import ChartError

from .frozen import FrozenDict, freeze
from .ju import YUAN_NAMES, JuFacts, JuMethod, chai_bu, zhi_run_of_day
from .plate import CentreHost, DeityNames, Plate, parse_option, build_plate, host_palace
from .symbols import BRANCH_PALACE, PALACES

#: the options' defaults, from engine/options.csv
DEFAULT = QimenOptions()

__all__ = ["qimen_chart", "qimen_from_facts", "check_options", "chart_from_plate", "hour_and_day", "term_in_force"]

_KEYS = tuple(str(p) for p in PALACES)
_SEXAGENARY = tuple(sexagenary_name(i) for i in range(60))
_UNIX_EPOCH_DAY = date(1970, 1, 1).toordinal()


# ---------------------------------------------------------------- options

@dataclass(frozen=True, slots=True, eq=False)
class _Options:
    """Checked options; one object per combination, which also holds the 局 of each (term, day)."""

    method: JuMethod
    day_boundary: str
    longitude: float | None
    centre_host: CentreHost
    deities: DeityNames
    leap_threshold: int
    shown: FrozenDict       # the "options" of the chart
    host: int | None        # the host palace when it does not depend on the term
    deity_index: int        # 0 modern, 1 by_dun
    days: dict              # 拆補: term position × 60 + day → (plate key base, day fields)
    charts: dict            # 拆補: (term position × 60 + day) × 60 + hour → the chart (copied per call)


#: Checked options by the arguments as given (a plain dict: the hot path's first look-up).
_OPTIONS: dict[tuple, _Options] = {}


def _options(method, day_boundary, longitude, centre_host, deities, leap_threshold) -> _Options:
    """Check the options once per combination (the answer is kept in :data:`_OPTIONS`).

    Arguments that cannot be hashed never pass the checks, so the key is hashable when stored.
    """
    opts = _check_options(method, day_boundary, longitude, centre_host, deities, leap_threshold)
    _OPTIONS[(method, day_boundary, longitude, centre_host, deities, leap_threshold)] = opts
    return opts


def check_options(*, method: JuMethod | str = DEFAULT.method, day_boundary: str = "23:00",
                  longitude: float | None = None, centre_host: CentreHost | str = DEFAULT.centre_host,
                  deities: DeityNames | str = DEFAULT.deities, leap_threshold: int = DEFAULT.leap_threshold) -> dict:
    """Check Qimen options without computing a chart; return them as the chart shows them."""
    return dict(_check_options(method, day_boundary, longitude, centre_host, deities, leap_threshold).shown)


def _check_options(method, day_boundary, longitude, centre_host, deities, leap_threshold) -> _Options:
    method = parse_option(JuMethod, method, "method")
    if day_boundary not in DAY_BOUNDARIES:
        raise ChartError(f"day_boundary: {day_boundary!r} is not one of {', '.join(DAY_BOUNDARIES)}")
    if longitude is not None and not (isinstance(longitude, (int, float)) and -180.0 <= longitude <= 180.0):
        raise ChartError(f"longitude: {longitude!r} is outside -180..180 degrees")
    if not (isinstance(leap_threshold, int) and 1 <= leap_threshold <= 14):
        raise ChartError(f"leap_threshold: {leap_threshold!r} is not a number of days 1-14")
    host, names = parse_option(CentreHost, centre_host, "centre_host"), parse_option(DeityNames, deities, "deities")
    shown = {"method": method.value, "day_boundary": day_boundary, "longitude": longitude,
             "centre_host": host.value, "deities": names.value}
    if method is JuMethod.ZHI_RUN:
        shown["leap_threshold"] = leap_threshold
    return _Options(method, day_boundary, longitude, host, names, leap_threshold, freeze(shown),
                    2 if host is CentreHost.KUN2 else None, list(DeityNames).index(names), {}, {})


# ---------------------------------------------------------------- calendar facts

def hour_and_day(moment: datetime, day_boundary: str = "23:00", longitude: float | None = None) -> tuple[int, int]:
    """(hour pillar index, day pillar index) of *moment*: the calendar's :func:`day_and_hour`, swapped."""
    day, hour = day_and_hour(chart_clock(moment, longitude), day_boundary)
    return hour, day


@lru_cache(maxsize=512)
def _term_table(year: int) -> tuple[list[float], list[int]]:
    """Term instants (timestamps) and positions in SOLAR_TERMS, November of year-1 to February of year+1."""
    zone = CHINA_STANDARD_TIME
    start = datetime(max(year - 1, TABLE_YEARS.start), 11, 1, tzinfo=zone)
    end = datetime(min(year + 1, TABLE_YEARS.stop - 1), 3, 1, tzinfo=zone)
    terms = terms_between(start, end)
    return [instant.timestamp() for _, instant in terms], [SOLAR_TERMS.index(name) for name, _ in terms]


#: Civil day ordinal → position of the term in force all that day in any time zone, or -1 within
#: a day of a term's instant (then the instant decides). Filled one year at a time.
_TERM_OF_DAY: dict[int, int] = {}


def _fill_term_days(year: int) -> None:
    stamps, positions = _term_table(year)
    i = -1
    for n in range(date(year, 1, 1).toordinal(), date(year, 12, 31).toordinal() + 1):
        noon = (n - _UNIX_EPOCH_DAY) * 86400.0 + 4 * 3600      # 12:00 UTC+8 of day n
        while i + 1 < len(stamps) and stamps[i + 1] <= noon:
            i += 1
        # the local day n spans UTC+8 noon -18 h … +32 h for any offset from UTC-12 to UTC+14
        near = any(-20 * 3600 < stamp - noon < 34 * 3600 for stamp in stamps[max(i, 0):i + 2])
        _TERM_OF_DAY[n] = -1 if near or i < 0 else positions[i]


def _term_position(moment: datetime) -> int:
    position = _TERM_OF_DAY.get(moment.toordinal())
    if position is None:
        _fill_term_days(moment.year)
        position = _TERM_OF_DAY[moment.toordinal()]
    if position >= 0:
        return position
    stamps, positions = _term_table(moment.year)
    i = bisect_right(stamps, moment.timestamp()) - 1
    return positions[i] if i >= 0 else SOLAR_TERMS.index(solar_term(moment)[0])


def term_in_force(moment: datetime) -> str:
    """The solar term in force at the instant of *moment* (拆補 switches at the exact instant)."""
    return SOLAR_TERMS[_term_position(moment)]


# ---------------------------------------------------------------- parts of a chart

def _day_fields(facts: JuFacts, day: int, opts: _Options) -> dict:
    """The keys of a chart that follow the day and the options rather than the plate."""
    fields = {"term": facts.term, "yuan": YUAN_NAMES[facts.yuan], "fu_tou": facts.fu_tou,
              "day_pillar": _SEXAGENARY[day], "options": opts.shown}
    if opts.method is JuMethod.ZHI_RUN:
        fields["leap"] = facts.leap
        fields["lead_days"] = facts.lead_days
    return fields


def _plate_base(facts: JuFacts, opts: _Options) -> int:
    """Key of the plate part without the hour: ((host × 2 + deity names) × 18 + 遁局) × 60."""
    host = opts.host or host_palace(opts.centre_host, facts.dun, SOLAR_TERMS.index(facts.term))
    return ((host * 2 + opts.deity_index) * 18 + (facts.dun == "陰") * 9 + facts.ju - 1) * 60


#: Plate key → the plate part of a chart (one of 1,080 per hosting and naming), filled on demand.
_PLATE_PARTS: dict[int, FrozenDict] = {}


def _plate_part(key: int) -> FrozenDict:
    rest, hour = divmod(key, 60)
    rest, dun_ju = divmod(rest, 18)
    host, deity_index = divmod(rest, 2)
    plate = build_plate("陰" if dun_ju >= 9 else "陽", dun_ju % 9 + 1, hour, host, list(DeityNames)[deity_index])
    part = _PLATE_PARTS[key] = freeze(chart_from_plate(plate))
    return part


def _chai_bu_day(opts: _Options, position: int, day: int) -> tuple[int, dict]:
    facts = chai_bu(SOLAR_TERMS[position], day)
    entry = opts.days[position * 60 + day] = (_plate_base(facts, opts), _day_fields(facts, day, opts))
    return entry


def _chai_bu_chart(opts: _Options, position: int, day: int, hour: int) -> dict:
    """The 拆補 chart of (term, day, hour): the plate part and the day fields, kept for the next call."""
    base, fields = opts.days.get(position * 60 + day) or _chai_bu_day(opts, position, day)
    part = _PLATE_PARTS.get(base + hour) or _plate_part(base + hour)
    template = opts.charts[(position * 60 + day) * 60 + hour] = {**part, **fields}
    return template


# ---------------------------------------------------------------- the chart

def qimen_chart(moment: datetime, *, method: JuMethod | str = DEFAULT.method, day_boundary: str = "23:00",
                longitude: float | None = None, centre_host: CentreHost | str = DEFAULT.centre_host,
                deities: DeityNames | str = DEFAULT.deities, leap_threshold: int = DEFAULT.leap_threshold) -> dict:
    """The hour Qimen chart of an aware *moment*.

    Options (each a school choice, see docs/engine-qimen.md):

    * ``method`` — ``chai_bu`` (拆補, default) or ``zhi_run`` (置閏, with ``leap_threshold``
      days of 超神 at 芒種/大雪 that call for a 閏, default 9).
    * ``day_boundary`` — ``23:00`` (子初換日, default) or ``00:00``; ``longitude`` for true
      solar time (off by default). Both follow the calendar.
    * ``centre_host`` — where 中五 is hosted: ``kun2`` (寄坤, default), ``gen8_kun2``, ``four_corners``.
    * ``deities`` — ``modern`` (白虎 玄武, default) or ``by_dun`` (勾陳 朱雀 in 陽遁).

    Defaults are plain strings (the enum members are accepted too): a str hashes in C, an enum
    member in Python, and the options are the key of the first look-up.

    The fast path of :func:`qimen_from_facts`: the day and hour come from the calendar's
    :func:`~leishen.engine.calendar.day_and_hour`, the term from a per-day cache of the
    calendar's own term table (tested equal to :func:`qimen_from_facts` over many moments).
    """
    if (moment.__class__ is not datetime or (moment.tzinfo.__class__ is not timezone and not is_zone(moment.tzinfo))
            or not MIN_YEAR <= moment.year <= MAX_YEAR):  # a timezone's or a zone's utcoffset() is never None
        check_moment(moment)                # raises for naive, odd-zoned or out-of-range moments
    try:
        opts = _OPTIONS[(method, day_boundary, longitude, centre_host, deities, leap_threshold)]
    except (KeyError, TypeError):           # first call with these options, or unhashable ones
        opts = _options(method, day_boundary, longitude, centre_host, deities, leap_threshold)
    clock = moment if longitude is None else chart_clock(moment, longitude)
    day, hour = day_and_hour(clock, day_boundary)
    if opts.method is not JuMethod.CHAI_BU:
        return _assemble(opts, moment, day, hour, -1, clock)        # 置閏 finds its own term
    position = _TERM_OF_DAY.get(moment.toordinal(), -1)
    if position < 0:
        position = _term_position(moment)
    template = opts.charts.get((position * 60 + day) * 60 + hour) or _chai_bu_chart(opts, position, day, hour)
    chart = dict(template)
    chart["void"] = [*template["void"]]
    return chart


def qimen_from_facts(facts: MomentFacts, *, method: JuMethod | str = DEFAULT.method, centre_host: CentreHost | str = DEFAULT.centre_host,
                     deities: DeityNames | str = DEFAULT.deities, leap_threshold: int = DEFAULT.leap_threshold) -> dict:
    """The hour Qimen chart from the calendar of a moment already computed (the chart pipeline's path)."""
    key = (method, facts.day_boundary, facts.longitude, centre_host, deities, leap_threshold)
    try:
        opts = _OPTIONS[key]
    except (KeyError, TypeError):
        opts = _options(*key)
    return _assemble(opts, facts.moment, facts.day_index, facts.hour_index, facts.term_position, facts.clock)


def _assemble(opts: _Options, moment: datetime, day: int, hour: int, position: int, clock: datetime) -> dict:
    """The chart from the day and hour (sexagenary indices) and the term in force (position)."""
    if opts.method is JuMethod.CHAI_BU:
        template = opts.charts.get((position * 60 + day) * 60 + hour) or _chai_bu_chart(opts, position, day, hour)
    else:
        facts = zhi_run_of_day(day_number(clock, opts.day_boundary), moment, opts.day_boundary, opts.longitude,
                               opts.leap_threshold)
        part = _PLATE_PARTS.get(_plate_base(facts, opts) + hour) or _plate_part(_plate_base(facts, opts) + hour)
        template = {**part, **_day_fields(facts, day, opts)}
    chart = dict(template)
    chart["void"] = [*template["void"]]
    return chart


def chart_from_plate(plate: Plate) -> dict:
    """The chart dict of a plate (fresh plain dicts each call; the plate itself is shared and frozen)."""
    palaces = {}
    for key, p in zip(_KEYS, PALACES):
        palaces[key] = {"earth": plate.earth[p], "heaven": plate.heaven[p], "star": plate.star[p],
                        "gate": plate.gate[p], "deity": plate.deity[p]}
    palaces[str(plate.host)]["earth_hosted"] = plate.earth[5]
    rides = palaces[str(plate.centre_rides_to)]
    rides["star_hosted"] = "天禽"
    rides["heaven_hosted"] = plate.earth[5]
    return {
        "dun": plate.dun, "ju": plate.ju, "hour_pillar": plate.hour_pillar, "xun_head": plate.xun_head,
        "duty_star": plate.duty_star, "duty_star_palace": plate.duty_star_palace,
        "duty_gate": plate.duty_gate, "duty_gate_palace": plate.duty_gate_palace,
        "palaces": palaces, "void": list(plate.void),
        "horse": plate.horse, "horse_palace": BRANCH_PALACE[plate.horse], "centre_host": plate.host,
    }
