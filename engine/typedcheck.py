"""Check a chart typed by hand against the chart leishen computes.

:func:`check_typed_chart` runs three steps:

1. the shape (:mod:`leishen.engine.schema`) and the values (:mod:`leishen.engine.handchart`,
   :func:`~leishen.engine.qimen.validate.validate_qimen`, :func:`~leishen.engine.ninestar.validate_ninestar`);
   anything wrong raises :class:`ChartError` naming the field (the CLI exits 2). A typed part
   that contradicts the typed moment (pillars, solar term, UTC instant) is such an error too;
   :func:`validate_typed_chart` (what every reading door calls: ``read --chart``, POST /readings,
   ``leishen.read``) stops here, and there a typed system field that differs from the moment's own chart
   is an error as well, named as step 3 names the difference: a reading never reads 三傳 its moment contradicts;
2. the recomputation: from the moment when one is given (all three systems, with the typed
   options), else Liu Ren from ``pillars.day`` (and ``hour``) and the plate, Qimen from
   ``dun``, ``ju`` and ``hour_pillar``;
3. the comparison: every typed field is listed as differing (typed vs computed), agreeing,
   or not checked (nothing computed to compare with); every computed field the typed chart
   leaves out is "not given". A part is never said to agree when it was not given.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

from leishen.engine.calendar import BRANCHES, parse_moment
from leishen.engine.chart import CALENDAR_KEYS, SYSTEMS, ChartRequest, build_chart
from leishen.engine.handchart import validate_liuren, validate_pillars, validate_solar_term
from leishen.engine.liuren.chart import liuren_section
from leishen.engine.liuren.options import LiurenOptions
from leishen.errors import ChartError

__all__ = ["check_typed_chart", "has_differences", "validate_typed_chart"]

#: computed keys that are bookkeeping, never reported "not given"
_QUIET = {"options", "offset", "birth", "checks"}


def check_typed_chart(data) -> dict:
    """Validate, recompute and compare a typed chart; return ``{"chart", "checks", "agrees"}``."""
    from leishen.engine.schema import parse_typed_chart  # pydantic: only for a typed chart (start-up)
    given = parse_typed_chart(data).model_dump(exclude_unset=True, exclude_none=True)   # null = not given
    chart = _normalise(given)
    request = _request(chart)
    computed = None
    if "moment" in chart:
        moment = _typed_moment(chart["moment"])
        computed = build_chart(moment, request)
        _check_calendar(chart, computed)
    checks = {}
    for system in SYSTEMS:
        if system in chart:
            section, source = _recompute(system, chart, computed, request)
            checks[system] = compare(chart[system], section, system, source)
    return {"chart": chart, "checks": checks, "agrees": not has_differences(checks)}


def validate_typed_chart(data) -> dict:
    """The shape and the values of a typed chart (step 1 of :func:`check_typed_chart`, without the
    recomputation), normalised (traditional characters, canonical names): what a reading of it reads.
    ChartError naming the first bad field. The typed options and calendar are checked, and a typed moment
    too: the pillars and terms typed beside it must be its own, and so must every typed field of a system
    (三傳, plate, palaces …): a field that differs from the chart of the moment is the error that
    ``chart --chart`` reports as a difference (the chart of the moment is one cheap computation)."""
    from leishen.engine.schema import parse_typed_chart  # pydantic: only for a typed chart (start-up)
    chart = _normalise(parse_typed_chart(data).model_dump(exclude_unset=True, exclude_none=True))
    request = _request(chart)
    if "moment" in chart:
        computed = build_chart(_typed_moment(chart["moment"]), request)
        _check_calendar(chart, computed)
        _check_systems(chart, computed)
    liuren = chart.get("liuren")
    if liuren is not None and "day" not in liuren:  # the day stem and branch every Liu Ren reading starts from
        day = (chart.get("pillars") or {}).get("day")
        if day is None:
            raise ChartError("liuren.day: a reading of Liu Ren needs the day (liuren.day or pillars.day)")
        chart["liuren"] = {**liuren, "day": day}
    return chart


def has_differences(checks: dict) -> bool:
    """Whether any system's check lists a differing field."""
    return any(check["differences"] for check in checks.values())


# ---------------------------------------------------------------- values

