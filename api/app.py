"""The FastAPI application: one backend per process, opened at start-up, shared by every request.

``create_app(Settings(...))`` builds an app; ``app_from_env()`` is the factory ``leishen serve`` hands
to uvicorn (each worker builds its own app from the same ``LEISHEN_API_*`` settings).  The app keeps no
state between requests besides the read-only graph, so any number of workers or replicas give the same
answers; with ``backend="neo4j"`` they all read one Neo4j server.

A served app computes in worker processes of its own (:class:`leishen.api.pool.ComputePool`): at most
``max_in_flight`` computing requests are admitted (429 beyond, :class:`leishen.api.deps.InFlightLimit`, before
the request is parsed), each answered whole by a warmed worker, so the server's event loop only relays bytes and
/health (answered from what start-up counted) stays quick under load. An app made by ``create_app`` with
``compute_processes`` 0 or unset (tests, embedding) computes in its own threads.
"""

from __future__ import annotations

import asyncio
import sys
from contextlib import asynccontextmanager
from dataclasses import replace

from fastapi import Depends, FastAPI
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse
from fastapi_offline import FastAPIOffline
from starlette.middleware.gzip import GZipMiddleware

from leishen import __version__
from leishen.api import deps, errors
from leishen.api.pool import ComputePool
from leishen.api.routes_charts import router as charts_router
from leishen.api.routes_lore import router as lore_router
from leishen.api.routes_queries import router as queries_router
from leishen.api.settings import Settings
from leishen.api.views import mount_views
from leishen.loaders.corpus import load_corpus
from leishen.service.cypher import CypherSlots
from leishen.service.lore import open_store, stats
from leishen.service.readings import served_reader
from leishen.settings import served_processes

DESCRIPTION = """The cited correspondence graph of Da Liu Ren 大六壬, Qimen Dunjia 奇門遁甲 and the
Nine Stars 九星, its charts and their readings. Every answer is the JSON `leishen … --json` prints.
Errors are `{"error", "status", "type", "field", "matches"}` with a 4xx status naming what was wrong."""


#: seconds a thread holds the interpreter before one waiting takes it, while the app serves (Python's default is
#: 5 ms): the event loop waits at most this long behind a computing thread, when the app computes in its own
#: threads (measured on 2 shared cores under 100 clients: /health median 56–72 → 40 ms, p95 200–220 → 150–170
#: ms)
SWITCH_INTERVAL = 0.001


def _open(settings: Settings):
    """The backend of *settings*, loaded and warmed (the NetworkX graph is built once per process)."""
    store = open_store(settings.backend, settings.uri, settings.user, settings.password, settings.corpus)
    if hasattr(store, "ensure_loaded"):
        store.ensure_loaded()
    return store


def open_state(app: FastAPI, settings: Settings) -> None:
    """What *app* serves with, made at start-up (in the server, and in each of its compute workers): the backend
    (``store``), the reader warmed through the readings door (the first reading is fast), and the answer of
    /health (the graph's size counted once: the graph is read-only, and /health never waits on the backend)."""
    app.state.store = _open(settings)
    app.state.reader = served_reader(app.state.store, settings.corpus)
    counts = stats(app.state.store)
    app.state.health = {"status": "ok", "version": __version__, "backend": settings.backend,
                        "corpus": app.state.corpus is not None, "nodes": sum(counts["nodes"].values()),
                        "relations": sum(counts["relations"].values())}


class HeadAsGet:
    """ASGI middleware: a HEAD request is answered as its GET (same status and headers, no body), so every
    GET route answers HEAD too, and the OpenAPI schema lists each operation once."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def headers_only(message):
            if message["type"] == "http.response.pathsend":  # a file sent by the server itself: none for HEAD
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            if message["type"] == "http.response.body":
                message = {**message, "body": b"", "more_body": False} if not message.get("more_body") else None
            if message is not None:
                await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The leishen HTTP API over *settings* (default: NetworkX, the default corpus, default limits)."""
    settings = settings or Settings()

    pool = ComputePool(settings, settings.compute_processes) if settings.compute_processes else None

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        warming = pool.start() if pool else []  # the workers warm while this process opens its own backend
        try:
            open_state(app, settings)
            for worker in warming:
                await asyncio.wrap_future(worker)
            switch = sys.getswitchinterval()
            sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
            try:
                yield
            finally:
                sys.setswitchinterval(switch)
                app.state.store.close()
        finally:
            if pool:
                pool.close()

    app = FastAPIOffline(title="leishen 類神", version=__version__, description=DESCRIPTION, lifespan=lifespan,
                         redoc_url=None,
                         max_body_size=settings.max_body, swagger_ui_parameters={"validatorUrl": None},
                         dependencies=[Depends(deps.known_parameters)])
    app.state.settings = settings
    app.state.cypher_slots = CypherSlots()  # LEISHEN_CYPHER_MAX_IN_FLIGHT queries at once in this app
    app.state.corpus = load_corpus(settings.corpus) if settings.use_corpus else None
    errors.install(app)
    for router in (lore_router(settings), queries_router(settings), charts_router(settings)):
        app.include_router(router)
    mount_views(app)
    add_redoc(app)
    app.add_middleware(GZipMiddleware, minimum_size=0)  # every answer compressed for a client that accepts gzip
    # 429 past the bound, before any work; an admitted request answered by the pool's workers when there is one
    app.add_middleware(deps.InFlightLimit, limit=settings.max_in_flight, pool=pool)
    app.add_middleware(HeadAsGet)
    return app


def add_redoc(app: FastAPI) -> None:
    """GET /redoc: ReDoc on this server's own bundle, whose one image (the Redocly logo) is served here too."""
    from leishen.viz.assets import redoc_url

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url=app.openapi_url, title=f"{app.title} - ReDoc", redoc_js_url=redoc_url(),
                              redoc_favicon_url="/static-offline-docs/favicon.png", with_google_fonts=False)


def app_from_env() -> FastAPI:
    """The app of the ``LEISHEN_API_*`` environment (uvicorn's ``--factory`` entry for each worker): a served app
    computes in worker processes (``compute_processes`` unset: one per in-flight slot, at most the CPUs)."""
    settings = Settings.from_env()
    if settings.compute_processes is None:
        settings = replace(settings, compute_processes=served_processes(settings.max_in_flight))
    return create_app(settings)
