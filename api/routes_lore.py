"""Lore endpoints: /health, /symbols/{name}, /facts, /paths, /passages/{doc}:{line}, /coverage."""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel

from leishen.api import deps
from leishen.api.errors import NotFound, responses
from leishen.api.settings import Settings
from leishen.errors import CitationError
from leishen.loaders.corpus import DOCS
from leishen.service import lore

MAX_NAME = 200
Name = Annotated[str, Path(min_length=1, max_length=MAX_NAME, description="a name, alias, ko or en reading, "
                           "or Label:name (e.g. 子, 神后, General:liu_he, White Tiger)")]
Types = Annotated[list[Annotated[str, Query(max_length=64)]] | None,
                  Query(max_length=32, description="only these relation types (repeat the parameter)")]
Doc = Literal[DOCS]


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    backend: str
    corpus: bool
    nodes: int
    relations: int


def router(settings: Settings) -> APIRouter:
    """The lore routes, with the limits of *settings*."""
    api = APIRouter(tags=["lore"])
    Store = Annotated[Any, Depends(deps.store)]

    @api.get("/health", response_model=Health)
    async def health(request: Request) -> dict:
        """The server is up, with its backend, whether it has a corpus, and the graph's size as counted at
        start-up: answered on the event loop from what start-up made, never waiting on the backend or on the
        computing requests in flight."""
        return request.app.state.health

    @api.get("/symbols/{name}", responses=responses(400, 404, 422, 503))
    def symbol(name: Name, store: Store, types: Types = None) -> dict[str, Any]:
        """A symbol and all its relations, each with its citations (``leishen symbol NAME --json``)."""
        return lore.symbol(store, name, types)

    @api.get("/facts", responses=responses(400, 404, 422, 503))
    def facts(store: Store, response: Response,
              doc: Annotated[Doc | None, Query(description="only the facts citing this document")] = None,
              symbol: Annotated[str | None, Query(min_length=1, max_length=MAX_NAME, description="only the facts "
                                                  "naming this symbol (any name, alias, ko or en reading)")] = None,
              limit: Annotated[int, Query(ge=1, le=settings.max_rows, description="at most this many facts "
                                          "(one page)")] = settings.max_rows,
              offset: Annotated[int, Query(ge=0, le=10_000_000, description="skip this many facts first (the "
                                           "page's start)")] = 0) -> list[dict[str, Any]]:
        """Facts in the export shape (``leishen facts --json``), one page of ``limit`` from ``offset``;
        the header ``X-Total-Count`` gives how many there are."""
        rows = lore.facts(store, doc, symbol)
        response.headers["X-Total-Count"] = str(len(rows))
        return rows[offset:offset + limit]

    @api.get("/paths", responses=responses(400, 404, 422, 503))
    def path(store: Store,
             source: Annotated[str, Query(min_length=1, max_length=MAX_NAME, description="where the path starts: "
                                          "a name, alias, ko or en reading, or Label:name")],
             target: Annotated[str, Query(min_length=1, max_length=MAX_NAME, description="where the path ends: "
                                          "a name, alias, ko or en reading, or Label:name")],
             types: Types = None) -> dict[str, Any]:
        """The shortest typed path between two symbols, each hop with its citations (``leishen path --json``)."""
        return lore.path(store, source, target, types)

    @api.get("/passages/{doc}:{line}", responses=responses(404, 422))
    def passage(doc: Annotated[Doc, Path(description="the document of a src (002 in 002:151)")],
                line: Annotated[int, Path(ge=1, le=10_000_000, description="the line of a src (151 in 002:151)")],
                corpus=Depends(deps.corpus)) -> dict[str, Any]:
        """A passage's text with every fact citing it (``leishen passage DOC:LINE --json``) and ``ko``, the
        Korean translation the corpus gives right below it (read at run time, never stored; null when there is
        none); 404 when this server has no corpus, or the line holds no Classical Chinese paragraph."""
        try:
            return lore.passage(f"{doc}:{line}", corpus.folder)
        except CitationError as exc:
            raise NotFound(str(exc)) from exc

    @api.get("/coverage", responses=responses(404))
    def coverage(corpus=Depends(deps.corpus)) -> dict[str, Any]:
        """How much of the inventory the graph holds, per section and document (``leishen coverage --json``)."""
        return lore.coverage(corpus.folder)

    return api
