"""Shared fixtures: the corpus folder (mandatory in CI) and the embedded graph; the xdist groups.

Under pytest-xdist (``scripts/test`` runs ``-n auto --dist loadgroup``) the tests of ``tests/neo4j`` are one
group, run by one worker in order, so the suite starts one Neo4j server and no two tests load it at once; the
browser tests are another group (one Chromium at a time)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from leishen.loaders.corpus import default_corpus_dir

IN_CI = os.environ.get("CI", "").lower() == "true"
TESTS = Path(__file__).resolve().parent
GROUPS = ("neo4j", "browser")  # folders of tests/ whose tests run on one worker, in order


def pytest_collection_modifyitems(config, items):
    """Mark each test of a folder of GROUPS with its xdist group (ignored without xdist)."""
    for item in items:
        parts = Path(str(item.fspath)).resolve().relative_to(TESTS).parts
        if len(parts) > 1 and parts[0] in GROUPS:
            item.add_marker(pytest.mark.xdist_group(parts[0]))


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The source texts; in CI their absence fails the run instead of skipping."""
    found = default_corpus_dir()
    if found is None or not found.is_dir():
        if IN_CI:
            pytest.fail("the corpus ../shared/seeds (or $LEISHEN_CORPUS) is required in CI")
        pytest.skip("no corpus folder (set LEISHEN_CORPUS)")
    return found


@pytest.fixture(scope="session")
def nx_backend():
    from leishen.backends import get_backend
    backend = get_backend("networkx")
    backend.ensure_loaded()
    return backend
