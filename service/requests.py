"""What a door is asked, typed once for every door: a chart's moment and every school option (:class:`ChartQuery`),
a reading (:class:`ReadingQuery`) and a find (:class:`FindQuery`), each translated into the engine's request.

The HTTP API reads them from its query string, the MCP server turns their fields into tool arguments; the CLI
takes the same options as flags. The school options are the rows of engine/options.csv (:mod:`leishen.engine.options`),
each typed by its choices or bounds with the table's default (so the OpenAPI schema and the MCP tool schema list the
allowed values and the default, each with a description).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from leishen.engine.calendar import DAY_BOUNDARIES
from leishen.engine.chart import SYSTEMS, ChartRequest
from leishen.engine.options import by_system, options as school_options
from leishen.errors import ChartError
from leishen.judgments.choose import VERDICTS
from leishen.judgments.procedure import DEFAULT_OPTIONS, OPTIONS
from leishen.readings.lore import DEFAULT_LESSONS, LESSONS
from leishen.service.charts import chart_of
from leishen.service.compact import DEFAULT_FIELDS, FINDING_FIELDS, compact_reading
from leishen.service.topicwords import TOPIC_WORDS, topic_name  # noqa: F401  (the CLI reads them without pydantic)

__all__ = ["ChartQuery", "JudgmentQuery", "ReadingQuery", "CompactQuery", "ReadingsQuery", "TypedReadingQuery", "FindQuery", "VERDICTS",
           "validation_message", "checked", "topic_name", "TOPIC_WORDS"]

Text = Annotated[str, Field(min_length=1, max_length=64)]


class ChartBase(BaseModel):
    """A moment and the calendar and asker of a chart; :data:`ChartQuery` adds the school options."""

    model_config = ConfigDict(extra="forbid")

    moment: Text | None = Field(None, description="ISO 8601 with an offset (1952-12-26T19:17+08:00), or naive "
                                "with tz; left out or 'now': the current instant", examples=["2026-12-01T10:00+09:00"])
    tz: Text | None = Field(None, description="IANA time zone of a naive moment (e.g. Asia/Shanghai)")
    fold: int | None = Field(None, ge=0, le=1, description="which of the two readings of an ambiguous local time "
                                       "(a clock set back): 0 the first, 1 the second")
    systems: list[Literal[SYSTEMS]] = Field(list(SYSTEMS), max_length=3, description="the systems to compute "
                                            "(liuren, qimen, ninestar; left out: all three)")
    day_boundary: Literal[DAY_BOUNDARIES] = Field("23:00", description="子-hour day change: 23:00 (子初換日) or 00:00")
    longitude: float | None = Field(None, ge=-180, le=180, allow_inf_nan=False,
                                    description="degrees east: use local true solar time")
    birth_year: int | None = Field(None, ge=1800, le=2200, description="asker's birth year (本命; with sex also 行年)")
    sex: Literal["male", "female"] | None = Field(None, description="asker's sex, for 行年 (with birth_year)")

    @field_validator("fold", mode="before")
    @classmethod
    def _fold_is_a_number(cls, value):
        if isinstance(value, bool):  # true/false are not the 0 / 1 of a repeated hour
            raise ValueError("fold is 0 or 1, not a boolean")
        return value

    def chart(self) -> dict:
        """The chart of this moment with these options (:func:`leishen.service.charts.chart_of`)."""
        return chart_of(self.moment, self.request(), tz=self.tz, fold=self.fold)

    def request(self) -> ChartRequest:
        """The engine's ChartRequest for these options (the school options as the table's fields hold them)."""
        school = by_system({spec.name: getattr(self, spec.name, None) for spec in school_options()})
        systems = tuple(s for s in SYSTEMS if s in self.systems)
        return ChartRequest(systems, self.day_boundary, self.longitude, school["liuren"], school["qimen"],
                            school["ninestar"], self.birth_year, self.sex)


def _school_fields() -> dict:
    """One field per option of engine/options.csv: a choice typed by its values, an int by its bounds, each
    defaulting to the table's default and described by its doc (so the OpenAPI schema and the MCP tool schema
    list the allowed values and the default)."""
    out = {}
    for spec in school_options():
        if spec.kind == "choice":
            out[spec.name] = (Literal[spec.values], Field(spec.default, description=spec.help()))
        else:
            out[spec.name] = (int, Field(spec.default, ge=spec.low, le=spec.high, description=spec.help()))
    return out


ChartQuery = create_model("ChartQuery", __base__=ChartBase, __module__=__name__, **_school_fields())
ChartQuery.__doc__ = "A moment and the options of a chart (``leishen chart`` takes the same, as flags)."


def _judgment_option(name: str, what: str):
    """A judgment school option (:data:`leishen.judgments.procedure.OPTIONS`); its description names the default."""
    return Field(None, description=f"{what} ({', '.join(OPTIONS[name])}; left out: {DEFAULT_OPTIONS[name]})")


TOPIC_HELP = ("a topic in zh, ko or en (射覆, 사부, guessing a hidden object), or a common word for it (wealth, weather, "
              "travel, illness, 재물 …), or '*' for every topic; none: the general reading")

def _topic_field(value):
    """A topic field's value as its zh name (:func:`topic_name`). An unknown topic raises the TopicError itself
    (a LeishenError, which pydantic does not wrap): every door answers it as it answers an unknown topic of a
    reading (HTTP 400 naming ``topic``, a one-line tool error, exit 2), listing every topic."""
    return topic_name(value)


class JudgmentQuery(BaseModel):
    """The topic of a reading and the judgment's school options (docs/judgments.md)."""

    model_config = ConfigDict(extra="forbid")

    topic: Text | None = Field(None, description=TOPIC_HELP)
    timing_stem: Literal[OPTIONS["timing_stem"]] | None = _judgment_option(
        "timing_stem", "應期: the stem of a palace read from its earth plate or its heaven plate")
    nianjing_chart: Literal[OPTIONS["nianjing_chart"]] | None = _judgment_option(
        "nianjing_chart", "年景: read on the chart of the 立春 instant (003:75) or on the asked moment's")
    verdict_conflict: Literal[OPTIONS["verdict_conflict"]] | None = _judgment_option(
        "verdict_conflict", "a verdict facet whose answers conflict: 未定 (undecided) or 混 (mixed)")
    lessons: Literal[tuple(LESSONS)] | None = Field(None, description="the reading option: the places a 神煞 is "
                                                    "read at: core (干支三傳占時本命, 000:23) or all (also the 2nd "
                                                    f"and 4th lessons' uppers); left out: {DEFAULT_LESSONS}")

    _topic = field_validator("topic")(classmethod(lambda cls, value: _topic_field(value)))

    def options(self) -> dict:
        """The judgment options and the reading option ``lessons`` given (left out: the defaults)."""
        return {k: getattr(self, k) for k in (*OPTIONS, "lessons") if getattr(self, k) is not None}


