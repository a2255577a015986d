"""Check a hand-typed Qimen chart (the JSON shape of :func:`.chart.qimen_chart`).

A chart copied from a book is accepted when it is one of the plates the rules can produce:
the earth plate follows its 局; the stars, gates and deities are each placed once; the stars
and gates are rigid turns of their home rings; each heaven stem rides with its star; the
deities run from 值符 in the direction of the 遁; 值符/值使/旬首/空亡/驛馬 agree with the plate.
When ``hour_pillar`` is given, the whole chart must equal the computed plate.

Errors are :class:`~leishen.errors.ChartError` naming the field, e.g.
``qimen.palaces.3.star: '天X' is not a star``. Common variant spellings (天冲, 腾蛇, short
names such as 蓬 or 休) are accepted and normalised; the checked chart is returned.
"""

from __future__ import annotations

from leishen.errors import ChartError

from .plate import DeityNames, build_plate, earth_plate, void_of_hour, xun_of_hour
from .symbols import (
    ALL_DEITIES, BRANCHES, DEITIES_MODERN, DEITIES_YANG_CLASSICAL, DEITY_ALIASES, DUN_ALIASES, GATE_ALIASES,
    GATE_HOME, HORSE, RING, RING_POS, STAR_ALIASES, STAR_HOME, STARS, STEMS, XUN_YI,
)

__all__ = ["validate_qimen", "hour_index", "uses_classical_deities"]

_HOME_OF_STAR = {star: palace for palace, star in STAR_HOME.items()}
_HOME_OF_GATE = {gate: palace for palace, gate in GATE_HOME.items()}
_FIELDS = ("earth", "heaven", "star", "gate", "deity")
_EXTRA = ("earth_hosted", "heaven_hosted", "star_hosted")


def _fail(field: str, message: str) -> None:
    raise ChartError(f"qimen.{field}: {message}")


def _symbol(value, field: str, allowed, aliases: dict[str, str], kind: str) -> str:
    value = aliases.get(value, value) if isinstance(value, str) else value
    if not isinstance(value, str) or value not in tuple(allowed):     # tuple: a str of names is not a substring test
        _fail(field, f"{value!r} is not {kind}")
    return value


def _stem(value, field: str) -> str:
    return _symbol(value, field, STEMS[1:], {}, "one of the stems 乙…癸 (甲 hides under its 儀)")


def validate_qimen(d: dict, *, against_plate: bool = True) -> dict:
    """Validate a hand-typed Qimen chart; return it normalised, or raise ChartError naming the field.

    With ``against_plate`` (default) and an ``hour_pillar``, the chart must also equal the
    computed plate; :mod:`leishen.engine.typedcheck` passes False and lists the differences instead.
    """
    if not isinstance(d, dict):
        raise ChartError(f"qimen: expected an object, found {type(d).__name__}")
    chart = dict(d)
    chart["dun"] = _symbol(d.get("dun"), "dun", ("陽", "陰"), DUN_ALIASES, "陽 or 陰")
    chart["ju"] = _ju(d.get("ju"))
    chart["palaces"] = _palaces(d.get("palaces"))
    _check_earth(chart)
    _check_ring(chart, "star", _HOME_OF_STAR, STAR_HOME, "stars")
    _check_ring(chart, "gate", _HOME_OF_GATE, GATE_HOME, "gates")
    _check_heaven(chart)
    _check_centre(chart)
    _check_deities(chart)
    _check_duty(chart)
    _check_numbers_and_day(chart)
    if "hour_pillar" in d:
        hour_index(d["hour_pillar"])
        if against_plate:
            _check_against_plate(chart)
    return chart


