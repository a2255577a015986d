"""Errors as HTTP answers: every LeishenError a client causes becomes a 4xx with a one-line message.

A bug (any other exception) still becomes a 500, so the schemathesis run can find it.
"""

from __future__ import annotations

import re

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from leishen import errors as e
from leishen.service.queries import UnknownQueryError


class ErrorBody(BaseModel):
    """The body of every 4xx/5xx answer."""

    error: str = Field(description="what was wrong, in one line")
    status: int
    type: str = Field(description="the error class (e.g. UnknownSymbolError, RequestValidationError)")
    field: str | None = Field(None, description="the request field at fault, when one is")
    matches: list[str] = Field(default_factory=list, description="close or competing names, for a symbol lookup")


class TimeLimit(e.LeishenError):
    """A request ran past the server's time limit and was stopped (answered 408)."""


class NotFound(e.LeishenError):
    """No such passage, or no corpus on this server to show it from (answered 404)."""


#: status of each error class; the first class in this order that matches wins
STATUS: tuple[tuple[type[Exception], int], ...] = (
    (e.CypherTimeout, 408),
    (TimeLimit, 408),
    (NotFound, 404),
    (e.UnknownSymbolError, 404),
    (UnknownQueryError, 404),
    (e.Busy, 429),
    (e.AnswerTooLarge, 413),
    (e.BackendUnavailable, 503),
    (e.ChartError, 422),
    (e.LeishenError, 400),
)


def status_of(exc: Exception) -> int:
    """The HTTP status of a LeishenError, by its class."""
    return next(code for kind, code in STATUS if isinstance(exc, kind))


def error_response(status: int, message: str, kind: str, field: str | None = None, matches=()) -> JSONResponse:
    body = ErrorBody(error=message, status=status, type=kind, field=field, matches=list(matches))
    return JSONResponse(body.model_dump(), status_code=status)


#: the field a message names first (``moment: …``, ``qimen.ju: …``, ``liuren.plate.子: …``)
_FIELD = re.compile(r"^([A-Za-z_]\w*(?:\.[^\s.:]+)*):\s")


def field_of(exc: Exception, message: str) -> str | None:
    """The request field an error is about: its own ``field``, else the field its message starts with."""
    named = getattr(exc, "field", None)
    if named:
        return named
    found = _FIELD.match(message)
    return found.group(1) if found else None


async def leishen_error(_request: Request, exc: e.LeishenError) -> JSONResponse:
    """The error's one-line answer; a Busy one says in ``Retry-After`` when to try again."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    response = error_response(status_of(exc), first, type(exc).__name__, field_of(exc, first),
                              getattr(exc, "matches", ()))
    if isinstance(exc, e.Busy):
        response.headers["retry-after"] = str(exc.retry_after)
    return response


async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    problems = exc.errors()
    first = problems[0] if problems else {"loc": (), "msg": "invalid request"}
    loc = [str(p) for p in first.get("loc", ())]
    if first.get("type") == "json_invalid":  # its loc is (body, character offset): the field is the body
        loc = ["body"]
    field = ".".join(loc[1:]) if len(loc) > 1 else (loc[0] if loc else None)
    where = ".".join(loc) or "request"
    return error_response(422, f"{where}: {first.get('msg')}", "RequestValidationError", field)


async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
    if exc.status_code == 400 and exc.detail == "There was an error parsing the body":  # FastAPI's, e.g. not UTF-8
        return error_response(422, "body: not a JSON document this server can parse (UTF-8 JSON, nested at most "
                              "a few hundred levels)", "RequestValidationError", "body")
    response = error_response(exc.status_code, str(exc.detail), "HTTPException")
    for key, value in (exc.headers or {}).items():
        response.headers[key] = value
    allowed = allowed_methods(_request.app, _request.url.path) if exc.status_code == 405 else None
    if allowed:  # the router names the first route of the path only (GET /readings, not POST)
        response.headers["allow"] = ", ".join(allowed)
    return response


def allowed_methods(app, path: str) -> list[str]:
    """Every method the routes of *path* take (HEAD with GET: :class:`~leishen.api.app.HeadAsGet`), sorted."""
    methods = set()
    for route in _api_routes(app.router.routes):
        if route.path_regex.match(path):
            methods |= set(route.methods)
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


def _api_routes(routes):
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _api_routes(inner.routes)
        elif getattr(route, "methods", None) and hasattr(route, "path_regex"):
            yield route


def install(app: FastAPI) -> None:
    """Register the handlers on *app*."""
    app.add_exception_handler(e.LeishenError, leishen_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)


def responses(*codes: int) -> dict[int, dict]:
    """OpenAPI declarations of the error answers an operation can give."""
    meaning = {400: "bad input (the message names it)", 404: "no such thing (symbol, query, passage, corpus)",
               408: "the query ran past its time limit and was stopped",
               413: "request body too large, or an answer past LEISHEN_MAX_ANSWER_ROWS/_BYTES (the message names it)",
               422: "a field failed validation (the message names it)",
               429: "as many such requests running as the server takes at once; try again after Retry-After seconds",
               503: "backend unavailable"}
    return {c: {"model": ErrorBody, "description": meaning[c]} for c in codes}
