"""The shape of a chart typed by hand (pydantic v2 models; the HTTP API uses the same ones).

These models check the *shape* of a typed chart: which keys exist, which are required, and
the JSON type of every value (strict: a list is never a name, a string never a number, no
unknown key). The *values* (is it a branch, a star, a rotation of the plate?) and the
agreement with the computed chart are checked by :mod:`leishen.engine.handchart`.

Required: Liu Ren needs ``plate`` and ``lessons``; Qimen ``dun``, ``ju`` and ``palaces``; the
Nine Stars ``year``, ``month`` and ``day``. Everything else may be left out and is then
reported "not given". :func:`parse_typed_chart` turns the first error into a
:class:`~leishen.errors.ChartError` naming the field, e.g. ``liuren.void: expected a list``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from leishen.errors import ChartError

__all__ = ["TypedChart", "parse_typed_chart", "error_line"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


Name = Annotated[str, Field(min_length=1, max_length=8)]
Names = list[Name]


class Moment(_Model):
    local: str
    utc: str | None = None


class Pillars(_Model):
    year: Name | None = None
    month: Name | None = None
    day: Name | None = None
    hour: Name | None = None


class Term(_Model):
    name: Name
    start: str | None = None


class Calendar(_Model):
    day_boundary: str = "23:00"
    longitude: float | None = None


class Lesson(_Model):
    upper: Name
    lower: Name


class Noble(_Model):
    branch: Name
    daytime: bool | None = None
    direction: Name | None = None


class TransmissionDetail(_Model):
    branch: Name
    general: Name | None = None
    dun: Name | None = None
    void: bool | None = None


class Birth(_Model):
    year: int
    ben_ming: Name | None = None
    sex: Name | None = None
    xing_nian: Name | None = None


class Liuren(_Model):
    plate: dict[Name, Name]
    lessons: Annotated[list[Lesson], Field(min_length=4, max_length=4)]
    transmissions: Annotated[Names, Field(min_length=3, max_length=3)] | None = None
    generals: dict[Name, Name] | None = None
    void: Annotated[Names, Field(min_length=2, max_length=2)] | None = None
    month_general: Name | None = None
    day: Name | None = None
    hour_branch: Name | None = None
    method: Name | None = None
    course: Names | None = None
    transmission_details: Annotated[list[TransmissionDetail], Field(max_length=3)] | None = None
    xun: Name | None = None
    dun: dict[Name, Name] | None = None
    horse: Name | None = None
    noble: Noble | None = None
    offset: int | None = None
    month_branch: Name | None = None
    tai_sui: Name | None = None
    birth: Birth | None = None
    options: dict[str, str] | None = None


class Palace(_Model):
    earth: Name
    heaven: Name | None = None
    star: Name | None = None
    gate: Name | None = None
    deity: Name | None = None
    earth_hosted: Name | None = None
    star_hosted: Name | None = None
    heaven_hosted: Name | None = None


class QimenOptions(_Model):
    method: str | None = None
    day_boundary: str | None = None
    longitude: float | None = None
    centre_host: str | None = None
    deities: str | None = None
    leap_threshold: int | None = None


class Qimen(_Model):
    dun: Name
    ju: Annotated[int, Field(ge=1, le=9)]
    palaces: dict[str, Palace]
    hour_pillar: Name | None = None
    xun_head: Name | None = None
    duty_star: Name | None = None
    duty_star_palace: int | None = None
    duty_gate: Name | None = None
    duty_gate_palace: int | None = None
    void: Annotated[Names, Field(min_length=2, max_length=2)] | None = None
    horse: Name | None = None
    horse_palace: int | None = None
    centre_host: int | None = None
    term: Name | None = None
    yuan: Name | None = None
    fu_tou: Name | None = None
    day_pillar: Name | None = None
    leap: bool | None = None
    lead_days: int | None = None
    options: QimenOptions | None = None


class NinestarOptions(_Model):
    day_boundary: str | None = None
    longitude: float | None = None
    day_leap: str | None = None
    day_flight: str | None = None


class Ninestar(_Model):
    year: Name
    month: Name
    day: Name
    day_dun: Name | None = None
    natal: Name | None = None  # 命星: the year star of the asker's birth year (003:3–11 身命), with birth_year
    plates: dict[str, dict[str, Name]] | None = None
    options: NinestarOptions | None = None


class TypedChart(_Model):
    """A whole typed chart: the JSON shape ``leishen chart --json`` writes, any part left out."""

    moment: Moment | str | None = None
    pillars: Pillars | None = None
    solar_term: Term | None = None
    middle_term: Term | None = None
    calendar: Calendar | None = None
    birth: Birth | None = None  # a chart without Liu Ren: the asker's 本命 and 行年 (else liuren.birth)
    liuren: Liuren | None = None
    qimen: Qimen | None = None
    ninestar: Ninestar | None = None


def _path(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "int", "float", "bool", "list", "dict", "Moment", "function-after"):
            continue                     # the union branch pydantic tried, not a field
        else:
            out += ("." if out else "") + str(part)
    return out or "chart"


def error_line(exc: ValidationError) -> str:
    """The first error of a validation as one line ``field: what was wrong``."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    found = first.get("input")
    shown = f", found {type(found).__name__}" if first["type"].endswith("_type") and found is not None else ""
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        message = "unknown key"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{_path(first['loc'])}: {message}{shown}{more}"


def parse_typed_chart(data: Any) -> TypedChart:
    """Check the shape of a typed chart; raise :class:`ChartError` naming the first bad field."""
    if not isinstance(data, dict):
        raise ChartError(f"chart: expected a JSON object, found {type(data).__name__}")
    try:
        chart = TypedChart.model_validate(data)
    except ValidationError as exc:
        raise ChartError(error_line(exc)) from None
    if chart.liuren is None and chart.qimen is None and chart.ninestar is None and chart.pillars is None:
        raise ChartError("chart: nothing to check (expected pillars, liuren, qimen or ninestar)")
    return chart
