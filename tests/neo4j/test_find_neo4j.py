"""擇時 on Neo4j (#38): over a month, ``leishen find --backend neo4j --jobs 2`` and a Dask LocalCluster of two
workers on Neo4j give the NetworkX answer of one process (each worker opens its own driver); two finds and a
reading served at once over HTTP threads and over the MCP server on Neo4j each give what they give alone."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from leishen.api import Settings, create_app
from leishen.service import book

pytestmark = pytest.mark.neo4j

MONTH = "2026-12-01T00:00+08:00", "2026-12-31T23:00+08:00"
SPAN = ["--from", MONTH[0], "--to", MONTH[1]]
RANGE = {"start": "2026-12-01T00:00+08:00", "end": "2026-12-01T23:00+08:00"}


def find(*args: str) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "leishen.cli.main", "find", *args], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_two_jobs_on_neo4j_give_the_networkx_answer(neo4j_server, neo4j_backend):
    embedded = find("--topic", "出行", "--verdict", "凶", *SPAN)
    assert embedded
    assert find("--topic", "出行", "--verdict", "凶", *SPAN, "--backend", "neo4j", "--uri", neo4j_server["uri"],
                "--jobs", "2") == embedded


def test_finds_and_a_reading_at_once_on_neo4j_give_what_each_gives_alone(neo4j_server, neo4j_backend):
    calls = [("find", {**RANGE, "topic": "出行", "verdict": "吉"}), ("find", {**RANGE, "topic": "疾病", "verdict": "凶"}),
             ("readings", {"moment": "2026-12-01T10:00+08:00", "topic": "出行"})]
    room = {"max_in_flight": 6} if "max_in_flight" in {f.name for f in dataclasses.fields(Settings)} else {}
    settings = Settings(backend="neo4j", uri=neo4j_server["uri"], use_corpus=False, **room)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        alone = [client.get(f"/{path}", params=params).json() for path, params in calls]
        assert alone[0] and {h["verdict"] for h in alone[0]} == {"吉"} and {h["verdict"] for h in alone[1]} == {"凶"}
        start = threading.Barrier(len(calls) * 2)

        def ask(call):
            start.wait()
            return client.get(f"/{call[0]}", params=call[1]).json()

        with ThreadPoolExecutor(len(calls) * 2) as pool:
            assert list(pool.map(ask, calls * 2)) == alone * 2


def test_a_dask_cluster_on_neo4j_gives_the_networkx_answer(neo4j_server, neo4j_backend):
    """Each Dask worker opens its own driver to the session's server (the find's Source), once."""
    from distributed import Client, LocalCluster

    from leishen import readings
    from leishen.engine.moment import parse_moment
    from leishen.judgments.choose import choose
    from leishen.service.findwork import Source

    reader = book.reader()
    start, end = (parse_moment(t) for t in MONTH)
    embedded = list(choose(reader, "出行", start, end, verdict="凶"))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        found = list(choose(reader, "出行", start, end, verdict="凶", executor=client.get_executor(pure=False),
                            source=Source("neo4j", neo4j_server["uri"])))
        opened = client.run(_opened, neo4j_server["uri"])
    assert found == embedded and embedded
    assert set(opened.values()) <= {(0, "Neo4jBackend", 1), (1, "Neo4jBackend", 1)}, opened
    assert (1, "Neo4jBackend", 1) in opened.values()  # a worker that judged opened one reader, its own driver


def test_finds_and_a_reading_at_once_over_mcp_on_neo4j_give_what_each_gives_alone(neo4j_server, neo4j_backend):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    calls = [("find", {**RANGE, "topic": "出行", "verdict": "吉"}), ("find", {**RANGE, "topic": "疾病", "verdict": "凶"}),
             ("read", {"moment": "2026-12-01T10:00+08:00", "topic": "出行"})]
    env = {**{k: v for k, v in os.environ.items() if k.startswith(("LEISHEN_", "NEO4J_"))}, "LEISHEN_MAX_IN_FLIGHT": "6"}
    server = StdioServerParameters(command=sys.executable, env=env, args=["-m", "leishen.cli.main", "mcp", "--backend",
                                                                          "neo4j", "--uri", neo4j_server["uri"]])

    async def answers():
        async with Client(server, read_timeout_seconds=300) as mcp:
            alone = [await mcp.call_tool(name, args) for name, args in calls]
            together = await asyncio.gather(*(mcp.call_tool(name, args) for name, args in calls * 2))
        return [r.structured_content for r in alone], [r.structured_content for r in together]

    alone, together = asyncio.run(answers())
    assert {h["verdict"] for h in alone[0]["hits"]} == {"吉"} and {h["verdict"] for h in alone[1]["hits"]} == {"凶"}
    assert alone[2]["judgments"]
    assert together == alone * 2


def _opened(uri: str) -> tuple[int, str, int]:
    """In a Dask worker: (readers it had opened, the backend of the find's source, readers opened after)."""
    from leishen.service.findwork import Source, worker_reader
    before = worker_reader.cache_info().currsize
    kind = type(worker_reader(Source("neo4j", uri)).backend).__name__
    return before, kind, worker_reader.cache_info().currsize
