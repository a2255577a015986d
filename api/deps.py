"""Request dependencies: the process's backend, settings and corpus."""

from __future__ import annotations

from fastapi import Request

from leishen.api.errors import NotFound


def store(request: Request):
    """The backend opened at start-up."""
    return request.app.state.store


def corpus(request: Request):
    """The corpus folder this server reads passages from; 404 (saying so) when it has none."""
    found = request.app.state.corpus
    if found is None:
        raise NotFound("this server has no corpus folder, so passages cannot be shown: start it with "
                       "--corpus DIR (the folder holding 000_*.txt …) or set LEISHEN_CORPUS")
    return found
