"""The pages of :mod:`leishen.viz` served by the API: /views/symbol/{name}, /views/reading, /views/schema,
/views/options (the school options the web page offers), /views/words (the zh/ko/en names a finding's path
is labelled with), the cached assets under /assets, and the web page at ``/`` (its files, each a GET route
of its own: no catch-all mount, so an unknown path is a JSON 404 and a wrong method on an API route a 405
naming the allowed ones)."""

import importlib.util
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import Field

from leishen.api import deps
from leishen.api.errors import responses
from leishen.api.models import ReadingQuery

Store = Annotated[Any, Depends(deps.store)]


class ReadingPageQuery(ReadingQuery):
    """GET /views/reading: a reading's moment, options and topic, and the language of its page."""

    lang: Literal["zh", "ko", "en"] = Field("zh", description="the language of the page's labels and controls")
#: a page answers HTML; its errors stay JSON (the default media type of the routes)
HTML = {200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "the page"}}


def page(html: str) -> HTMLResponse:
    """A served page: its vis-network is the cached asset, not inlined (a cast was 1.1–1.2 MB)."""
    from leishen.viz.assets import with_vis_asset
    return HTMLResponse(with_vis_asset(html))


def views_router() -> APIRouter:
    """The page routes (HTML answers; errors are JSON like everywhere else)."""
    from leishen import viz

    api = APIRouter(prefix="/views", tags=["pages"])

    @api.get("/symbol/{name}", response_model=None, responses={**HTML, **responses(400, 404, 422)})
    def symbol(request: Request, store: Store,
               name: Annotated[str, Path(min_length=1, max_length=200, description="a name, alias, ko or en "
                                         "reading, or Label:name (e.g. 子, General:liu_he)")],
               depth: Annotated[int, Query(ge=1, le=3, description="how many rounds of facts out from the "
                                           "symbol")] = 1,
               facts: Annotated[bool, Query(description="also draw the Fact and Passage nodes")] = False
               ) -> HTMLResponse:
        """A symbol's neighbourhood as an interactive graph page (``leishen view NAME``)."""
        return page(viz.symbol_page(store, name, depth=depth, show_facts=facts,
                                    corpus=request.app.state.corpus or False))

    @api.get("/reading", response_model=None, responses={**HTML, **responses(400, 422)})
    def reading(request: Request, query: Annotated[ReadingPageQuery, Query()]) -> HTMLResponse:
        """A reading's subgraph as a tool (``leishen view --reading``): chart slots, bound symbols, the paths of
        the findings, labelled in ``lang``; at most 150 nodes drawn at first (the rest one click away), a search
        box and filters by system, topic and relation."""
        found = request.app.state.reader.read(query.chart(), topic=query.topic)
        return page(viz.reading_page(found, corpus=request.app.state.corpus or False, lang=query.lang))

    @api.get("/options", response_model=None)
    def options() -> list[dict]:
        """The school options the web page offers (the chart's, then the judgment's): choices, the defaults,
        bounds, zh/ko/en labels, help."""
        from leishen.viz.options import option_table
        return option_table(ReadingQuery)

    @api.get("/words", response_model=None, responses=responses(400, 422))
    def words(ids: Annotated[str, Query(max_length=20_000, description="node ids, comma-separated")] = "",
              rels: Annotated[str, Query(max_length=4_000, description="relation types, comma-separated")] = ""
              ) -> dict:
        """The zh/ko/en names of graph nodes and relation types (what the web page labels a path with);
        an unknown node id is left out of the answer, an unknown relation type is answered 400 naming ``rels``
        with the close types in ``matches``."""
        from leishen.viz.words import path_words
        return path_words(split_list(ids, "ids"), known_relations(split_list(rels, "rels")))

    @api.get("/schema", response_model=None, responses=HTML)
    def schema(store: Store) -> HTMLResponse:
        """Labels and relation types with their counts (``leishen view --schema``)."""
        return page(viz.schema_page(store))

    return api


#: at most this many names in one /views/words question
MAX_WORDS = 400


def split_list(text: str, field: str) -> list[str]:
    """The comma-separated items of *text*; 400 (naming *field*) past :data:`MAX_WORDS` items."""
    from leishen.errors import LeishenError
    items = [item.strip() for item in text.split(",") if item.strip()]
    if len(items) > MAX_WORDS:
        raise LeishenError(f"{field}: at most {MAX_WORDS} names at once (got {len(items)})")
    return items


def known_relations(rels: list[str]) -> list[str]:
    """*rels* when every one is a relation type of the schema or a hop read from the chart; else OntologyError
    about ``rels`` naming the unknown ones, with close types as its matches."""
    import difflib

    from leishen.errors import OntologyError
    from leishen.loaders.schema import load_schema
    from leishen.viz.words import chart_hop_words
    known = [*load_schema().relations, *chart_hop_words()]
    unknown = [r for r in rels if r not in known]
    if unknown:
        near = [m for r in unknown for m in difflib.get_close_matches(r.upper(), known, 3, 0.5)]
        error = OntologyError(f"rels: unknown relation type(s) {', '.join(unknown)}"
                              + (f"; close types: {', '.join(near)}" if near else ""))
        error.field, error.matches = "rels", near
        raise error
    return rels


def mount_views(app: FastAPI) -> None:
    """Add the page routes and the web page at ``/`` when :mod:`leishen.viz` is installed."""
    if importlib.util.find_spec("leishen.viz") is None:
        return
    from leishen import viz

    app.include_router(views_router())
    app.include_router(page_router(viz.web_root()))
    app.include_router(assets_router())


#: the media types of the web page's files: its index.html and every .js module and .css file in its folder
MEDIA = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


def page_files(root) -> dict[str, str]:
    """name → media type of each file the web page is made of (nothing else in its folder is served)."""
    return {path.name: MEDIA[path.suffix] for path in sorted(root.iterdir())
            if path.suffix in (".js", ".css") or path.name == "index.html"}


def page_router(root) -> APIRouter:
    """GET (and HEAD) ``/``, ``/index.html`` and each module and stylesheet of the web page."""
    api, files = APIRouter(include_in_schema=False), page_files(root)

    def serve(name: str):
        def file() -> FileResponse:  # revalidated on each load (its ETag), so an edit shows at once
            return FileResponse(root / name, media_type=files[name], headers={"Cache-Control": "no-cache"})
        return file

    api.add_api_route("/", serve("index.html"), methods=["GET", "HEAD"])
    for name in files:
        api.add_api_route(f"/{name}", serve(name), methods=["GET", "HEAD"])
    return api


def assets_router() -> APIRouter:
    """GET (and HEAD) each asset of :func:`leishen.viz.assets.assets` at its versioned URL, cached a year."""
    from leishen.viz.assets import CACHE_FOREVER, assets

    api = APIRouter(include_in_schema=False)

    def serve(data: bytes, media_type: str):
        def asset() -> Response:
            return Response(data, media_type=media_type, headers={"Cache-Control": CACHE_FOREVER})
        return asset

    for url, (data, media_type) in assets().items():
        api.add_api_route(url, serve(data, media_type), methods=["GET", "HEAD"])
    return api