def _normalise(given: dict) -> dict:
    chart = dict(given)
    if "pillars" in given:
        chart["pillars"] = validate_pillars(given["pillars"])
    for key in ("solar_term", "middle_term"):
        if key in given:
            chart[key] = validate_solar_term(given[key], key)
    if "liuren" in given:
        chart["liuren"] = validate_liuren(given["liuren"])[0]
    if "qimen" in given:
        from leishen.engine.qimen.validate import validate_qimen
        chart["qimen"] = validate_qimen(given["qimen"], against_plate=False)
    if "ninestar" in given:
        from leishen.engine.ninestar import validate_ninestar
        chart["ninestar"] = validate_ninestar(given["ninestar"])
    return chart


def _typed_moment(moment):
    local = moment["local"] if isinstance(moment, dict) else moment
    try:
        parsed = parse_moment(local)
    except ChartError as exc:
        raise ChartError(f"moment.local: {str(exc).removeprefix('moment: ')}") from None
    utc = moment.get("utc") if isinstance(moment, dict) else None
    if utc is not None:  # the same instant: its year may be another (1800-01-01T00:30+14:00 is 1799 in UTC)
        try:
            other = datetime.fromisoformat(utc.strip()) if isinstance(utc, str) else None
        except ValueError:
            other = None
        if other is None or other.tzinfo is None:
            raise ChartError(f"moment.utc: {utc!r} is not an ISO 8601 date-time with an offset") from None
        if other != parsed:
            raise ChartError(f"moment.utc: {utc!r} is not the instant of moment.local {local!r} "
                             f"({parsed.astimezone(timezone.utc).isoformat()})")
    return parsed


def _check_calendar(chart: dict, computed: dict) -> None:
    """Typed pillars and terms follow from the typed moment: a contradiction is an input error."""
    for key, value in chart.get("pillars", {}).items():
        if value != computed["pillars"][key]:
            raise ChartError(f"pillars.{key}: {value!r} contradicts moment {computed['moment']['local']} "
                             f"(its {key} pillar is {computed['pillars'][key]})")
    for key in ("solar_term", "middle_term"):
        if key in chart and chart[key]["name"] != computed[key]["name"]:
            raise ChartError(f"{key}.name: {chart[key]['name']!r} contradicts moment {computed['moment']['local']} "
                             f"(its term is {computed[key]['name']})")


def _check_systems(chart: dict, computed: dict) -> None:
    """Every typed system field agrees with the chart of the typed moment (:func:`compare`, as ``chart --chart``
    compares them); the first that differs is a ChartError naming it, the typed and the computed value."""
    for system in SYSTEMS:
        if system not in chart:
            continue
        for item in compare(chart[system], computed[system], system, "moment")["differences"]:
            raise ChartError(f"{item['field']}: typed {_shown(item['typed'])} contradicts moment "
                             f"{computed['moment']['local']} (its chart has {_shown(item['computed'])}); "
                             "`leishen chart --chart FILE` lists every difference, and a chart typed without "
                             "its moment is read as typed")


