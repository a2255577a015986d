"""The HTTP API over the real Neo4j: the same answers as over NetworkX, and POST /cypher guarded.

Every hostile query of ``tests/security/hostile_cypher.py`` is refused with a 4xx (or, for the bounded
ones, stopped at the time limit or answered within the row cap), and the database's counts do not move."""

from __future__ import annotations

import pytest

from leishen.api import Settings
from tests.api.apicheck import assert_refused_or_bounded, counts, serving
from tests.security.hostile_cypher import BOUNDED, HOSTILE, PARAMS

pytestmark = pytest.mark.neo4j


@pytest.fixture(scope="module")
def neo(neo4j_server, neo4j_backend):
    with serving(Settings(backend="neo4j", uri=neo4j_server["uri"], use_corpus=False)) as client:
        yield client


@pytest.fixture(scope="module")
def embedded():
    with serving(Settings(use_corpus=False)) as client:
        yield client


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
    assert_refused_or_bounded(neo, name, query, PARAMS.get(name), BOUNDED)