def _check_numbers_and_day(chart: dict) -> None:
    """The palaces a chart names for 值符, 值使 and 馬星 are numbers 1-9 (the centre's host is checked by
    :func:`_check_centre`), and a typed ``day_pillar`` is a stem-branch pair."""
    for field in ("duty_star_palace", "duty_gate_palace", "horse_palace"):
        value = chart.get(field)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9):
            _fail(field, f"{value!r} is not a palace number 1-9")
    if "day_pillar" in chart:
        try:
            hour_index(chart["day_pillar"])
        except ChartError:
            _fail("day_pillar", f"{chart['day_pillar']!r} is not a stem-branch pair such as 甲子")


def _ju(value) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9:
        _fail("ju", f"{value!r} is not a 局 number 1-9")
    return value


def _palaces(value) -> dict[str, dict]:
    if not isinstance(value, dict):
        _fail("palaces", "expected an object keyed by palace '1'..'9'")
    keys = {str(k): v for k, v in value.items()}
    if sorted(keys) != [str(p) for p in range(1, 10)]:
        _fail("palaces", f"expected palaces '1'..'9', found {sorted(keys)}")
    palaces = {}
    for key in map(str, range(1, 10)):
        palace = keys[key]
        if not isinstance(palace, dict):
            _fail(f"palaces.{key}", "expected an object with earth, heaven, star, gate, deity")
        unknown = set(palace) - set(_FIELDS) - set(_EXTRA)
        if unknown:
            _fail(f"palaces.{key}", f"unknown field(s) {sorted(unknown)}")
        palaces[key] = _palace(palace, key)
    return palaces


def _palace(palace: dict, key: str) -> dict:
    field = f"palaces.{key}"
    out = {"earth": _stem(palace.get("earth"), f"{field}.earth")}
    centre = key == "5"
    for name, check in (("heaven", _stem), ("star", _star), ("gate", _gate), ("deity", _deity)):
        value = palace.get(name)
        if value is None and centre:
            out[name] = None
            continue
        if centre and name in ("gate", "deity"):
            _fail(f"{field}.{name}", f"the centre palace has no {name}, found {value!r}")
        out[name] = check(value, f"{field}.{name}")
    for name in _EXTRA:
        if name in palace:
            check = _star if name == "star_hosted" else _stem
            out[name] = check(palace[name], f"{field}.{name}")
    return out


def _star(value, field: str) -> str:
    return _symbol(value, field, STARS, STAR_ALIASES, "a star")


def _gate(value, field: str) -> str:
    return _symbol(value, field, tuple(GATE_HOME.values()), GATE_ALIASES, "a gate")


def _deity(value, field: str) -> str:
    return _symbol(value, field, ALL_DEITIES, DEITY_ALIASES, "one of the eight deities")


def _check_earth(chart: dict) -> None:
    expected = earth_plate(chart["dun"], chart["ju"])
    for p, stem in expected.items():
        found = chart["palaces"][str(p)]["earth"]
        if found != stem:
            _fail(f"palaces.{p}.earth", f"{found!r}, but {chart['dun']}遁{chart['ju']}局 puts {stem!r} there")


def _check_ring(chart: dict, name: str, home_of: dict[str, int], home: dict[int, str], plural: str) -> None:
    """Each of the eight ring values once, placed as one rigid turn of their home ring."""
    placed = {p: chart["palaces"][str(p)][name] for p in RING}
    seen: dict[str, int] = {}
    for p in RING:
        value = placed[p]
        if value == "天禽":
            _fail(f"palaces.{p}.{name}", "天禽 rides with its host star: put it in star_hosted")
        if value in seen:
            _fail(f"palaces.{p}.{name}", f"{value!r} appears twice (also in palace {seen[value]})")
        seen[value] = p
    first = RING[0]
    shift = RING_POS[first] - RING_POS[home_of[placed[first]]]
    for p in RING:
        expected = home[RING[(RING_POS[p] - shift) % 8]]
        if placed[p] != expected:
            _fail(f"palaces.{p}.{name}", f"{placed[p]!r} breaks the turning of the {plural} "
                                         f"(the turn that puts {placed[first]!r} in palace {first} "
                                         f"puts {expected!r} here)")


