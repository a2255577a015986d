"""Commands that read the source texts: check, coverage, passage — thin doors over :mod:`leishen.service.lore`."""

from __future__ import annotations

import sys

import click

from leishen.cli.corpus_warning import (corpus_warning, every_unheld_citation, require_held_citations,
                                        require_whole_corpus)
from leishen.cli.options import emit_json, fail, handle_errors, json_option, table
from leishen.service import lore

corpus_option = click.option("--corpus", type=click.Path(file_okay=False), default=None,
                             help="folder of the source texts (default: $LEISHEN_CORPUS or ../shared/seeds)")


@click.command()
@corpus_option
@click.option("--extract", is_flag=True, help="also extract the texts' regular enumerations and compare them with the tables")
@json_option
@handle_errors
def check(corpus, extract, as_json):
    """Validate every table and check every citation against the corpus (exit 2 on any error;
    with --extract, exit 1 when the texts and the tables differ in a way not listed as known)."""
    from leishen.errors import CitationError

    require_whole_corpus(corpus)
    try:
        out = lore.check(corpus, extract)
    except CitationError:  # every failing citation (an error message keeps 100 lines), the first naming the file
        every = every_unheld_citation(corpus)
        if every is None:
            raise
        fail(every)
    if as_json:
        emit_json(out)
    else:
        _print_check(out, extract)
    if out["extraction_unknown"]:
        sys.exit(1)  # a difference nobody has explained yet


def _print_check(out: dict, extract: bool) -> None:
    click.echo(f"ok: {out['facts']} facts, {out['nodes']} symbol nodes, "
               f"{out['citations']['checked']} citations checked against {out['corpus']}")
    no_en = out["nodes_without_en"]
    if no_en:
        click.echo(f"warning: {len(no_en)} node(s) without an English gloss: {' '.join(no_en[:30])}")
    for c in out["glossary_conflicts"]:
        click.echo(f"warning: glossary conflict {c}")
    for k in out["extraction_known"]:
        click.echo(f"text vs table (known): {k['difference']} — {k['reason']}")
    for d in out["extraction_unknown"]:
        click.echo(f"text vs table (NEW): {d}")
    if extract:
        click.echo(f"extraction: {len(out['extraction_differences'])} difference(s) between the texts' enumerations "
                   f"and the tables: {len(out['extraction_known'])} known "
                   f"(ontology/coverage/extraction_known.csv), {len(out['extraction_unknown'])} new")


@click.command()
@corpus_option
@click.option("--rules", "rules", is_flag=True, help="coverage of the rules' structured conditions instead")
@json_option
@handle_errors
def coverage(corpus, rules, as_json):
    """How much of the inventory's 3,114 facts the graph holds, per section and document."""
    if rules:
        return _rule_coverage(as_json)
    require_whole_corpus(corpus)
    report = lore.coverage(corpus)
    if report["citations"]["failed"]:  # a text cut short or edited: refused as check refuses it
        require_held_citations(corpus)
        fail(f"{report['citations']['failed']} citations do not hold against the corpus; `coverage` needs every "
             f"citation to hold (leishen check lists them)")
    if as_json:
        emit_json(report)
        return
    rows = [[s["section"], s["title"], s["expected"], s["present"], len(s["missing"]), s["unlisted"]]
            for s in report["sections"]]
    click.echo(table(rows, ["section", "title", "expected", "present", "listed missing", "unlisted"]))
    click.echo()
    docs = [[d, v["expected"], v["present"], f"{100 * v['present'] / v['expected']:.1f}%"]
            for d, v in report["documents"].items()]
    t = report["total"]
    docs.append(["total", t["expected"], t["present"], f"{100 * t['present'] / t['expected']:.1f}%"])
    click.echo(table(docs, ["document", "expected", "present", "share"]))
    c = report["citations"]
    click.echo(f"citations: {c['checked']} checked, {c['failed']} failed")


@click.command()
@click.argument("src")
@corpus_option
@json_option
@handle_errors
def passage(src, corpus, as_json):
    """A passage (from your corpus folder, when found) with every fact that cites it; a corpus with a text that
    cannot be read, lacking a text, holding an emptied one or not holding the citations is warned of in one
    stderr line (a passage of that text is the error, saying why)."""
    warning = corpus_warning("networkx", corpus, shows_passage=True)
    out = lore.passage(src, corpus)  # a passage that cannot be shown is the error (naming an emptied file …)
    if warning:
        click.echo(warning, err=True)
    if as_json:
        emit_json(out)
        return
    click.echo(f"{out['src']}  {out['text'] if out['text'] else '(no corpus folder: give --corpus to show the text)'}")
    click.echo()
    click.echo(table([[r["item"] or "", r["subject"]["name"], f"{r['relation']} {r['zh']}", r["object"]["name"],
                       " ".join(f"{k}={v['name'] if isinstance(v, dict) else v}" for k, v in r["qualifiers"].items()),
                       r["variant"] or ""] for r in out["facts"]],
                     ["item", "subject", "relation", "object", "qualifiers", "variant"]))


def _rule_coverage(as_json: bool) -> None:
    """`coverage --rules`: per document, rule facts structured / needing judgment / not yet structured."""
    report = lore.rule_coverage()
    if as_json:
        emit_json(report)
        return
    rows = [[d, v["rules"], v["structured"], len(v["needs_judgment"]), len(v["unstructured"]), len(v["prose"]),
             f"{100 * v['structured'] / v['rules']:.1f}%" if v["rules"] else "-"]
            for d, v in report["documents"].items()]
    t = report["total"]
    rows.append(["total", t["rules"], t["structured"], t["needs_judgment"], t["unstructured"], t["prose"],
                 f"{100 * t['structured_share']:.1f}%"])
    click.echo(table(rows, ["document", "rule facts", "structured", "needs judgment", "not yet structured",
                            "prose conditions", "structured share"]))
    for d, v in report["documents"].items():
        for r in v["needs_judgment"]:
            click.echo(f"needs judgment  {r['fact']}  {r['judgment']}")
    for d, v in report["documents"].items():
        for r in v["unstructured"][:20]:
            click.echo(f"not structured  {r['fact']}  {r['relation']}  {r['condition'] or ''}")
        if len(v["unstructured"]) > 20:
            click.echo(f"not structured  … {len(v['unstructured']) - 20} more in {d} (--json lists all)")
