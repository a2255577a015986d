"""A chart read by graph traversal: every rule the chart meets, as findings with paths and sources.

:class:`Reader` reads a rule book (:mod:`leishen.readings.book`: the compiled rules, the tables and the graph's
answers) over a backend, with what it keeps from one reading to the next (:mod:`leishen.readings.cache`). ``read``
makes a :class:`~leishen.readings.reading.Reading` of the chart (its slots bound, its scope: the rules of its
systems and topics), has an evaluator (:mod:`leishen.readings.evaluators`) decide the patterns first (a pattern
holds when every ``REQUIRES`` rule of one of its cases holds), then every other rule, adds the lore readings, and
returns the findings, the per-topic tally of 吉 / 凶 / 平 / 混 and the list of findings that need judgment.
``test`` and ``find`` (``read`` with ``only``) go the same way.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from leishen.loaders.build import build_graph
from leishen.loaders.conditions import parse_condition
from leishen.readings.bindings import chart_names
from leishen.readings.book import RuleBook
from leishen.readings.cache import Kept, switched_off
from leishen.readings.evaluate import compile_condition
from leishen.readings.evaluators import Answers, Batched, Plain, ReadingScope, Recalled
from leishen.readings.records import ask_checks
from leishen.readings.findings import Made, tally, with_options
from leishen.readings.walks import witness_walk
from leishen.readings.lore import (checked_lessons, leixiang_findings, lore_checks, lore_findings, relation_findings,
                                   relation_rows, shensha_findings, slot_relations)
from leishen.readings.outcomes import Recall
from leishen.readings.reading import Reading
from leishen.readings.topics import ALL_TOPICS, TopicError  # noqa: F401
from leishen.engine.trail import chart_trail


class Reader:
    """Reads charts against a :class:`~leishen.readings.book.RuleBook` (made by :mod:`leishen.service.book`),
    on the backend it is handed; what the book holds (``props``, ``facts``, ``compiled`` …) is read through it.

    A reader over a book answers every check from the book; *cache* False (a server's default: a backend that
    does not ``keeps_answers``) makes it **live**: each reading asks the backend (``rule_checks`` and the relation
    queries). *evaluator*: ``recalled`` (the default of a book reader), ``batched`` (the default of a live one), or
    ``plain`` (the reference; ``recall=False``). *variants* also reads the rows the tables keep as variants of the
    text (原本作, 沈本作, typo …); by default a reading follows the regular rows only."""

    def __init__(self, backend, corpus=None, *, cache: bool | None = None, variants: bool = False,
                 recall: bool = True, evaluator: str | None = None, book: RuleBook | None = None):
        self.backend = backend
        self.live = switched_off() or not (cache if cache is not None else backend.keeps_answers)
        if book is None:
            data = build_graph(corpus)
            if backend.checks_load:  # a server's graph may be older than these tables
                backend.check_loaded_from(data)
            book = RuleBook(data, None if self.live else backend, variants=variants)
        self.book = book
        self.kept = Kept(not self.live)  # what lasts between readings
        self.memo = None if self.live else self.kept.memo  # the graph leaves' results, over the book's answers
        self.evaluator = evaluator or (None if recall else "plain")  # None: by the reader (see evaluator_now)
        self.evaluators = {"plain": Plain(self), "batched": Batched(self), "recalled": Recalled(self)}
        self.made = Made(self)
        self._pool = None  # the worker threads that ask a server the relation queries (_ask_relations)
        self._pool_lock = threading.Lock()
        self.recall = Recall(self)  # outcomes recalled by what they read (the recalled evaluator)

    def __getattr__(self, name: str):
        """What the book holds (``props``, ``facts``, ``compiled``, ``topics()`` …), read through the reader."""
        if name.startswith("__") or name == "book":
            raise AttributeError(name)
        return getattr(self.book, name)

    @property
    def data(self):
        """The graph records of the default corpus (the book does not keep them)."""
        return build_graph()

    # ---- a reading's evaluator, scope and answers -----------------------------------------------
    def evaluator_now(self, only=None):
        """The evaluator of a reading: the one asked for, else ``recalled`` over the book (``plain`` for a ``find``'s
        few chosen rules), ``batched`` on a live reader."""
        recall = only is None and self.kept.budget > 0 and "outcomes" not in self.kept.off  # (outcomes kept)
        name = self.evaluator or ("batched" if self.live else "recalled" if recall else "plain")
        return self.evaluators[name]

    def scope_of(self, systems: tuple, topics: frozenset, only: frozenset | None = None) -> ReadingScope:
        """The :class:`ReadingScope` of a reading of these systems and topics (kept per such pair; with *only*,
        the cases and rules of those facts alone). In scope: a rule of a system the chart has, with no topic or one
        the reading covers (the topic asked or one it is a case of; every topic when the reading asks ALL_TOPICS)."""
        key = (systems, topics, only)
        found = self.kept.scopes.get(key)
        if found is not None:
            return found
        if only is not None:
            full = self.scope_of(systems, topics)
            patterns = {k: [c for c in cases if only.issuperset(r.fact for r in c[1])]
                        for k, cases in full.patterns.items()}
            found = full._replace(patterns={k: cases for k, cases in patterns.items() if cases},
                                  others=tuple(r for r in full.others if r.fact in only), only=only)
        else:
            facts = frozenset(r.fact for r in self.rules if r.system in systems
                              and (self.rule_topic[r.fact] is None or self.rule_topic[r.fact] in topics))
            patterns: dict = {}  # (system, pattern) → its cases: a name two systems share is two patterns
            for position, ((pattern, _), rules) in enumerate(self.cases.items()):
                rules = tuple(r for r in rules if r.fact in facts)
                if rules:
                    patterns.setdefault((rules[0].system, pattern), []).append((position, rules))
            found = ReadingScope(facts, patterns, tuple(r for r in self.others if r.fact in facts))
        self.kept.scopes[key] = found
        return found

    def ask(self, checks: set) -> dict:
        """Every ground check → its witness hops (None when it does not hold), in one backend call."""
        return ask_checks(self.backend, checks, self.variants)

    def answers(self, checks: set = frozenset()) -> Answers:
        """A reading's answers: the book's (none on a live reader), then the backend's to *checks* the book does not
        hold (asked in one call: the batched evaluator's), then the backend's, a check at a time."""
        book = {} if self.live else self.book.answers
        return Answers(book, self.ask, self.ask({c for c in checks if c not in book}) if checks else {})

    # ---- the doors -------------------------------------------------------------------------------
    def read(self, chart: dict, *, topic: str | None = None, only: set | None = None, lore: bool = True,
             trail: bool = True, lessons: str | None = None) -> dict:
        """The reading of a chart (JSON-able dict; see docs/readings.md). *only* limits the rules to
        those fact ids (``find``), *lore* adds the kin / stages / vigour / relations readings; *lessons*: the
        reading option of the places a 神煞 is read at (``core``, the default, or ``all``: lore.LESSONS)."""
        lessons = checked_lessons(lessons)
        self.kept.start()
        rd = Reading(self, chart, self.topic_id(topic), None if only is None else frozenset(only))
        b, evaluator = rd.bindings, self.evaluator_now(only)
        lore_asked = lore_checks(self, b) if lore else []
        early_rows = self._ask_relations(b, rd.topic) if lore and evaluator is self.evaluators["batched"] else None
        findings, tried, checks = evaluator.run(rd, {c for _, checks in lore_asked for c in checks.values()})
        counts = {"rules_in_scope": len(rd.scope.facts), "rules_tried": tried, "checks": checks,
                  "out_of_scope": len(self.rules) - len(rd.scope.facts)}
        if lore:  # the kin / stages / vigour, 刑 沖 破 害 合, 神煞 (at the places *lessons* names) and 類神 findings
            among, rows = early_rows.result() if early_rows else self._relations(b, rd.topic)
            findings = findings + with_options(
                lore_findings(self, b, rd.answers, lore_asked) + relation_findings(self, b, among)
                + shensha_findings(self, b, rows, lessons) + leixiang_findings(self, b, rd.topic, rows), b)
        return {**self._reading(chart, b, rd.topic, findings, counts, trail), "options": {"lessons": lessons}}

    def test(self, chart: dict, when: str, *, topic: str | None = None, system: str | None = None) -> dict:
        """Whether a condition written in the vocabulary holds in a chart, with the walks that decided it
        (``{"holds", "walks", "where"}``); the patterns are decided first, as a reading decides them, so
        ``pattern(P)`` holds where a reading finds P. ConditionError when the condition is malformed."""
        call, system = parse_condition(when, schema=self.data_schema, index=self.lex.index,
                                       system_hint=system or "liuren", vocab=self.vocab)
        self.kept.start()
        rd = Reading(self, chart, self.topic_id(topic))
        (ok, wits, where), _, _ = self.evaluator_now().run(rd, condition=compile_condition(call, self.vocab, system))
        return {"holds": ok, "walks": [witness_walk(w, self.props) for w in wits], "where": where, "system": system}

    # ---- the reading's JSON and its lore --------------------------------------------------------
    def _reading(self, chart: dict, b, topic_id, findings: list, counts: dict, trail: bool) -> dict:
        """The reading's JSON from its findings."""
        counts["findings"] = len(findings)
        return {"moment": chart.get("moment"), "pillars": chart.get("pillars"), "systems": list(b.systems),
                "topic": self.props[topic_id]["name"] if topic_id not in (None, ALL_TOPICS) else topic_id,
                "bindings": b.as_ids(), "names": chart_names(chart, self.lex),
                "findings": findings, "tally": tally(findings),
                "needs_judgment": [f["id"] for f in findings if f["certainty"] == "needs_judgment"],
                "counts": counts, "trail": chart_trail(chart) if trail else None, "chart": chart}

    def _relations(self, b, topic_id: str | None) -> tuple[list, object]:
        """The rows of the two relation queries of a reading (``relations_among`` for the 刑 沖 破 害 合,
        ``relations_from`` for the 類神 and 神煞): they depend on the bindings only."""
        return relation_rows(self, b), slot_relations(self, b, topic_id)

    def _ask_relations(self, b, topic_id: str | None):
        """On a backend that takes concurrent reads (a server: each thread has its own session), the relation
        queries asked from a worker thread while this one collects the checks and asks ``rule_checks``
        (a Future of :meth:`_relations`); else None, and they are asked in turn."""
        if not self.backend.concurrent_reads:
            return None
        with self._pool_lock:  # readings made at once (the HTTP service's threads) share one pool
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="leishen-relations")
        return self._pool.submit(self._relations, b, topic_id)


__all__ = ["Reader", "TopicError", "tally"]
