"""Shared checks of the API tests (also imported by tests/neo4j as ``tests.api.apicheck``)."""

from __future__ import annotations

from contextlib import contextmanager

from fastapi.testclient import TestClient

from leishen.api import Settings, create_app

HOSTILE_LIMIT = 50
REFUSED = (400, 408, 413, 422)


@contextmanager
def serving(settings: Settings):
    """A TestClient over the real app of *settings*, started and stopped (server errors come back as 500s)."""
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client


def assert_error(response, status: int, *words: str) -> dict:
    """The answer is the error body with *status*, and its message names every one of *words*."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"error", "status", "type"} and body["status"] == status
    assert "\n" not in body["error"]
    for word in words:
        assert word in body["error"], (word, body["error"])
    return body


def counts(client) -> tuple[int, int]:
    """The graph's node and relation counts, counted now on the app's backend (/health reports the counts of
    start-up)."""
    from leishen.service.lore import stats
    found = stats(client.app.state.store)
    return sum(found["nodes"].values()), sum(found["relations"].values())


def assert_refused_or_bounded(client, name: str, query: str, params: dict | None, bounded) -> None:
    """POST /cypher refuses *query* with a 4xx, or (a name in *bounded*) answers within the row cap;
    the graph's counts do not move."""
    before = counts(client)
    answer = client.post("/cypher", json={"query": query, "params": params or {}, "limit": HOSTILE_LIMIT, "timeout": 5})
    if answer.status_code == 200:
        assert name in bounded, f"{name} ran: {answer.text[:300]}"
        assert len(answer.json()["rows"]) <= HOSTILE_LIMIT
    else:
        assert answer.status_code in REFUSED, answer.text[:300]
        if answer.headers["content-type"].startswith("application/json"):
            assert "\n" not in answer.json()["error"]
    assert counts(client) == before
