"""The lore service: the graph commands as functions returning the JSON-able dicts every door prints.

The CLI (``leishen build|stats|symbol|facts|path|passage|check|coverage --json``), the HTTP API and
the MCP server call these functions and show the same values.  Every function raises a
:class:`~leishen.errors.LeishenError` subclass for bad input (the doors turn it into exit code 2,
an HTTP 4xx or a tool error); none prints anything.

>>> store = open_store()                                   # doctest: +SKIP
>>> symbol(store, "神后")["matches"][0]["node"]["id"]        # doctest: +SKIP
'Branch:zi'
"""

from __future__ import annotations

import difflib
import time

from leishen.backends import get_backend, neo4j_config
from leishen.errors import AmbiguousSymbolError, CitationError, OntologyError, UnknownSymbolError
from leishen.loaders.build import build_graph, check_citations, fact_dict, load_facts, read_registry, read_rules_of
from leishen.loaders.corpus import HANGUL, Corpus, load_corpus, parse_citation
from leishen.loaders.coverage import coverage_report, known_extraction_differences
from leishen.loaders.schema import load_schema

__all__ = ["open_store", "build", "stats", "resolve_symbol", "close_matches", "symbol", "facts", "path",
           "passage", "check", "coverage", "rule_coverage", "require_corpus", "readings"]


def open_store(backend: str = "networkx", uri=None, user=None, password=None, corpus=None):
    """The chosen backend, ready to answer named queries."""
    if backend == "neo4j":
        return get_backend("neo4j", **neo4j_config(uri, user, password))
    return get_backend("networkx", corpus=corpus)


def require_corpus(corpus=None) -> Corpus:
    """The corpus at *corpus* (or the default one); CitationError when none is found."""
    found = load_corpus(corpus)
    if found is None:
        raise CitationError("no corpus folder found: give --corpus DIR (the folder holding 000_*.txt …) "
                            "or set LEISHEN_CORPUS")
    return found


def build(backend: str = "networkx", corpus=None, uri=None, user=None, password=None) -> dict:
    """Build the graph (validating every row; checking citations when a corpus is found) and load it."""
    start = time.perf_counter()
    found = load_corpus(corpus)
    data = build_graph(corpus)
    built = time.perf_counter() - start
    store = open_store(backend, uri, user, password, corpus)
    try:
        report = store.load(data)
    finally:
        if backend != "networkx":
            store.close()
    citations = ({"checked": True, "corpus": str(found.folder)} if found else
                 {"checked": False, "corpus": None})
    return {"backend": backend, "nodes": report["nodes"], "relations": report["relations"],
            "facts": len(data.facts), "build_seconds": round(built, 4), "load_seconds": report["seconds"],
            "citations": citations}


def stats(store) -> dict:
    """Node counts by label and relation counts by type."""
    return store.run("stats")[0]


def close_matches(text: str, n: int = 6) -> list[str]:
    """Names like *text*, closed vocabularies (stems, branches, generals …) first."""
    schema = load_schema()
    scored = {}
    for node in build_graph(check=False).nodes:
        closed = schema.labels[node.label].closed
        for key in node.props.get("lookup", ()):
            ratio = difflib.SequenceMatcher(None, text, key).ratio()
            if ratio >= 0.5:
                scored[key] = max(scored.get(key, (0, 0)), (ratio, closed))
    return [k for k, _ in sorted(scored.items(), key=lambda kv: (-kv[1][0], not kv[1][1], kv[0]))][:n]


def _lookup_text(text: str) -> str:
    """The lower-cased lookup form: surrounding space dropped, a leading English article too."""
    q = " ".join(text.split()).lower()
    return q[4:] if q.startswith("the ") else q


def resolve_symbol(store, text: str) -> list[dict]:
    """Nodes that *text* names (name, alias, key, ko or en; ``Label:name`` or a printed id picks one label)."""
    label, sep, rest = text.partition(":")
    if sep and label.strip() in load_schema().labels:
        rows = [r for r in store.run("resolve", q=_lookup_text(rest)) if r["label"] == label.strip()]
    else:
        rows = store.run("resolve", q=_lookup_text(text))
    if not rows:
        near = close_matches(_lookup_text(text))
        hint = f"; close matches: {', '.join(near)}" if near else ""
        raise UnknownSymbolError(f"unknown symbol {text!r}{hint}", near)
    best = min(r["tier"] for r in rows)
    return [r for r in rows if r["tier"] == best]