def _check_heaven(chart: dict) -> None:
    """A heaven stem rides with its star: it is the earth stem of the star's home palace."""
    for p in RING:
        palace = chart["palaces"][str(p)]
        expected = chart["palaces"][str(_HOME_OF_STAR[palace["star"]])]["earth"]
        if palace["heaven"] != expected:
            _fail(f"palaces.{p}.heaven", f"{palace['heaven']!r}, but {palace['star']} carries {expected!r} "
                                         "(the earth stem of its home palace)")


def _check_centre(chart: dict) -> None:
    """天禽 and the 中五 stem: either shown in the centre, or hosted and riding with one corner star."""
    palaces = chart["palaces"]
    centre = palaces["5"]
    if centre["heaven"] not in (None, centre["earth"]):
        _fail("palaces.5.heaven", f"{centre['heaven']!r}: the centre stem is {centre['earth']!r}")
    riders = [p for p in map(str, range(1, 10)) if "star_hosted" in palaces[p]]
    shown = centre["star"] == "天禽"
    if centre["star"] not in (None, "天禽"):
        _fail("palaces.5.star", f"{centre['star']!r}: only 天禽 belongs to the centre")
    if len(riders) + shown != 1:
        where = ", ".join(riders) or "nowhere"
        _fail("palaces.5.star" if shown or not riders else f"palaces.{riders[-1]}.star_hosted",
              f"天禽 must be placed exactly once (in the centre or as star_hosted); found in {where}")
    for p in riders:
        palace = palaces[p]
        if palace["star_hosted"] != "天禽":
            _fail(f"palaces.{p}.star_hosted", f"{palace['star_hosted']!r}: only 天禽 is hosted")
        if palace["star"] not in ("天芮", "天任", "天輔", "天心"):
            _fail(f"palaces.{p}.star_hosted", f"天禽 rides with a corner star, not {palace['star']!r}")
        if palace.get("heaven_hosted", centre["earth"]) != centre["earth"]:
            _fail(f"palaces.{p}.heaven_hosted", f"{palace['heaven_hosted']!r}: the centre stem is {centre['earth']!r}")
        _check_host(chart, _HOME_OF_STAR[palace["star"]])


def _check_host(chart: dict, host: int) -> None:
    stated = chart.get("centre_host", host)
    if stated != host:
        _fail("centre_host", f"{stated!r}, but 天禽 rides with the star of palace {host}")
    chart["centre_host"] = host


def _check_deities(chart: dict) -> None:
    palaces = chart["palaces"]
    start = next((p for p in RING if palaces[str(p)]["deity"] == "值符"), None)
    if start is None:
        _fail("palaces", "no palace holds the deity 值符")
    step = 1 if chart["dun"] == "陽" else -1
    found = [palaces[str(RING[(RING_POS[start] + step * i) % 8])]["deity"] for i in range(8)]
    for names in (DEITIES_MODERN, DEITIES_YANG_CLASSICAL):
        if found == list(names):
            return
    names = DEITIES_YANG_CLASSICAL if "勾陳" in found or "朱雀" in found else DEITIES_MODERN
    i = next(i for i in range(8) if found[i] != names[i])
    p = RING[(RING_POS[start] + step * i) % 8]
    way = "clockwise" if step == 1 else "counter-clockwise"
    _fail(f"palaces.{p}.deity", f"{found[i]!r}, but the deities run {way} in {chart['dun']}遁 from 值符 "
                                f"(palace {start}) and put {names[i]!r} here")


