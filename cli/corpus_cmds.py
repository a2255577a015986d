"""Commands that read the source texts: check, coverage, passage."""

from __future__ import annotations

import click

from leishen.cli.options import emit_json, handle_errors, json_option, table
from leishen.errors import CitationError
from leishen.loaders.build import build_graph, check_citations, fact_dict, load_facts, read_registry
from leishen.loaders.corpus import load_corpus, parse_citation
from leishen.loaders.coverage import coverage_report
from leishen.loaders.rule_coverage import rule_coverage
from leishen.loaders.extract import cross_check
from leishen.loaders.schema import load_schema

corpus_option = click.option("--corpus", type=click.Path(file_okay=False), default=None,
                             help="folder of the source texts (default: $LEISHEN_CORPUS or ../shared/seeds)")


def _require_corpus(corpus):
    found = load_corpus(corpus)
    if found is None:
        raise CitationError("no corpus folder found: give --corpus DIR (the folder holding 000_*.txt …) or set LEISHEN_CORPUS")
    return found


@click.command()
@corpus_option
@click.option("--extract", is_flag=True, help="also extract the texts' regular enumerations and compare them with the tables")
@json_option
@handle_errors
def check(corpus, extract, as_json):
    """Validate every table and check every citation against the corpus (exit 2 on any error)."""
    found = _require_corpus(corpus)
    registry, facts = read_registry()
    checked, errors = check_citations(registry, facts, found)
    if errors:
        raise CitationError(f"{len(errors)} citation error(s):\n  " + "\n  ".join(errors[:50]))
    differences = cross_check(found, load_facts(corpus=found.folder)) if extract else []
    no_en = sorted(n.id for n in registry.nodes.values() if not n.props.get("en"))
    conflicts = sorted(f"{lab}:{name} ({g['where']} vs {', '.join(g['others'])})"
                       for (lab, name), g in registry.glossary.items() if g.get("others"))
    out = {"facts": len(facts), "nodes": len(registry.nodes), "citations": {"checked": checked, "failed": 0},
           "nodes_without_en": no_en, "glossary_conflicts": conflicts, "corpus": str(found.folder),
           "extraction_differences": differences}
    if as_json:
        emit_json(out)
        return
    click.echo(f"ok: {len(facts)} facts, {len(registry.nodes)} symbol nodes, {checked} citations checked against {found.folder}")
    if no_en:
        click.echo(f"warning: {len(no_en)} node(s) without an English gloss: {' '.join(no_en[:30])}")
    for c in conflicts:
        click.echo(f"warning: glossary conflict {c}")
    for d in differences:
        click.echo(f"text vs table: {d}")
    if extract:
        click.echo(f"extraction: {len(differences)} difference(s) between the texts' enumerations and the tables "
                   "(known ones are listed in tests/graph/test_extract.py)")


@click.command()
@corpus_option
@click.option("--rules", "rules", is_flag=True, help="coverage of the rules' structured conditions instead")
@json_option
@handle_errors
def coverage(corpus, rules, as_json):
    """How much of the inventory's 3,114 facts the graph holds, per section and document."""
    if rules:
        return _rule_coverage(as_json)
    found = _require_corpus(corpus)
    registry, facts = read_registry()
    checked, errors = check_citations(registry, facts, found)
    report = coverage_report(facts, {"checked": checked, "failed": len(errors)})
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
    click.echo(f"citations: {checked} checked, {len(errors)} failed")


@click.command()
@click.argument("src")
@corpus_option
@json_option
@handle_errors
def passage(src, corpus, as_json):
    """A passage (from your corpus folder, when found) with every fact that cites it."""
    cite = parse_citation(src)
    found = load_corpus(corpus)
    text = found.passage(cite) if found else None
    data = build_graph(corpus)
    nodes = {n.id: n for n in data.nodes}
    schema = load_schema()
    rows = [fact_dict(f, nodes, schema) for f in data.facts if cite in f.src]
    if as_json:
        emit_json({"src": str(cite), "text": text, "facts": rows})
        return
    click.echo(f"{cite}  {text if text else '(no corpus folder: give --corpus to show the text)'}")
    click.echo()
    click.echo(table([[r["item"] or "", r["subject"]["name"], f"{r['relation']} {r['zh']}", r["object"]["name"],
                       " ".join(f"{k}={v['name'] if isinstance(v, dict) else v}" for k, v in r["qualifiers"].items()),
                       r["variant"] or ""] for r in rows], ["item", "subject", "relation", "object", "qualifiers", "variant"]))


def _rule_coverage(as_json: bool) -> None:
    """`coverage --rules`: per document, rule facts structured / needing judgment / not yet structured."""
    registry, facts = read_registry()
    report = rule_coverage(facts)
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
