"""Two different finds and a reading served at once each give exactly what they give alone: over HTTP (the real
app, its requests on the server's threads, each sent several times at once from a barrier) and over the MCP
server (``leishen mcp`` over stdio, the calls in flight together). Before #38 a find's request sat in a module
dict, and a 出行 吉 search beside a 疾病 凶 search came back with the other's verdict."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from leishen.api import Settings, create_app

RANGE = {"start": "2026-12-01T00:00+08:00", "end": "2026-12-03T23:00+08:00"}
CALLS = [("find", {**RANGE, "topic": "出行", "verdict": "吉"}),
         ("find", {**RANGE, "topic": "疾病", "verdict": "凶"}),
         ("find", {**RANGE, "when": "vigour(初傳, Vigour.旺)"}),
         ("readings", {"moment": "2026-12-02T10:00+08:00", "topic": "出行"})]
REPEAT = 3


def verdicts(hits: list[dict]) -> set:
    return {h.get("verdict") for h in hits}


@pytest.fixture(scope="module")
def client():
    import dataclasses
    room = {"max_in_flight": len(CALLS) * REPEAT} if "max_in_flight" in {f.name for f in dataclasses.fields(Settings)} else {}
    with TestClient(create_app(Settings(use_corpus=False, **room)), raise_server_exceptions=False) as test_client:
        yield test_client


def test_http_finds_and_a_reading_at_once_give_what_each_gives_alone(client):
    alone = [client.get(f"/{path}", params=params).json() for path, params in CALLS]
    assert verdicts(alone[0]) == {"吉"} and verdicts(alone[1]) == {"凶"} and alone[2] and alone[3]["judgments"]
    assert {h["moment"]["utc"] for h in alone[0]} != {h["moment"]["utc"] for h in alone[1]}
    sent = CALLS * REPEAT
    start = threading.Barrier(len(sent))

    def ask(call):
        start.wait()
        return client.get(f"/{call[0]}", params=call[1]).json()

    with ThreadPoolExecutor(len(sent)) as pool:
        together = list(pool.map(ask, sent))
    assert together == alone * REPEAT


async def _mcp_answers(calls: list) -> tuple[list, list]:
    """Each call alone, then all of them in flight at once, on one MCP server."""
    env = {k: v for k, v in os.environ.items() if k.startswith("LEISHEN_")}
    env["LEISHEN_MAX_IN_FLIGHT"] = str(len(calls) * REPEAT)  # every call in flight at once (not refused as busy)
    server = StdioServerParameters(command=sys.executable, args=["-m", "leishen.mcpserver"], env=env)
    async with Client(server, read_timeout_seconds=300) as mcp:
        alone = [await mcp.call_tool(name, args) for name, args in calls]
        together = await asyncio.gather(*(mcp.call_tool(name, args) for name, args in calls * REPEAT))
    return [r.structured_content for r in alone], [r.structured_content for r in together]


def test_mcp_finds_and_a_reading_at_once_give_what_each_gives_alone():
    calls = [("read" if name == "readings" else name, args) for name, args in CALLS]
    alone, together = asyncio.run(_mcp_answers(calls))
    assert verdicts(alone[0]["hits"]) == {"吉"} and verdicts(alone[1]["hits"]) == {"凶"}
    assert alone[2]["hits"] and alone[3]["judgments"]
    assert together == alone * REPEAT
