"""Bad input on the way into Neo4j: a malformed fact table, a missing or corrupt corpus file. Each `leishen build
--backend neo4j` fails before the load starts, and the graph on the server is the one loaded before (same counts
and generation) and still answers named queries. The damaged copies live in tmp_path, never in the repo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.neo4j
REPO = Path(__file__).resolve().parents[2]


def _build(neo4j_server, *args, **env) -> subprocess.CompletedProcess:
    environment = {**os.environ, "NEO4J_URI": neo4j_server["uri"], **env}
    return subprocess.run([sys.executable, "-m", "leishen.cli.main", "build", "--backend", "neo4j", *args],
                          cwd=REPO, env=environment, capture_output=True, text=True, timeout=600)


@pytest.fixture()
def unchanged(neo4j_backend, nx_store):
    """After the test: the same counts and generation, and a named query gives the embedded backend's rows."""
    before = (neo4j_backend.counts(), neo4j_backend.meta()["gen"])
    yield
    assert (neo4j_backend.counts(), neo4j_backend.meta()["gen"]) == before
    assert neo4j_backend.run("stats") == nx_store.run("stats")


@pytest.fixture()
def seeds(corpus_dir, tmp_path) -> Path:
    copy = tmp_path / "seeds"
    shutil.copytree(corpus_dir, copy)
    return copy


def test_a_malformed_fact_table_is_a_clear_error_and_the_graph_stays(neo4j_server, unchanged, tmp_path):
    ontology = tmp_path / "ontology"
    shutil.copytree(REPO / "ontology", ontology)
    table = sorted((ontology / "facts" / "000").glob("*.csv"))[0]
    with open(table, "a", encoding="utf-8") as handle:
        handle.write('"an unbalanced quote,x\n')
    result = _build(neo4j_server, LEISHEN_ONTOLOGY=str(ontology))
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.startswith("error: ") and f"facts/000/{table.name}" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_corpus_document_is_a_clear_error_and_the_graph_stays(neo4j_server, unchanged, seeds):
    missing = sorted(seeds.glob("000_*"))[0]
    missing.unlink()
    result = _build(neo4j_server, "--corpus", str(seeds))
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.startswith("error: ") and "no document '000'" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_corpus_folder_is_a_clear_error_and_the_graph_stays(neo4j_server, unchanged, tmp_path):
    result = _build(neo4j_server, "--corpus", str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert result.stderr.startswith("error: corpus folder") and result.stderr.count("\n") == 1


def test_a_corrupt_corpus_file_never_reaches_the_graph(neo4j_server, unchanged, seeds):
    # the one-line message for a non-UTF-8 seed belongs to the corpus reader (issue #11, tables and corpus);
    # what this suite owns: the build fails before loading, and the server's graph is untouched
    damaged = sorted(seeds.glob("002_*"))[0]
    with open(damaged, "ab") as handle:
        handle.write(b"\xff\xfe\xfd not utf-8")
    result = _build(neo4j_server, "--corpus", str(seeds))
    assert result.returncode != 0
    assert "loading into Neo4j" not in result.stderr


def test_a_reader_refuses_a_graph_loaded_from_other_tables(neo4j_backend):
    """The Meta node keeps the fingerprint of the rows a load wrote: a reader built from other tables (a checkout
    moved on since the load) refuses to read, naming the reload, rather than mix its rules with the server's
    answers; the fingerprint of these tables reads."""
    from leishen.backends.neo4j_load import graph_fingerprint
    from leishen.errors import BackendError
    from leishen.readings import Reader

    from leishen.loaders.build import build_graph
    stored = neo4j_backend.meta()["fingerprint"]
    assert stored == graph_fingerprint(build_graph())
    Reader(neo4j_backend, cache=False)  # these tables: no error
    neo4j_backend.write("marking the graph stale", "MATCH (m:Meta {name: 'leishen'}) SET m.fingerprint = 'stale'")
    try:
        with pytest.raises(BackendError, match="loaded from other tables .* `leishen build --backend neo4j`"):
            Reader(neo4j_backend, cache=False)
    finally:
        neo4j_backend.write("restoring the fingerprint", "MATCH (m:Meta {name: 'leishen'}) SET m.fingerprint = $f",
                            f=stored)
    Reader(neo4j_backend, cache=False)


def test_a_transient_server_error_is_unavailable_not_refused(neo4j_backend):
    """Neo.TransientError.* (the database stopping or starting) is BackendUnavailable: HTTP 503, try again."""
    import neo4j

    from leishen.errors import BackendUnavailable
    error = neo4j.exceptions.TransientError._hydrate_neo4j(code="Neo.TransientError.General.DatabaseUnavailable",
                                                           message="Database 'neo4j' unavailable")
    translated = neo4j_backend._translate(error, "named query 'rule_checks'")
    assert isinstance(translated, BackendUnavailable) and "not available" in str(translated)
