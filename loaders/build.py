"""Build the graph records from ``ontology/`` (and check citations against the corpus).

>>> data = build_graph()                     # GraphData: nodes, edges, facts   # doctest: +SKIP
>>> g = to_networkx(data)                    # a networkx.MultiDiGraph          # doctest: +SKIP

Every node's properties also hold its ``label`` and every relation's its ``type`` (the embedded
graph reads them there).
Every fact becomes (1) a direct relation ``subject -[TYPE]-> object`` carrying ``zh``, ``src``,
``qualifiers`` (JSON), ``variant``, ``note``, ``item`` and ``fact`` (the fact id), and (2) a
``Fact`` node joined to its parts (``SUBJECT``, ``OBJECT``, ``QUALIFIER {role}``) and to the
``Passage`` nodes it cites (``CITES``), so a traversal can reach a ternary fact from any part.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from leishen import diskcache
from leishen.errors import CitationError
from leishen.loaders.corpus import DOCS, Corpus, CorpusError, UnheldCitations, load_corpus
from leishen.loaders.conditions import read_rules
from leishen.loaders.records import Edge, Fact, GraphData, Node
from leishen.loaders.schema import RelationDef, Schema, load_schema, ontology_dir
from leishen.loaders.tables import (Registry, check_data_tables, raise_errors, read_entities, read_facts,
                                    read_glossary)

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["build_graph", "graph_source", "graph_kept", "graph_key", "keep_graph", "load_facts", "to_networkx",
           "fact_dict", "check_citations", "read_registry"]


def read_registry(schema: Schema | None = None) -> tuple[Registry, list[Fact]]:
    """Read entities, glossary and facts; raise OntologyError listing every bad row."""
    schema = schema or load_schema()
    folder = ontology_dir()
    registry, errors = Registry(schema), []
    read_entities(folder / "entities", registry, errors)
    read_glossary(folder / "glossary", registry, errors)
    check_data_tables(folder, errors)
    raise_errors(errors, "the entity, glossary and data tables")
    facts = read_facts(folder / "facts", registry, errors)
    raise_errors(errors, "the fact tables")
    return registry, facts


def read_rules_of(registry: Registry, facts: list[Fact]) -> list:
    """The checked rules of the facts that carry a condition; raise OntologyError naming every bad cell."""
    errors: list[str] = []
    rules = read_rules(facts, registry.schema, registry.index, errors)
    raise_errors(errors, "the rule conditions")
    return rules


def _names(node: Node) -> list[str]:
    return [node.props["name"], *node.props.get("aliases", [])]


def check_citations(registry: Registry, facts: list[Fact], corpus: Corpus) -> tuple[int, list[str]]:
    """Check every src against *corpus*: the passage exists and holds the fact's terms.

    Default terms: one of the subject's names and one of the object's names (name or alias);
    a row's ``terms`` column replaces them.  Returns (number checked, errors).
    """
    errors, checked = [], 0
    for fact in facts:
        where = f"facts/{fact.file.removeprefix('facts/')} row {fact.row}"
        if all(c.standard for c in fact.src):
            continue  # a standard table's row cites a work outside the seeds (checked when parsed; no text kept)
        if any(c.standard for c in fact.src):
            errors.append(f"{where} column src: cites both seed passages and works outside the seeds "
                          f"({'|'.join(map(str, fact.src))}); a standard table's row cites only its works")
            continue
        try:
            text = "".join(corpus.passage(c) for c in fact.src)
        except CitationError as exc:
            errors.append(f"{where} column src: {exc}")
            continue
        checked += 1
        if fact.terms:
            lacking = [t for t in fact.terms if t not in text]
        else:
            groups = [_names(registry.nodes[fact.subject]), _names(registry.nodes[fact.object])]
            lacking = ["/".join(g) for g in groups if not any(n in text for n in g)]
        if lacking:
            cites = "|".join(str(c) for c in fact.src)
            errors.append(f"{where} column {'terms' if fact.terms else 'src'}: passage {cites} does not contain {', '.join(lacking)}")
    for node in registry.nodes.values():
        for src in node.props.get("src", []):
            doc, _, line = src.partition(":")
            text = corpus.passages.get(doc, {}).get(int(line) if line.isdigit() else -1)
            if text is None or not any(n in text for n in _names(node)):
                errors.append(f"entity {node.id}: src {src} is not a passage naming {'/'.join(_names(node))}")
    return checked, errors


# The reified edges' properties are the same for every fact: one shared, never-mutated dict each.
_SUBJECT = {"zh": "主語", "type": "SUBJECT"}
_OBJECT = {"zh": "賓語", "type": "OBJECT"}
_CITES = {"zh": "出處", "type": "CITES"}
_QUALIFIER: dict[str, dict] = {}


def _qualifier_props(role: str) -> dict:
    return _QUALIFIER.setdefault(role, {"zh": "條件", "role": role, "type": "QUALIFIER"})


def _reify(fact: Fact, registry: Registry, rel: RelationDef, quals: str) -> tuple[Node, list[Edge]]:
    """The fact's Fact node and its relations: the direct one and those joining the Fact node to its parts."""
    s, o = registry.nodes[fact.subject].props, registry.nodes[fact.object].props
    fid, src = f"Fact:{fact.id}", [str(c) for c in fact.src]  # one src list, shared, never mutated
    node = Node(fid, "Fact", {
        "key": fact.id, "label": "Fact", "name": f"{s['name']}{rel.zh}{o['name']}",
        "ko": f"{s['ko']} {rel.ko} {o['ko']}", "en": f"{s['en'] or s['name']} {rel.en} {o['en'] or o['name']}",
        "relation": fact.relation, "src": src, "item": fact.item, "variant": fact.variant, "note": fact.note,
        "qualifiers": quals, "aliases": [], "file": fact.file, "row": fact.row,
        "when": fact.when, "polarity": fact.polarity, "judgment": fact.judgment})
    props = {"zh": rel.zh, "src": src, "qualifiers": quals, "variant": fact.variant, "note": fact.note,
             "item": fact.item, "fact": fact.id, "type": fact.relation}
    edges = [Edge(fact.subject, fact.object, fact.relation, fact.id, props),
             Edge(fid, fact.subject, "SUBJECT", f"{fact.id}/subject", _SUBJECT),
             Edge(fid, fact.object, "OBJECT", f"{fact.id}/object", _OBJECT)]
    for key, value in fact.qualifiers:
        if key in fact.node_qualifiers:
            edges.append(Edge(fid, value, "QUALIFIER", f"{fact.id}/q/{key}", _qualifier_props(key)))
    for text in src:
        edges.append(Edge(fid, f"Passage:{text}", "CITES", f"{fact.id}/cites/{text}", _CITES))
    return node, edges


