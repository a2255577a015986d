"""A corpus of hostile ad-hoc Cypher, kept as data for every door that runs Cypher (CLI, API, MCP).

``from tests.security.hostile_cypher import HOSTILE, PARAMS, READS, BOUNDED``

- ``HOSTILE``: ``(name, query)`` pairs; every one must be refused (CypherRefused, or HTTP 4xx), or, for the
  names in ``BOUNDED``, either stopped at the time limit or answered with at most the row cap — and the graph's
  node and relation counts must be the same before and after, on both backends.
- ``PARAMS``: parameters for the queries that take them (a name → dict).
- ``READS``: legitimate reads that only *look* hostile (keywords inside strings, comments, backticks, map keys,
  property names and parameters; injection attempts through parameter values). On Neo4j they must run; on the
  embedded backend they run or are refused as outside the subset, never as writes.
"""

from __future__ import annotations

_BIG = "x" * 1_000_000

HOSTILE: list[tuple[str, str]] = [
    # writes, in every spelling and case
    ("create", "CREATE (n:Branch {id: 'x'}) RETURN n"),
    ("create_lower", "create (n:Branch {id: 'x'}) return n"),
    ("create_mixed_case", "CrEaTe (n:Branch {id: 'x'}) RETURN n"),
    ("merge", "MERGE (n:Node {id: 'Branch:zi'}) RETURN n"),
    ("set", "MATCH (n:Node {id: 'Branch:zi'}) SET n.name = 'hacked' RETURN n"),
    ("set_lower_after_comment", "MATCH (n:Branch) /* harmless */ set n.x = 1 RETURN n"),
    ("set_after_line_comment", "MATCH (n:Branch) // look\nSET n.x = 1 RETURN n"),
    ("set_split_by_comment", "MATCH (n:Branch) SE/**/T n.x = 1 RETURN n"),
    ("remove_label", "MATCH (n:Node {id: 'Branch:zi'}) REMOVE n:Branch RETURN n"),
    ("detach_delete", "MATCH (n:Node) DETACH DELETE n"),
    ("delete_relations", "MATCH ()-[r:CLASHES]->() DELETE r"),
    ("nodetach_delete", "MATCH (n:Node {id: 'Branch:zi'}) NODETACH DELETE n"),
    ("insert_gql", "INSERT (n:Branch {id: 'x'})"),
    ("foreach", "MATCH (n:Branch) FOREACH (x IN [1] | SET n.x = x)"),
    ("call_subquery_write", "MATCH (n:Branch) CALL (n) { SET n.x = 1 } RETURN count(*)"),
    ("call_subquery_with_write", "MATCH (n:Branch) CALL { WITH n SET n.x = 1 } RETURN count(*)"),
    ("call_in_transactions", "MATCH (n:Branch) CALL (n) { DETACH DELETE n } IN TRANSACTIONS"),
    ("write_after_union", "MATCH (n:Branch) RETURN n.name AS x UNION MATCH (m:Branch) SET m.x = 1 RETURN m.name AS x"),
    # files and URLs
    ("load_csv_file", "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line"),
    ("load_csv_http_lower", "load  csv with headers from 'http://127.0.0.1:1/x.csv' AS row RETURN row"),
    ("load_csv_after_match", "MATCH (n:Branch) LOAD CSV FROM 'file:///etc/hostname' AS l RETURN l"),
    # procedures outside the whitelist
    ("call_dbms_components", "CALL dbms.components()"),
    ("call_dbms_listconfig", "CALL dbms.listConfig() YIELD name RETURN name"),
    ("call_db_createlabel", "CALL db.createLabel('Evil')"),
    ("call_dbms_security", "CALL dbms.security.createUser('x', 'y', false)"),
    ("call_apoc", "CALL apoc.cypher.runWrite('MATCH (n) DETACH DELETE n', {})"),
    ("call_backticked", "CALL `dbms`.`components`()"),
    ("call_comment_split", "CALL db/**/.createLabel('Evil')"),
    ("call_after_match", "MATCH (n:Branch) CALL db.index.fulltext.queryNodes('x', 'y') YIELD node RETURN node"),
    # administration commands
    ("show_transactions", "SHOW TRANSACTIONS"),
    ("show_terminate", "SHOW TRANSACTIONS YIELD transactionId WHERE transactionId <> '' "
                       "TERMINATE TRANSACTIONS transactionId"),
    ("terminate", "TERMINATE TRANSACTIONS 'neo4j-transaction-1'"),
    ("show_settings_lower", "show settings yield name, value return name, value"),
    ("show_procedures", "SHOW PROCEDURES YIELD name RETURN name"),
    ("create_index", "CREATE INDEX leishen_evil IF NOT EXISTS FOR (n:Branch) ON (n.name)"),
    ("drop_constraint", "DROP CONSTRAINT leishen_node_id"),
    ("create_database", "CREATE DATABASE evil"),
    ("drop_database", "drop database neo4j"),
    ("alter_user", "ALTER USER neo4j SET PASSWORD 'x12345678'"),
    ("create_user", "CREATE USER evil SET PASSWORD 'x12345678'"),
    ("create_role", "CREATE ROLE evil"),
    ("grant", "GRANT ALL ON DATABASE * TO PUBLIC"),
    ("deny", "DENY READ {*} ON GRAPH * TO PUBLIC"),
    ("revoke", "REVOKE ROLE admin FROM neo4j"),
    ("stop_database", "STOP DATABASE neo4j"),
    ("start_database", "start database neo4j"),
    ("use_system", "USE system MATCH (n) RETURN n"),
    ("use_neo4j", "USE neo4j MATCH (n:Branch) RETURN n.name"),
    # statement tricks
    ("two_statements", "MATCH (n:Branch) RETURN n; MATCH (n) DETACH DELETE n"),
    ("explain_prefix", "EXPLAIN MATCH (n) RETURN n"),
    ("profile_prefix", "PROFILE MATCH (n) DETACH DELETE n"),
    ("cypher_options", "CYPHER runtime=interpreted MATCH (n:Branch) RETURN n.name"),
    # unicode look-alikes and invisible characters outside strings
    ("cyrillic_es", "\u0421REATE (n:Branch {id: 'x'})"),
    ("fullwidth", "\uff23\uff32\uff25\uff21\uff34\uff25 (n:Branch {id: 'x'})"),
    ("zero_width_space", "MATCH (n:Branch)\u200bSET n.x = 1 RETURN n"),
    ("no_break_space", "MATCH (n:Branch)\u00a0DETACH\u00a0DELETE n"),
    # unbounded work
    ("cartesian_count", "MATCH (a:Node), (b:Node), (c:Node) RETURN count(*)"),
    ("cartesian_rows", "MATCH (a:Node), (b:Node) WHERE a.name + b.name = 'x' RETURN a.id, b.id"),
    ("varlength_unbounded", "MATCH (a:Branch)-[*]->(b) RETURN count(*)"),
    ("varlength_no_upper", "MATCH (a:Branch)-[*2..]->(b) RETURN count(*)"),
    ("varlength_too_long", "MATCH (a:Branch)-[*1..50]->(b) RETURN count(*)"),
    ("quantified_plus", "MATCH p = ((a:Branch)-->(b))+ RETURN count(p)"),
    ("shortest_unbounded", "MATCH (a:Branch {key: 'zi'}), (b:Branch {key: 'wu'}) "
                           "MATCH p = shortestPath((a)-[*]-(b)) RETURN p"),
    ("unwind_range_count", "UNWIND range(1, toInteger(10^8)) AS x RETURN count(x)"),
    ("unwind_range_rows", "UNWIND range(1, toInteger(10^8)) AS x RETURN x"),
    ("query_1mb", "MATCH (n:Node) WHERE n.name = '" + _BIG + "' RETURN n"),
    ("nesting_5000", "RETURN " + "(" * 5000 + "1" + ")" * 5000),
    ("or_chain_1500", "MATCH (n:Node) WHERE " + " OR ".join(f"n.x = {i}" for i in range(1500)) + " RETURN n"),
]

