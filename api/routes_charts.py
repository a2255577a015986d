"""Chart and reading endpoints: /charts, /readings (GET a moment, POST a typed-in chart), /find, /topics."""

import time
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request

from leishen.api.errors import TimeLimit, responses
from leishen.api.models import FindQuery, ReadingQuery
from leishen.api.settings import Settings
from leishen.engine.typedcheck import validate_typed_chart
from leishen.readings.search import FindError, find, moments, range_ends

TOPIC = Query(min_length=1, max_length=64, description="a topic in zh, ko or en; none: the general reading")


def reader(request: Request):
    """The process's reader (the rules compiled once, over the process's backend)."""
    return request.app.state.reader


def router(settings: Settings) -> APIRouter:
    """The chart routes, with the limits of *settings*."""
    api = APIRouter(tags=["charts"])
    Reading = Annotated[Any, Depends(reader)]

    @api.get("/charts", responses=responses(400, 422))
    def charts(query: Annotated[ReadingQuery, Query()]) -> dict[str, Any]:
        """The chart of a moment with every school option (``leishen chart --json``). ``topic`` is accepted
        and has no effect here, so that one query string serves /charts, /readings and /views/reading."""
        return query.chart()

    @api.get("/readings", responses=responses(400, 422, 503))
    def reading(query: Annotated[ReadingQuery, Query()], rules: Reading) -> dict[str, Any]:
        """The reading of a moment's chart: every rule it meets with its path and citations (``leishen read --json``)."""
        return rules.read(query.chart(), topic=query.topic)

    @api.post("/readings", responses=responses(400, 413, 422, 503))
    def read_typed(chart: Annotated[dict[str, Any], Body(description="a chart in the JSON shape of `leishen chart --json`")],
                   rules: Reading, topic: Annotated[str | None, TOPIC] = None) -> dict[str, Any]:
        """The reading of a chart typed in by hand (``leishen read --chart FILE --json``)."""
        return rules.read(validate_typed_chart(chart), topic=topic)  # ChartError (422) naming the first bad field

    @api.get("/find", responses=responses(400, 408, 422, 503))
    def find_moments(query: Annotated[FindQuery, Query()], rules: Reading) -> list[dict[str, Any]]:
        """The moments from start to end where a rule holds (``leishen find`` prints the same, one per line);
        at most ``find_max_steps`` moments per request and ``find_timeout`` seconds."""
        start, end = range_ends(query.start, query.end, query.tz)
        count = sum(1 for _ in moments(start, end, query.step))
        if count > settings.find_max_steps:
            raise FindError(f"the range holds {count} moments at step {query.step}; this server scans at most "
                            f"{settings.find_max_steps} per request (narrow the range or use leishen find)")
        deadline, hits = time.monotonic() + settings.find_timeout, []

        def in_time(moment) -> None:
            if time.monotonic() > deadline:
                raise TimeLimit(f"find ran past {settings.find_timeout:g} s at {moment.isoformat()}; narrow the range")

        for hit in find(rules, query.rule, start, end, step=query.step, topic=query.topic, progress=in_time):
            hits.append(hit)
            if len(hits) >= query.limit:
                break
        return hits

    @api.get("/topics")
    def topics(rules: Reading) -> list[dict[str, Any]]:
        """The topics that have rules (zh, ko, en)."""
        return rules.topics()

    return api