def _passage_nodes(facts: list[Fact]) -> list[Node]:
    """A Passage node per citation: a seed passage (doc, line), or a section of a work outside the seeds
    (doc = the work's id, line 0, ``section`` and ``standard: true``)."""
    cites = sorted({c for f in facts for c in f.src}, key=lambda c: (c.doc, c.line, c.section))
    return [Node(f"Passage:{c}", "Passage", {"key": str(c), "label": "Passage", "name": str(c), "doc": c.doc, "line": c.line,
                                             "ko": f"원문 {c}", "en": f"passage {c}", "aliases": [],
                                             **({"section": c.section, "standard": True} if c.standard else {})})
            for c in cites]


def _without_article(text: str) -> str:
    return text[4:] if text.startswith("the ") else text


def lookup_keys(props: dict) -> list[str]:
    """The strings a user may type for a node (lower case): name, aliases, key, ko, ko_hanja, en and the parts
    of en, each English one also without a leading "the" (``the White Tiger`` → ``white tiger``)."""
    en = " ".join(props.get("en", "").lower().split())
    parts = [p.strip() for p in en.replace("(", "|").replace(")", "|").split("|")]
    english = [en, *parts]
    keys = [props["name"], *props.get("aliases", []), props.get("key", "").lower(), props.get("ko", ""),
            props.get("ko_hanja", ""), *english, *(_without_article(e) for e in english)]
    return sorted({k for k in keys if k})


def _with_lookup(node: Node) -> Node:
    if node.label not in ("Fact", "Passage"):
        node.props["lookup"] = lookup_keys(node.props)
    return node


