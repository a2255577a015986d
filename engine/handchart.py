"""Charts typed by hand (e.g. copied from a book): the value checks of each part.

The shape is checked first by :mod:`leishen.engine.schema`; these functions check the
values (branches, generals, a rotation of the plate …) and normalise them (traditional
characters, canonical general names), raising :class:`ChartError` naming the field, e.g.
``liuren.plate.子: 'X' is not a branch``. :mod:`leishen.engine.typedcheck` puts them together
with the recomputation.
"""

from __future__ import annotations

from leishen.engine.calendar import BRANCHES, SIMPLIFIED_TERM_NAMES, SOLAR_TERMS, STEMS, sexagenary_index
from leishen.engine.liuren.options import LiurenOptions
from leishen.engine.liuren.tables import GENERALS
from leishen.errors import ChartError

#: other spellings of the twelve generals (simplified, short, Qing-taboo 元武) → canonical
GENERAL_ALIASES = {
    "天乙": "貴人", "贵人": "貴人", "貴": "貴人", "腾蛇": "螣蛇", "騰蛇": "螣蛇", "蛇": "螣蛇", "雀": "朱雀",
    "合": "六合", "勾陈": "勾陳", "勾": "勾陳", "青龙": "青龍", "龍": "青龍", "龙": "青龍", "空": "天空",
    "虎": "白虎", "常": "太常", "元武": "玄武", "玄": "玄武", "元": "玄武", "太阴": "太陰", "陰": "太陰",
    "阴": "太陰", "后": "天后",
}
PILLAR_KEYS = ("year", "month", "day", "hour")


def _branch(value, field: str) -> str:
    if not isinstance(value, str) or value not in BRANCHES or len(value) != 1:
        raise ChartError(f"{field}: {value!r} is not a branch (one of {BRANCHES})")
    return value


def _general(value, field: str) -> str:
    name = GENERAL_ALIASES.get(value, value) if isinstance(value, str) else value
    if name not in GENERALS:
        raise ChartError(f"{field}: {value!r} is not one of the twelve generals ({' '.join(GENERALS)})")
    return name


def _pillar(value, field: str) -> str:
    """A stem-branch pair of the 60-cycle, or ChartError naming the field."""
    try:
        sexagenary_index(value if isinstance(value, str) else "")
    except ChartError as exc:
        raise ChartError(f"{field}: {value!r} is not a stem-branch pair of the 60-cycle") from exc
    return value


def validate_pillars(pillars) -> dict[str, str]:
    """Each pillar must be a stem-branch pair of the 60-cycle."""
    if not isinstance(pillars, dict):
        raise ChartError(f"pillars: expected an object with {', '.join(PILLAR_KEYS)}")
    out = {}
    for key, value in pillars.items():
        if key not in PILLAR_KEYS:
            raise ChartError(f"pillars.{key}: unknown pillar; known: {', '.join(PILLAR_KEYS)}")
        out[key] = _pillar(value, f"pillars.{key}")
    return out


def validate_plate(plate) -> tuple[dict[str, str], int]:
    """Twelve earth branches, each under one heaven branch, the whole a rotation; returns (plate, offset)."""
    if not isinstance(plate, dict):
        raise ChartError("liuren.plate: expected an object earth branch → heaven branch")
    for key in plate:
        _branch(key, "liuren.plate")
    clean = {key: _branch(value, f"liuren.plate.{key}") for key, value in plate.items()}
    missing = [b for b in BRANCHES if b not in clean]
    if missing:
        raise ChartError(f"liuren.plate: missing earth branch {''.join(missing)} (all twelve are needed)")
    offset = (BRANCHES.index(clean["子"]) - 0) % 12
    for index, earth in enumerate(BRANCHES):
        expected = BRANCHES[(index + offset) % 12]
        if clean[earth] != expected:
            raise ChartError(f"liuren.plate.{earth}: {clean[earth]!r} is not a rotation of the plate "
                             f"({clean['子']} over 子 puts {expected} over {earth})")
    return {b: clean[b] for b in BRANCHES}, offset


