"""The HTTP API over the real Neo4j: the same answers as over NetworkX, and POST /cypher guarded.

Every hostile query of ``tests/security/hostile_cypher.py`` is refused with a 4xx (or, for the bounded
ones, stopped at the time limit or answered within the row cap), and the database's counts do not move."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from leishen.api import Settings, create_app
from tests.security.hostile_cypher import BOUNDED, HOSTILE, PARAMS

pytestmark = pytest.mark.neo4j
LIMIT = 50
REFUSED = (400, 408, 413, 422)


@pytest.fixture(scope="module")
def neo(neo4j_server, neo4j_backend):
    app = create_app(Settings(backend="neo4j", uri=neo4j_server["uri"], use_corpus=False))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def embedded():
    with TestClient(create_app(Settings(use_corpus=False)), raise_server_exceptions=False) as client:
        yield client


def counts(client) -> tuple[int, int]:
    body = client.get("/health").json()
    return body["nodes"], body["relations"]


def test_health_names_the_backend_and_counts_agree(neo, embedded):
    assert neo.get("/health").json()["backend"] == "neo4j"
    assert counts(neo) == counts(embedded)


@pytest.mark.parametrize("path, params", [
    ("/symbols/神后", {}),
    ("/paths", {"source": "子", "target": "午"}),
    ("/facts", {"doc": "002", "symbol": "六合"}),
    ("/queries/relations_among", {"node_ids": ["Branch:zi", "Branch:wu", "Branch:mao"]}),
    ("/queries/resolve", {"q": "white tiger"}),
])
def test_same_answers_on_both_backends(neo, embedded, path, params):
    a, b = neo.get(path, params=params), embedded.get(path, params=params)
    assert a.status_code == b.status_code == 200
    assert a.json() == b.json()


def test_full_cypher_reads_on_neo4j(neo):
    body = neo.post("/cypher", json={"query": "MATCH (a:Branch {key: 'zi'})-[r:CLASHES]-(b) RETURN b.name AS name"}).json()
    assert body["rows"] == [{"name": "午"}] or {"name": "午"} in body["rows"]


@pytest.mark.parametrize("name, query", HOSTILE, ids=[name for name, _ in HOSTILE])
def test_hostile_cypher_is_refused_or_bounded(neo, name, query):
    before = counts(neo)
    answer = neo.post("/cypher", json={"query": query, "params": PARAMS.get(name, {}), "limit": LIMIT, "timeout": 5})
    if answer.status_code == 200:
        assert name in BOUNDED, f"{name} ran: {answer.text[:300]}"
        assert len(answer.json()["rows"]) <= LIMIT
    else:
        assert answer.status_code in REFUSED, answer.text[:300]
    assert counts(neo) == before
