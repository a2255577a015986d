"""Pillars to moments for the server doors (HTTP ``GET /moments``, MCP ``moments``): the request and its answer,
as ``leishen moments --pillars`` gives them (:func:`leishen.service.readings.pillar_moments`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from leishen.service.readings import Limits, pillar_moments

#: a server door scans at most ten years of hours a request (a year takes about 0.1 s)
SERVER = Limits(24 * 366 * 10, None)


class MomentsQuery(BaseModel):
    """The hours from start to end whose four pillars match (any may be *)."""

    model_config = ConfigDict(extra="forbid")

    pillars: str = Field(max_length=40, description="年,月,日,時: each a 干支 of the sixty (甲子 … 癸亥) or *, "
                         "e.g. *,*,甲子,* for every 甲子 day")
    start: str = Field(max_length=64, description="start of the range (ISO 8601 with an offset, or naive with tz)")
    end: str = Field(max_length=64, description="end of the range, inclusive (at most ten years of hours)")
    tz: str | None = Field(None, max_length=64, description="IANA time zone of naive start and end")
    day_boundary: Literal["23:00", "00:00"] = Field("23:00", description="when the day pillar changes (子初換日 "
                                                    "23:00, or midnight)")
    limit: int = Field(1000, ge=1, le=10_000, description="at most this many spans in the answer")

    def answer(self) -> dict:
        """``{"spans": [{start, end, pillars, solar_term}], "limited"}``: the matching spans of hours, in order,
        at most *limit* (``limited``: more may follow); FindError naming the field at fault."""
        spans = []
        for span in pillar_moments(self.pillars, self.start, self.end, self.tz, self.day_boundary, SERVER):
            if len(spans) == self.limit:
                return {"spans": spans, "limited": True}
            spans.append(span)
        return {"spans": spans, "limited": False}
