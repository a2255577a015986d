"""How a reading decides its patterns and rules: one interface, three evaluators.

Every door (``read``, ``test``, ``find``) makes a :class:`~leishen.readings.reading.Reading` of the chart, with its
:class:`ReadingScope` (the in-scope rules of its systems and topics, and for ``find`` only those it asks for), and
hands it to an evaluator's ``run``:

- :class:`Plain`: the reference. Every case of every pattern in scope, then every rule in scope, in order,
  each decided by ``ev``; a check is answered by the book, else asked of the backend the first time it is needed
  (:class:`Answers`);
- :class:`Batched`: for a live reader (a server's). ``need`` collects the checks of every rule in scope the chart
  alone does not rule out (and of the lore readings), and the backend answers them in one ``rule_checks`` call
  (with the relation queries beside it: at most 3 round trips); then as :class:`Plain`;
- :class:`Recalled`: the accelerated one (a reader over a rule book): each rule's outcome recalled under the chart
  values it reads (:mod:`leishen.readings.outcomes`), else evaluated as :class:`Plain` does.

Each gives the findings :class:`Plain` gives (tests/readings/test_evaluators_differential.py compares them on random charts).
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from leishen.readings.evaluate import need_every
from leishen.readings.records import RuleResult

first = itemgetter(0)


class ReadingScope(NamedTuple):
    """What a reading of some systems and topics tries: the in-scope rule facts, the cases of each pattern
    ((system, pattern) → [(position, its in-scope REQUIRES rules), …] in reading order: a name two systems share is
    two patterns), the other rules in order, and *only*: the facts a ``find`` asks for (None: every rule in scope)."""

    facts: frozenset
    patterns: dict
    others: tuple
    only: frozenset | None = None


MISSING = object()


class Answers:
    """A reading's answers to ground checks: the book's (*book*, every check it was made with), then *known*,
    then the backend's (*ask*), asked the first time a check is needed and kept in *known* for this reading."""

    __slots__ = ("book", "ask", "known")

    def __init__(self, book: dict, ask, known: dict):
        self.book, self.ask, self.known = book, ask, known

    def get(self, check):
        found = self.book.get(check, MISSING)
        if found is MISSING:
            found = self.known.get(check, MISSING)
            if found is MISSING:
                self.known.update(self.ask({check}))
                found = self.known[check]
        return found


def pattern_found(rd, pattern: str, cases: list) -> tuple[tuple, int]:
    """((position of the first case whose every REQUIRES rule holds, its findings, its walks' pieces) or (), the
    rules evaluated): each case's rules are tried in order up to the first that does not hold."""
    compiled, tried = rd.reader.book.compiled, 0
    for position, rules in cases:
        results = []
        for rule in rules:
            ok, wits, where = compiled[rule.fact].ev({}, rd, rd.answers)
            tried += 1
            if not ok:
                break
            results.append(RuleResult(rule, wits, where))
        else:
            return (position, *rd.reader.made.pattern(pattern, results, rd)), tried
    return (), tried


def rule_findings(rd, rules, early: dict | None = None) -> tuple:
    """(order, finding) of each (order, rule) of *rules* that holds (*early*: results the chart alone decided while
    checks were collected)."""
    compiled, made, out = rd.reader.book.compiled, rd.reader.made, []
    for order, rule in rules:
        ok, wits, where = (early and early.get(rule.fact)) or compiled[rule.fact].ev({}, rd, rd.answers)
        if ok:
            out.append((order, made.rule(rule, wits, where, rd)))
    return tuple(out)


class Plain:
    """The reference evaluator (see the module's docstring)."""

    def __init__(self, reader):
        self.r = reader

    def run(self, rd, extra: set = frozenset(), condition=None) -> tuple:
        """Decide the reading's patterns, then its other rules — or, for ``test``, *condition* — with the answers
        (the reading's ``answers``; *extra*: checks the lore readings ask): (the findings, or the condition's
        ``(holds, witnesses, where)``; the rules tried; the checks asked at once)."""
        rd.answers = self.r.answers()
        return self.decide(rd, rd.scope.others, condition, 0)

    def decide(self, rd, others, condition, checks: int, maybe=None, early=None) -> tuple:
        """What :meth:`run` returns, the checks collected (*checks*) and the answers given; *maybe*: the only
        patterns that can hold, *others* the rules that can (the others the chart alone ruled out)."""
        findings = self.patterns(rd, maybe)
        if condition is not None:
            return condition.ev({}, rd, rd.answers), 0, checks
        tried = sum(len(rules) for cases in rd.scope.patterns.values() for _, rules in cases) + len(others)
        return findings + [f for _, f in rule_findings(rd, enumerate(others), early)], tried, checks

    def patterns(self, rd, maybe: frozenset | None = None) -> list:
        """The findings of the patterns that hold (those of *maybe* alone), in reading order; the patterns found
        become the reading's."""
        found, held = [], {}  # (system, pattern) → its walks' pieces
        for (system, pattern), cases in rd.scope.patterns.items():
            if maybe is None or pattern in maybe:
                got, _ = pattern_found(rd, pattern, cases)
                if got:
                    found.append(got)
                    held[(system, pattern)] = got[2]
        rd.patterns, rd.undecided = held, frozenset()
        return [f for _, made, _ in sorted(found, key=first) for f in made]


class Batched(Plain):
    """The evaluator for a server (see the module's docstring): one ``rule_checks`` call per reading."""

    def run(self, rd, extra: set = frozenset(), condition=None) -> tuple:
        checks = set()
        rd.undecided = self.need_patterns(rd, checks)
        if condition is not None:
            condition.need({}, rd, checks)
            others, early = (), None
        else:
            others, early = self.need_others(rd, checks)
        rd.answers = self.r.answers(checks | extra)
        return self.decide(rd, others, condition, len(checks), rd.undecided, early)

    def need_patterns(self, rd, out: set) -> frozenset:
        """Collect the checks that decide the patterns (each pattern's cases up to the first the chart alone decides
        true) and return the patterns that may hold."""
        compiled, undecided = self.r.book.compiled, set()
        for (_, pattern), cases in rd.scope.patterns.items():
            for _, rules in cases:
                result = need_every([(compiled[rule.fact], {}) for rule in rules], rd, out)
                if result is not False:
                    undecided.add(pattern)
                    if result is True:
                        break
        return frozenset(undecided)

    def need_others(self, rd, checks: set) -> tuple[list, dict]:
        """(the rules that may hold, the results of those the chart alone decided): the checks of the others are
        collected into *checks*; a rule the chart alone makes false is not evaluated again, one it decides is
        evaluated once, here."""
        book, kept, early = self.r.book, [], {}
        for rule in rd.scope.others:
            node = book.compiled[rule.fact]
            if rule.fact in book.chart_only:
                ok, wits, where = node.ev({}, rd, {})
                if ok:
                    kept.append(rule)
                    early[rule.fact] = (ok, wits, where)
            elif node.need({}, rd, checks) is not False:
                kept.append(rule)
        return kept, early


class Recalled(Plain):
    """The accelerated evaluator (see the module's docstring); ``test`` and ``find`` decide as Plain does."""

    def run(self, rd, extra: set = frozenset(), condition=None) -> tuple:
        if condition is not None or rd.scope.only is not None:
            return super().run(rd, extra, condition)
        rd.answers = self.r.answers()
        findings = self.r.recall.read(rd)
        if findings is None:  # the first reading of its scope
            return self.decide(rd, rd.scope.others, None, 0)
        return findings, len(rd.scope.facts), 0
