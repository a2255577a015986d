"""Findings: a rule that holds, as JSON with its ordered path, its evidence and its source.

The path starts at a chart slot's node, follows the chart hops (marked ``chart: true``) and graph
edges (each with its type, key and ``src``) that decided the condition, and ends with the fact's own
edge to its meaning. The walks of the condition's other parts are the finding's ``evidence``.

Findings are assembled from the shared, read-only pieces of :mod:`leishen.readings.walks` and kept by
:class:`Made`.
"""

from __future__ import annotations

from collections import Counter
from itertools import count

from leishen.loaders.records import Fact
from leishen.readings.cache import keep
from leishen.readings.records import GraphWitness, QualifierWitness, RuleResult, WalkWitness
from leishen.readings.walks import Piece, Pieces

POLARITY_MARKS = ("吉", "凶", "平", "混")


def finding(*, finding_id: str, system: str, topic: str | None, query: str, rule: dict,
            polarity: str | None, judgment: str, bindings: dict, path: list, evidence: list,
            meaning: dict | None, src: list, variant: str | None, options: dict) -> dict:
    """The finding JSON (see docs/readings.md); *rule*, *src*, *meaning* and the walks are shared pieces."""
    return {"id": finding_id, "system": system, "topic": topic, "query": query, "rule": rule,
            "polarity": polarity or None, "certainty": "needs_judgment" if judgment else "holds",
            "judgment": judgment or None, "bindings": bindings, "path": path, "evidence": evidence,
            "meaning": meaning, "src": src, "variant": variant or None, "options": options}


def lore_finding(system, query, suffix, fact_id, reader, path, evidence, mean, bindings) -> dict:
    """The finding JSON of a lore reading (no rule of the tables: a ``holds`` without polarity) of the fact
    *fact_id* (its row's item, src and variant; a relation row of no fact: the src of the path's edge)."""
    fact = reader.facts.get(fact_id)
    return {"id": f"{system}/{query}/{suffix}", "system": system, "topic": None, "query": query,
            "rule": {"fact": fact_id, "name": query, "item": (fact.item or None) if fact else None},
            "polarity": None, "certainty": "holds", "judgment": None, "bindings": bindings,
            "path": path, "evidence": evidence, "meaning": mean,
            "src": [str(c) for c in fact.src] if fact else path[1].get("src") or [],
            "variant": (fact.variant or None) if fact else None, "options": {}}


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
    read-only), from the reader's ``findings`` store (:mod:`leishen.readings.cache`). A new finding is
    assembled from the pieces (walks, hops, nodes, meanings) of :class:`Pieces`, made once per witness, fact
    and node. What belongs to one reading (its options keys, its slot concepts) is the
    :class:`~leishen.readings.reading.Reading`'s."""

    def __init__(self, reader):
        self.r = reader
        self.pieces = Pieces(reader.props, reader.kept)
        self._tokens = count()  # each pattern walk's key: a number never given twice

    def _pieces(self, wits: list, keys: tuple) -> list[Piece]:
        """The witnesses' pieces (made once per key)."""
        return [w.piece if type(w) is WalkWitness else self.pieces.piece(w, key) for w, key in zip(wits, keys)]

    def _parts_of(self, fact: Fact, name: str) -> tuple[dict, list]:
        """The finding's ``rule`` and ``src`` of a fact (made once per fact and name)."""
        return keep(self.r.kept.findings, ("parts", fact.id, name), lambda: (
            {"fact": fact.id, "name": name, "item": fact.item or None}, [str(c) for c in fact.src]))

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

    def rule(self, rule, wits: list, where: list, rd) -> dict:
        """The finding of a rule that holds in reading *rd*: its path reaches the fact's subject and ends at its
        meaning."""
        fact = self.r.book.facts[rule.fact]
        concept = rd.concepts.get(fact.subject)
        keys = _keys(wits) if wits else ()
        key = (rule.fact, keys, tuple(where) if where else (), rd.options[rule.system],
               concept.chain if concept else None)
        store = self.r.kept.findings
        found = store.get(key)
        if found is None:
            pieces = self._pieces(wits, keys)
            found = self._rule_finding(rule, fact, pieces, where, rd)
            # kept under the pieces' own keys: equal to the witnesses' keys and shared by every
            # finding of the same witness (less memory, and a lookup compares warmer keys)
            store[(rule.fact, tuple([x.key for x in pieces]), *key[2:])] = found
        return found

    def _rule_finding(self, rule, fact: Fact, pieces: list[Piece], where: list, rd) -> dict:
        """A rule's finding made from its witnesses' pieces."""
        p = self.pieces
        if fact.subject_alternatives:
            pieces = _held_first(fact, pieces)
        head, binds, rest = self.walk_to(fact.subject, pieces, rd.concepts)
        if fact.subject_alternatives:
            head = _one_of(fact, head)
        path = head + [p.hop(fact), p.node(fact.object)]
        meant = p.meaning(path[-1])
        if fact.object_alternatives:
            meant = self._meant(fact, meant, {*binds.values(), *(x.end for x in rest),
                                              *(s["node"]["id"] for s in head if "node" in s)})
        id_, topic, rule_json, src = self._rule_parts(rule, fact)
        return finding(finding_id=_scoped(id_, where), system=rule.system, topic=topic, query="rules",
                       rule=rule_json, polarity=rule.polarity, judgment=rule.judgment,
                       bindings=_bindings(binds, rest), path=path, evidence=[x.walk for x in rest],
                       meaning=meant, src=src, variant=fact.variant,
                       options=rd.bindings.options.get(rule.system, {}))

    def _meant(self, fact: Fact, meant: dict, walked: set) -> dict:
        """The meaning of a row naming alternatives of its object (``or`` …): the one the chart binds (004:55
        惟忌驚傷與杜死: 死門 where the 值使 is 死門), else all of them, as any of them may be the one that held
        (悖格或門迫)."""
        if fact.object in walked:
            return meant
        held = next((a for a in fact.object_alternatives if a in walked), None)
        if held is not None:
            return self.pieces.meaning(self.pieces.node(held))
        every = [meant, *(self.pieces.meaning(self.pieces.node(a)) for a in fact.object_alternatives)]
        return {"id": fact.object, **{k: OR[k].join(m.get(k) or m["zh"] for m in every) for k in OR},
                "one_of": [m["id"] for m in every]}

    def _rule_parts(self, rule, fact: Fact) -> tuple:
        """(the finding's id without its scope instances, its topic's name, its rule, its src) of a
        rule (made once per rule)."""
        book = self.r.book
        return keep(self.r.kept.findings, ("rule", rule.fact), lambda: (
            f"{rule.system}/rules/{fact.id}", book.props[book.rule_topic[rule.fact]]["name"]
            if book.rule_topic[rule.fact] else None, *self._parts_of(fact, book._name(fact))))

    def pattern(self, pattern: str, results: list[RuleResult], rd) -> tuple[list, list]:
        """(the findings of a pattern that holds in reading *rd*, the pieces of its walks [path, *evidence]) from
        the results of its case's REQUIRES rules."""
        first = results[0].rule
        req = self.r.facts[first.fact]
        concept = rd.concepts.get(req.object)
        keys = [_keys(res.witnesses) for res in results]
        key = (pattern, tuple((res.rule.fact, ks, tuple(res.where)) for res, ks in zip(results, keys)),
               rd.topic, rd.options[first.system], concept.chain if concept else None)
        return keep(self.r.kept.findings, key, self._pattern_made, pattern, results, keys, rd)

    def _pattern_made(self, pattern: str, results: list[RuleResult], keys: list, rd) -> tuple:
        """(the pattern's findings, the pieces of its walks): the walk from a chart slot to the pattern goes
        through its first REQUIRES edge; the other walks are its evidence."""
        p = self.pieces
        req = self.r.facts[results[0].rule.fact]
        pieces = [x for res, ks in zip(results, keys) for x in self._pieces(res.witnesses, ks)]
        head, binds, rest = self.walk_to(req.object, pieces, rd.concepts)
        path = Piece(head + [p.hop(req, forward=False), p.node(pattern)], ("pattern", next(self._tokens)))
        evidence = [x.walk for x in rest]
        made = self._pattern_findings(pattern, results, path.walk, evidence, _bindings(binds, rest), rd)
        return made, [path, *rest]

    def _pattern_findings(self, pattern: str, results: list, path: list, evidence: list, bindings: dict,
                          rd) -> list[dict]:
        """The pattern itself (the walk ends at the pattern), then a finding per meaning of it that has no
        condition of its own and no other topic (meanings with a condition are rules, found as such)."""
        r, p = self.r, self.pieces
        first_rule, where = results[0].rule, results[0].where
        req = r.facts[first_rule.fact]
        judgment = "; ".join(res.rule.judgment for res in results if res.rule.judgment)
        options = rd.bindings.options.get(first_rule.system, {})
        meanings = [m for m in r.meanings.get(pattern, ())
                    if dict(m.qualifiers).get("topic") in (None, rd.topic, *rd.topics)]
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


