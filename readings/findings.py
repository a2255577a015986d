"""Findings: a rule that holds, as JSON with its ordered path, its evidence and its source.

The path starts at a chart slot's node, follows the chart hops (marked ``chart: true``) and graph
edges (each with its type, key and ``src``) that decided the condition, and ends with the fact's own
edge to its meaning. The walks of the condition's other parts are the finding's ``evidence``.

Findings are assembled from the shared, read-only pieces of :mod:`leishen.readings.walks` and kept by
:class:`Made`; the path builders that make a fresh piece each call are re-exported here.
"""

from __future__ import annotations

import threading
from collections import Counter
from itertools import count

from leishen.loaders.records import Fact
from leishen.readings.walks import (Piece, Pieces, chain_walk, fact_hop, graph_walk, meaning,  # noqa: F401
                                    node_json, witness_walk)

POLARITY_MARKS = ("吉", "凶", "平", "混")
FINDING_LIMIT = 30_000  # findings kept per generation (two generations: about 90 MB at most)


def path_nodes(walk: list) -> list[str]:
    """The node ids a walk passes, in order."""
    return [h["node"]["id"] for h in walk if "node" in h]


def finding(*, finding_id: str, system: str, topic: str | None, query: str, rule: dict,
            polarity: str | None, judgment: str, bindings: dict, path: list, evidence: list,
            meaning: dict | None, src: list, variant: str | None, options: dict) -> dict:
    """The finding JSON (see docs/readings.md); *rule*, *src*, *meaning* and the walks are shared pieces."""
    return {"id": finding_id, "system": system, "topic": topic, "query": query, "rule": rule,
            "polarity": polarity or None, "certainty": "needs_judgment" if judgment else "holds",
            "judgment": judgment or None, "bindings": bindings, "path": path, "evidence": evidence,
            "meaning": meaning, "src": src, "variant": variant or None, "options": options}


def _scoped(id_: str, where: list) -> str:
    """A finding's id with the scope instances it held in (``…@p1/p4``)."""
    return f"{id_}@{'/'.join(where)}" if where else id_


def _bindings(head: dict, rest: list[Piece]) -> dict:
    """slot → node id of every slot a finding's walks start from (the path's, then the evidence's): a slot two
    walks start from with different nodes (宮 of two ``some(宮, …)``) names the path's, else the first
    evidence walk's — the instances themselves are in the finding's id (``…@p1/p4``)."""
    out = dict(head)
    for piece in rest:
        for slot, node in piece.binds.items():
            out.setdefault(slot, node)
    return out


