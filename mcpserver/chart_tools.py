"""The chart tools of the MCP server: ``chart``, ``read`` (compact by default), ``find`` and ``topics``.

``read`` and ``find`` go through the readings door (:mod:`leishen.service.readings`), as the HTTP API does:
``read`` with the judgment's school options, ``find`` under the server limits (:data:`SERVER`: at most 744
moments, 60 s)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from leishen.mcpserver.toolkit import add, model_tool
from leishen.service import readings as door
from leishen.service.pillars import MomentsQuery
from leishen.service.requests import ChartQuery, CompactQuery, FindQuery, ReadingQuery

SERVER = door.SERVER


class ReadArgs(CompactQuery, ReadingQuery):
    """A reading's moment, options and topic, and how much of it to give (compact by default)."""


class FindArgs(FindQuery):
    """A find, its answer capped for an assistant's context."""

    limit: int = Field(100, ge=1, le=SERVER.max_moments, description="at most this many moments in the answer")


READ_HELP = (
    "The reading of a moment's chart, compact by default (one-line JSON, names in lang): the chart's summary "
    "(pillars; Liu Ren plate, 將, 四課, 三傳; Qimen palaces with stems, star, gate and deity), the judgment of "
    "each topic read (verdict, 用神, the facets the text asks and their answers, reasons, set-aside findings, 應期 — each with its "
    "src citations and the ids of the findings behind it), the tally of findings by polarity and the counts. "
    "Without topic: the general reading; topic '*': every topic (large, about 100 KB). Ask findings=true (with "
    "limit and fields) or ids=[…] to see the findings themselves; call `topics` for the topic names and "
    "`passage` to read a src.")
FIND_HELP = (
    "The moments from start to end (inclusive) where a rule holds (each with the ids of its findings), or, with "
    "topic and verdict (and facet), whose judgment of the topic has that verdict (擇時, with the deciding "
    "reasons), or, with when, where a condition in the rule vocabulary holds (e.g. "
    "all(pattern(Pattern.斫輪), vigour(初傳, Vigour.旺)); a bad one is refused naming its position). "
    "At most 744 moments are scanned per call (a month of hours) within 60 s; a longer range is "
    "refused, so narrow it or use step=day.")


def reading(reader, args: ReadArgs) -> dict[str, Any]:
    """The reading of *args* through the readings door, compacted as *args* asks."""
    full = door.read(args.chart(), topic=args.topic, reader=reader, request=args.request(), options=args.options(),
                     typed=False)
    return args.compacted(full)


def found(reader, args: FindArgs) -> dict[str, Any]:
    """The hits of *args* under the server limits: ``{"range", "hits", "limited"}`` (``limited``: the answer
    stopped at *limit*, more moments may hold). A range past the limits is a FindError naming ``end``."""
    start, end, count = door.plan(args.start, args.end, args.tz, args.step, SERVER)
    hits = []
    for hit in door.find(reader, start, end, rule=args.rule, topic=args.topic, verdict=args.verdict,
                         facets=args.facet, step=args.step, limits=SERVER, when=args.when):
        if len(hits) == args.limit:
            return {"range": _range(start, end, args.step, count), "hits": hits, "limited": True}
        hits.append(hit)
    return {"range": _range(start, end, args.step, count), "hits": hits, "limited": False}


def moments_answer(query: MomentsQuery) -> dict[str, Any]:
    """The spans of hours whose pillars match *query* (:meth:`leishen.service.pillars.MomentsQuery.answer`)."""
    return query.answer()


def _range(start, end, step: str, count: int) -> dict:
    """The range a find scanned."""
    return {"start": start.isoformat(), "end": end.isoformat(), "step": step, "moments": count}


def add_chart_tools(server: MCPServer, reader) -> None:
    """``chart``, ``read``, ``find`` and ``topics`` over the readings *reader*."""
    def chart(query: ChartQuery) -> dict[str, Any]:
        return query.chart()

    def read(args: ReadArgs) -> dict[str, Any]:
        return reading(reader, args)

    def find(args: FindArgs) -> dict[str, Any]:
        return found(reader, args)

    def topics() -> dict[str, Any]:
        return {"topics": reader.topics(), "all": "*"}

    model_tool(server, "chart", ChartQuery, chart,
               "The chart of a moment (Da Liu Ren, Qimen Dunjia, Nine Stars) with every school option: the whole "
               "chart, where `read` gives its summary with the reading.")
    model_tool(server, "read", ReadArgs, read, READ_HELP)
    model_tool(server, "find", FindArgs, find, FIND_HELP)
    model_tool(server, "moments", MomentsQuery, moments_answer,
               "The spans of hours from start to end whose four pillars (年,月,日,時; any may be *) match, each "
               "with its solar term: pillars to dates (at most ten years of hours a call).")
    add(server, topics, "topics", "The topics a reading can take (zh, ko, en; parent: the topic a sub-topic is a "
        "case of); give `read` or `find` a topic in any of the three, or '*' for every topic.")
