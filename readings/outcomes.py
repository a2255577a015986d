"""Recalled outcomes: a rule's finding is a function of the chart values its condition reads, so a reader
with the cache on keeps each rule's outcome under those values and recalls it when a later chart has them.

What a condition reads is found from its compiled tree (:func:`rule_reads`), as *atoms*:

* ``("slot", name, path)``: a chart-level slot after its suffixes (its chain of chart hops);
* ``("local", scope, local, name, path)``: a local slot in every instance of a scope (宮 天, 位 將 …);
* ``("inst", scope)``: which instances a scope has (their keys);
* ``("below", …)`` / ``("localbelow", …)``: the earth position under a slot's value (``over``);
* ``("pattern", system, P)``: the outcome of pattern P (its walks), decided before the other rules.

The rules of a reading scope (the systems, the topics, the school options) that read the same atoms form a
*group*: one lookup per group and chart, under the atoms' values, gives the findings of all its rules. A
group seen with other values is evaluated (every rule of it, unpruned: pruning never changes a
result) and kept. The patterns are groups of their own (every case of one pattern). A finding is recalled
only where it would be found again: ``tests/readings/test_outcomes.py`` reads random charts with and
without recall and compares the readings.
"""

from __future__ import annotations

import threading
from operator import itemgetter

from leishen.readings.evaluators import first, pattern_found, rule_findings
from leishen.readings.predicates import Arg, slot_arg


class Unread(Exception):
    """A node whose reads are not known: its rule is evaluated in every reading."""


class Reads:
    """The collector a compiled condition tells what it reads of a chart (:meth:`Predicate.reads`): atoms, each
    with a compiled :class:`Arg` that reads it (None for atoms that are not one slot); over-approximated (a slot
    that may be read is an atom). *stack*: the scopes enclosing the node (a local slot is read in each that has
    it); *cases_of(system, P)*: the REQUIRES trees of P's cases (``pattern_here`` reads them)."""

    __slots__ = ("locals_of", "cases", "stack", "out")

    def __init__(self, locals_of: dict, cases_of, stack: tuple = (), out: dict | None = None):
        self.locals_of, self.cases, self.stack = locals_of, cases_of, stack
        self.out = {} if out is None else out

    def atom(self, atom: tuple, arg: Arg | None = None) -> None:
        self.out.setdefault(atom, arg)

    def slot(self, name: str) -> None:
        """The chart-level slot *name*, outside any scope."""
        self.top().arg(slot_arg(name))

    def arg(self, a: Arg, kind: str = "") -> None:
        """The atoms a slot argument reads: the chart-level slot (an instance's local falls back to it) and
        the local in every enclosing scope that has one of its name; ``上`` of a stem also reads 寄宮 and 日干.
        *kind* ``below``: the earth position under its value instead (``over``)."""
        if a.slot is None:
            return
        path = tuple(a.path)
        self.atom((kind or "slot", a.name, path), a)
        for level in self.stack:
            for ref in level:
                if a.local in self.locals_of.get(ref, ()):
                    self.atom(("local" + kind, ref, a.local, a.name, path), a)
        if "上" in path:
            for name in ("寄宮", "日干"):
                self.atom(("slot", name, ()), slot_arg(name))

    def inner(self, scopes: tuple) -> "Reads":
        """The collector inside a scope over *scopes* (one, or the scopes ``at`` may name)."""
        return Reads(self.locals_of, self.cases, (*self.stack, scopes), self.out)

    def top(self) -> "Reads":
        return Reads(self.locals_of, self.cases, (), self.out)

    def unread(self, node) -> None:
        raise Unread(type(node).__name__)


def atom_value(atom: tuple, arg: Arg | None, b):
    """The value of a chart atom in bindings *b* (chains of chart hops, instance keys, the plate)."""
    kind = atom[0]
    if kind == "slot":
        bound = arg.bound({}, b)
        return None if bound is None else bound.chain
    if kind == "below":
        bound = arg.bound({}, b)
        return None if bound is None else b.below.get(bound.value)
    if kind == "inst":
        return tuple([key for key, _ in b.scopes.get(atom[1], ())])
    chains = []
    for _, local in b.scopes.get(atom[1], ()):
        bound = arg.bound(local, b)
        if kind == "localbelow":
            chains.append(None if bound is None else b.below.get(bound.value))
        else:
            chains.append(None if bound is None else bound.chain)
    return tuple(chains)