# queries that may run, but only within the time limit and the row cap
BOUNDED = frozenset({"cartesian_count", "cartesian_rows", "unwind_range_count", "unwind_range_rows"})

READS: list[tuple[str, str]] = [
    ("keywords_in_strings", "MATCH (n:Node) WHERE n.name = 'CREATE DELETE SET DROP' OR n.en CONTAINS \"LOAD CSV\" "
                            "RETURN count(n) AS c"),
    ("keywords_in_comments", "MATCH (n:Branch) // DELETE everything\nRETURN n.name /* SET n.x = 1 */ ORDER BY n.name"),
    ("keyword_backtick_variable", "MATCH (`create`:Branch) RETURN `create`.name ORDER BY `create`.name"),
    ("keyword_property", "MATCH (n:Branch) WHERE n.set IS NULL RETURN n.name ORDER BY n.name"),
    ("keyword_parameter", "MATCH (n:Branch) WHERE n.key = $delete RETURN n.name"),
    ("keyword_map_keys", "MATCH (n:Branch {key: 'zi'}) RETURN {set: 1, delete: 2, create: n.name} AS m"),
    ("injection_quote", "MATCH (n:Node) WHERE n.name = $name RETURN n.id AS id"),
    ("injection_brace", "MATCH (n:Branch) WHERE n.name = $name RETURN n.id AS id"),
    ("non_ascii_in_string", "MATCH (n:Branch) WHERE n.name = '子' RETURN n.id AS id"),
]

PARAMS: dict[str, dict] = {
    "keyword_parameter": {"delete": "zi"},
    "injection_quote": {"name": "x' OR 1=1 //"},
    "injection_brace": {"name": "x\"}) DETACH DELETE n //"},
}

# queries whose planning alone took seconds on Neo4j (measured with EXPLAIN), refused by the text bounds
HOSTILE += [
    ("path_of_30_hops", "MATCH (a0:Branch)" + "".join(f"-->(a{i})" for i in range(1, 30)) + " RETURN count(*)"),
    ("optional_match_30", "MATCH (a:Branch) " + " ".join(f"OPTIONAL MATCH (a)-->(b{i})" for i in range(30))
     + " RETURN count(*)"),
    ("additions_5000", "RETURN " + "+".join("1" for _ in range(5000))),
]

# issue 31: a 500 on Neo4j before — the plan check recursed through a plan 500 UNIONs deep, and converting a
# parameter or a result nested 500 (1,000) deep recursed past Python's limit
_NESTED = 1
for _ in range(500):
    _NESTED = [_NESTED]
HOSTILE += [
    ("unions_500", " UNION ".join(f"RETURN {i} AS x" for i in range(500))),
    ("param_nested_500", "RETURN $deep AS deep"),
    ("result_nested_1000", "RETURN reduce(acc = [], i IN range(1, 1000) | [acc]) AS deep"),
]
PARAMS["param_nested_500"] = {"deep": _NESTED}
