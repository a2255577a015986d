"""The school options as the web page offers them, in the order of the reading request model's fields.

The chart's school options are the rows of engine/options.csv (:mod:`leishen.engine.options`): their zh/ko/en
labels and docs, choices (each with the school it follows and its src), defaults and bounds. The request's
other options (the calendar's, the asker's, the judgment's and the reading's) take their choices and defaults
from the model's fields and the judgment's declarations, and their zh/ko/en labels from ``option_labels.csv``.
"""

from __future__ import annotations

import csv
import typing
from functools import lru_cache
from pathlib import Path

LABELS = Path(__file__).with_name("option_labels.csv")
#: request fields that are not school options (the page has its own inputs for them)
NOT_OPTIONS = ("moment", "tz", "fold", "systems", "topic")


@lru_cache(maxsize=1)
def labels() -> dict[tuple[str, str], dict]:
    """(option, value or '') → its row of option_labels.csv."""
    with LABELS.open(encoding="utf-8", newline="") as handle:
        return {(row["option"], row["value"]): row for row in csv.DictReader(handle)}


def other_defaults() -> dict[str, object]:
    """The default of each option outside the table, read from the judgment's and the engine's declarations
    (None: the option is off unless given)."""
    from leishen.engine.chart import ChartRequest
    from leishen.judgments.procedure import DEFAULT_OPTIONS
    request = ChartRequest()
    return {**DEFAULT_OPTIONS, "day_boundary": request.day_boundary, "longitude": request.longitude,
            "birth_year": request.birth_year, "sex": request.sex}


def table_option(spec) -> dict:
    """One option of engine/options.csv as the page shows it."""
    bounds = {"min": spec.low, "max": spec.high} if spec.kind == "int" else {}
    return {"name": spec.name, "system": spec.system, "names": dict(spec.names), "src": spec.src,
            "help": dict(spec.docs), "kind": spec.kind, "default": spec.default, **bounds,
            "choices": [{"value": c.value, "names": dict(c.names), "help": c.doc, "school": c.school, "src": c.src}
                        for c in spec.choices]}


def _choices(annotation) -> list:
    """The allowed values of a field's type (a Literal, possibly ``| None``)."""
    for alt in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(alt) is typing.Literal:
            return list(typing.get_args(alt))
    return []


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
    """One option outside the table: names, help (zh, ko from option_labels.csv; en the field's description),
    kind, choices, default, bounds."""
    values = _choices(info.annotation)
    row = labels().get((name, ""), {})
    numeric = next((t for t in (int, float) if t in (info.annotation, *typing.get_args(info.annotation))), None)
    return {"name": name, "names": _names(name), "src": row.get("src") or None,
            "help": {"zh": row.get("help_zh", ""), "ko": row.get("help_ko", ""),
                     "en": " ".join((info.description or "").split())},
            "kind": "choice" if values else (numeric.__name__ if numeric else "text"),
            "default": default, **_bounds(info),
            "choices": [{"value": v, "names": _names(name, v), "help": ""} for v in values]}


def option_table(model) -> list[dict]:
    """Every school option of the request *model* (a pydantic model class), in its field order: those of
    engine/options.csv from the table, the others from the model and option_labels.csv."""
    from leishen.engine.options import options
    table = {spec.name: spec for spec in options()}
    defaults = other_defaults()
    return [table_option(table[name]) if name in table else describe(name, info, defaults.get(name))
            for name, info in model.model_fields.items() if name not in NOT_OPTIONS]
