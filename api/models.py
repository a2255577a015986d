"""Request models shared by the HTTP API and the MCP tools: a chart's moment and every school option.

Each option is typed by the engine's own enumeration (so the OpenAPI schema and the MCP tool schema list
the allowed values); an option left out takes the engine's documented default.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from leishen.engine.calendar import DAY_BOUNDARIES
from leishen.engine.chart import SYSTEMS, ChartRequest
from leishen.engine.liuren.options import (DayNight, FuYinKe, LiurenOptions, MonthGeneralRule, NobleTable,
                                           SheHaiRule, SheHaiSeat, SpecialOrder, VoidException)
from leishen.engine.ninestar import DayFlight, DayLeap
from leishen.engine.qimen.ju import JuMethod
from leishen.engine.qimen.plate import CentreHost, DeityNames
from leishen.service.charts import chart_of

LIUREN_KEYS = tuple(f.name for f in fields(LiurenOptions))
QIMEN_KEYS = {"qimen_method": "method", "qimen_centre_host": "centre_host", "qimen_deities": "deities",
              "qimen_leap_threshold": "leap_threshold"}
NINESTAR_KEYS = {"ninestar_day_leap": "day_leap", "ninestar_day_flight": "day_flight"}
Text = Annotated[str, Field(min_length=1, max_length=64)]


class ChartQuery(BaseModel):
    """A moment and the options of a chart (``leishen chart`` takes the same, as flags)."""

    model_config = ConfigDict(extra="forbid")

    moment: Text | None = Field(None, description="ISO 8601 with an offset (1952-12-26T19:17+08:00), or naive "
                                "with tz; left out or 'now': the current instant", examples=["2026-12-01T10:00+09:00"])
    tz: Text | None = Field(None, description="IANA time zone of a naive moment (e.g. Asia/Shanghai)")
    fold: int | None = Field(None, ge=0, le=1, description="which of the two readings of an ambiguous local time "
                                       "(a clock set back): 0 the first, 1 the second")
    systems: list[Literal[SYSTEMS]] = Field(list(SYSTEMS), max_length=3, description="the systems to compute")
    day_boundary: Literal[DAY_BOUNDARIES] = Field("23:00", description="子-hour day change: 23:00 (子初換日) or 00:00")
    longitude: float | None = Field(None, ge=-180, le=180, allow_inf_nan=False,
                                    description="degrees east: use local true solar time")
    month_general: MonthGeneralRule | None = None
    noble_table: NobleTable | None = None
    day_night: DayNight | None = None
    shehai: SheHaiRule | None = None
    shehai_seat: SheHaiSeat | None = None
    special_order: SpecialOrder | None = None
    fuyin_ke: FuYinKe | None = None
    void_exception: VoidException | None = None
    birth_year: int | None = Field(None, ge=1800, le=2200, description="asker's birth year (本命; with sex also 行年)")
    sex: Literal["male", "female"] | None = None
    qimen_method: JuMethod | None = None
    qimen_centre_host: CentreHost | None = None
    qimen_deities: DeityNames | None = None
    qimen_leap_threshold: int | None = Field(None, ge=1, le=14, description="置閏: days of 超神 that call for a 閏")
    ninestar_day_leap: DayLeap | None = None
    ninestar_day_flight: DayFlight | None = None

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
        """The engine's ChartRequest for these options (left-out options keep the engine's defaults)."""
        liuren = {k: getattr(self, k).value for k in LIUREN_KEYS if getattr(self, k) is not None}
        qimen = {v: _plain(getattr(self, k)) for k, v in QIMEN_KEYS.items() if getattr(self, k) is not None}
        ninestar = {v: _plain(getattr(self, k)) for k, v in NINESTAR_KEYS.items() if getattr(self, k) is not None}
        systems = tuple(s for s in SYSTEMS if s in self.systems)
        return ChartRequest(systems, self.day_boundary, self.longitude, LiurenOptions.from_mapping(liuren),
                            qimen, ninestar, self.birth_year, self.sex)


def _plain(value):
    return getattr(value, "value", value)


class ReadingQuery(ChartQuery):
    """A moment to chart and read, with the topic and language of the reading."""

    topic: Text | None = Field(None, description="a topic in zh, ko or en (射覆, 求財, weather divination …); none: the general reading")


class FindQuery(BaseModel):
    """The moments from start to end where a rule holds."""

    model_config = ConfigDict(extra="forbid")

    rule: Text = Field(description="a rule id or name (e.g. 斫輪)")
    start: Text = Field(description="start of the range (ISO 8601 with an offset, or naive with tz)")
    end: Text = Field(description="end of the range, inclusive")
    tz: Text | None = None
    step: Literal["hour", "day"] = "hour"
    topic: Text | None = None
    limit: int = Field(1000, ge=1, le=10_000, description="at most this many moments in the answer")