@contextmanager
def _bulk_allocation():
    """Pause the cyclic garbage collector while tens of thousands of acyclic dicts are made.

    The records hold no reference cycles, so nothing is lost; without the pause, collections
    triggered by the allocation count scan the growing heap again and again (about 40 % of the
    build time, measured in bench/bench_build.py).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@lru_cache(maxsize=4)
def _build(corpus_dir: Path | None, check: bool, _ontology: Path) -> GraphData:
    with _bulk_allocation():
        schema = load_schema()
        registry, facts = read_registry(schema)
        corpus = load_corpus(corpus_dir) if corpus_dir else None  # build_graph found the default one
        if check and corpus is not None:
            _, errors = check_citations(registry, facts, corpus)
            if errors:
                raise UnheldCitations(corpus, errors)  # build_graph notes them and builds unchecked
        nodes = [_with_lookup(n) for n in registry.nodes.values()] + _passage_nodes(facts)
        edges: list[Edge] = []
        for fact in facts:
            node, fact_edges = _reify(fact, registry, schema.relations[fact.relation], fact.qualifiers_json())
            nodes.append(node)
            edges += fact_edges
        return GraphData(nodes, edges, facts, read_rules_of(registry, facts))


def graph_source(corpus: str | Path | None = None, *, check: bool = True) -> tuple[Path | None, bool, Path]:
    """What a graph is built from: (the corpus folder its citations are checked against, or None; *check*;
    the ontology folder). With *check*, the corpus (*corpus*, else the default one) when it is found, reads, has
    every text and holds every citation (as far as known: see :func:`build_graph`), else None: a missing,
    damaged, incomplete, cut-short or edited corpus blocks only what needs the texts (check, passage …)."""
    folder, ontology = (Path(corpus).resolve() if corpus else None), ontology_dir()
    if check:
        try:
            found = load_corpus(folder)
        except CorpusError:
            found = None
        folder = found.folder if found and not found.gaps() and ontology not in found.unheld else None
    return folder, check, ontology


def build_graph(corpus: str | Path | None = None, *, check: bool = True) -> GraphData:
    """Read, validate and (when a corpus is found) citation-check the ontology; kept in the process and in
    the disk cache (:mod:`leishen.diskcache`, keyed by the code, the tables and the corpus texts).

    Raises OntologyError naming file and row for any bad row; nothing is built (or stored) in that case.
    Citations the corpus does not hold (a text cut short or edited) are noted on it (``Corpus.unheld``, which
    the commands warn of) and the graph is built unchecked, as for an emptied text.
    """
    source = graph_source(corpus, check=check)
    try:
        return _kept_or_built(source)
    except UnheldCitations as exc:
        exc.corpus.note_unheld(source[2], exc.errors)  # graph_source now leaves this corpus out
        return _kept_or_built(graph_source(corpus, check=check))


def _kept_or_built(source: tuple[Path | None, bool, Path]) -> GraphData:
    """The graph of *source*: kept in this process, else from the disk cache, else built (and stored)."""
    data = _KEPT.get(source)
    if data is None:
        key = graph_key(source) if diskcache.enabled() else None
        data = diskcache.load("graph", key) if key else None
        if not isinstance(data, GraphData):
            data = _build(*source)
            if key:
                diskcache.store("graph", key, data)
        keep_graph(source, data)
    return data


def graph_kept(source: tuple[Path | None, bool, Path]) -> bool:
    """Whether the graph of *source* is kept in this process or in the disk cache, without loading it (a kept
    graph of a checked source is one whose citations held)."""
    return source in _KEPT or (diskcache.enabled() and diskcache.has("graph", graph_key(source)))


_KEPT: dict[tuple, GraphData] = {}  # the graph of each source this process built or loaded (the last 4)


def graph_key(source: tuple[Path | None, bool, Path]) -> str:
    """The disk cache key of the graph of *source* (see :func:`graph_source`)."""
    folder, check, ontology = source
    return diskcache.entry_key("graph", check, diskcache.data_digest(ontology, folder, DOCS))


def keep_graph(source: tuple, data: GraphData) -> None:
    """Make *data* what :func:`build_graph` returns for *source* in this process (a graph loaded with a
    reader from the disk cache is the one every later caller shares)."""
    _KEPT.pop(source, None)
    _KEPT[source] = data
    while len(_KEPT) > 4:
        _KEPT.pop(next(iter(_KEPT)))


def to_networkx(data: GraphData) -> nx.MultiDiGraph:
    """A MultiDiGraph: node attributes = props (with ``label``); edge key = the edge's key, attr ``type``.

    Nodes and edges are written straight into the graph's dicts, exactly as ``add_node`` and
    ``MultiDiGraph.add_edge`` store them (one key dict shared by ``_succ[u][v]`` and
    ``_pred[v][u]``), sharing the records' property dicts instead of copying them: several times
    faster than ``add_nodes_from``/``add_edges_from`` for our 25k records.  Every edge's ends are known nodes and keys are unique
    (the loader guarantees both; ``tests/graph/test_build.py`` compares with ``add_edges_from``).
    """
    import networkx as nx  # here: a command that needs only the records does not import networkx
    g = nx.MultiDiGraph()
    with _bulk_allocation():
        attrs, succ, pred = g._node, g._succ, g._pred
        for n in data.nodes:  # n.props already holds "label"
            attrs[n.id], succ[n.id], pred[n.id] = n.props, {}, {}
        for e in data.edges:  # e.props already holds "type"; shared dicts are never mutated
            keydict = succ[e.src].get(e.dst)
            if keydict is None:
                keydict = succ[e.src][e.dst] = pred[e.dst][e.src] = {}
            keydict[e.key] = e.props
    return g


def _end(node: Node) -> dict:
    return {"label": node.label, "key": node.props["key"], "name": node.props["name"]}


def fact_dict(fact: Fact, nodes: dict[str, Node], schema: Schema) -> dict:
    """The export shape of one fact (as ``leishen facts --json`` prints it)."""
    quals = {k: (_end(nodes[v]) if k in fact.node_qualifiers else v) for k, v in fact.qualifiers}
    return {"id": fact.id, "relation": fact.relation, "zh": schema.relations[fact.relation].zh,
            "subject": _end(nodes[fact.subject]), "object": _end(nodes[fact.object]),
            "qualifiers": quals, "src": [str(c) for c in fact.src], "variant": fact.variant or None,
            "note": fact.note or None, "item": fact.item or None}


def load_facts(doc: str | None = None, corpus: str | Path | None = None) -> list[dict]:
    """Every fact as an export dict, optionally only those citing document *doc*."""
    data = build_graph(corpus)
    nodes = {n.id: n for n in data.nodes}
    schema = load_schema()
    return [fact_dict(f, nodes, schema) for f in data.facts if doc is None or doc in f.docs]
