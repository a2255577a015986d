"""The Neo4j suite's fixtures: a real Neo4j Community server for the whole session, loaded once.

The server is started through :func:`leishen.neo4jserver.server.ensure_running` in a run directory of its own
(``tmp``), so a developer's server is never touched; the jars come from the shared cache
(``~/.cache/leishen/neo4j`` or ``$LEISHEN_NEO4J_HOME``, fetched with Maven on first use). It is stopped at the
end of the session.

With ``CI=true`` a Neo4j that cannot start FAILS the run; elsewhere the suite is skipped with the reason.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def _unavailable(reason: str):
    """Fail in CI, skip elsewhere."""
    if IN_CI:
        pytest.fail(f"Neo4j is required in CI (CI=true) but {reason}", pytrace=False)
    pytest.skip(f"no Neo4j: {reason}")


def _say(request, line: str) -> None:
    """Print past pytest's capture, so the CI log shows that the real server started."""
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(line, flush=True)


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory, request) -> dict:
    """A running server of this session: its status dict (uri, port, pid, data, run_dir)."""
    try:
        import neo4j  # noqa: F401
    except ImportError:
        _unavailable("the neo4j driver is not installed (pip install -e '.[test]')")
    from leishen.neo4jserver import server

    from leishen.errors import LeishenError

    run_dir = Path(tmp_path_factory.mktemp("neo4j")) / "server"
    try:
        state = server.ensure_running(run_dir=run_dir)
    except LeishenError as exc:
        _unavailable(f"it could not be started: {exc}")
    _say(request, f"\nNeo4j {server.neo4j_version()} started for the test session: {state['uri']} "
                  f"(pid {state['pid']}, {state['start_seconds']} s, log {state['log']})")
    yield state
    server.stop(run_dir)
    _say(request, f"\nNeo4j test server stopped (pid {state['pid']})")


@pytest.fixture(scope="session")
def graph_data():
    """The graph records every backend loads."""
    from leishen.loaders.build import build_graph

    return build_graph()


@pytest.fixture(scope="session")
def fresh_server_error(neo4j_server) -> str:
    """What a named query says on the session's server before anything was loaded (a server without the graph)."""
    from leishen.backends.neo4j_backend import Neo4jBackend

    from leishen.errors import BackendError

    backend = Neo4jBackend(uri=neo4j_server["uri"])
    try:
        backend.run("stats")
    except BackendError as exc:
        return str(exc)
    finally:
        backend.close()
    return "(no error: the fresh server already held a graph)"


@pytest.fixture(scope="session")
def neo4j_backend(neo4j_server, graph_data, fresh_server_error):
    """A Neo4jBackend on the session's server, with the graph loaded once."""
    from leishen.backends.neo4j_backend import Neo4jBackend

    backend = Neo4jBackend(uri=neo4j_server["uri"])
    backend.first_load = backend.load(graph_data, progress=False)
    yield backend
    backend.close()


@pytest.fixture(scope="session")
def nx_store():
    """The embedded backend, loaded."""
    from leishen.backends import get_backend

    backend = get_backend("networkx")
    backend.ensure_loaded()
    return backend
