"""Moments: parsing ISO 8601 text into aware datetimes, the supported range, the moments of a range (``find``),
and clocks.

A *moment* is a timezone-aware :class:`datetime.datetime` whose local year lies in
:data:`MIN_YEAR`..:data:`MAX_YEAR` (1800-01-01T00:00 to 2200-12-31T23:59:59 on the moment's
own clock, in a UTC offset from -12:00 to +14:00 when the offset is given as such; an IANA zone's own
offset is taken as the zone gives it, local mean time too: America/Sitka +14:58 before 1867, Asia/Manila
-15:56 before 1845, and such an offset written to the second, as a chart's moment shows it, is read back).
Every error is a :class:`MomentError`
whose message starts with the field (``moment:``, ``tz:``, ``fold:``, ``longitude:``).

Local times in an IANA zone are checked against its transitions: a time in a gap (the
clock jumped over it, e.g. 2024-03-10T02:30 in America/New_York) is an error; a time the
clock shows twice (2024-11-03T01:30 there) needs ``fold`` (0 = the first, 1 = the second).

True solar time comes from PyEphem (``ephem``, offline, no data files): the Sun's apparent
hour angle at the longitude, read as a clock. PyEphem and :mod:`zoneinfo` are imported when first used (a
moment with an offset and no longitude needs neither).
"""

from __future__ import annotations

import math
import re
import sys
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Iterator

from leishen.errors import ChartError, FindError, MomentError

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

MIN_YEAR, MAX_YEAR = 1800, 2200
NOW = "now"
_DATE_SHAPE = re.compile(r"^\s*[+-]?\d{4,}-\d{1,2}-\d{1,2}")
_EXAMPLE = "1952-12-26T19:17:00+08:00"
#: the steps of a range of moments (``find``), and the most moments one range may hold
STEPS = {"hour": timedelta(hours=1), "day": timedelta(days=1)}
MAX_MOMENTS = 200_000


def parse_moment(text: str | None, tz: str | None = None, *, fold: int | None = None) -> datetime:
    """Parse an ISO 8601 moment (or ``None`` / ``"now"`` for the current instant) into an aware datetime.

    ``text`` either carries an offset (``1952-12-26T19:17+08:00``, ``…Z``) or is naive and
    ``tz`` names an IANA zone (``Asia/Seoul``). With both, the instant is kept and shown in
    ``tz``. A naive moment without ``tz`` is an error; so is a local time that never existed
    in ``tz``, or one that occurred twice when ``fold`` is not given, or a year outside
    :data:`MIN_YEAR`..:data:`MAX_YEAR`.
    """
    zone = zone_named(tz) if tz else None
    if text is None or (isinstance(text, str) and text.strip().lower() == NOW):
        now = datetime.now(zone) if zone else datetime.now().astimezone()
        return check_moment(now.replace(microsecond=0))
    parsed = _fromisoformat(text)
    if parsed.tzinfo is None:
        if zone is None:
            raise MomentError(f"moment: {text!r} has no UTC offset; add one (e.g. +08:00) or pass tz (e.g. Asia/Shanghai)")
        return check_moment(localize(parsed, zone, fold))
    check_moment(parsed)  # the offset as written (-12:00..+14:00), whatever zone it is then shown in
    if zone is not None:
        try:
            parsed = parsed.astimezone(zone)
        except (OverflowError, ValueError) as exc:
            raise _range_error(f"{text.strip()} in {tz}") from exc
    return check_moment(parsed)


def _fromisoformat(text) -> datetime:
    if not isinstance(text, str):
        raise MomentError(f"moment: expected ISO 8601 text such as {_EXAMPLE}, found {type(text).__name__}")
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError as exc:
        if _DATE_SHAPE.match(text) and ("out of range" in str(exc) or "must be in" in str(exc)):
            raise MomentError(f"moment: {text.strip()!r}: no such date ({exc})") from exc
        raise MomentError(f"moment: {text!r} is not an ISO 8601 date-time such as {_EXAMPLE}") from exc


