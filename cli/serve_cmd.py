"""``leishen serve``: the HTTP API on uvicorn, bound to 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import dataclasses
import os

import click

from leishen.cli.options import backend_options, handle_errors


def preflight(settings) -> None:
    """Open the backend once before any worker starts, so that a bad table or an unreachable Neo4j is one
    line and exit code 2 here, not a traceback in every worker. A corpus folder that is not there is refused
    (--no-corpus serves without the texts); a text missing or damaged is one warning line, as the commands give."""
    from leishen.cli.corpus_warning import warn_damaged_corpus
    from leishen.loaders.corpus import CorpusFolderError, load_corpus
    from leishen.service import lore

    store = lore.open_store(settings.backend, settings.uri, settings.user, settings.password, settings.corpus)
    try:
        lore.stats(store)
    finally:
        store.close()
    if settings.use_corpus:
        try:
            load_corpus(settings.corpus)
        except CorpusFolderError as exc:
            raise CorpusFolderError(f"{exc}; `leishen serve --no-corpus` serves without the texts (/passages and "
                                    f"/coverage then answer 404)") from None
        warn_damaged_corpus(settings.backend, settings.corpus)


def serve_settings(environ, **given):
    """The served app's settings: the ``LEISHEN_API_*`` variables the user set (in-flight bounds, compute processes
    …), then what the command line gives (None: not given)."""
    from leishen.api.settings import Settings

    return dataclasses.replace(Settings.from_env(environ), **{k: v for k, v in given.items() if v is not None})


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to bind (loopback unless told otherwise)")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@backend_options
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="worker processes (each holds its own graph, or all share one Neo4j)")
@click.option("--corpus", type=click.Path(file_okay=False), default=None,
              help="folder of the source texts, for /passages and /coverage (default: $LEISHEN_CORPUS or ../shared/seeds)")
@click.option("--no-corpus", is_flag=True, help="serve without the source texts (/passages and /coverage answer 404)")
@handle_errors
def serve(host, port, backend, uri, user, password, workers, corpus, no_corpus):
    """Serve the HTTP API (OpenAPI at /openapi.json, Swagger UI at /docs, ReDoc at /redoc, all offline)."""
    import uvicorn

    from leishen.api.protocol import uvicorn_options

    settings = serve_settings(os.environ, backend=backend, uri=uri, user=user, password=password, corpus=corpus,
                              use_corpus=False if no_corpus else None)
    preflight(settings)
    os.environ.update(settings.to_env())  # every worker builds its app from the same settings
    # the HTTP protocol answers a URL or headers past their limits (414, 431) and unparsable bytes (400) in JSON
    uvicorn.run("leishen.api.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level="info", server_header=False, **uvicorn_options())
