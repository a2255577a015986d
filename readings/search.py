"""``find``: the moments in a range where a rule, a pattern or a named reading holds."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Iterator

from leishen.engine.chart import ChartRequest, build_chart
from leishen.errors import LeishenError

STEPS = {"hour": timedelta(hours=1), "day": timedelta(days=1)}
MAX_MOMENTS = 200_000


class FindError(LeishenError):
    """A find request that cannot run (unknown rule, bad range or step)."""


def moments(start: datetime, end: datetime, step: str) -> Iterator[datetime]:
    """Every moment from *start* to *end* (inclusive) by *step* (``hour`` or ``day``)."""
    if step not in STEPS:
        raise FindError(f"step: {step!r} is not one of {', '.join(STEPS)}")
    if end < start:
        raise FindError("to: the end of the range is before its start")
    count = (end - start) // STEPS[step] + 1
    if count > MAX_MOMENTS:
        raise FindError(f"the range holds {count} moments at step {step}; at most {MAX_MOMENTS}")
    t = start
    while t <= end:
        yield t
        t += STEPS[step]


def find(reader, rule: str, start: datetime, end: datetime, *, step: str = "hour", topic: str | None = None,
         request: ChartRequest = ChartRequest(), progress=None) -> Iterator[dict]:
    """``{"moment", "findings": [finding ids]}`` for every moment where *rule* holds. *rule* is a fact id,
    an inventory item, a pattern or meaning name, ``subject→object``, or a lore query name."""
    chosen, lore = reader.select(rule)
    if not chosen and not lore:
        raise FindError(f"unknown rule {rule!r}: give a fact id, an item, a pattern or meaning name, "
                        "or one of kin, stages, vigour, relations, leixiang, shensha")
    if request.systems == ChartRequest().systems:  # chart only the systems the rule reads
        request = replace(request, systems=reader.systems_of(chosen) if not lore else ("liuren",))
    last_parts, last_hits = None, None
    for t in moments(start, end, step):
        if progress:
            progress(t)
        chart = build_chart(t, request)
        parts = [chart.get(s) for s in request.systems]
        if parts != last_parts:  # consecutive hours of one double hour often give the same chart: read it once
            reading = reader.read(chart, topic=topic, only=chosen, lore=lore, trail=False)
            last_parts = parts
            last_hits = [f["id"] for f in reading["findings"]
                         if f["rule"]["fact"] in chosen or (lore and f["query"] == rule)]
        if last_hits:
            yield {"moment": chart["moment"], "findings": last_hits}
