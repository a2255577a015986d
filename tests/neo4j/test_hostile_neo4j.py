"""The hostile Cypher corpus against the real Neo4j: each query refused (or bounded in time and rows), the graph
unchanged; the reads that only look hostile run. Before the allow-list, ``SHOW TRANSACTIONS … TERMINATE`` and
``SHOW SETTINGS`` ran, and a 10,000-deep expression kept the planner busy for minutes: these tests fail there."""

from __future__ import annotations

import pytest

from leishen.errors import CypherRefused, CypherTimeout
from leishen.service.cypher import run_cypher
from tests.security.hostile_cypher import BOUNDED, HOSTILE, PARAMS, READS

pytestmark = pytest.mark.neo4j
LIMIT = 50


@pytest.fixture(scope="module")
def snapshot(neo4j_backend):
    return neo4j_backend.counts(), neo4j_backend.meta()["gen"]


@pytest.mark.parametrize("name, query", HOSTILE, ids=[name for name, _ in HOSTILE])
def test_hostile_queries_are_refused_or_bounded(neo4j_backend, snapshot, name, query):
    try:
        result = run_cypher(neo4j_backend, query, params=PARAMS.get(name), timeout=5, limit=LIMIT)
    except (CypherRefused, CypherTimeout) as exc:
        assert "\n" not in str(exc) and str(exc)
        if name not in BOUNDED:
            assert isinstance(exc, CypherRefused)
    else:
        assert name in BOUNDED, f"{name} ran: {result['rows'][:3]}"
        assert len(result["rows"]) <= LIMIT
    assert (neo4j_backend.counts(), neo4j_backend.meta()["gen"]) == snapshot


@pytest.mark.parametrize("name, query", READS, ids=[name for name, _ in READS])
def test_reads_that_look_hostile_run(neo4j_backend, snapshot, name, query):
    result = run_cypher(neo4j_backend, query, params=PARAMS.get(name), timeout=10, limit=LIMIT)
    assert len(result["rows"]) <= LIMIT
    assert (neo4j_backend.counts(), neo4j_backend.meta()["gen"]) == snapshot


def test_an_injection_through_a_parameter_stays_a_value(neo4j_backend):
    rows = run_cypher(neo4j_backend, "MATCH (n:Node) WHERE n.name = $name RETURN n.id AS id",
                      params=PARAMS["injection_quote"])["rows"]
    assert rows == []


def test_counts_agree_with_the_embedded_backend(neo4j_backend, nx_store):
    query = "MATCH (f:Fact)-[:CITES]->(p:Passage) RETURN count(f) AS n"
    assert run_cypher(neo4j_backend, query, limit=10)["rows"] == run_cypher(nx_store, query, limit=10)["rows"]