def rule_reads(book, fact_id: str) -> dict | None:
    """The atoms the outcome of the rule of *fact_id* depends on (None: not known), each with a compiled
    :class:`Arg` that reads it (None for atoms that are not one slot): everything the evaluation of its condition can
    read of a chart, as each predicate class says (:class:`Reads`), and the slot a Concept its fact names stands for
    (the finding's path may start there)."""
    def cases_of(system: str, pattern: str) -> list:
        return [book.compiled[r.fact] for (p, _), rules in book.cases.items() if p == pattern
                for r in rules if r.system == system]
    collector = Reads(book.locals_of, cases_of)
    try:
        book.compiled[fact_id].reads(collector)
    except Unread:
        return None
    found = collector.out
    concept_slot = {cid: name for name, cid in book.slot_concept_ids.items()}
    fact = book.facts[fact_id]
    for end in (fact.subject, fact.object):
        if end in concept_slot:
            found.setdefault(("slot", concept_slot[end], ()), slot_arg(concept_slot[end]))
    return found


class Group:
    """Rules of one reading scope that read the same atoms; their outcomes are kept in the reader's ``outcomes``
    store under (the group's serial, the numbers of the atoms' values): ``(order, finding)`` of each rule that
    held (REQUIRES groups: the pattern's result)."""

    __slots__ = ("atoms", "get", "rules", "serial")

    def __init__(self, atoms: tuple | None, numbers: dict, rules: list, serial: int):
        """*atoms* None: what the rules read is not known (never recalled); *serial*: the group's number among
        its recall's, never given twice (a pattern's outcome is numbered with it)."""
        self.atoms, self.rules, self.serial = atoms, rules, serial
        index = [numbers[a] for a in atoms or ()]
        self.get = itemgetter(*index) if index else lambda values: ()