class ReadingQuery(JudgmentQuery, ChartQuery):
    """A moment to chart and read, with the topic of the reading and the judgment's options."""


class CompactQuery(BaseModel):
    """How much of a reading to give in the compact form (:func:`leishen.service.compact.compact_reading`): the
    language of its names, and the findings only when asked for."""

    model_config = ConfigDict(extra="forbid")

    lang: Literal["zh", "ko", "en"] = Field("en", description="the language of the names and glosses given beside "
                                            "the Chinese ones (zh, ko or en): topic, verdict, facets, answers, "
                                            "用神, reasons, 應期, summary")
    findings: bool = Field(False, description="also list the findings (each rule the chart meets, with its src); "
                           "left out: only the judgments and the counts")
    limit: int = Field(50, ge=1, le=5000, description="with findings: at most this many, in the reading's order")
    fields: list[Literal[FINDING_FIELDS]] = Field(list(DEFAULT_FIELDS), min_length=1, max_length=len(FINDING_FIELDS),
                                                  description="with findings: the keys each finding keeps (id "
                                                  "always; path and evidence are the long ones)")
    ids: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        [], max_length=200, description="only the findings with these ids (from a judgment's use_god, answers or "
        "reasons), every one whatever limit says; implies findings")

    def compacted(self, reading: dict) -> dict:
        """*reading* in the compact form these fields ask for."""
        return compact_reading(reading, findings=self.findings, fields=self.fields, limit=self.limit, ids=self.ids,
                               lang=self.lang)