def zone_named(name: str) -> ZoneInfo:
    """The IANA zone *name*, or a :class:`MomentError` naming the field ``tz``."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError) as exc:
        raise MomentError(f"tz: {name!r} is not an IANA time zone such as Asia/Shanghai") from exc


def localize(naive: datetime, zone: ZoneInfo, fold: int | None = None) -> datetime:
    """Attach *zone* to a naive clock reading, refusing a time in a gap and an ambiguous time without *fold*."""
    if fold not in (None, 0, 1):
        raise MomentError(f"fold: {fold!r} is not 0 (the first of a repeated hour) or 1 (the second)")
    _check_year(naive)
    first, second = naive.replace(tzinfo=zone, fold=0), naive.replace(tzinfo=zone, fold=1)
    try:
        offsets = first.utcoffset(), second.utcoffset()
        back = first.astimezone(timezone.utc).astimezone(zone).replace(tzinfo=None)
    except (OverflowError, ValueError) as exc:
        raise _range_error(f"{naive.isoformat()} in {zone.key}") from exc
    if offsets[0] == offsets[1]:
        return first
    if back != naive:
        raise MomentError(f"moment: {naive.isoformat()} does not exist in {zone.key} (the clocks jumped over it "
                          f"from UTC{_offset(offsets[0])} to UTC{_offset(offsets[1])})")
    if fold is None:
        raise MomentError(f"moment: {naive.isoformat()} happened twice in {zone.key}; pass fold 0 for the first "
                          f"(UTC{_offset(offsets[0])}) or 1 for the second (UTC{_offset(offsets[1])})")
    return naive.replace(tzinfo=zone, fold=fold)


def _offset(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _range_error(what: str) -> MomentError:
    return MomentError(f"moment: {what} is outside the supported range {MIN_YEAR}-01-01 to {MAX_YEAR}-12-31 "
                       f"(local clock)")


def _check_year(moment: datetime) -> None:
    if not MIN_YEAR <= moment.year <= MAX_YEAR:
        raise MomentError(f"moment: year {moment.year} is outside the supported range {MIN_YEAR}-{MAX_YEAR} "
                          f"({MIN_YEAR}-01-01 to {MAX_YEAR}-12-31 on the moment's own clock)")


_MIN_OFFSET, _MAX_OFFSET = timedelta(hours=-12), timedelta(hours=14)
_LMT = timedelta(hours=16)  # local mean times reach about ±16:00 (Asia/Manila -15:56:08 before 1845)


def _offset_allowed(moment: datetime, offset: timedelta) -> bool:
    """An IANA zone's offset, whatever it is; a fixed offset within -12:00..+14:00, or one to the second (a
    local mean time, as a zone gives it before standard time: a chart's own moment written back) within ±16:00."""
    if _MIN_OFFSET <= offset <= _MAX_OFFSET or is_zone(moment.tzinfo):
        return True
    return offset.seconds % 60 != 0 and -_LMT <= offset <= _LMT


def is_zone(tzinfo) -> bool:
    """Whether *tzinfo* is an IANA zone (a :class:`zoneinfo.ZoneInfo`); none exists before zoneinfo is imported,
    so a process that never named a zone does not import it to ask."""
    zoneinfo = sys.modules.get("zoneinfo")
    return zoneinfo is not None and isinstance(tzinfo, zoneinfo.ZoneInfo)


