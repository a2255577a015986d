"""Shared fixtures: the corpus folder (mandatory in CI) and the embedded graph; the xdist groups.

Under pytest-xdist (``scripts/test`` runs ``-n auto --dist loadgroup``) the tests of ``tests/neo4j`` are one
group, run by one worker in order (:func:`pytest_xdist_make_scheduler`), so the suite starts one Neo4j server and
no two tests load it at once; the browser tests are another group (one Chromium at a time)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from leishen.loaders.corpus import default_corpus_dir

IN_CI = os.environ.get("CI", "").lower() == "true"
#: folders of tests/ (and single files) whose tests run on one xdist worker, in order: one Neo4j server, one Chromium
GROUPS = {"tests/neo4j/": "neo4j", "tests/browser/": "browser", "tests/reliability/test_suite_kill.py": "neo4j"}


def group_of(nodeid: str) -> str | None:
    """The group of a test id (``tests/neo4j/test_load.py::test_x`` → ``neo4j``), None for an ungrouped one."""
    return next((name for prefix, name in GROUPS.items() if nodeid.startswith(prefix)), None)


@pytest.hookimpl(optionalhook=True)  # without xdist (-p no:xdist) the hook is simply never called
def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist loadgroup``: xdist's scope scheduling with the scope of a test its group (GROUPS), else the
    test itself. (xdist 3.8's own ``xdist_group`` marks set ``item._nodeid``, which pytest 9.2 no longer reads,
    so the groups are given by path here.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FolderGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid) or nodeid

    return FolderGroups(config, log)


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
