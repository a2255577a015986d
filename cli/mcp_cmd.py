"""``leishen mcp``: the MCP server on stdio (for an assistant's MCP client)."""

from __future__ import annotations

import click

from leishen.cli.corpus_warning import warn_damaged_corpus
from leishen.cli.options import backend_options, handle_errors


@click.command("mcp")
@backend_options
@click.option("--corpus", type=click.Path(file_okay=False), default=None,
              help="folder of the source texts (default: $LEISHEN_CORPUS or ../shared/seeds)")
@handle_errors
def mcp(backend, uri, user, password, corpus):
    """Serve the read-only MCP tools (named queries, symbol, path, chart, read — compact, with the judgments —,
    find, passage, topics, coverage; resources passage://DOC/LINE) on stdin/stdout. A corpus missing or damaged
    is one warning line on stderr at start (stdout is the protocol's)."""
    from leishen.mcpserver.server import main

    warn_damaged_corpus(backend, corpus)
    main(backend, uri, user, password, corpus)
