"""Shared CLI plumbing: backend options, JSON/table output, and error → exit code 2."""

from __future__ import annotations

import functools
import json
import os
import shutil
import sys

import click

from leishen.errors import LeishenError

EXIT_USAGE = 2


def fail(message: str) -> None:
    """Print a one-line error and exit with code 2."""
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def handle_errors(func):
    """Turn every LeishenError into a clear message and exit code 2 (never a traceback)."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except LeishenError as exc:
            fail(str(exc))
    return wrapper


def backend_options(func):
    """``--backend networkx|neo4j`` and ``--uri/--user/--password`` (or NEO4J_URI/USER/PASSWORD)."""
    from leishen.backends import BACKEND_NAMES  # the commands on the graph only: a chart needs no backend
    options = [
        click.option("--backend", type=click.Choice(BACKEND_NAMES), default="networkx", show_default=True,
                     help="graph backend: embedded NetworkX or a Neo4j server"),
        click.option("--uri", default=None, help="Neo4j bolt:// or neo4j:// URI (default $NEO4J_URI)"),
        click.option("--user", default=None, help="Neo4j user (default $NEO4J_USER)"),
        click.option("--password", default=None, help="Neo4j password (default $NEO4J_PASSWORD)"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def open_backend(backend: str, uri=None, user=None, password=None, corpus=None):
    """The chosen backend, ready to answer named queries (see :func:`leishen.service.lore.open_store`)."""
    from leishen.service.lore import open_store
    return open_store(backend, uri, user, password, corpus)


def json_option(func):
    return click.option("--json", "as_json", is_flag=True, help="print machine-readable JSON")(func)


def emit_json(value) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=1))


def terminal_width() -> int | None:
    """The width to fit tables to: ``$COLUMNS``, else the terminal's, else None (a pipe: no limit)."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None


def _width(s: str) -> int:
    return sum(2 if ord(c) > 0x2E80 else 1 for c in s)


def _clip(s: str, width: int) -> str:
    """*s* cut to *width* display columns, ending in '…' when cut."""
    if _width(s) <= width:
        return s
    out, used = "", 0
    for c in s:
        if used + _width(c) > width - 1:
            break
        out, used = out + c, used + _width(c)
    return out + "…"


def _fit(widths: list[int], limit: int | None, floor: int = 6) -> list[int]:
    """Narrow the widest columns, one column at a time, until the row fits *limit* (never below *floor*)."""
    widths = list(widths)
    if limit is None:
        return widths
    while sum(widths) + 2 * (len(widths) - 1) > limit:
        i = max(range(len(widths)), key=lambda k: widths[k])
        if widths[i] <= floor:
            break
        widths[i] -= 1
    return widths


def table(rows: list[list], header: list[str], limit: int | None = -1) -> str:
    """A plain aligned text table (CJK characters count as two columns), fitted to the terminal width
    (*limit* columns when given, ``None`` for no limit): the widest cells are cut with '…'."""
    limit = terminal_width() if limit == -1 else limit
    cells = [[str(c) for c in header]] + [[("" if c is None else str(c)) for c in r] for r in rows]
    widths = _fit([max(_width(r[i]) for r in cells) for i in range(len(header))], limit)
    cells = [[_clip(c, widths[i]) for i, c in enumerate(r)] for r in cells]
    lines = ["  ".join(c + " " * (widths[i] - _width(c)) for i, c in enumerate(r)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