def _check_types(types) -> tuple[str, ...]:
    """The relation types asked (upper-cased); OntologyError (``field`` types, ``matches`` close types) naming
    the unknown ones."""
    wanted = tuple(t.strip().upper() for t in types or () if t.strip())
    known = load_schema().relations
    unknown = [t for t in wanted if t not in known]
    if unknown:
        near = [m for t in unknown for m in difflib.get_close_matches(t, known, 3, 0.5)]
        hint = f"; close types: {', '.join(near)}" if near else ""
        raise _about(OntologyError(f"unknown relation type(s) {', '.join(unknown)} (see leishen stats){hint}"),
                     "types", near)
    return wanted


def _about(error, field: str, matches=None):
    """*error* marked as about the request field *field* (what the HTTP API answers in ``field``)."""
    error.field = field
    if matches is not None:
        error.matches = list(matches)
    return error


def _named(store, text: str, field: str) -> dict:
    """The one node *text* names (:func:`_one`); an unknown or ambiguous name is an error about *field*."""
    try:
        return _one(store, text)
    except (UnknownSymbolError, AmbiguousSymbolError) as exc:
        raise _about(exc, field) from None


def _self_loops_last(rows: list[dict], node_id: str) -> list[dict]:
    """A node's self-loops (``ALIAS_OF 同 子`` on 子, kept for their citation) once each, as
    direction ``self``, after the other relations."""
    loops = [{**r, "direction": "self"} for r in rows
             if r["direction"] == "out" and r["other"]["id"] == node_id]
    rest = [r for r in rows if r["direction"] == "qualifier" or r["other"]["id"] != node_id]
    return rest + loops


def symbol(store, name: str, types=None) -> dict:
    """A symbol and all its relations (only the relation *types* given, when any); self-loops last."""
    wanted = _check_types(types)
    matches = []
    try:
        nodes = resolve_symbol(store, name)
    except UnknownSymbolError as exc:
        raise _about(exc, "name") from None
    for node in nodes:
        rows = store.run("symbol_relations", node_id=node["id"])
        if wanted:
            rows = [r for r in rows if r["type"] in wanted]
        rows = _self_loops_last(rows, node["id"])
        matches.append({"node": node, "relations": rows})
    return {"query": name, "types": list(wanted) or None, "matches": matches}


def facts(store, doc: str | None = None, symbol_name: str | None = None) -> list[dict]:
    """Every fact in the export shape, optionally only those citing *doc* or naming *symbol_name*."""
    if not symbol_name:
        return store.run("facts", doc=doc, node_id=None)
    rows = []
    for node in resolve_symbol(store, symbol_name):
        rows += store.run("facts", doc=doc, node_id=node["id"])
    return rows


def _one(store, text: str) -> dict:
    rows = resolve_symbol(store, text)
    if len(rows) > 1:
        raise AmbiguousSymbolError(f"{text!r} names {len(rows)} nodes ({', '.join(r['id'] for r in rows)}); "
                                   "write Label:name to pick one", [r["id"] for r in rows])
    return rows[0]


def _hops(store, nodes: list[dict], types: tuple[str, ...]) -> list[dict]:
    """For each step of a path: every direct relation joining its two ends, with its citations."""
    among = store.run("relations_among", node_ids=[n["id"] for n in nodes])
    hops = []
    for a, b in zip(nodes, nodes[1:]):
        pair = {a["id"], b["id"]}
        rels = [{"type": r["type"], "zh": r["zh"], "source": r["source"]["id"], "target": r["target"]["id"],
                 "src": r["src"], "variant": r["variant"], "fact": r["fact"]}
                for r in among if {r["source"]["id"], r["target"]["id"]} == pair and (not types or r["type"] in types)]
        hops.append({"from": a["id"], "to": b["id"], "relations": rels})
    return hops


def path(store, source: str, target: str, types=None) -> dict:
    """The shortest typed path between two symbols (over the relation *types* only, when given),
    each hop with its relations of those types and their citations."""
    wanted = _check_types(types)
    a, b = _named(store, source, "source"), _named(store, target, "target")
    rows = store.run("shortest_path", source=a["id"], target=b["id"], types=list(wanted) or None)
    best = rows[0] if rows else None
    return {"source": a, "target": b, "types": list(wanted) or None,
            "length": len(best["types"]) if best else None, "path": best,
            "hops": _hops(store, best["nodes"], wanted) if best else []}


