"""Fixtures: the real app (TestClient over the embedded backend), with and without a corpus."""

from __future__ import annotations

import pytest

from apicheck import serving
from leishen.api import Settings, create_app


@pytest.fixture(scope="session")
def settings(corpus_dir) -> Settings:
    return Settings(corpus=str(corpus_dir))


@pytest.fixture(scope="session")
def app(settings):
    return create_app(settings)


@pytest.fixture(scope="session")
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def bare_client():
    """A server started without the source texts."""
    with serving(Settings(use_corpus=False)) as test_client:
        yield test_client
