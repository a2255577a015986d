"""Shared fixtures: the corpus folder (mandatory in CI) and the embedded graph."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from leishen.loaders.corpus import default_corpus_dir

IN_CI = os.environ.get("CI", "").lower() == "true"


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
