"""Shared checks of the API tests."""

from __future__ import annotations


def assert_error(response, status: int, *words: str) -> dict:
    """The answer is the error body with *status*, and its message names every one of *words*."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"error", "status", "type"} and body["status"] == status
    assert "\n" not in body["error"]
    for word in words:
        assert word in body["error"], (word, body["error"])
    return body