def _check_duty(chart: dict) -> None:
    """旬首, 值符 star, 值使 gate, 空亡 and 驛馬 agree with the plate."""
    palaces = chart["palaces"]
    xun = chart.get("xun_head")
    if xun is None:
        return
    if not (isinstance(xun, str) and len(xun) == 3 and xun[0] == "甲" and xun[1] in "子戌申午辰寅"
            and xun[2] == XUN_YI["子戌申午辰寅".index(xun[1])]):
        _fail("xun_head", f"{xun!r} is not a 旬首 such as 甲子戊 甲戌己 甲申庚 甲午辛 甲辰壬 甲寅癸")
    origin = next(int(p) for p in palaces if palaces[p]["earth"] == xun[2])
    host = chart.get("centre_host", 2)
    if "duty_star" in chart:
        chart["duty_star"] = _star(chart["duty_star"], "duty_star")
        if chart["duty_star"] != STAR_HOME[origin]:
            _fail("duty_star", f"{chart['duty_star']!r}, but {xun} sits in palace {origin} "
                               f"whose star is {STAR_HOME[origin]!r}")
        carrier = STAR_HOME[host] if origin == 5 else chart["duty_star"]
        if palaces[str(next(p for p in RING if palaces[str(p)]["star"] == carrier))]["deity"] != "值符":
            _fail("duty_star", f"the deity 值符 must stand with the 值符 star {carrier}")
    if "duty_gate" in chart:
        chart["duty_gate"] = _gate(chart["duty_gate"], "duty_gate")
        expected = GATE_HOME[host if origin == 5 else origin]
        if chart["duty_gate"] != expected:
            _fail("duty_gate", f"{chart['duty_gate']!r}, but the 值使 of {xun} is {expected!r}")
    hour = 10 * "子戌申午辰寅".index(xun[1])
    if "void" in chart and sorted(chart["void"]) != sorted(void_of_hour(hour)):
        _fail("void", f"{chart['void']!r}, but the 旬 {xun[:2]} leaves {list(void_of_hour(hour))} void")
    if "horse" in chart and chart["horse"] not in tuple(BRANCHES):
        _fail("horse", f"{chart['horse']!r} is not a branch")


def hour_index(hour) -> int:
    """The sexagenary index of a typed ``hour_pillar``, or ChartError naming it."""
    if not (isinstance(hour, str) and len(hour) == 2 and hour[0] in STEMS and hour[1] in BRANCHES
            and STEMS.index(hour[0]) % 2 == BRANCHES.index(hour[1]) % 2):
        _fail("hour_pillar", f"{hour!r} is not a stem-branch pair such as 甲子")
    return (6 * STEMS.index(hour[0]) - 5 * BRANCHES.index(hour[1])) % 60


def uses_classical_deities(chart: dict) -> bool:
    """Whether a typed chart names its deities the 陽遁 classical way (勾陳 朱雀)."""
    return any(chart["palaces"][str(p)]["deity"] in ("勾陳", "朱雀") for p in RING)


def _check_against_plate(chart: dict) -> None:
    """With the hour pillar known, the chart must be exactly the computed plate."""
    hour = chart["hour_pillar"]
    index = hour_index(hour)
    if "xun_head" in chart and chart["xun_head"] != "".join(xun_of_hour(index)):
        _fail("xun_head", f"{chart['xun_head']!r}, but the hour {hour} is in the 旬 {''.join(xun_of_hour(index))}")
    plate = build_plate(chart["dun"], chart["ju"], index, chart.get("centre_host", 2),
                        DeityNames.BY_DUN if uses_classical_deities(chart) else DeityNames.MODERN)
    for p in RING:
        palace = chart["palaces"][str(p)]
        for name in ("star", "gate", "deity"):
            expected = getattr(plate, name)[p]
            if palace[name] != expected:
                _fail(f"palaces.{p}.{name}", f"{palace[name]!r}, but {chart['dun']}遁{chart['ju']}局 at hour {hour} "
                                             f"puts {expected!r} there")
    if "horse" in chart and chart["horse"] != HORSE[hour[1]]:
        _fail("horse", f"{chart['horse']!r}, but the 驛馬 of {hour[1]} is {HORSE[hour[1]]!r}")
