"""One chart's reading: what it holds while its rules are decided, with one memo (issue #37), and the two look-ups
kept in that memo (:func:`instances_with`, :func:`at_index`).

A :class:`~leishen.readings.read.Reader` makes a :class:`Reading` for each chart it reads (``read``, ``test``,
``find``) and hands it to an evaluator (:mod:`leishen.readings.evaluators`); the compiled conditions are evaluated
against it (``ev(env, reading, answers)``, :mod:`leishen.readings.protocol`). It lives as long as the reading:
what lasts between readings is the reader's (:mod:`leishen.readings.cache`) or the book's.
"""

from __future__ import annotations

from leishen.readings.bindings import chart_bindings

SYSTEMS = ("liuren", "qimen", "ninestar")


class Reading:
    """One chart's reading (the public attributes, twelve at most: tests/readings/test_reading.py):

    - ``reader``: the reader it is read by (its book, its stores, its backend);
    - ``chart``, ``bindings``: the chart and its slots bound to node ids (:mod:`leishen.readings.bindings`);
    - ``topic``: the topic asked (a Topic id, ``*`` or None), ``topics``: those the reading covers;
    - ``scope``: the rules it tries (:class:`~leishen.readings.evaluators.ReadingScope`);
    - ``patterns``: (system, pattern) → the pieces of its walks, once the patterns are decided; ``undecided``: while
      the checks are collected, the patterns that may hold;
    - ``answers``: its answers to ground checks (:class:`~leishen.readings.evaluators.Answers`);
    - ``concepts``: the Concept nodes that stand for a chart slot (Concept:日干 …) → the slot's Bound;
    - ``options``: system → its school options as a key (a finding depends on them);
    - ``memo``: the one memo: what the reading looks up more than once (the instances of a scope with a local
      bound to some nodes, the instances ``at`` names, the palaces a pattern holds in …)."""

    __slots__ = ("reader", "chart", "bindings", "topic", "topics", "scope", "patterns", "undecided", "answers",
                 "concepts", "options", "memo")

    def __init__(self, reader, chart: dict, topic: str | None, only: frozenset | None = None):
        self.reader, self.chart, self.topic = reader, chart, topic
        self.bindings = b = chart_bindings(chart, reader.lex, reader.seasons, reader.kept.sections)
        self.topics = reader.topic_scope(topic)
        self.scope = reader.scope_of(b.systems, self.topics, only)
        self.patterns, self.undecided, self.answers, self.memo = {}, frozenset(), None, {}
        self.options = {system: repr(b.options.get(system, {})) for system in SYSTEMS}
        slots = b.slots
        self.concepts = {cid: slots[name] for name, cid in reader.book.slot_concept_ids.items()
                         if name in slots and isinstance(slots[name].value, str)}


def instances_with(reading: Reading, scope: str, local: str, values: frozenset) -> list[tuple[str, dict]]:
    """The instances of a scope whose local slot is bound to one of *values*, in scope order (rules often ask
    the same), kept in *reading*'s memo."""
    asked = (scope, local, values)
    hit = reading.memo.get(asked)
    if hit is not None:
        return hit
    found = reading.bindings.scopes.get(scope, ())
    index = reading.memo.get((scope, local))
    if index is None:
        index = reading.memo[(scope, local)] = {}
        for i, (_, inst) in enumerate(found):
            bound = inst.get(local)
            if bound is not None:
                index.setdefault(bound.value, []).append(i)
    hits = [i for v in values for i in index.get(v, ())]
    hit = reading.memo[asked] = [found[i] for i in (sorted(hits) if len(hits) > 1 else hits)]
    return hit


def at_index(reading: Reading) -> tuple[dict, dict]:
    """The instances ``at`` names: (transmission name → instance, palace or earth position → the first
    instance of 宮, then 位, keyed by it), kept in *reading*'s memo."""
    found = reading.memo.get("at")
    if found is None:
        scopes = reading.bindings.scopes
        by_name = {key: (key, local) for key, local in scopes.get("傳", ())}
        by_place: dict = {}
        for scope in ("宮", "位"):
            for key, local in scopes.get(scope, ()):
                by_place.setdefault(key, (key, local))
        found = reading.memo["at"] = (by_name, by_place)
    return found