def check_moment(moment: datetime) -> datetime:
    """Raise :class:`MomentError` unless *moment* is aware and within the supported years, with an offset
    :func:`_offset_allowed` takes."""
    if isinstance(moment, datetime):
        offset = moment.utcoffset()
        if offset is not None and MIN_YEAR <= moment.year <= MAX_YEAR and _offset_allowed(moment, offset):
            return moment
    if not isinstance(moment, datetime):
        raise MomentError(f"moment: expected a datetime, found {type(moment).__name__}")
    if moment.utcoffset() is None:
        raise MomentError(f"moment: {moment.isoformat()} is naive; give it a tzinfo (e.g. ZoneInfo('Asia/Shanghai'))")
    _check_year(moment)
    raise MomentError(f"moment: UTC offset {_offset(moment.utcoffset())} is outside -12:00..+14:00")


# ---------------------------------------------------------------- clocks

def equation_of_time(utc: datetime) -> float:
    """Apparent minus mean solar time at the instant *utc* (aware or naive UTC), in minutes, by PyEphem.

    The Sun's apparent hour angle at Greenwich, plus 12 h, is Greenwich apparent solar time;
    UTC stands for Greenwich mean time (UT1 − UTC, under a second, is ignored).
    """
    import ephem
    if utc.tzinfo is not None:
        utc = utc.astimezone(timezone.utc).replace(tzinfo=None)
    observer = ephem.Observer()
    observer.lon, observer.lat, observer.elevation = "0", "0", 0
    observer.pressure = 0                     # no refraction: the hour angle only
    observer.date = ephem.Date(utc)
    sun = ephem.Sun(observer)
    hour_angle = float(observer.sidereal_time()) - float(sun.g_ra)
    apparent = (hour_angle / (2 * math.pi) * 1440.0 + 720.0) % 1440.0
    mean = utc.hour * 60 + utc.minute + (utc.second + utc.microsecond / 1e6) / 60.0
    return (apparent - mean + 720.0) % 1440.0 - 720.0


def true_solar_time(moment: datetime, longitude: float) -> datetime:
    """Local apparent (true) solar time at *longitude* (degrees east), as a naive clock reading.

    mean solar time = UTC + longitude × 4 min; true solar time = mean + equation of time.
    """
    if not (isinstance(longitude, (int, float)) and -180.0 <= longitude <= 180.0):
        raise ChartError(f"longitude: {longitude!r} is outside -180..180 degrees")
    utc = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return utc + timedelta(minutes=4.0 * longitude + equation_of_time(utc))


def chart_clock(moment: datetime, longitude: float | None = None) -> datetime:
    """The clock the day and hour pillars are read from: the moment itself (its own local clock;
    only its date and hour fields are read), or the naive true solar time at *longitude*."""
    if longitude is None:
        return moment
    return true_solar_time(moment, longitude)


def range_ends(start: str, end: str, tz: str | None = None, names: tuple[str, str] = ("start", "end")
               ) -> tuple[datetime, datetime]:
    """The two ends of a find range (ISO 8601, with an offset or naive with *tz*), as moments; an error names
    the end at fault by *names* (``start``/``end`` over HTTP and MCP, ``from``/``to`` on the command line).
    A local time the clock shows twice is refused with both of its readings, to be written with the offset."""
    ends = []
    for text, name in zip((start, end), names):
        try:
            ends.append(parse_moment(text, tz))
        except MomentError as exc:
            message = str(exc)
            if not message.startswith("moment:"):  # tz: … names its own field
                raise
            if "happened twice" in message:
                first, second = (parse_moment(text, tz, fold=f).isoformat() for f in (0, 1))
                raise MomentError(f"{name}: {text} happened twice in {tz}; write it with its UTC offset: {first} "
                                  f"(the first) or {second} (the second)") from None
            raise MomentError(f"{name}:{message.removeprefix('moment:')}") from None
    if ends[1] < ends[0]:
        raise FindError(f"{names[1]}: the end of the range is before its start", names[1])
    return ends[0], ends[1]