class ReadingsQuery(CompactQuery, ReadingQuery):
    """GET /readings: a moment to read, and whether to answer the whole reading or its compact form."""

    compact: bool = Field(False, description="answer the compact form MCP's read gives (chart summary, judgments, "
                          "tally, counts; findings only with findings=true or ids) instead of the whole reading; "
                          "giving lang, findings, limit, fields or ids implies it")

    def wants_compact(self) -> bool:
        """Whether the compact form is asked: compact=true, or any of its own fields given."""
        return self.compact or bool(self.model_fields_set & set(CompactQuery.model_fields))


class TypedReadingQuery(JudgmentQuery):
    """The topic and judgment options of the reading of a chart typed by hand (the chart is the body)."""


class FindQuery(BaseModel):
    """The moments from start to end where a rule holds, or whose judgment of a topic has a verdict (擇時)."""

    model_config = ConfigDict(extra="forbid")

    rule: Text | None = Field(None, description="a rule id or name (e.g. 斫輪), a pattern, or one of kin, stages, "
                              "vigour, relations, leixiang, shensha; or leave it out and give topic and verdict")
    start: Text = Field(description="start of the range (ISO 8601 with an offset, or naive with tz)")
    end: Text = Field(description="end of the range, inclusive")
    tz: Text | None = Field(None, description="IANA time zone of naive start and end")
    step: Literal["hour", "day"] = Field("hour", description="one chart per hour or per day")
    topic: Text | None = Field(None, description="with rule: the topic whose rules count; with verdict: the topic "
                               "judged (zh, ko or en)")
    verdict: Literal[VERDICTS] | None = Field(None, description="擇時: the moments whose judgment of topic has "
                                              "this verdict (吉, 凶, 混, 平, 未定)")
    facet: list[Text] = Field([], max_length=16, description="擇時: also require FACET=VALUE among the judgment's "
                              "decided facets (e.g. 可行否=可行); may be repeated")
    when: str | None = Field(None, max_length=2000, description="instead of rule or verdict: the moments where this "
                             "condition holds, in the rule vocabulary (docs/rules.md), e.g. "
                             "all(pattern(Pattern.斫輪), vigour(初傳, Vigour.旺)); a bad one is refused naming its position")
    limit: int = Field(1000, ge=1, le=10_000, description="at most this many moments in the answer")

    _topic = field_validator("topic")(classmethod(lambda cls, value: _topic_field(value)))


def validation_message(exc: ValidationError, prefix: str = "") -> str:
    """A pydantic error as one line naming the argument at fault (``moment: String should have at most 64
    characters``), never pydantic's multi-line text."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "arguments"
    message = first.get("msg", "invalid")
    if first.get("type") == "value_error":  # a validator's own sentence, without pydantic's prefix
        message = message.removeprefix("Value error, ")
    if first.get("type") == "extra_forbidden":
        message = "not an argument of this call"
    return f"{prefix}{where}: {message}"


def checked(model: type[BaseModel], values: dict) -> BaseModel:
    """*values* as a *model*, or ChartError in one line naming the first argument at fault."""
    try:
        return model(**values)
    except ValidationError as exc:
        raise ChartError(validation_message(exc)) from None
