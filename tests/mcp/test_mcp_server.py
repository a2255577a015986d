"""``leishen mcp`` driven by the SDK's own stdio client: list the tools, call named queries and the lore tools."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from leishen.queries.catalog import QUERIES

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
             ("path", {"source": "子", "target": "午"})]
    return asyncio.run(session_run(calls))


def test_tools_are_listed_read_only_with_schemas(answers):
    tools, _ = answers
    by_name = {t.name: t for t in tools.tools}
    assert set(QUERIES) | {"symbol", "path"} <= set(by_name)
    for tool in by_name.values():
        assert tool.annotations.readOnlyHint is True and tool.annotations.destructiveHint is False
        assert tool.inputSchema["type"] == "object"
    assert by_name["resolve"].inputSchema["required"] == ["q"]
    assert by_name["facts"].inputSchema["properties"]["doc"]
    assert by_name["relations_among"].inputSchema["properties"]["node_ids"]


def test_a_named_query_answers_rows(answers):
    _, (resolved, among, *_rest) = answers
    assert not resolved.isError
    assert resolved.structuredContent["rows"][0]["id"] == "Branch:zi"
    assert {r["type"] for r in among.structuredContent["rows"]} >= {"CLASHES"}


def test_a_bad_argument_is_a_tool_error_naming_it(answers):
    _, results = answers
    bad = results[2]
    assert bad.isError and "doc" in bad.content[0].text


def test_lore_tools_answer_with_citations(answers):
    _, results = answers
    symbol, path = results[3], results[4]
    assert symbol.structuredContent["matches"][0]["node"]["id"] == "Branch:zi"
    assert all(r["src"] for r in symbol.structuredContent["matches"][0]["relations"])
    assert path.structuredContent["length"] >= 1
