"""``leishen mcp`` driven by the SDK's own stdio client: list the tools, call named queries and the lore tools."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from leishen.service.queries import names

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "leishen.mcpserver"],
                               env={k: v for k, v in os.environ.items() if k.startswith("LEISHEN_")})


async def session_run(calls):
    """List the tools, then make each call; the answers in order."""
    async with Client(SERVER, read_timeout_seconds=120) as client:
        tools = await client.list_tools()
        results = [await client.call_tool(name, args) for name, args in calls]
    return tools, results


@pytest.fixture(scope="module")
def answers():
    calls = [("resolve", {"q": "神后"}),
             ("relations_among", {"node_ids": ["Branch:zi", "Branch:wu"]}),
             ("facts", {"doc": "009"}),
             ("symbol", {"name": "子"}),
             ("path", {"source": "子", "target": "午"}),
             ("read", {"moment": "2026-12-01T10:00+09:00"}),
             ("chart", {"moment": "2026-12-01T10:00+09:00", "systems": ["liuren"], "shehai": "meng_zhong_ji"}),
             ("find", {"rule": "relations", "start": "2026-01-01T00:00+08:00", "end": "2026-01-01T02:00+08:00"}),
             ("chart", {"moment": "2026-13-01T10:00+09:00"}),
             ("symbol", {"name": "子", "extra": 1}),
             ("read", {"moment": "2026-12-01T10:00+09:00", "language": "en"}),
             ("resolve", {"q": "神后", "x": 1}),
             ("find", {"rule": "kin", "start": "bad", "end": "2026-01-01T02:00+08:00"})]
    return asyncio.run(session_run(calls))


def test_tools_are_listed_read_only_with_schemas(answers):
    tools, _ = answers
    by_name = {t.name: t for t in tools.tools}
    assert set(names()) | {"symbol", "path", "chart", "read", "find", "passage", "topics", "coverage",
                          "moments"} == set(by_name)
    for tool in by_name.values():
        assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False
        assert tool.input_schema["type"] == "object"
    assert by_name["resolve"].input_schema["required"] == ["q"]
    assert by_name["facts"].input_schema["properties"]["doc"]
    assert by_name["relations_among"].input_schema["properties"]["node_ids"]["maxItems"] == 64
    assert "moment" in by_name["read"].input_schema["properties"]
    assert "shehai" in by_name["chart"].input_schema["properties"]


def test_a_named_query_answers_rows(answers):
    _, (resolved, among, *_rest) = answers
    assert not resolved.is_error
    assert resolved.structured_content["rows"][0]["id"] == "Branch:zi"
    assert {r["type"] for r in among.structured_content["rows"]} >= {"CLASHES"}


def test_a_bad_argument_is_a_tool_error_naming_it(answers):
    _, results = answers
    bad = results[2]
    assert bad.is_error and "doc" in bad.content[0].text


def test_lore_tools_answer_with_citations(answers):
    _, results = answers
    symbol, path = results[3], results[4]
    assert symbol.structured_content["matches"][0]["node"]["id"] == "Branch:zi"
    assert all(r["src"] for r in symbol.structured_content["matches"][0]["relations"])
    assert path.structured_content["length"] >= 1


def test_read_chart_and_find(answers):
    import leishen
    from leishen.service.compact import chart_summary

    _, results = answers
    read, chart, find, bad_moment = results[5:9]
    assert not read.is_error and read.structured_content["judgments"][0]["topic"] is None
    assert "findings" not in read.structured_content  # compact: the findings only when asked
    assert chart.structured_content["liuren"]["options"]["shehai"] == "meng_zhong_ji" and "qimen" not in chart.structured_content
    assert read.structured_content["chart"] == chart_summary(leishen.chart("2026-12-01T10:00+09:00"))
    hits = find.structured_content["hits"]
    assert [hit["moment"]["local"] for hit in hits][:1] == ["2026-01-01T00:00:00+08:00"]
    assert find.structured_content["range"]["moments"] == 3 and find.structured_content["limited"] is False
    assert bad_moment.is_error and "moment" in bad_moment.content[0].text


def test_an_unknown_argument_is_a_tool_error_naming_it(answers):
    """As the HTTP API refuses an unknown parameter: a misspelt option is never silently the default."""
    tools, results = answers
    for result, name in zip(results[9:12], ("extra", "language", "x")):
        assert result.is_error and name in result.content[0].text, result.content[0].text
    assert all(t.input_schema.get("additionalProperties") is False for t in tools.tools)
    find = results[12]
    assert find.is_error and "start: " in find.content[0].text
