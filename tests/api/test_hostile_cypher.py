"""The hostile Cypher corpus (tests/security/hostile_cypher.py) against POST /cypher on the embedded backend:
each query refused with a 4xx, or stopped at the time limit, or (the bounded ones) answered within the row
cap; the graph's counts the same before and after.  The Neo4j twin is tests/neo4j/test_api_neo4j.py."""

from __future__ import annotations

import pytest

from apicheck import HOSTILE_LIMIT, assert_refused_or_bounded
from tests.security.hostile_cypher import BOUNDED, HOSTILE, PARAMS, READS


@pytest.mark.parametrize("name, query", HOSTILE, ids=[name for name, _ in HOSTILE])
def test_hostile_cypher_is_refused_or_bounded(client, name, query):
    assert_refused_or_bounded(client, name, query, PARAMS.get(name), BOUNDED)


@pytest.mark.parametrize("name, query", READS, ids=[name for name, _ in READS])
def test_reads_that_look_hostile_are_not_refused_as_writes(client, name, query):
    answer = client.post("/cypher", json={"query": query, "params": PARAMS.get(name, {}), "limit": HOSTILE_LIMIT,
                                          "timeout": 5})
    assert answer.status_code in (200, 400), answer.text[:300]
    if answer.status_code == 400:
        error = answer.json()["error"]
        assert "writes" not in error and "administration" not in error and "not allowed" not in error
