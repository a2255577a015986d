"""Chart and reading endpoints: /charts, /readings (GET a moment, POST a typed-in chart), /find, /topics.

Every reading and find goes through the readings door (:mod:`leishen.service.readings`), as the CLI and MCP do.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request

from leishen.api.errors import TimeLimit, responses
from leishen.api.settings import Settings
from leishen.service import readings as door
from leishen.service.pillars import MomentsQuery
from leishen.service.requests import FindQuery, ReadingQuery, ReadingsQuery, TypedReadingQuery


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
    def reading(query: Annotated[ReadingsQuery, Query()], rules: Reading) -> dict[str, Any]:
        """The reading of a moment's chart: every rule it meets with its path and citations (``findings``) and
        the judgment of each topic read (``judgments``: verdict, 用神, facets, 應期, conflicts), as
        ``leishen read --json``; the judgment's school options as parameters. With ``compact=true`` (or any of
        ``lang``, ``findings``, ``limit``, ``fields``, ``ids``) the compact form MCP's ``read`` gives: the
        chart's summary, the judgments named in ``lang``, the tally and counts, the findings only when asked
        (a few KB where the whole reading of one topic is 170–270 KB)."""
        full = door.read(query.chart(), topic=query.topic, reader=rules, request=query.request(),
                         options=query.options(), typed=False)
        return query.compacted(full) if query.wants_compact() else full

    @api.post("/readings", responses=responses(400, 413, 422, 503))
    def read_typed(chart: Annotated[dict[str, Any], Body(description="a chart in the JSON shape of `leishen chart --json`")],
                   query: Annotated[TypedReadingQuery, Query()], rules: Reading) -> dict[str, Any]:
        """The reading of a chart typed in by hand, findings and judgments (``leishen read --chart FILE --json``);
        422 naming the first bad field, or the typed field that contradicts the chart's own moment."""
        return door.read(chart, topic=query.topic, reader=rules, options=query.options())

    @api.get("/find", responses=responses(400, 408, 422, 503))
    def find_moments(query: Annotated[FindQuery, Query()], rules: Reading) -> list[dict[str, Any]]:
        """The moments from start to end where a rule holds, or (``topic`` with ``verdict`` and/or ``facet``,
        擇時) whose judgment of the topic has that verdict and those facet answers, each with its deciding
        reasons (``leishen find`` prints the same, one per line); at most ``find_max_steps`` moments per
        request and ``find_timeout`` seconds."""
        limits = settings.find_limits()
        start, end, _count = door.plan(query.start, query.end, query.tz, query.step, limits)
        hits = []
        try:
            for hit in door.find(rules, start, end, rule=query.rule, topic=query.topic, verdict=query.verdict,
                                 facets=query.facet, step=query.step, limits=limits, when=query.when):
                hits.append(hit)
                if len(hits) >= query.limit:
                    break
        except door.FindDeadline as exc:
            raise TimeLimit(str(exc)) from None
        return hits

    @api.get("/moments", responses=responses(400, 422))
    def pillar_moments(query: Annotated[MomentsQuery, Query()]) -> dict[str, Any]:
        """The spans of hours from start to end whose four pillars match ``pillars`` (年,月,日,時, any may be
        ``*``), each with its solar term (``leishen moments --pillars``); at most ten years of hours."""
        return query.answer()

    @api.get("/topics")
    def topics(rules: Reading) -> list[dict[str, Any]]:
        """The topics that have rules (zh, ko, en)."""
        return rules.topics()

    return api
