"""Browser fixtures: the real API app on a live uvicorn at 127.0.0.1 (a free port, stopped cleanly)
and a headless Debian Chromium driven over DevTools.  With CI=true a missing browser fails."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from leishen_cdp import Browser, find_browser

IN_CI = os.environ.get("CI", "").lower() == "true"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def chromium() -> str:
    found = find_browser()
    if found is None:
        if IN_CI:
            pytest.fail("chromium is required in CI (scripts/test installs it with apt-get)")
        pytest.skip("no chromium on PATH (apt-get install chromium fonts-noto-cjk)")
    return found


@pytest.fixture(scope="session")
def live_server(corpus_dir):
    """The API of leishen.api on uvicorn in a thread; yields its base URL."""
    import uvicorn

    from leishen.api import Settings, create_app

    port = free_port()
    config = uvicorn.Config(create_app(Settings(corpus=str(corpus_dir))), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="leishen-uvicorn", daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            pytest.fail("uvicorn stopped before serving")
        thread.join(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0, "the server still listens after shutdown"


@pytest.fixture
def browser(chromium):
    with Browser(chromium) as page:
        yield page


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory) -> Path:
    """Where screenshots go: a tmp folder, and also $LEISHEN_SCREENSHOTS when set (docs/screenshots)."""
    return tmp_path_factory.mktemp("screenshots")

