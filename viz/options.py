"""The school options as the web page offers them: each option of the chart request model with its choices,
the engine's default, its bounds (numeric options), help from the engine's own declarations, and zh/ko/en
labels from ``option_labels.csv``.

The choices and defaults are read from where the engine declares them (the option enumerations, the
``LiurenOptions`` dataclass, the keyword defaults of ``qimen_chart`` and ``ninestar_chart``), never
restated here; the English help of a choice is the comment (``#:``) above its member or the docstring
bullet naming its value.
"""

from __future__ import annotations

import csv
import enum
import inspect
import re
import typing
from dataclasses import fields
from functools import lru_cache
from pathlib import Path

LABELS = Path(__file__).with_name("option_labels.csv")
#: request fields that are not school options (the page has its own inputs for them)
NOT_OPTIONS = ("moment", "tz", "fold", "systems", "topic")
_BULLET = re.compile(r"\*\s+``([^`]+)``(?:\s*\(default\))?\s*[—-]+\s*(.+?)(?=\n\s*\*\s+``|\Z)", re.S)


@lru_cache(maxsize=1)
def labels() -> dict[tuple[str, str], dict]:
    """(option, value or '') → its row of option_labels.csv."""
    with LABELS.open(encoding="utf-8", newline="") as handle:
        return {(row["option"], row["value"]): row for row in csv.DictReader(handle)}


def engine_defaults() -> dict[str, object]:
    """Each option's default, read from the engine's and the judgment's declarations (None: the option is off
    unless given)."""
    from leishen.engine.liuren.options import LiurenOptions
    from leishen.engine.ninestar import ninestar_chart
    from leishen.engine.qimen.chart import qimen_chart
    from leishen.engine.chart import ChartRequest

    out = {f.name: _plain(f.default) for f in fields(LiurenOptions)}
    qimen = inspect.signature(qimen_chart).parameters
    out.update({f"qimen_{k}": _plain(qimen[k].default) for k in ("method", "centre_host", "deities", "leap_threshold")})
    stars = inspect.signature(ninestar_chart).parameters
    out.update({f"ninestar_{k}": _plain(stars[k].default) for k in ("day_leap", "day_flight")})
    from leishen.judgments.procedure import DEFAULT_OPTIONS
    out.update(DEFAULT_OPTIONS)
    request = ChartRequest()
    out.update(day_boundary=request.day_boundary, longitude=request.longitude, birth_year=request.birth_year,
               sex=request.sex)
    return out


def _plain(value):
    return getattr(value, "value", value)


def member_help(kind: type[enum.Enum]) -> dict[str, str]:
    """value → the English help of that member: its ``#:`` comment, else the docstring bullet naming it."""
    out: dict[str, str] = {}
    comment: list[str] = []
    for line in inspect.getsource(kind).splitlines():
        text = line.strip()
        if text.startswith("#:"):
            comment.append(text[2:].strip())
            continue
        found = re.match(r"([A-Z_0-9]+)\s*=", text)
        if found and comment and found.group(1) in kind.__members__:
            out[kind[found.group(1)].value] = " ".join(comment)
        comment = [] if not text.startswith("#") else comment
    for value, text in _BULLET.findall(inspect.getdoc(kind) or ""):
        out.setdefault(value, " ".join(text.split()))
    return out


def _choices(annotation) -> tuple[list, type | None]:
    """The allowed values of a field's type (an enumeration or a Literal, possibly ``| None``)."""
    for alt in (annotation, *typing.get_args(annotation)):
        if isinstance(alt, type) and issubclass(alt, enum.Enum):
            return [m.value for m in alt], alt
        if typing.get_origin(alt) is typing.Literal:
            return list(typing.get_args(alt)), None
    return [], None


def _names(option: str, value: str = "") -> dict:
    row = labels().get((option, value))
    return {k: row[k] for k in ("zh", "ko", "en")} if row else {"zh": value or option, "ko": value or option,
                                                                   "en": value or option}


def _bounds(info) -> dict:
    out = {}
    for rule in info.metadata:
        for key, name in (("ge", "min"), ("le", "max")):
            if getattr(rule, key, None) is not None:
                out[name] = getattr(rule, key)
    return out


def describe(name: str, info, default) -> dict:
    """One option: names, help (zh, ko from the table; en from the engine), kind, choices, default, bounds."""
    values, kind = _choices(info.annotation)
    row = labels().get((name, ""), {})
    doc = (inspect.getdoc(kind) or "").split("\n\n")[0] if kind else ""
    helps = member_help(kind) if kind else {}
    numeric = next((t for t in (int, float) if t in (info.annotation, *typing.get_args(info.annotation))), None)
    return {"name": name, "names": _names(name), "src": row.get("src") or None,
            "help": {"zh": row.get("help_zh", ""), "ko": row.get("help_ko", ""),
                     "en": " ".join((info.description or doc).split())},
            "kind": "choice" if values else (numeric.__name__ if numeric else "text"),
            "default": default, **_bounds(info),
            "choices": [{"value": v, "names": _names(name, v), "help": helps.get(v, "")} for v in values]}


def option_table(model) -> list[dict]:
    """Every school option of the request *model* (a pydantic model class), in its field order."""
    defaults = engine_defaults()
    return [describe(name, info, defaults.get(name)) for name, info in model.model_fields.items()
            if name not in NOT_OPTIONS]