def validate_generals(generals) -> dict[str, str]:
    """Each general exactly once, running in order from 貴人 (順 or 逆) around the heaven plate."""
    if not isinstance(generals, dict):
        raise ChartError("liuren.generals: expected an object heaven branch → general")
    clean = {_branch(key, "liuren.generals"): _general(value, f"liuren.generals.{key}")
             for key, value in generals.items()}
    seen: dict[str, str] = {}
    for branch, general in clean.items():
        if general in seen:
            raise ChartError(f"liuren.generals.{branch}: {general} appears twice (also on {seen[general]})")
        seen[general] = branch
    if len(clean) != 12:
        missing = [g for g in GENERALS if g not in seen]
        raise ChartError(f"liuren.generals: missing {' '.join(missing)} (all twelve are needed)")
    noble = BRANCHES.index(seen["貴人"])
    for step in (1, -1):
        if all(clean[BRANCHES[(noble + step * i) % 12]] == g for i, g in enumerate(GENERALS)):
            return {b: clean[b] for b in BRANCHES}
    raise ChartError("liuren.generals: the generals do not run in order (貴人 螣蛇 朱雀 …) forward or "
                     "backward from 貴人")


def _lessons(lessons) -> list[dict[str, str]]:
    if not isinstance(lessons, list) or len(lessons) != 4:
        raise ChartError("liuren.lessons: expected a list of four {upper, lower}")
    out = []
    for i, lesson in enumerate(lessons):
        if not isinstance(lesson, dict):
            raise ChartError(f"liuren.lessons[{i}]: expected an object with upper and lower")
        upper = _branch(lesson.get("upper"), f"liuren.lessons[{i}].upper")
        lower = lesson.get("lower")
        if i == 0 and lower in STEMS and len(lower) == 1:
            out.append({"upper": upper, "lower": lower})
        else:
            out.append({"upper": upper, "lower": _branch(lower, f"liuren.lessons[{i}].lower")})
    return out


def validate_liuren(section: dict) -> tuple[dict, int]:
    """Normalise a typed Liu Ren section (shape already checked); returns (section, plate offset)."""
    if not isinstance(section, dict):
        raise ChartError("liuren: expected an object")
    out = dict(section)
    plate, offset = validate_plate(section.get("plate"))
    out["plate"] = plate
    if "generals" in section:
        out["generals"] = validate_generals(section["generals"])
    if "lessons" in section:
        out["lessons"] = _lessons(section["lessons"])
    if "transmissions" in section:
        trans = section["transmissions"]
        if not isinstance(trans, list) or len(trans) != 3:
            raise ChartError("liuren.transmissions: expected a list of three branches")
        out["transmissions"] = [_branch(b, f"liuren.transmissions[{i}]") for i, b in enumerate(trans)]
    if "void" in section:
        out["void"] = [_branch(b, f"liuren.void[{i}]") for i, b in enumerate(section["void"] or [])]
    for key in ("month_general", "hour_branch", "month_branch", "tai_sui", "horse"):
        if key in section:
            out[key] = _branch(section[key], f"liuren.{key}")
    if "day" in section:
        out["day"] = _pillar(section["day"], "liuren.day")
    if "xun" in section:
        xun = _pillar(section["xun"], "liuren.xun")
        if xun[0] != "甲":
            raise ChartError(f"liuren.xun: {xun!r} is not the head of a 旬 (甲子 甲戌 甲申 甲午 甲辰 甲寅)")
    if isinstance(section.get("noble"), dict) and "branch" in section["noble"]:
        _branch(section["noble"]["branch"], "liuren.noble.branch")
    if "options" in section:
        out["options"] = LiurenOptions.from_mapping(section["options"]).to_dict()
    return out, offset


def validate_solar_term(term: dict, field: str = "solar_term") -> dict:
    """The term name in traditional characters, one of the 24."""
    name = SIMPLIFIED_TERM_NAMES.get(term["name"], term["name"])
    if name not in SOLAR_TERMS:
        raise ChartError(f"{field}.name: {term['name']!r} is not one of the 24 solar terms")
    return {**term, "name": name}
