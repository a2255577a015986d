"""``leishen view``: an interactive graph page (offline HTML) of a symbol, a reading or the schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from leishen.cli.options import backend_options, emit_json, fail, handle_errors, json_option, open_backend

_NODES = re.compile(r"nodes = new vis\.DataSet\((\[.*?\])\);", re.S)


def page_for_reading(moment: str, tz: str | None, topic: str | None, store=None) -> str:
    """The reading page of the chart of *moment* (all three systems, default school options),
    read on *store* (None: the shared embedded reader)."""
    from leishen.engine.calendar import parse_moment
    from leishen.engine.chart import build_chart
    from leishen.service.book import read
    from leishen.viz import reading_page
    return reading_page(read(build_chart(parse_moment(moment, tz)), topic=topic, backend=store))


def node_count(page: str) -> int:
    """How many nodes a page's vis DataSet holds."""
    found = _NODES.search(page)
    return len(json.loads(found.group(1))) if found else 0


@click.command()
@click.argument("symbol", required=False)
@click.option("--depth", type=click.IntRange(1, 3), default=1, show_default=True, help="relations out from the symbol")
@click.option("--facts", "show_facts", is_flag=True, help="also draw the Fact and Passage nodes")
@click.option("--reading", "moment", default=None, metavar="MOMENT", help="the reading of this moment's chart")
@click.option("--tz", default=None, help="IANA time zone for a --reading moment without offset")
@click.option("--topic", default=None, help="topic of the --reading (e.g. 射覆)")
@click.option("--schema", is_flag=True, help="the schema: labels and relation types with counts")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True,
              help="HTML file to write (- = stdout)")
@backend_options
@json_option
@handle_errors
def view(symbol, depth, show_facts, moment, tz, topic, schema, output, backend, uri, user, password, as_json):
    """Write an offline interactive graph page: SYMBOL's neighbourhood, --reading MOMENT, or --schema."""
    if (symbol is not None) + (moment is not None) + schema != 1:
        fail("give exactly one of SYMBOL, --reading MOMENT or --schema")
    if moment is None and (tz or topic):
        fail("--tz and --topic go with --reading MOMENT")
    from leishen.cli.corpus_warning import warn_damaged_corpus
    from leishen.viz import schema_page, symbol_page
    warn_damaged_corpus(backend)  # the page's hover shows passages: say when there are none to show
    store = None if moment is not None and backend == "networkx" else open_backend(backend, uri, user, password)
    if moment is not None:
        page = page_for_reading(moment, tz, topic, store)
    else:
        page = schema_page(store) if schema else symbol_page(store, symbol, depth=depth, show_facts=show_facts)
    if output == "-" and not as_json:
        click.echo(page)
        return
    if output != "-":
        try:
            Path(output).write_text(page, encoding="utf-8")
        except OSError as exc:
            fail(f"-o {output}: cannot be written ({exc.strerror})")
    if as_json:
        out = {"file": None if output == "-" else output, "nodes": node_count(page), "bytes": len(page.encode())}
        emit_json(out if output != "-" else {**out, "html": page})
    else:
        click.echo(f"wrote {output} ({node_count(page)} nodes)")