def _keys(wits: list) -> tuple:
    """What each witness is, as a hashable key: a chart chain as it is; a graph witness by its edges (the answer's
    ``Hops.key``) and its end slots; a qualifier witness without its src (the fact's own); a pattern's walk by its
    piece's key."""
    return tuple([_key(w) for w in wits])


def _key(w):
    kind = type(w)
    if kind is GraphWitness:
        return ("graph", w.hops.key, w.start, w.end)
    if kind is WalkWitness:
        return w.piece.key
    if kind is QualifierWitness:
        return ("qualifier", w.fact, w.object, w.role, w.value, w.chain)
    return w


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


OR = {"zh": "或", "ko": " 또는 ", "en": " or "}  # a meaning that is one of a row's alternatives (悖格或門迫)


def _held_first(fact: Fact, pieces: list[Piece]) -> list[Piece]:
    """The witnesses of a row naming alternatives of its subject, one that ends at an alternative first when none
    ends at the subject (004:71 截空與刑害: the 刑 witness leads where 刑 held)."""
    ends = [x.end for x in pieces]
    if fact.subject in ends:
        return pieces
    i = next((i for i, end in enumerate(ends) if end in fact.subject_alternatives), 0)
    return [pieces[i], *pieces[:i], *pieces[i + 1:]] if i else pieces


def _one_of(fact: Fact, head: list) -> list:
    """A walk reaching a row's subject by a ``MEETS`` chart hop, with the subject's alternatives named on the hop
    (``one_of``) and, when the walk ends at one of them, which held (``held``: 刑 of 004:71 截空與刑害)."""
    if len(head) < 3 or head[-2].get("rel") != "MEETS":
        return head
    end = head[-3].get("node", {}).get("id")
    alternatives = fact.subject_alternatives
    hop = {**head[-2], "one_of": [fact.subject, *alternatives], **({"held": end} if end in alternatives else {})}
    return [*head[:-2], hop, head[-1]]
