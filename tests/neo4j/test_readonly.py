"""The read-only guard of ad-hoc Cypher on Neo4j: writes, LOAD CSV, CALL dbms…, unbounded scans are refused,
and the graph is unchanged afterwards."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from leishen.errors import BackendError

pytestmark = pytest.mark.neo4j

WRITES = [
    "CREATE (n:Branch {id: 'x'}) RETURN n",
    "MERGE (n:Node {id: 'Branch:zi'}) RETURN n",
    "MATCH (n:Node {id: 'Branch:zi'}) SET n.name = 'hacked' RETURN n",
    "MATCH (n:Node {id: 'Branch:zi'}) REMOVE n:Branch RETURN n",
    "MATCH (n:Node {id: 'Branch:zi'}) DETACH DELETE n",
    "MATCH ()-[r:CLASHES]->() DELETE r",
    "MATCH (n:Branch) CALL (n) { SET n.x = 1 } RETURN count(*)",
    "MATCH (n:Branch) FOREACH (x IN [1] | SET n.x = x)",
    "CREATE INDEX leishen_evil IF NOT EXISTS FOR (n:Branch) ON (n.name)",
    "DROP CONSTRAINT leishen_node_id",
    "CREATE DATABASE evil",
]
LOAD_CSV = [
    "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
    "load  csv with headers from 'http://127.0.0.1:1/x.csv' AS row RETURN row",
]
PROCEDURES = [
    "CALL dbms.components()",
    "CALL dbms.listConfig() YIELD name RETURN name",
    "CALL db.createLabel('Evil')",
    "CALL dbms.security.createUser('x', 'y', false)",
    "CALL db.index.fulltext.queryNodes('x', 'y')",
]
UNBOUNDED = [
    "MATCH (a:Branch)-[*]->(b) RETURN count(*)",
    "MATCH (a:Branch)-[:CLASHES*]->(b) RETURN count(*)",
    "MATCH (a:Branch)-[*2..]->(b) RETURN count(*)",
    "MATCH (a:Branch)-[*0..]-(b) RETURN count(*)",
    "MATCH (a:Branch)-[*1..50]->(b) RETURN count(*)",
    "MATCH p = ((a:Branch)-->(b))+ RETURN count(p)",
    "MATCH p = ((a:Branch)-->(b)){1,} RETURN count(p)",
    "MATCH (a:Branch {key: 'zi'}), (b:Branch {key: 'wu'}) MATCH p = shortestPath((a)-[*]-(b)) RETURN p",
    "MATCH p = SHORTEST 1 (a:Branch)-->+(b:Element) RETURN p",
]


@pytest.fixture()
def unchanged(neo4j_backend):
    """Asserts after the test that nodes, relations and generation are what they were."""
    before, meta = neo4j_backend.counts(), neo4j_backend.meta()
    yield
    assert neo4j_backend.counts() == before
    assert neo4j_backend.meta()["gen"] == meta["gen"]
    rows = neo4j_backend.cypher("MATCH (n:Node {id: 'Branch:zi'}) RETURN n.name AS name, labels(n) AS labels")["rows"]
    assert rows == [{"name": "子", "labels": ["Node", "Branch"]}] or rows == [{"name": "子", "labels": ["Branch", "Node"]}]


@pytest.mark.parametrize("query", WRITES)
def test_writes_are_refused(query, neo4j_backend, unchanged):
    with pytest.raises(BackendError, match="only read queries|not allowed|refused"):
        neo4j_backend.cypher(query)


@pytest.mark.parametrize("query", LOAD_CSV)
def test_load_csv_is_refused(query, neo4j_backend, unchanged):
    with pytest.raises(BackendError, match="LOAD CSV is not allowed"):
        neo4j_backend.cypher(query)


@pytest.mark.parametrize("query", PROCEDURES)
def test_procedures_outside_the_whitelist_are_refused(query, neo4j_backend, unchanged):
    with pytest.raises(BackendError, match="is not allowed"):
        neo4j_backend.cypher(query)


@pytest.mark.parametrize("query", UNBOUNDED)
def test_unbounded_variable_length_scans_are_refused(query, neo4j_backend, unchanged):
    with pytest.raises(BackendError, match="upper bound|hops"):
        neo4j_backend.cypher(query)


def test_bounded_patterns_and_whitelisted_procedures_run(neo4j_backend, unchanged):
    bounded = neo4j_backend.cypher("MATCH (a:Branch {key: 'zi'})-[*..2]->(b:Element) RETURN DISTINCT b.name AS name ORDER BY name")
    assert {"name": "水"} in bounded["rows"]
    labels = neo4j_backend.cypher("CALL db.labels() YIELD label RETURN label ORDER BY label")
    assert {"label": "Branch"} in labels["rows"]


def test_values_are_parameters_and_an_injection_stays_a_literal(neo4j_backend, unchanged):
    query = "MATCH (n:Node) WHERE n.name = $name RETURN n.id AS id"
    assert neo4j_backend.cypher(query, {"name": "子"})["rows"] == [{"id": "Branch:zi"}]
    assert neo4j_backend.cypher(query, {"name": "x' OR 1=1 //"})["rows"] == []
    assert neo4j_backend.cypher(query, {"name": "x\"}) DETACH DELETE n //"})["rows"] == []


def test_the_row_cap_truncates(neo4j_backend):
    result = neo4j_backend.cypher("MATCH (n:Node) RETURN n.id AS id ORDER BY id", limit=5)
    assert len(result["rows"]) == 5 and result["truncated"] is True
    assert result["columns"] == ["id"]
    whole = neo4j_backend.cypher("MATCH (n:Branch) RETURN n.id AS id", limit=12)
    assert len(whole["rows"]) == 12 and whole["truncated"] is False


def test_a_query_over_its_timeout_is_stopped(neo4j_backend):
    with pytest.raises(BackendError, match="(?i)timeout|terminated"):
        neo4j_backend.cypher("MATCH (a:Node), (b:Node), (c:Node) WHERE a.name + b.name + c.name = 'x' RETURN count(*)",
                             timeout=0.5)


def test_the_cli_refuses_with_exit_code_2(neo4j_server, neo4j_backend, unchanged):
    from leishen.cli.main import main

    runner = CliRunner()
    refused = runner.invoke(main, ["cypher", "MATCH (n:Node) DETACH DELETE n", "--backend", "neo4j",
                                   "--uri", neo4j_server["uri"], "--json"])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: ") and refused.stderr.count("\n") == 1
    allowed = runner.invoke(main, ["cypher", "MATCH (n:Branch {key: $k}) RETURN n.name AS name", "--param", "k=zi",
                                   "--backend", "neo4j", "--uri", neo4j_server["uri"], "--json"])
    assert allowed.exit_code == 0, allowed.output
    assert '"name": "子"' in allowed.stdout