def readings(ids) -> dict[str, dict]:
    """{node id: {name, ko, en}} for the nodes *ids* (the CLI shows the other ends in a language)."""
    wanted = set(ids)
    return {n.id: {"name": n.props["name"], "ko": n.props.get("ko", ""), "en": n.props.get("en", "")}
            for n in build_graph(check=False).nodes if n.id in wanted}


def passage(src: str, corpus=None) -> dict:
    """A passage (its text when a corpus is found, and ``ko``, the Korean translation the corpus gives right
    below it, or None) with every fact citing it."""
    cite = parse_citation(src)
    found = load_corpus(corpus)
    text = found.passage(cite) if found else None
    data = build_graph(corpus)
    nodes = {n.id: n for n in data.nodes}
    schema = load_schema()
    return {"src": str(cite), "text": text, "ko": translation(found, cite) if text else None,
            "facts": [fact_dict(f, nodes, schema) for f in data.facts if cite in f.src]}


def translation(found: Corpus, cite) -> str | None:
    """The Korean translation of the passage at *cite*: the first non-blank line after it, read from the corpus
    file at run time (never stored), when that line is Korean; None when the next text is not."""
    files = sorted(found.folder.glob(f"{cite.doc}_*.txt"))
    if not files:
        return None
    from leishen import settings
    from leishen.loaders.corpus import CorpusError, read_limited
    try:  # a regular file of bounded size only (it may have changed since the corpus was read)
        raw = read_limited(files[0], settings.get("LEISHEN_CORPUS_MAX_BYTES"), "LEISHEN_CORPUS_MAX_BYTES")
    except CorpusError:
        return None
    lines = raw.decode("utf-8", errors="replace").splitlines()
    for line in lines[cite.line:cite.line + 40]:  # lines[cite.line] is the line after the 1-based cite.line
        if line.strip():
            return line.strip() if HANGUL.search(line) else None
    return None


def check(corpus=None, extract: bool = False) -> dict:
    """Validate every table and check every citation (CitationError listing the failures)."""
    from leishen.loaders import extract as X  # the extractors load only when asked for

    found = require_corpus(corpus)
    registry, rows = read_registry()
    rules = read_rules_of(registry, rows)  # every `when` parsed and checked (OntologyError naming the cell)
    from leishen.judgments import check_tables
    check_tables()  # every judgment table (JudgmentTableError naming the file, row and column)
    checked, errors = check_citations(registry, rows, found)
    if errors:
        more = f"\n({len(errors)} citation errors; the others:)\n  " + "\n  ".join(errors[1:50]) if len(errors) > 1 else ""
        raise CitationError(errors[0] + more)
    differences = X.differences(found, load_facts(corpus=found.folder)) if extract else []
    known = known_extraction_differences()
    no_en = sorted(n.id for n in registry.nodes.values() if not n.props.get("en"))
    conflicts = sorted(f"{lab}:{name} ({g['where']} vs {', '.join(g['others'])})"
                       for (lab, name), g in registry.glossary.items() if g.get("others"))
    return {"facts": len(rows), "nodes": len(registry.nodes), "rules": len(rules),
            "citations": {"checked": checked, "failed": 0},
            "nodes_without_en": no_en, "glossary_conflicts": conflicts, "corpus": str(found.folder),
            "extraction_differences": [str(d) for d in differences],
            "extraction_known": [{"difference": str(d), "reason": known[(d.spec, d.kind, d.row)]}
                                 for d in differences if (d.spec, d.kind, d.row) in known],
            "extraction_unknown": [str(d) for d in differences if (d.spec, d.kind, d.row) not in known]}


def rule_coverage() -> dict:
    """Per document: the rule facts, how many are structured, need judgment or are not yet structured."""
    from leishen.loaders.rule_coverage import rule_coverage as report

    return report(read_registry()[1])


def coverage(corpus=None) -> dict:
    """How much of the inventory the graph holds, per section and document, with the citation counts."""
    found = require_corpus(corpus)
    registry, rows = read_registry()
    rules = read_rules_of(registry, rows)  # every `when` parsed and checked (OntologyError naming the cell)
    from leishen.judgments import check_tables
    check_tables()  # every judgment table (JudgmentTableError naming the file, row and column)
    checked, errors = check_citations(registry, rows, found)
    return coverage_report(rows, {"checked": checked, "failed": len(errors)})
