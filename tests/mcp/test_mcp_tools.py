"""``leishen mcp`` for an assistant, driven by the SDK's own stdio client: the compact reading (and its findings on
request), find under the server limits, passages as a tool and as resources, topics, coverage, one-line errors
naming the argument, and an input schema whose every property is described."""

from __future__ import annotations

import ast
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from leishen.service import readings as door
from leishen.service.compact import compact_judgment, compact_reading
from leishen.service.requests import ReadingQuery

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "leishen.mcpserver"],
                               env={k: v for k, v in os.environ.items() if k.startswith("LEISHEN_")})
MOMENT = "2026-12-01T10:00+09:00"
CALLS = [("read", {"moment": MOMENT}),                                                   # 0 general
         ("read", {"moment": MOMENT, "topic": "射覆"}),                                  # 1 one topic
         ("read", {"moment": MOMENT, "topic": "*"}),                                     # 2 every topic
         ("read", {"moment": MOMENT, "topic": "射覆", "findings": True, "limit": 5,
                   "fields": ["path", "polarity"]}),                                     # 3
         ("read", {"moment": MOMENT, "topic": "射覆", "limit": 0}),                      # 4 bad limit
         ("read", {"moment": MOMENT, "fields": ["idx"]}),                                # 5 bad field
         ("find", {"rule": "kin", "start": "2026-01-01T00:00+08:00",
                   "end": "2026-03-01T00:00+08:00"}),                                    # 6 too long
         ("find", {"topic": "射覆", "verdict": "平", "start": "2026-01-01T00:00+08:00",
                   "end": "2026-01-01T05:00+08:00", "limit": 2}),                        # 7 擇時, limited
         ("shortest_path", {"source": "Branch:zi", "target": "Branch:zz"}),              # 8 unknown node
         ("relations_among", {"node_ids": ["Branch:zi", "Stem:nope"]}),                  # 9 unknown node
         ("passage", {"doc": "002", "line": 151}),                                       # 10
         ("passage", {"doc": "002", "line": 150}),                                       # 11 not a paragraph
         ("topics", {}),                                                                 # 12
         ("coverage", {}),                                                               # 13
         ("find", {"rule": "kin", "start": "2026-01-01T00:00+08:00",
                   "end": "2026-01-01T00:00+08:00", "step": "week"}),                    # 14 bad step
         ("shortest_path", {"source": "Branch:zi", "target": "Branch:wu"})]              # 15


async def session_run():
    """List the tools and resource templates, make every call, read two passage resources."""
    async with Client(SERVER, read_timeout_seconds=120) as client:
        tools = await client.list_tools()
        templates = await client.list_resource_templates()
        results = [await client.call_tool(name, args) for name, args in CALLS]
        resource = await client.read_resource("passage://002/151")
        try:
            await client.read_resource("passage://009/151")
            bad = None
        except MCPError as exc:
            bad = str(exc)
    return tools, templates, results, resource, bad


@pytest.fixture(scope="module")
def answers():
    return asyncio.run(session_run())


def size(value) -> int:
    """The size of a JSON answer as an assistant reads it (UTF-8 text, not escaped)."""
    return len(json.dumps(value, ensure_ascii=False))