class Recall:
    """The atoms and groups of a reader's rules, per reading scope; the numbers of the values seen and the outcomes
    are in the reader's ``outcomes`` store (:mod:`leishen.readings.cache`): ``("value", value)`` → its number
    (never given twice), ``(group serial, the numbers of its atoms' values)`` → the group's outcome."""

    def __init__(self, reader):
        self.r = reader
        self.scopes: dict = {}  # reading scope → what _make_scope makes
        self.groups_made = self.numbers = 0
        self.evaluated = self.recalled = 0  # rules evaluated, outcomes recalled, by this reader so far
        self._lock = threading.Lock()  # readings made at once on one reader recall one at a time

    # ---- a reading's scope ----------------------------------------------------------------------
    def _scope(self, rd) -> tuple:
        """What :meth:`_make_scope` makes for a reading scope: the systems, the topic asked and those it covers,
        the school options (kept per scope); None the first time a scope is read (a process that reads one chart
        never pays for the groups: that reading is evaluated as Plain does)."""
        key = (rd.bindings.systems, rd.topic, rd.topics, repr(rd.bindings.options))
        found = self.scopes.get(key, False)
        if found is None:
            found = self.scopes[key] = self._make_scope(rd.scope)
        elif found is False:
            self.scopes[key] = None
        return found or None

    def _make_scope(self, scope) -> tuple:
        """(the chart atoms: (number, atom, its arg); how many atoms; the pattern groups: (group, system, pattern,
        the number of its atom); the rule groups; the rules whose reads are not known: (order, rule))."""
        atoms: dict = {}  # atom → its arg (chart atoms) or None (pattern atoms), in first-use order
        pattern_groups, unread, rule_reads = [], [], self.r.book.reads
        for (system, pattern), its_cases in scope.patterns.items():
            reads: dict | None = {}
            for _, rules in its_cases:
                for rule in rules:
                    got = rule_reads[rule.fact]
                    reads = None if reads is None or got is None else {**reads, **got}
            if reads is not None:  # (in the patterns' phase no pattern is found yet: pattern(Q) reads none)
                reads = {a: arg for a, arg in reads.items() if a[0] != "pattern"}
            pattern_groups.append((system, pattern, its_cases, reads))
        grouped: dict = {}
        unknown = {("pattern", system, pattern) for system, pattern, _, reads in pattern_groups if reads is None}
        for order, rule in enumerate(scope.others):
            reads = rule_reads[rule.fact]
            if reads is None or not unknown.isdisjoint(reads):  # (a pattern never recalled: nor is the rule)
                unread.append((order, rule))
            else:
                grouped.setdefault(frozenset(reads), []).append((order, rule, reads))
        for reads in [r for *_, r in pattern_groups if r] + [r for rules in grouped.values() for *_, r in rules]:
            for atom, arg in reads.items():
                atoms.setdefault(atom, arg)
        for system, pattern, _, _ in pattern_groups:
            atoms.setdefault(("pattern", system, pattern), None)
        numbers = {atom: i for i, atom in enumerate(atoms)}
        chart_atoms = [(i, atom, atoms[atom]) for atom, i in numbers.items() if atom[0] != "pattern"]
        patterns = [(Group(None if reads is None else tuple(sorted(reads, key=numbers.get)), numbers, its_cases,
                           self._serial()), system, pattern, numbers[("pattern", system, pattern)])
                    for system, pattern, its_cases, reads in pattern_groups]
        rule_groups = [Group(tuple(sorted(atoms_of, key=numbers.get)), numbers, [(o, r) for o, r, _ in rules],
                             self._serial()) for atoms_of, rules in grouped.items()]
        return chart_atoms, len(numbers), patterns, rule_groups, unread

    def _serial(self) -> int:
        self.groups_made += 1
        return self.groups_made

    def _numbered(self, value, store: dict) -> int:
        key = ("value", value)
        n = store.get(key)
        if n is None:
            self.numbers += 1
            n = store[key] = self.numbers
        return n

    # ---- a reading ------------------------------------------------------------------------------
    def read(self, rd) -> list | None:
        """The findings of the patterns and rules of reading *rd*, in the order a reading finds them: each group's
        outcome recalled under the values of its atoms, or evaluated and kept (counted in ``evaluated`` and
        ``recalled``); None the first time its scope is read. One reading at a time (the numbers of the values are
        shared)."""
        with self._lock:
            return self._read(rd)

    def _read(self, rd) -> list | None:
        made = self._scope(rd)
        if made is None:
            return None
        chart_atoms, width, patterns, rule_groups, unread = made
        b, values, store, numbered = rd.bindings, [None] * width, self.r.kept.outcomes, self._numbered
        for i, atom, arg in chart_atoms:
            values[i] = numbered(atom_value(atom, arg, b), store)
        found, held, tried, recalled = [], {}, 0, 0
        for group, system, pattern, index in patterns:
            key = (group.serial, group.get(values)) if group.atoms is not None else None
            got = store.get(key) if key is not None else None
            if got is None:
                got, n = pattern_found(rd, pattern, group.rules)
                tried += n
                if key is not None:
                    store[key] = got
            else:
                recalled += 1
            if got:
                found.append(got)
                held[(system, pattern)] = got[2]
                values[index] = numbered(("pattern", group.serial, key, got[0]), store)
        findings = [f for _, made, _ in sorted(found, key=first) for f in made]
        rd.patterns, rd.undecided = held, frozenset()
        rules = []
        for group in rule_groups:
            key = (group.serial, group.get(values))
            got = store.get(key)
            if got is None:
                got = store[key] = rule_findings(rd, group.rules)
                tried += len(group.rules)
            else:
                recalled += len(group.rules)
            rules += got
        rules += rule_findings(rd, unread)
        rules.sort(key=first)
        self.evaluated += tried + len(unread)
        self.recalled += recalled
        return findings + [f for _, f in rules]
