"""The graph commands give the same JSON on both backends; the neo4j commands and connection errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from leishen.errors import BackendError, BackendUnavailable

pytestmark = pytest.mark.neo4j

SAME_JSON = [
    ["stats"],
    ["symbol", "子"],
    ["symbol", "白虎"],
    ["symbol", "Branch:辰"],
    ["facts", "--symbol", "子"],
    ["facts", "--doc", "000"],
    ["facts", "--doc", "003", "--symbol", "休門"],
    ["path", "子", "午"],
    ["path", "甲", "Element:水"],
    ["path", "子", "General:白虎"],
    ["path", "子", "General:白虎", "--via-hubs"],
    ["path", "Thing:木物", "子"],
]


def _invoke(args: list[str], env: dict | None = None):
    from leishen.cli.main import main

    return CliRunner().invoke(main, args, env=env)


@pytest.mark.parametrize("args", SAME_JSON, ids=" ".join)
def test_graph_commands_print_the_same_json_on_both_backends(args, neo4j_server, neo4j_backend):
    embedded = _invoke([*args, "--json"])
    server = _invoke([*args, "--json", "--backend", "neo4j", "--uri", neo4j_server["uri"]])
    assert embedded.exit_code == 0, embedded.output
    assert server.exit_code == 0, server.output
    assert json.loads(server.stdout) == json.loads(embedded.stdout)
    assert server.stdout == embedded.stdout  # same keys in the same order


def test_the_neo4j_uri_may_come_from_the_environment_and_use_neo4j_scheme(neo4j_server, neo4j_backend):
    routed = neo4j_server["uri"].replace("bolt://", "neo4j://")
    result = _invoke(["stats", "--json", "--backend", "neo4j"], env={"NEO4J_URI": routed})
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(_invoke(["stats", "--json"]).stdout)


def test_cypher_gives_the_same_rows_on_both_backends(neo4j_server, neo4j_backend):
    query = ('MATCH (b:Branch {key: $k})-[r:CLASHES]->(o:Branch)-[:HAS_ELEMENT]->(e:Element) '
             'RETURN o.name, r.zh, e.name')
    outputs = [_invoke(["cypher", query, "--param", "k=zi", "--json", *extra])
               for extra in ([], ["--backend", "neo4j", "--uri", neo4j_server["uri"]])]
    assert [o.exit_code for o in outputs] == [0, 0], [o.output for o in outputs]
    embedded, server = (json.loads(o.stdout) for o in outputs)
    assert embedded == server
    assert embedded["rows"] == [{"o.name": "午", "r.zh": "沖", "e.name": "火"}]


def test_status_of_the_session_server(neo4j_server):
    result = _invoke(["neo4j", "status", "--json"], env={"LEISHEN_NEO4J_RUN": neo4j_server["run_dir"]})
    assert result.exit_code == 0
    status = json.loads(result.stdout)
    assert status["answering"] is True and status["uri"] == neo4j_server["uri"]


def test_unreachable_server_is_a_clear_error_with_exit_code_2():
    from leishen.neo4jserver.server import _port_answers

    port = next(p for p in range(7999, 7900, -1) if not _port_answers(p))
    result = _invoke(["stats", "--json", "--backend", "neo4j", "--uri", f"bolt://127.0.0.1:{port}"])
    assert result.exit_code == 2
    assert "unreachable" in result.stderr and result.stderr.count("\n") == 1


def test_a_bad_uri_scheme_is_a_clear_error():
    result = _invoke(["stats", "--backend", "neo4j", "--uri", "http://127.0.0.1:7474"])
    assert result.exit_code == 2
    assert "must start with bolt:// or neo4j://" in result.stderr


def test_start_with_auth_status_wrong_credentials_and_stop(tmp_path, neo4j_server):
    """A second server, started by the CLI with --auth on a free port and its own data directory."""
    from leishen.backends.neo4j_backend import Neo4jBackend

    env = {"LEISHEN_NEO4J_RUN": str(tmp_path / "run"), "NEO4J_PASSWORD": "test-password-1"}
    started = _invoke(["neo4j", "start", "--auth", "--data", str(tmp_path / "data")], env=env)
    if started.exit_code != 0 and os.environ.get("CI", "").lower() != "true":
        pytest.skip(f"a second Neo4j could not start here: {started.output}")
    try:
        assert started.exit_code == 0, started.output
        uri = started.stdout.strip()
        assert uri.startswith("bolt://127.0.0.1:")
        assert Path(tmp_path / "data").is_dir()
        status = json.loads(_invoke(["neo4j", "status", "--json"], env=env).stdout)
        assert status["answering"] and status["auth"] is True and status["uri"] == uri

        with pytest.raises(BackendError, match="refused the credentials of user 'neo4j'"):
            Neo4jBackend(uri=uri, user="neo4j", password="wrong-password")
        right = Neo4jBackend(uri=uri, user="neo4j", password="test-password-1")
        try:
            with pytest.raises(BackendError, match="holds no leishen graph"):
                right.run("stats")
        finally:
            right.close()
        denied = _invoke(["stats", "--backend", "neo4j", "--uri", uri, "--password", "nope-nope"])
        assert denied.exit_code == 2 and "refused the credentials" in denied.stderr
    finally:
        stopped = _invoke(["neo4j", "stop"], env=env)
    assert stopped.exit_code == 0 and stopped.stdout.strip() == "stopped"
    assert json.loads(_invoke(["neo4j", "status", "--json"], env=env).stdout)["running"] is False
    with pytest.raises(BackendUnavailable, match="unreachable"):
        Neo4jBackend(uri=uri, user="neo4j", password="test-password-1")


def test_build_loads_neo4j_and_reports_the_same_counts(neo4j_server, neo4j_backend):
    embedded = _invoke(["build", "--json"])
    server = _invoke(["build", "--json", "--backend", "neo4j", "--uri", neo4j_server["uri"]])
    assert embedded.exit_code == 0 and server.exit_code == 0, server.output
    a, b = json.loads(embedded.stdout), json.loads(server.stdout)
    assert (b["backend"], b["nodes"], b["relations"], b["facts"]) == ("neo4j", a["nodes"], a["relations"], a["facts"])
    assert "loading into Neo4j" in server.stderr  # the progress bar goes to stderr
    assert neo4j_backend.counts() == {"nodes": a["nodes"], "relations": a["relations"]}


def _pairs(nx_store, count: int, seed: int) -> list[tuple[str, str]]:
    """Random pairs of symbols, with hubs (陰陽, the phases) and symbols only hubs join among the ends."""
    import random

    from leishen.queries.traversal import HUB_LABELS

    g = nx_store.graph
    symbols = sorted(n for n, a in g.nodes(data=True) if a["label"] not in ("Fact", "Passage"))
    hubs = [n for n in symbols if g.nodes[n]["label"] in HUB_LABELS]
    rnd = random.Random(seed)
    pairs = [tuple(rnd.sample(symbols, 2)) for _ in range(count)]
    return pairs + [(h, rnd.choice(symbols)) for h in hubs] + [("Thing:木物", "Branch:zi"), ("Branch:zi", "General:bai_hu")]


def test_shortest_path_goes_around_hubs_alike_on_both_backends(nx_store, neo4j_backend):
    """The named query with hubs costing more (no types) and the plain one over given types: same rows."""
    for source, target in _pairs(nx_store, 150, 31):
        for types in (None, ["HAS_ELEMENT", "HAS_POLARITY", "CLASHES", "GENERATES", "SIGNIFIES"]):
            params = {"source": source, "target": target, "types": types}
            assert neo4j_backend.run("shortest_path", **params) == nx_store.run("shortest_path", **params), params