def test_the_server_imports_nothing_from_the_http_api():
    """The MCP door stands beside the HTTP door, both on the service layer: no module of mcpserver imports api."""
    folder = Path(__import__("leishen.mcpserver", fromlist=["x"]).__file__).parent
    imported = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                imported.update({node.module or ""} | {f"{node.module}.{a.name}" for a in node.names})
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
    assert "leishen.service.readings" in imported  # the readings door is where read and find go
    assert not [m for m in imported if m.startswith(("leishen.api", "api"))]
    loaded = subprocess.run([sys.executable, "-c", "import sys, leishen.mcpserver.server; "
                             "print(sorted(m for m in sys.modules if m.startswith('leishen.api')))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]", loaded  # nor through another module


def test_read_is_compact_one_topic_under_20_kb(answers):
    _, _, results, *_ = answers
    general, one, every = (r.structured_content for r in results[:3])
    assert not any(r.is_error for r in results[:3])
    assert size(one) <= 20_000, size(one)
    assert size(general) < size(one) < size(every)
    for reading in (general, one, every):
        assert "findings" not in reading and reading["tally"] and reading["counts"]["findings"] > 0
    assert [j["topic"] for j in one["judgments"]] == [None, "射覆"]
    shefu = one["judgments"][1]
    assert shefu["verdict"] and shefu["use_god"] and all(u["src"] for u in shefu["use_god"])
    assert all(a["src"] and a["findings"] for f in shefu["facets"] for a in f["answer"])
    assert len(every["judgments"]) > 10


def test_read_goes_through_the_readings_door(answers):
    """The judgments MCP gives are the compact form of those the readings door (and so HTTP) computes."""
    _, _, results, *_ = answers
    query = ReadingQuery(moment=MOMENT, topic="射覆")
    full = door.read(query.chart(), topic="射覆", reader=door.reader_for(), request=query.request(),
                     options=query.options(), typed=False)
    meanings = {f["id"]: f["meaning"] for f in full["findings"]}
    judged = results[1].structured_content["judgments"]
    assert judged[1:] == [compact_judgment(j, "en", meanings) for j in full["judgments"][1:]]
    general = compact_judgment(full["judgments"][0], "en", meanings)  # in a topic's reading: reasons by id only
    assert judged[0]["reasons"] == [{"why": g["why"], "findings": [i["finding"] for i in g["items"]]}
                                    for g in general["reasons"]] and judged[0]["verdict"] == general["verdict"]
    assert results[1].structured_content == compact_reading(full)


def test_findings_on_request_with_limit_and_fields(answers):
    _, _, results, *_ = answers
    listed = results[3].structured_content["findings"]
    assert listed["shown"] == 5 == len(listed["items"]) and listed["total"] > 5
    assert all(set(item) == {"id", "path", "polarity"} and item["path"] for item in listed["items"])


def test_findings_by_id_follow_a_judgment():
    """A reason's finding id, asked with ids=[…], gives that finding (every one, whatever limit says)."""
    async def run():
        async with Client(SERVER, read_timeout_seconds=120) as client:
            first = await client.call_tool("read", {"moment": MOMENT, "topic": "射覆"})
            ids = [i["finding"] for g in first.structured_content["judgments"][1]["reasons"] for i in g["items"]]
            again = await client.call_tool("read", {"moment": MOMENT, "topic": "射覆", "ids": ids, "limit": 1,
                                                    "fields": ["src"]})
            return ids, again.structured_content["findings"]
    ids, listed = asyncio.run(run())
    assert len(ids) > 1 and sorted(i["id"] for i in listed["items"]) == sorted(set(ids))
    assert all(i["src"] for i in listed["items"])


def test_bad_arguments_are_one_line_naming_the_argument(answers):
    _, _, results, *_ = answers
    for result, name in ((results[4], "limit"), (results[5], "fields"), (results[14], "step")):
        text = result.content[0].text
        assert result.is_error and f"{name}" in text and "\n" not in text, text
        assert "validation error" not in text and "pydantic" not in text, text


def test_find_under_the_server_limits(answers):
    _, _, results, *_ = answers
    too_long = results[6]
    assert too_long.is_error and "end: " in too_long.content[0].text and "744" in too_long.content[0].text
    chosen = results[7].structured_content
    assert chosen["limited"] is True and len(chosen["hits"]) == 2 and chosen["range"]["moments"] == 6
    assert all(hit["verdict"] == "平" for hit in chosen["hits"])


def test_an_unknown_node_id_is_a_tool_error_naming_it(answers):
    _, _, results, *_ = answers
    path, among, known = results[8], results[9], results[15]
    assert path.is_error and "target" in path.content[0].text and "Branch:zz" in path.content[0].text
    assert among.is_error and "node_ids" in among.content[0].text and "Stem:nope" in among.content[0].text
    assert not known.is_error and known.structured_content["rows"]


def test_passage_tool_and_resource_follow_a_src(answers, corpus_dir):
    from leishen.loaders.corpus import read_corpus

    _, templates, results, resource, bad = answers
    passage, not_a_paragraph = results[10], results[11]
    text = read_corpus(corpus_dir).passages["002"][151]  # read from the corpus at run time, never stored here
    assert not passage.is_error and passage.structured_content["text"] == text
    assert passage.structured_content["src"] == "002:151" and passage.structured_content["facts"]
    assert all(f["id"] and f["relation"] for f in passage.structured_content["facts"])
    assert not_a_paragraph.is_error and "line: " in not_a_paragraph.content[0].text
    assert [t.uri_template for t in templates.resource_templates] == ["passage://{doc}/{line}"]
    assert json.loads(resource.contents[0].text) == passage.structured_content
    assert bad and "doc" in bad and "009" in bad


def test_topics_and_coverage(answers):
    _, _, results, *_ = answers
    topics, coverage = results[12].structured_content, results[13].structured_content
    shefu = [t for t in topics["topics"] if t["zh"] == "射覆"]
    assert shefu and shefu[0]["ko"] and shefu[0]["en"] and topics["all"] == "*"
    assert coverage["total"]["expected"] >= coverage["total"]["present"] > 0


def test_every_property_of_every_tool_is_described(answers):
    tools, *_ = answers
    by_name = {t.name: t for t in tools.tools}
    for tool in tools.tools:
        assert tool.description, tool.name
        for prop, schema in tool.input_schema.get("properties", {}).items():
            assert (schema.get("description") or "").strip(), f"{tool.name}.{prop} has no description"
    assert "call this first" in by_name["resolve"].description.lower()
    for name in ("symbol_relations", "shortest_path", "relations_among", "facts"):
        assert "resolve" in by_name[name].description, name
    assert "`symbol`" in by_name["symbol_relations"].description
    assert "`symbol_relations`" in by_name["symbol"].description
