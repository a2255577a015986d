"""Request dependencies: the process's backend, settings and corpus."""

from __future__ import annotations

import json

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel

from leishen.api.errors import NotFound


async def known_parameters(request: Request) -> None:
    """Refuse a query parameter the route does not take (422 naming it), on every route: a misspelt option
    is an error, never silently the default. The web page's files (outside the schema) take any: the page's
    script reads them (``/?moment=…&lang=zh``). Run on the event loop: no thread is taken for it."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None or not request.query_params or not getattr(route, "include_in_schema", True):
        return
    allowed = _route_names(route)
    for name in request.query_params:
        if name not in allowed:
            raise RequestValidationError([{"loc": ("query", name), "msg": "not a parameter of this route",
                                           "type": "extra_forbidden"}])


def _route_names(route) -> frozenset:
    """The query parameter names *route* takes, found once per route, not per request: kept on the route itself
    (its dependant never changes once built), not in module state."""
    found = getattr(route, "query_names", None)
    if found is None:
        found = route.query_names = _query_names(route.dependant)
    return found


def _query_names(dependant) -> frozenset:
    """The query parameter names a route's dependant (and its sub-dependencies) declares; a parameter model's
    fields by their alias."""
    allowed = set()
    for dep in (dependant, *_all(dependant)):
        for param in dep.query_params:
            kind = param.field_info.annotation
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                allowed |= {f.alias or name for name, f in kind.model_fields.items()}
            else:
                allowed.add(param.alias)
    return frozenset(allowed)


def _all(dependant):
    for sub in dependant.dependencies:
        yield sub
        yield from _all(sub)


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


#: the routes that compute (a reading, a range scan, a path search, a named query, a reading's page): each
#: holds one of the in-flight slots of :class:`InFlightLimit`. /cypher has its own bound
#: (``LEISHEN_CYPHER_MAX_IN_FLIGHT``, :mod:`leishen.service.cypher`); /health, the docs and the page's files none.
COMPUTING = ("/readings", "/find", "/paths", "/queries/", "/views/reading", "/views/symbol/", "/facts",
             "/symbols/", "/coverage")
RETRY_AFTER = 1  # seconds: about what a reading or a short find takes


class InFlightLimit:
    """ASGI middleware: at most *limit* computing requests (:data:`COMPUTING`) run at once in this app; one more
    is answered at once with 429, ``Retry-After`` and a one-line error naming the limit, before the request is
    parsed and before any work or any worker thread is taken, so /health and the other routes keep answering
    while the server is saturated. An admitted one is answered by *pool* (:class:`leishen.api.pool.ComputePool`:
    a worker process) when the app has one, else by the app in this process. The count is this instance's own
    (one per app), kept on the event loop's thread."""

    def __init__(self, app, limit: int, pool=None):
        self.app = app
        self.limit = limit
        self.pool = pool
        self.running = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope["path"].startswith(COMPUTING):
            return await self.app(scope, receive, send)
        if self.running >= self.limit:
            return await self.refuse(send)
        self.running += 1
        try:
            await (self.pool or self.app)(scope, receive, send)
        finally:
            self.running -= 1

    async def refuse(self, send) -> None:
        """The 429 answer: what was refused, the limit and its setting, when to try again."""
        message = (f"busy: {self.limit} computing requests (readings, find, paths, queries, reading pages) are "
                   f"already running, the most this server runs at once (LEISHEN_MAX_IN_FLIGHT, or "
                   f"LEISHEN_API_MAX_IN_FLIGHT); try again in {RETRY_AFTER} s")
        body = json.dumps({"error": message, "status": 429, "type": "Busy", "field": None, "matches": []}).encode()
        await send({"type": "http.response.start", "status": 429, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(RETRY_AFTER).encode())]})
        await send({"type": "http.response.body", "body": body})
