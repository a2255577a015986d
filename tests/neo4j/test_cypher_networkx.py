"""``leishen cypher`` on the embedded graph (grand-cypher): the subset runs, the known traps are refused,
parameters are substituted safely. No server needed."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from leishen.backends.cypher_networkx import run_networkx as _run_networkx
from leishen.backends.cypher_networkx import substitute_params
from leishen.backends.cypher_patterns import check_grand_cypher_subset, parse_patterns
from leishen.service.cypher import parse_param


def run_networkx(graph, text, params=None, *, limit=1000, timeout=10.0):
    return _run_networkx(graph, text, params, limit=limit, timeout=timeout)

from leishen.errors import BackendError, CypherRefused


@pytest.fixture(scope="module")
def graph(nx_store):
    return nx_store.graph


def _names(result, column):
    return sorted(row[column] for row in result["rows"])


def test_a_typed_directed_pattern_runs(graph):
    result = run_networkx(graph, 'MATCH (b:Branch {key: "zi"})-[r:CLASHES]->(o:Branch) RETURN o.name, r.zh')
    assert result == {"columns": ["o.name", "r.zh"], "rows": [{"o.name": "午", "r.zh": "沖"}], "truncated": False}


@pytest.mark.parametrize("query, columns", [
    ("MATCH (s:Stem) RETURN s.en AS english, s.name AS n ORDER BY n LIMIT 2", ["english", "n"]),
    ("MATCH (x:Stem)-[:HAS_ELEMENT]->(y:Element) RETURN y.name AS b, x.name AS a LIMIT 2", ["b", "a"]),
    ('MATCH (b:Branch {key: "zi"})-[r:CLASHES]->(o:Branch) RETURN r.zh, o.name', ["r.zh", "o.name"]),
])
def test_columns_come_in_the_order_of_the_return_clause(graph, query, columns):
    """As Neo4j gives them (a column named inside another's expression used to be put first)."""
    assert run_networkx(graph, query)["columns"] == columns


def test_parameters_are_json_literals(graph):
    query = "MATCH (n:Branch) WHERE n.name = $name RETURN n.id"
    assert run_networkx(graph, query, {"name": "子"})["rows"] == [{"n.id": "Branch:zi"}]
    assert run_networkx(graph, query, {"name": 'x" OR n.name <> "y'})["rows"] == []
    assert substitute_params('MATCH (n) WHERE n.k = $k AND n.s = "$k" RETURN n', {"k": 'a"b\\'}) == \
        'MATCH (n) WHERE n.k = "a\\"b\\\\" AND n.s = "$k" RETURN n'
    assert substitute_params("MATCH (n) WHERE n.id IN $ids RETURN n", {"ids": ["A:a", "B:b"]}) == \
        'MATCH (n) WHERE n.id IN ["A:a", "B:b"] RETURN n'


@pytest.mark.parametrize("params, message", [({}, "no parameter gives a value"), ({"k": 1, "x": 2}, "not used"),
                                             ({"k": {"a": 1}}, "map parameters"), ({"k": float("nan")}, "finite")])
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(BackendError, match=message):
        substitute_params("MATCH (n) WHERE n.k = $k RETURN n", params)


def test_param_option_values_are_json_or_strings():
    assert parse_param("k=zi") == ("k", "zi")
    assert parse_param("n=3") == ("n", 3)
    assert parse_param('n="3"') == ("n", "3")
    assert parse_param('ids=["Branch:zi"]') == ("ids", ["Branch:zi"])
    with pytest.raises(BackendError, match="name=value"):
        parse_param("no equals sign")


def test_a_self_loop_pattern_is_refused_not_silently_emptied(graph):
    # 辰刑辰: PUNISHES has self-loops, which grand-cypher drops (two variables on one node)
    assert any(u == v and d["type"] == "PUNISHES" for u, v, d in graph.edges(data=True))
    with pytest.raises(BackendError, match="could be the same node"):
        run_networkx(graph, "MATCH (a:Branch)-[:PUNISHES]->(b:Branch) RETURN a.name, b.name")


@pytest.mark.parametrize("query", [
    "MATCH (a:Branch)-[:CLASHES]-(b:Element) RETURN a.name",
    "MATCH (a:Branch)--(b:Element) RETURN a.name",
])
def test_undirected_patterns_are_refused(graph, query):
    with pytest.raises(BackendError, match="undirected"):
        run_networkx(graph, query)


def test_variable_length_patterns_are_refused(graph):
    with pytest.raises(BackendError, match="variable-length"):
        run_networkx(graph, "MATCH (a:Branch)-[:CLASHES*1..2]->(b:Element) RETURN a.name")


@pytest.mark.parametrize("query", [
    "MATCH (a:Branch)-[:CLASHES]->(b:Branch)-[:CLASHES]->(c:Branch) RETURN a.name, c.name",  # a = c (子→午→子)
    "MATCH (a)-[r]->(b) RETURN COUNT(r)",
    "MATCH (a:Branch)<-[:HAS_ELEMENT]-(s:Stem)-[:HAS_ELEMENT]->(b:Branch) RETURN a.name, b.name",
    "MATCH (a:Branch)-[:HAS_ELEMENT]->(e:Element)<-[:HAS_ELEMENT]-(b:Branch) RETURN a.name, b.name",
])
def test_variables_that_may_bind_one_node_are_refused(graph, query):
    with pytest.raises(BackendError, match="could be the same node"):
        run_networkx(graph, query)


@pytest.mark.parametrize("query", [
    "MATCH (a:Branch)-[:HAS_ELEMENT]->(e:Element) RETURN a.name, e.name",
    'MATCH (a:Branch {key: "zi"})-[:CLASHES]->(b:Branch {key: "wu"}) RETURN a.name, b.name',
    "MATCH (a:Branch)-[:CLASHES]->(b:Branch) RETURN a.name, b.name",  # no CLASHES self-loop exists
])
def test_variables_that_cannot_coincide_are_allowed(graph, query):
    check_grand_cypher_subset(query, {d["type"] for u, v, d in graph.edges(data=True) if u == v})


def test_several_match_clauses_are_refused(graph):
    # grand-cypher 1.2.0 answers this with 4 rows: it also binds Mansion 觜 (key zi) and Stem 戊 (key wu)
    with pytest.raises(BackendError, match="several MATCH clauses"):
        run_networkx(graph, 'MATCH (a:Branch {key: "zi"}) MATCH (b:Branch {key: "wu"}) RETURN a.name, b.name')


def test_every_query_gets_a_fresh_engine(graph):
    first = run_networkx(graph, 'MATCH (a:Branch {key: "zi"}) RETURN a.name')
    second = run_networkx(graph, 'MATCH (a:Branch {key: "wu"}) RETURN a.name')
    assert (first["rows"], second["rows"]) == ([{"a.name": "子"}], [{"a.name": "午"}])


def test_row_cap_and_counts(graph):
    capped = run_networkx(graph, "MATCH (a:Branch) RETURN a.name", limit=5)
    assert len(capped["rows"]) == 5 and capped["truncated"] is True
    counted = run_networkx(graph, "MATCH (a:Branch) RETURN COUNT(a)")
    assert counted["rows"] == [{"COUNT(a)": 12}]


def test_unsupported_syntax_is_a_clear_error(graph):
    with pytest.raises(CypherRefused, match="WITH is not in the networkx Cypher subset"):
        run_networkx(graph, "MATCH (a:Branch) WITH a RETURN a.name")
    with pytest.raises(CypherRefused, match="grand-cypher cannot run this query"):
        run_networkx(graph, "MATCH (a:Branch) RETURN labels(a)")


def test_the_timeout_stops_a_long_query(graph):
    query = "MATCH (a:Concept)-[r]->(b:Fact) RETURN a.name, b.name ORDER BY a.name"
    with pytest.raises(BackendError, match="longer than"):
        run_networkx(graph, query, timeout=0.001, limit=10)


def test_pattern_parser_sees_anonymous_nodes_and_directions():
    nodes, rels = parse_patterns('MATCH p = (a:Branch {key: "zi"})<-[:CLASHES]-()-->(b) WHERE a.x = 1 RETURN p')
    assert [n.var for n in nodes] == ["a", "_anon1", "b"]
    assert nodes[0].labels == {"Branch"} and nodes[0].props == {"key": "zi"}
    assert [(r.left, r.right, r.types, r.directed) for r in rels] == [("a", "_anon1", {"CLASHES"}, True),
                                                                        ("_anon1", "b", set(), True)]


def test_cli_exit_code_2_for_a_refused_query():
    from leishen.cli.main import main

    result = CliRunner().invoke(main, ["cypher", "MATCH (a)--(b) RETURN a.name", "--json"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: undirected pattern")
    ok = CliRunner().invoke(main, ["cypher", "MATCH (a:Branch {key: $k}) RETURN a.name", "--param", "k=zi", "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["rows"] == [{"a.name": "子"}]
