"""Request dependencies: the process's backend, settings and corpus."""

from __future__ import annotations

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel

from leishen.api.errors import NotFound


def known_parameters(request: Request) -> None:
    """Refuse a query parameter the route does not take (422 naming it), on every route: a misspelt option
    is an error, never silently the default. The web page's files (outside the schema) take any: the page's
    script reads them (``/?moment=…&lang=zh``)."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None or not request.query_params or not getattr(route, "include_in_schema", True):
        return
    found = _ALLOWED.get(id(route))
    if found is None or found[0] is not route:  # (the entry holds the route: its id is not reused meanwhile)
        found = _ALLOWED[id(route)] = (route, _query_names(dependant))
    allowed = found[1]
    for name in request.query_params:
        if name not in allowed:
            raise RequestValidationError([{"loc": ("query", name), "msg": "not a parameter of this route",
                                           "type": "extra_forbidden"}])


#: id(route) → (route, the query parameter names it takes): found once per route, not per request
_ALLOWED: dict = {}


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