class Made:
    """Builds the findings of rules and patterns, once per distinct input: a finding depends only on
    the rule, its witnesses, the scope instances it held in, the school options and the slot a
    Concept of the fact stands for, so a finding already made is handed out again (findings are
    read-only). The store keeps two generations of at most *limit* entries: when the newer grows past
    it (checked between readings) it becomes the older (the oldest is dropped), and a finding found
    in the older is kept in the newer too. A new finding is assembled from the pieces (walks, hops,
    nodes, meanings) of :class:`Pieces`, made once per witness, fact and node. What belongs to one
    reading (its options keys, its patterns' walks) is the calling thread's, so readings made at once
    on one reader (the HTTP service's threads) never see each other's."""

    def __init__(self, reader, limit: int = FINDING_LIMIT):
        self.r, self.limit = reader, limit
        self.store: dict = {}
        self._older: dict = {}
        self.pieces = Pieces(reader.props)
        self._reading = threading.local()  # this thread's reading (start): .options, .walks
        self._parts: dict = {}  # (fact id, name) → the finding's rule and src
        self._rules: dict = {}  # rule fact → its findings' parts (_rule_parts)
        self._tokens = count()  # each pattern walk's key: a number never given twice

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_reading"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _reading=threading.local())

    def start(self) -> None:
        """Called before a reading: turns the generations when the newer has grown past the limit."""
        if len(self.store) > self.limit:
            self._older, self.store = self.store, {}
        self.pieces.start()
        self._reading.options = {}  # system → its school options as a key
        self._reading.walks = {}  # id(walk) → its Piece: the walks of this reading's patterns

    def _kept(self, key):
        """What the older generation keeps under *key* (then kept in the newer too), or None."""
        found = self._older.get(key)
        if found is not None:
            self.store[key] = found
        return found

    def options_key(self, ctx, system: str) -> str:
        """The school options of a system in this reading, as a key (made once per reading)."""
        options = self._reading.options
        key = options.get(system)
        if key is None:
            key = options[system] = repr(ctx.bindings.options.get(system, {}))
        return key

    def _keys(self, wits: list) -> tuple:
        """What each witness is, as a hashable key: a chart chain as it is; a graph witness by its edges
        (the answer's ``Hops.key``) and its end slots; a qualifier witness without its src (the fact's
        own); a pattern's walk by its piece's key when it is a walk of this reading's patterns (which
        the reading's walks keep alive, so no other walk has its id), else None (its finding is not kept)."""
        walks = self._reading.walks
        return tuple([w if w[0].__class__ is tuple
                      else ("graph", w[1].key, w[2], w[3]) if w[0] == "graph"
                      else getattr(walks.get(id(w[1])), "key", None) if w[0] == "walk"
                      else w[:6] for w in wits])

    def _pieces(self, wits: list, keys: tuple) -> list[Piece]:
        """The witnesses' pieces (made once per key)."""
        walks = self._reading.walks
        return [(walks[id(w[1])] if key is not None else Piece(w[1])) if w[0] == "walk"
                else self.pieces.piece(w, key) for w, key in zip(wits, keys)]

    def _parts_of(self, fact: Fact, name: str) -> tuple[dict, list]:
        """The finding's ``rule`` and ``src`` of a fact (made once per fact and name)."""
        found = self._parts.get((fact.id, name))
        if found is None:
            found = self._parts[(fact.id, name)] = ({"fact": fact.id, "name": name, "item": fact.item or None},
                                                    [str(c) for c in fact.src])
        return found

    def walk_to(self, target: str, pieces: list[Piece], slot_concepts: dict) -> tuple[list, dict, list]:
        """(a walk from a chart slot to *target*, the slots it passes, the other pieces): a witness that
        ends there; else, when the target is a Concept standing for a slot (Concept:日干), the slot's
        chain and an ``IS_SLOT`` chart hop; else the first witness and a ``MEETS`` chart hop (the chart
        meets the condition there)."""
        for i, piece in enumerate(pieces):
            if piece.end == target:
                return piece.walk, piece.binds, pieces[:i] + pieces[i + 1:]
        slot = slot_concepts.get(target)
        if slot is not None:
            chain = self.pieces.piece(slot.chain, slot.chain)
            return chain.walk + [{"rel": "IS_SLOT", "chart": True, "src": None}, self.pieces.node(target)], \
                chain.binds, pieces
        if pieces:
            return pieces[0].walk + [{"rel": "MEETS", "chart": True, "src": None}, self.pieces.node(target)], \
                pieces[0].binds, pieces[1:]
        return [self.pieces.node(target)], {}, []

    def rule(self, rule, wits: list, where: list, ctx, concepts: dict) -> dict:
        """The finding of a rule that holds: its path reaches the fact's subject and ends at its meaning."""
        fact = self.r.facts[rule.fact]
        concept = concepts.get(fact.subject)
        keys = self._keys(wits) if wits else ()
        key = (rule.fact, keys, tuple(where) if where else (),
               self._reading.options.get(rule.system) or self.options_key(ctx, rule.system),
               concept.chain if concept else None)
        found = self.store.get(key) or self._kept(key)
        if found is None:
            pieces = self._pieces(wits, keys)
            found = self._rule_finding(rule, fact, pieces, where, ctx, concepts)
            if None not in keys:  # (a walk not of this reading's patterns: not kept)
                # kept under the pieces' own keys: equal to the witnesses' keys and shared by every
                # finding of the same witness (less memory, and a lookup compares warmer keys)
                self.store[(key[0], tuple([x.key for x in pieces]), *key[2:])] = found
        return found

    def _rule_finding(self, rule, fact: Fact, pieces: list[Piece], where: list, ctx, concepts: dict) -> dict:
        """A rule's finding made from its witnesses' pieces."""
        p = self.pieces
        head, binds, rest = self.walk_to(fact.subject, pieces, concepts)
        path = head + [p.hop(fact), p.node(fact.object)]
        id_, topic, rule_json, src = self._rule_parts(rule, fact)
        return finding(finding_id=_scoped(id_, where), system=rule.system, topic=topic, query="rules",
                       rule=rule_json, polarity=rule.polarity, judgment=rule.judgment,
                       bindings=_bindings(binds, rest), path=path, evidence=[x.walk for x in rest],
                       meaning=p.meaning(path[-1]), src=src, variant=fact.variant,
                       options=ctx.bindings.options.get(rule.system, {}))

    def _rule_parts(self, rule, fact: Fact) -> tuple:
        """(the finding's id without its scope instances, its topic's name, its rule, its src) of a
        rule (made once per rule)."""
        found = self._rules.get(rule.fact)
        if found is None:
            topic = self.r.rule_topic[rule.fact]
            found = self._rules[rule.fact] = (f"{rule.system}/rules/{fact.id}",
                                              self.r.props[topic]["name"] if topic else None,
                                              *self._parts_of(fact, self.r._name(fact)))
        return found

    def pattern(self, pattern: str, results: list, ctx, concepts: dict) -> tuple[list, list]:
        """(the findings of a pattern that holds, its walks [path, *evidence]) from the results
        ``(rule, ok, witnesses, where)`` of its case's REQUIRES rules."""
        return self.pattern_found(pattern, results, ctx, concepts)[0]

    def pattern_found(self, pattern: str, results: list, ctx, concepts: dict) -> tuple:
        """:meth:`pattern` and the pieces of the walks, registered for this reading (:meth:`register`)."""
        req, system = self.r.facts[results[0][0].fact], results[0][0].system
        concept = concepts.get(req.object)
        keys = [self._keys(ws) for _, _, ws, _ in results]
        key = (pattern, tuple((r.fact, ks, tuple(where)) for (r, _, _, where), ks in zip(results, keys)),
               ctx.topic, self.options_key(ctx, system), concept.chain if concept else None)
        found = self.store.get(key) or self._kept(key)
        if found is None:
            found = self._pattern_made(pattern, results, keys, ctx, concepts)
            if all(None not in ks for ks in keys):
                self.store[key] = found
        self.register(found[1])
        return found

    def register(self, walk_pieces: list) -> None:
        """Make a pattern's walks this reading's: a rule with pattern(P) keys its walks by their pieces."""
        walks = self._reading.walks
        for piece in walk_pieces:
            walks[id(piece.walk)] = piece

    def _pattern_made(self, pattern: str, results: list, keys: list, ctx, concepts: dict) -> tuple:
        """((the pattern's findings, its walks), the walks' pieces): the walk from a chart slot to the
        pattern goes through its first REQUIRES edge; the other walks are its evidence."""
        p = self.pieces
        req = self.r.facts[results[0][0].fact]
        pieces = [x for (_, _, ws, _), ks in zip(results, keys) for x in self._pieces(ws, ks)]
        head, binds, rest = self.walk_to(req.object, pieces, concepts)
        path = Piece(head + [p.hop(req, forward=False), p.node(pattern)], ("pattern", next(self._tokens)))
        evidence = [x.walk for x in rest]
        made = self._pattern_findings(pattern, results, path.walk, evidence, _bindings(binds, rest), ctx)
        return (made, [path.walk, *evidence]), [path, *rest]

    def _pattern_findings(self, pattern: str, results: list, path: list, evidence: list, bindings: dict,
                          ctx) -> list[dict]:
        """The pattern itself (the walk ends at the pattern), then a finding per meaning of it that has no
        condition of its own and no other topic (meanings with a condition are rules, found as such)."""
        r, p = self.r, self.pieces
        first_rule, _, _, where = results[0]
        req = r.facts[first_rule.fact]
        judgment = "; ".join(x.judgment for x, *_ in results if x.judgment)
        options = ctx.bindings.options.get(first_rule.system, {})
        meanings = [m for m in r.meanings.get(pattern, ())
                    if dict(m.qualifiers).get("topic") in (None, ctx.topic, *ctx.topics)]
        out = []
        for m in [None, *meanings]:
            full = path + [p.hop(m), p.node(m.object)] if m else path
            polarity = m.polarity if m and m.polarity else first_rule.polarity
            topic = dict(m.qualifiers).get("topic") if m else r.rule_topic[first_rule.fact]  # a case read under a topic
            rule_json, src = self._parts_of(m or req, r.props[pattern]["name"])
            out.append(finding(finding_id=_scoped(f"{first_rule.system}/patterns/{(m or req).id}", where),
                               system=first_rule.system, topic=r.props[topic]["name"] if topic else None,
                               query="patterns", rule=rule_json, polarity=polarity, judgment=judgment,
                               bindings=bindings, path=full, evidence=evidence, meaning=p.meaning(full[-1]),
                               src=src, variant=(m or req).variant, options=options))
        return out


def with_options(findings: list[dict], b) -> list[dict]:
    """The lore findings (kept and shared whatever the options) with the school options of their system in this
    chart, as a rule's finding has them."""
    options = b.options
    return [{**f, "options": options[f["system"]]} if options.get(f["system"]) else f for f in findings]


def tally(findings: list[dict]) -> dict:
    """Per topic (None = the general reading): how many findings of each polarity."""
    counted = Counter([(f["topic"] or "general", f["polarity"]) for f in findings])
    out: dict = {}
    for (topic, polarity), n in counted.items():  # topics in the order of their first finding
        row = out.get(topic)
        if row is None:
            row = out[topic] = dict.fromkeys(POLARITY_MARKS, 0)
        if polarity in row:
            row[polarity] += n
    return out
