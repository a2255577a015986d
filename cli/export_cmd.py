"""``leishen export``: the graph (or a symbol's neighbourhood) as GraphML, GEXF, node-link JSON or CSV."""

from __future__ import annotations

from pathlib import Path

import click

from leishen.backends import export
from leishen.cli.corpus_warning import warn_damaged_corpus
from leishen.cli.options import emit_json, handle_errors, json_option


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(export.FORMATS), required=True,
              help="graphml (Gephi, Cytoscape), gexf (Gephi: topic, system, citation as edge attributes), json "
              "(networkx node-link) or csv (nodes.csv + edges.csv)")
@click.option("-o", "--output", type=click.Path(), default=None,
              help="file to write (for csv: a folder for nodes.csv and edges.csv); default stdout")
@click.option("--symbol", "symbol_name", default=None, help="only this symbol's neighbourhood (the one `leishen view` draws)")
@click.option("--depth", type=click.IntRange(0, 6), default=1, show_default=True,
              help="rounds of relations out from --symbol (in, out, or naming it as a qualifier)")
@click.option("--corpus", type=click.Path(file_okay=False), default=None,
              help="folder of the source texts (default: $LEISHEN_CORPUS or ../shared/seeds)")
@json_option
@handle_errors
def export_cmd(fmt, output, symbol_name, depth, corpus, as_json):
    """Export the relations between symbols, with each fact's citations as edge attributes."""
    from leishen.service import lore

    warn_damaged_corpus("networkx", corpus)
    store = lore.open_store("networkx", corpus=corpus)
    store.ensure_loaded()
    graph = export.relation_graph(store.graph)
    if symbol_name:
        centres = [n["id"] for n in lore.resolve_symbol(store, symbol_name)]
        graph = export.neighbourhood(graph, *export.symbol_neighbourhood(store, centres, depth))
    if output is None:
        click.echo(export.to_text(graph, fmt))
        return
    written = export.write(graph, fmt, Path(output))
    report = {"format": fmt, "nodes": graph.number_of_nodes(), "relations": graph.number_of_edges(),
              "files": [str(p) for p in written]}
    if as_json:
        emit_json(report)
    else:
        click.echo(f"wrote {report['nodes']} nodes and {report['relations']} relations to {', '.join(report['files'])}")