def moments(start: datetime, end: datetime, step: str, names: tuple[str, str] = ("start", "end")
            ) -> Iterator[datetime]:
    """Every moment from *start* to *end* (inclusive), shown on *start*'s clock. ``hour``: every real hour (in
    absolute time: where a clock is set back its repeated hour comes twice, where it jumps the skipped hour never
    comes); ``day``: the same clock time each day (a time a clock jumps over that day is read on the later
    side). A range that leaves the supported years on *start*'s clock is refused before the first moment."""
    if step not in STEPS:
        raise FindError(f"step: {step!r} is not one of {', '.join(STEPS)}", "step")
    if end < start:  # (aware datetimes of different zones compare as instants)
        raise FindError(f"{names[1]}: the end of the range is before its start", names[1])
    first, last = start.astimezone(timezone.utc), end.astimezone(timezone.utc)
    count = (last - first) // STEPS[step] + 1
    if count > MAX_MOMENTS:
        raise FindError(f"the range holds {count} moments at step {step}; at most {MAX_MOMENTS}")
    zone = start.tzinfo
    try:
        check_moment(last.astimezone(zone))
    except MomentError as exc:
        raise FindError(f"{names[1]}: on the clock of the start ({start.isoformat()}) the range ends at "
                        f"{last.astimezone(zone).isoformat()}:{str(exc).removeprefix('moment:')}", names[1]) from None
    if step == "hour":
        for k in range(count):
            yield (first + k * STEPS["hour"]).astimezone(zone)
        return
    t = start
    while t.astimezone(timezone.utc) <= last:
        yield t.astimezone(timezone.utc).astimezone(zone)  # a wall time in a gap, read as the instant it names
        t += STEPS["day"]


PILLARS = ("年", "月", "日", "時")


def parse_pillars(text: str) -> tuple[str | None, ...]:
    """``年,月,日,時`` (each a 干支 of the sixty, e.g. 甲子, or ``*`` for any) → four names or None; FindError
    naming ``pillars`` and the one at fault."""
    from leishen.engine.calendar import sexagenary_name
    sixty = {sexagenary_name(k) for k in range(60)}
    parts = [p.strip() for p in str(text).replace("，", ",").split(",")]
    if len(parts) != 4:
        raise FindError(f"pillars: expected four pillars 年,月,日,時 (each a 干支 such as 甲子, or *), found "
                        f"{len(parts)} in {text!r}", "pillars")
    for name, part in zip(PILLARS, parts):
        if part != "*" and part not in sixty:
            raise FindError(f"pillars: the {name} pillar {part!r} is not one of the sixty 干支 (甲子 乙丑 … 癸亥) "
                            "nor *", "pillars")
    if all(p == "*" for p in parts):
        raise FindError("pillars: give at least one pillar (all four are *)", "pillars")
    return tuple(None if p == "*" else p for p in parts)


def pillar_spans(start: datetime, end: datetime, wanted: tuple, day_boundary: str = "23:00",
                 longitude: float | None = None) -> Iterator[dict]:
    """The spans of consecutive hours from *start* to *end* whose four pillars match *wanted*
    (:func:`parse_pillars`), each ``{"start", "end" (its last hour), "pillars", "solar_term"}``: a new span where
    a matched pillar or the solar term changes."""
    from leishen.engine.calendar import moment_facts
    span = None
    for t in moments(start, end, "hour"):
        facts = moment_facts(t, day_boundary=day_boundary, longitude=longitude)
        four = tuple(facts.pillars)
        if not all(w is None or w == p for w, p in zip(wanted, four)):
            if span:
                yield _span(span)
            span = None
            continue
        key = [p for w, p in zip(wanted, four) if w] + [facts.term]
        if span and span["key"] == key:
            span["end"] = t.isoformat()
            continue
        if span:
            yield _span(span)
        span = {"start": t.isoformat(), "end": t.isoformat(), "pillars": dict(zip(PILLARS, four)),
                "solar_term": facts.term, "key": key}
    if span:
        yield _span(span)


def _span(span: dict) -> dict:
    """A span as shown: without its matching key."""
    return {k: v for k, v in span.items() if k != "key"}
