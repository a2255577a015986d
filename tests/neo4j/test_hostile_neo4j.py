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


def test_500_unions_are_refused_naming_the_limit(neo4j_backend):
    """Before: RecursionError in the plan check (HTTP 500)."""
    query = " UNION ".join(f"RETURN {i} AS x" for i in range(500))
    with pytest.raises(CypherRefused, match=r"^the query has 499 UNIONs; at most 100 are accepted"):
        run_cypher(neo4j_backend, query, limit=LIMIT)
    at_most = " UNION ".join(f"RETURN {i} AS x" for i in range(101))
    assert len(run_cypher(neo4j_backend, at_most, timeout=30, limit=200)["rows"]) == 101


def test_a_plan_of_any_depth_is_checked_without_recursion():
    from leishen.backends.neo4j_guard import check_plan

    plan = {"operatorType": "ProduceResults", "args": {}, "children": []}
    leaf = plan
    for _ in range(5_000):
        child = {"operatorType": "Union", "args": {}, "children": []}
        leaf["children"].append(child)
        leaf = child
    leaf["children"].append({"operatorType": "ProcedureCall", "args": {"Details": "dbms.components()"}})
    with pytest.raises(CypherRefused, match="CALL dbms.components is not allowed"):
        check_plan(plan)


def _nested(depth: int):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def test_nested_parameters_and_results_are_refused_naming_the_limit(neo4j_backend):
    """Before: RecursionError converting the result (HTTP 500)."""
    with pytest.raises(CypherRefused, match=r"^parameter deep nests lists or maps 500 deep; at most 64"):
        run_cypher(neo4j_backend, "RETURN $deep AS deep", params={"deep": _nested(500)})
    with pytest.raises(CypherRefused, match=r"^a value of the result nests lists or maps more than 64 deep"):
        run_cypher(neo4j_backend, "RETURN reduce(acc = [], i IN range(1, 1000) | [acc]) AS deep")
    assert run_cypher(neo4j_backend, "RETURN $deep AS deep", params={"deep": _nested(64)})["rows"] == [
        {"deep": _nested(64)}]


def test_the_memory_limit_of_a_transaction_is_a_refusal_not_an_outage(neo4j_backend):
    """Neo4j reports its transaction memory limit as a TransientError; it was answered 503 (backend unavailable)."""
    from leishen.api.errors import status_of

    with pytest.raises(CypherRefused, match="more memory than a transaction may use") as caught:
        run_cypher(neo4j_backend, "UNWIND range(1, 20000000) AS x RETURN collect(x) AS xs", timeout=60)
    assert status_of(caught.value) == 400 and "\n" not in str(caught.value)
    assert "(at most 384.0 MiB, Neo.TransientError.General.MemoryPoolOutOfMemoryError)" in str(caught.value)
    assert run_cypher(neo4j_backend, "RETURN 1 AS one")["rows"] == [{"one": 1}]  # the next query runs


@pytest.fixture(scope="module")
def neo_client(neo4j_server, neo4j_backend):
    from leishen.api import Settings
    from tests.api.apicheck import serving

    with serving(Settings(backend="neo4j", uri=neo4j_server["uri"], use_corpus=False)) as client:
        yield client


@pytest.mark.parametrize("body, words", [
    ({"query": " UNION ".join(f"RETURN {i} AS x" for i in range(500))}, "at most 100 are accepted"),
    ({"query": "RETURN $deep AS deep", "params": {"deep": _nested(500)}}, "at most 64 levels"),
    ({"query": "RETURN reduce(acc = [], i IN range(1, 1000) | [acc]) AS deep"}, "more than 64 deep"),
    ({"query": "UNWIND range(1, 20000000) AS x RETURN collect(x) AS xs", "timeout": 60}, "more memory"),
], ids=["unions_500", "param_nested_500", "result_nested_1000", "memory"])
def test_over_http_each_is_a_400_naming_the_limit(neo_client, body, words):
    from tests.api.apicheck import assert_error

    assert_error(neo_client.post("/cypher", json=body), 400, words)


def test_a_result_nested_64_deep_is_answered_over_http(neo_client):
    answer = neo_client.post("/cypher", json={"query": "RETURN $deep AS deep", "params": {"deep": _nested(64)}})
    assert answer.status_code == 200 and answer.json()["rows"] == [{"deep": _nested(64)}]
