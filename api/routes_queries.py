"""Query endpoints: the named-query registry (/queries, /queries/{name}) and read-only /cypher."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from leishen.api import deps
from leishen.api.errors import responses
from leishen.api.settings import Settings
from leishen.service import queries
from leishen.service.cypher import run_cypher


class QueryParam(BaseModel):
    name: str
    required: bool
    description: str
    schema_: dict[str, Any] = Field(alias="schema")


class QueryInfo(BaseModel):
    name: str
    description: str
    parameters: list[QueryParam]


class QueryResult(BaseModel):
    query: str
    params: dict[str, Any]
    rows: list[dict[str, Any]]


class CypherResult(BaseModel):
    columns: list[str]
    rows: list[dict[str, Any]]
    truncated: bool


def cypher_request(settings: Settings) -> type[BaseModel]:
    """The body of POST /cypher, bounded by *settings*."""

    class CypherRequest(BaseModel):
        model_config = ConfigDict(extra="forbid")
        query: str = Field(min_length=1, max_length=settings.cypher_max_chars, description="a read-only Cypher query",
                           examples=["MATCH (b:Branch) RETURN b.name AS name ORDER BY name"])
        params: dict[str, Any] = Field(default_factory=dict, description="$parameters of the query")
        limit: int = Field(settings.cypher_rows, ge=1, le=settings.max_rows, description="row cap")
        timeout: float = Field(settings.cypher_timeout, gt=0, le=settings.cypher_max_timeout, allow_inf_nan=False,
                               description="seconds before the query is stopped (408)")

    return CypherRequest


def _named_route(api: APIRouter, name: str) -> None:
    """GET /queries/{name} with the query's own typed parameters in the query string."""
    model = queries.params_model(name)

    def endpoint(params: Annotated[model, Query()], store=Depends(deps.store)) -> QueryResult:
        values = params.model_dump(exclude_none=False)
        queries.check_node_ids(store, values, "GET /queries/resolve?q=NAME finds a node's id")
        return queries.run_query(store, name, values)

    takes_ids = any(p.name in queries.NODE_PARAMS for p in queries.spec(name))
    endpoint.__doc__ = (f"Named query {name}: {queries.describe(name)['description']}."
                        + (" A node id that names no node is answered 404 naming the parameter, with close "
                           "names in ``matches``." if takes_ids else ""))
    api.get(f"/queries/{name}", name=f"query_{name}", response_model=QueryResult,
            responses=responses(400, *((404,) if takes_ids else ()), 422, 503))(endpoint)


def router(settings: Settings) -> APIRouter:
    """The query routes, with the limits of *settings*."""
    api = APIRouter(tags=["queries"])

    @api.get("/queries", response_model=list[QueryInfo], response_model_by_alias=True)
    def registry() -> list[dict]:
        """Every named query with its typed parameters (each also runs on both backends)."""
        return queries.registry()

    for name in queries.names():
        _named_route(api, name)

    @api.get("/queries/{name}", include_in_schema=False)
    def unknown(name: str) -> None:
        queries.spec(name)  # raises UnknownQueryError (404) naming the known queries

    Body = cypher_request(settings)

    @api.post("/cypher", response_model=CypherResult, responses=responses(400, 408, 413, 422, 429, 503))
    def cypher(body: Body, request: Request, store=Depends(deps.store)) -> dict:
        """Run a read-only Cypher query (Neo4j: the allow-list guard and EXPLAIN; NetworkX: the embedded
        engine's subset), with a time limit and a row cap (``leishen cypher --json``). At most
        ``LEISHEN_CYPHER_MAX_IN_FLIGHT`` queries (default twice the CPUs) run at once in a server process;
        one past that is answered 429 at once, with ``Retry-After``."""
        return run_cypher(store, body.query, params=body.params, timeout=body.timeout, limit=body.limit,
                          slots=request.app.state.cypher_slots)

    return api
