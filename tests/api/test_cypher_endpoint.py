"""POST /cypher: read-only, bounded in rows, time and size; every refusal a 4xx naming why."""

from __future__ import annotations

import pytest

from apicheck import assert_error, counts, serving
from leishen.api import Settings

BRANCHES = "MATCH (b:Branch) RETURN b.name AS name, b.key AS key ORDER BY b.key"


def test_a_read_query_answers_the_cli_shape(client):
    answer = client.post("/cypher", json={"query": BRANCHES})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["columns"] == ["name", "key"] and len(body["rows"]) == 12 and body["truncated"] is False


def test_parameters_go_in_as_values(client):
    body = client.post("/cypher", json={"query": "MATCH (b:Branch) WHERE b.key = $k RETURN b.name AS name",
                                        "params": {"k": "zi"}}).json()
    assert body["rows"] == [{"name": "子"}]
    injected = client.post("/cypher", json={"query": "MATCH (b:Branch) WHERE b.key = $k RETURN b.name AS name",
                                            "params": {"k": "zi' OR 1=1 //"}})
    assert injected.status_code == 200 and injected.json()["rows"] == []


def test_the_row_cap_truncates(client):
    body = client.post("/cypher", json={"query": BRANCHES, "limit": 5}).json()
    assert len(body["rows"]) == 5 and body["truncated"] is True


@pytest.mark.parametrize("query", [
    "CREATE (n:Branch {key: 'x'}) RETURN n",
    "MATCH (n) DETACH DELETE n",
    "match (b:Branch) set b.name = 'x' return b",
    "MATCH (b:Branch) MERGE (b)-[:CLASHES]->(b) RETURN b",
])
def test_writes_are_refused_and_change_nothing(client, query):
    before = counts(client)
    assert_error(client.post("/cypher", json={"query": query}), 400)
    assert counts(client) == before


@pytest.mark.parametrize("body, field", [
    ({}, "query"),
    ({"query": ""}, "query"),
    ({"query": BRANCHES, "limit": 0}, "limit"),
    ({"query": BRANCHES, "limit": 10**7}, "limit"),
    ({"query": BRANCHES, "timeout": 0}, "timeout"),
    ({"query": BRANCHES, "timeout": 1e12}, "timeout"),
    ({"query": BRANCHES, "timeout": "soon"}, "timeout"),
    ({"query": BRANCHES, "params": []}, "params"),
    ({"query": BRANCHES, "extra": 1}, "extra"),
    ({"query": "MATCH (n) RETURN n" + " " * 30_000}, "query"),
])
def test_bad_bodies_name_the_field(client, body, field):
    assert assert_error(client.post("/cypher", json=body), 422, field)["field"] == field


def test_non_finite_timeout_is_refused(client):
    raw = '{"query": "MATCH (b:Branch) RETURN b.name AS name", "timeout": NaN}'
    response = client.post("/cypher", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["field"] == "timeout"


def test_malformed_json_is_422(client):
    response = client.post("/cypher", content=b"{not json", headers={"content-type": "application/json"})
    assert_error(response, 422)


def test_a_body_over_the_limit_is_413():
    """Refused before it is read: by its Content-Length, or while a chunked body streams in."""
    with serving(Settings(max_body=2_000, use_corpus=False)) as small:
        assert small.post("/cypher", json={"query": BRANCHES}).status_code == 200
        declared = small.post("/cypher", json={"query": BRANCHES + " " * 3_000})
        assert declared.status_code == 413 and "Too Large" in declared.text
        chunks = iter([b'{"query": "', b"x" * 3_000, b'"}'])
        streamed = small.post("/cypher", content=chunks, headers={"content-type": "application/json"})
        assert_error(streamed, 413, "Too Large")


def test_a_query_past_its_time_limit_is_408(client):
    """A scan of every Fact and its Passage takes the embedded engine most of a second; 10 ms is too little."""
    scan = 'MATCH (f:Fact)-[:CITES]->(p:Passage) WHERE f.key <> "x" RETURN f.key ORDER BY f.key'
    assert_error(client.post("/cypher", json={"query": scan, "timeout": 0.01, "limit": 5000}), 408, "0.01")