def _shown(value) -> str:
    """A typed or computed value in a message: a string as is, anything else as compact JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _request(chart: dict) -> ChartRequest:
    """The computation the typed chart asks for: its systems, calendar and options."""
    calendar = dict(chart.get("calendar", {}))
    per_system = {}
    for system in ("qimen", "ninestar"):
        options = dict(chart.get(system, {}).get("options") or {})
        for key in CALENDAR_KEYS:
            if key in options:
                value = options.pop(key)
                if key in calendar and calendar[key] != value:
                    raise ChartError(f"{system}.options.{key}: {value!r} differs from calendar.{key} {calendar[key]!r}")
                calendar[key] = value
        per_system[system] = {k: v for k, v in options.items() if v is not None}
    liuren = chart.get("liuren", {})
    birth = liuren.get("birth") or chart.get("birth") or {}
    systems = tuple(s for s in SYSTEMS if s in chart) or SYSTEMS
    request = ChartRequest(systems, calendar.get("day_boundary") or "23:00", calendar.get("longitude"),
                           LiurenOptions.from_mapping(liuren.get("options")), per_system["qimen"],
                           per_system["ninestar"], birth.get("year"), birth.get("sex"))
    _check_peer_options(request)
    return request


def _check_peer_options(request: ChartRequest) -> None:
    """Qimen and Nine Star options, checked even when nothing is recomputed (errors name the field)."""
    from leishen.engine.qimen.chart import check_options
    from leishen.engine.ninestar import check_options as check_ninestar
    for system, check, options in (("qimen", check_options, request.qimen),
                                   ("ninestar", check_ninestar, request.ninestar)):
        try:
            check(day_boundary=request.day_boundary, longitude=request.longitude, **options.to_dict())
        except TypeError as exc:
            raise ChartError(f"{system}.options: {exc}") from None
        except ChartError as exc:
            text = str(exc)
            raise ChartError(text if text.startswith(("calendar.", "day_boundary", "longitude"))
                             else f"{system}.options.{text}") from None


# ---------------------------------------------------------------- recomputation

def _recompute(system: str, chart: dict, computed: dict | None, request: ChartRequest) -> tuple[dict | None, str]:
    if computed is not None:
        return computed[system], "moment"
    if system == "liuren":
        return _liuren_from_pillars(chart, request)
    if system == "qimen" and "hour_pillar" in chart["qimen"]:
        return _qimen_from_plate(chart["qimen"]), "dun, ju and hour_pillar"
    return None, "nothing to recompute from without a moment"


def _liuren_from_pillars(chart: dict, request: ChartRequest) -> tuple[dict | None, str]:
    pillars, section = chart.get("pillars", {}), chart["liuren"]
    if "day" not in pillars:
        return None, "nothing to recompute from without a moment or pillars.day"
    offset = (BRANCHES.index(section["plate"]["子"])) % 12
    hour = pillars["hour"][1] if "hour" in pillars else "子"
    general = BRANCHES[(BRANCHES.index(hour) + offset) % 12]
    computed = liuren_section(pillars["day"], hour, general, request.liuren)
    if "hour" not in pillars:         # the generals, 貴人 and 月將 need the hour
        for key in ("generals", "noble", "transmission_details", "month_general", "hour_branch"):
            computed.pop(key, None)
        return computed, "pillars.day and the plate (no pillars.hour)"
    return computed, "pillars.day, pillars.hour and the plate"


def _qimen_from_plate(qimen: dict) -> dict:
    from leishen.engine.qimen.chart import chart_from_plate
    from leishen.engine.qimen.plate import DeityNames, build_plate
    from leishen.engine.qimen.validate import hour_index, uses_classical_deities
    names = DeityNames.BY_DUN if uses_classical_deities(qimen) else DeityNames.MODERN
    plate = build_plate(qimen["dun"], qimen["ju"], hour_index(qimen["hour_pillar"]), qimen.get("centre_host", 2), names)
    return chart_from_plate(plate)


# ---------------------------------------------------------------- comparison

def compare(typed: dict, computed: dict | None, prefix: str, source: str) -> dict:
    """Every typed field as differing, agreeing or not checked; every computed one left out as not given."""
    differences: list[dict] = []
    agreed: list[str] = []
    unchecked: list[str] = []
    _walk(typed, computed, prefix, differences, agreed, unchecked)
    not_given = [] if computed is None else [f"{prefix}.{key}" for key in computed
                                             if key not in typed and key not in _QUIET]
    return {"computed_from": source if computed is not None else None, "note": None if computed is not None else source,
            "differences": differences, "agrees": agreed, "not_checked": unchecked, "not_given": not_given}


def _walk(typed: dict, computed: dict | None, prefix: str, differences: list, agreed: list, unchecked: list) -> None:
    for key, value in typed.items():
        if key in _QUIET:
            continue
        field = f"{prefix}.{key}"
        if computed is None or key not in computed:
            unchecked.append(field)
        elif isinstance(value, dict) and isinstance(computed[key], dict):
            _walk(value, computed[key], field, differences, agreed, unchecked)
        elif _plain(value) == _plain(computed[key]):
            agreed.append(field)
        else:
            differences.append({"field": field, "typed": value, "computed": _plain(computed[key])})


def _plain(value):
    """Computed parts may be read-only dicts or tuples: compare and print them as JSON values
    (null members dropped, as in the typed chart, where null means not given)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
