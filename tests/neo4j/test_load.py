"""Loading into Neo4j: idempotent reloads, replacement of stale data, and a load interrupted by a stopped server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from leishen.backends.neo4j_backend import Neo4jBackend
from leishen.loaders.records import GraphData

from leishen.errors import BackendError, BackendUnavailable

pytestmark = pytest.mark.neo4j


def _subgraph(data: GraphData, size: int) -> GraphData:
    """The first ``size`` nodes and the relations among them (a different, smaller graph)."""
    nodes = data.nodes[:size]
    kept = {n.id for n in nodes}
    edges = [e for e in data.edges if e.src in kept and e.dst in kept]
    return GraphData(nodes, edges, [])


def test_first_load_reports_counts_and_time(neo4j_backend, graph_data):
    report = neo4j_backend.first_load
    assert report["nodes"] == len(graph_data.nodes)
    assert report["relations"] == len(graph_data.edges)
    assert report["seconds"] > 0


def test_a_server_without_the_graph_says_so(fresh_server_error):
    assert "holds no leishen graph" in fresh_server_error
    assert "leishen build --backend neo4j" in fresh_server_error


def test_loading_three_times_gives_the_same_graph(neo4j_backend, graph_data, nx_store):
    expected = {"nodes": len(graph_data.nodes), "relations": len(graph_data.edges)}
    generations = []
    for _ in range(3):
        report = neo4j_backend.load(graph_data, progress=False)
        assert {k: report[k] for k in expected} == expected
        assert neo4j_backend.counts() == expected
        generations.append(neo4j_backend.meta()["gen"])
    assert generations == sorted(generations) and len(set(generations)) == 3
    assert neo4j_backend.run("stats") == nx_store.run("stats")


def test_a_load_replaces_what_was_there(neo4j_backend, graph_data):
    small = _subgraph(graph_data, 400)
    try:
        report = neo4j_backend.load(small, progress=False)
        assert report["nodes"] == 400 and report["relations"] == len(small.edges)
        assert neo4j_backend.counts() == {"nodes": 400, "relations": len(small.edges)}
    finally:
        neo4j_backend.load(graph_data, progress=False)
    assert neo4j_backend.counts() == {"nodes": len(graph_data.nodes), "relations": len(graph_data.edges)}


def test_labels_outside_the_schema_are_refused(neo4j_backend, graph_data):
    from leishen.loaders.records import Node

    before = neo4j_backend.counts()
    bad = GraphData([*graph_data.nodes[:5], Node("Evil`) DETACH DELETE n //:x", "Evil`) DETACH DELETE n //", {"key": "x"})],
                    [], [])
    with pytest.raises(BackendError, match="not in the ontology schema"):
        neo4j_backend.load(bad, progress=False)
    assert neo4j_backend.counts() == before


def test_a_failing_batch_rolls_the_whole_load_back(neo4j_backend, graph_data):
    from leishen.loaders.records import Edge

    before, meta = neo4j_backend.counts(), neo4j_backend.meta()
    dangling = Edge(graph_data.nodes[0].id, "Branch:no-such-node", "CLASHES", "dangling", {"zh": "沖"})
    bad = GraphData(graph_data.nodes[:100], [dangling], [])
    with pytest.raises(BackendError, match="rolled back and the graph loaded before is intact"):
        neo4j_backend.load(bad, progress=False)
    assert neo4j_backend.counts() == before
    assert neo4j_backend.meta()["gen"] == meta["gen"]


def test_the_cli_build_shows_progress_on_stderr(neo4j_server, neo4j_backend, graph_data):
    report = CliRunner().invoke(__import__("leishen.cli.main", fromlist=["main"]).main,
                                ["build", "--backend", "neo4j", "--uri", neo4j_server["uri"]])
    assert report.exit_code == 0, report.output
    assert f"loading into Neo4j: {len(graph_data.nodes) + len(graph_data.edges):,}/" in report.stderr


def _cli(*args, run_dir: Path):
    from leishen.cli.main import main

    return CliRunner().invoke(main, list(args), env={"LEISHEN_NEO4J_RUN": str(run_dir)}, catch_exceptions=False)


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_a_load_interrupted_by_the_server_going_away_leaves_the_previous_graph(how, neo4j_server, neo4j_backend,
                                                                             graph_data):
    """SIGTERM (clean shutdown) or SIGKILL in the middle of the load transaction: after a restart the previous
    graph is whole, and the error said the graph could not be checked rather than claiming it intact."""
    from leishen.neo4jserver import server

    run_dir = Path(neo4j_server["run_dir"])
    small = _subgraph(graph_data, 300)
    neo4j_backend.load(small, progress=False)
    previous, previous_meta = neo4j_backend.counts(), neo4j_backend.meta()
    stopped = []

    def stop_midway(done: int, total: int) -> None:
        if not stopped and done >= total // 3:  # a third of the new graph is in the open transaction
            if how == "stop":
                stopped.append(_cli("neo4j", "stop", run_dir=run_dir).output)
            else:
                stopped.append("killed" if server.kill(run_dir) else "not running")

    try:
        with pytest.raises(BackendUnavailable) as raised:
            neo4j_backend.load(graph_data, progress=False, batch_size=500, on_batch=stop_midway)
        assert stopped and ("stopped" in stopped[0] or "killed" in stopped[0])
        message = str(raised.value)
        assert "could not be checked" in message and "never half a graph" in message
        assert "intact" not in message and "\n" not in message
    finally:
        result = _cli("neo4j", "start", "--port", str(neo4j_server["port"]), "--data", neo4j_server["data"],
                      run_dir=run_dir)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == neo4j_server["uri"]
    status = _cli("neo4j", "status", "--json", run_dir=run_dir)
    assert json.loads(status.stdout)["answering"] is True

    after = Neo4jBackend(uri=neo4j_server["uri"])
    try:
        assert after.counts() == previous
        assert after.meta()["gen"] == previous_meta["gen"]
    finally:
        after.close()
        neo4j_backend.load(graph_data, progress=False)
    assert neo4j_backend.counts() == {"nodes": len(graph_data.nodes), "relations": len(graph_data.edges)}


def _blocked_transactions(uri: str) -> int:
    """How many transactions wait for a lock (an administrator's view, through the driver, not the guard)."""
    from neo4j import GraphDatabase

    with GraphDatabase.driver(uri) as driver:
        records = driver.execute_query("SHOW TRANSACTIONS YIELD status RETURN status").records
    return sum(1 for r in records if str(r["status"]).startswith("Blocked"))


def test_two_loads_at_once_are_serialised_and_the_last_success_wins(neo4j_server, neo4j_backend, graph_data):
    """The second load waits for the first one's lock on Meta, then replaces its graph: the database ends with the
    graph of the load that reported success last, and the generation rose by two. Before the lock both loads
    ran side by side and the generation rose by one."""
    import threading
    import time

    small = _subgraph(graph_data, 300)
    gen = neo4j_backend.meta()["gen"]
    finished, errors = [], []

    def second_load():
        other = Neo4jBackend(uri=neo4j_server["uri"])
        try:
            other.load(small, progress=False)
            finished.append("small")
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            other.close()

    second = threading.Thread(target=second_load)

    def start_second_and_wait_until_blocked(done: int, total: int) -> None:
        if not second.is_alive() and not finished:
            second.start()
            deadline = time.monotonic() + 120
            while _blocked_transactions(neo4j_server["uri"]) == 0 and time.monotonic() < deadline:
                time.sleep(0.2)

    try:
        neo4j_backend.load(graph_data, progress=False, batch_size=5000, on_batch=start_second_and_wait_until_blocked)
        finished.append("full")
        second.join(300)
        assert not errors, errors
        assert sorted(finished) == ["full", "small"]  # both reported success; the small one committed last:
        assert neo4j_backend.counts() == {"nodes": 300, "relations": len(small.edges)}
        assert neo4j_backend.meta()["gen"] == gen + 2
    finally:
        second.join(300)
        neo4j_backend.load(graph_data, progress=False)
