"""How a reading decides its patterns and rules: one interface, three evaluators.

Every door (``read``, ``test``, ``find``) builds the reading's :class:`ReadingScope` (the in-scope
rules of its systems and topics, and for ``find`` only those it asks for), a :class:`Context`, and hands them to
an evaluator's ``run``, which returns an :class:`Outcome`:

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

from dataclasses import replace
from typing import NamedTuple

from leishen.readings.evaluate import need_every
from leishen.readings.records import RuleResult


class Case(NamedTuple):
    """One case of a pattern: its in-scope REQUIRES rules, in order, and their facts."""

    pattern: str
    rules: tuple
    facts: frozenset


class ReadingScope(NamedTuple):
    """What a reading of some systems and topics tries: the in-scope rule facts, the pattern cases, every
    pattern's cases for ``pattern_here`` ((system, pattern) → [[(rule, tree), …], …]), the other rules in
    order, and *only*: the facts a ``find`` asks for (None: every rule in scope)."""

    facts: frozenset
    cases: tuple
    here: dict
    others: tuple
    only: frozenset | None = None


class Outcome(NamedTuple):
    """What an evaluator found: the findings of the patterns and rules, the answers (for the lore readings),
    the rules tried, the checks collected, the context with the patterns held, and the tested condition's
    result (``test``; else None)."""

    findings: list
    answers: object
    tried: int
    checks: int
    ctx: object
    tested: tuple | None = None


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


def case_results(compiled: dict, rules, ctx, answers) -> tuple[list | None, int]:
    """(the results of a pattern case's REQUIRES rules when every one holds, else None; the rules evaluated):
    the rules are tried in order up to the first that does not hold."""
    results = []
    for rule in rules:
        ok, wits, where = compiled[rule.fact].ev({}, ctx, answers)
        if not ok:
            return None, len(results) + 1
        results.append(RuleResult(rule, ok, wits, where))
    return results, len(results)


class Plain:
    """The reference evaluator (see the module's docstring)."""

    def __init__(self, reader):
        self.r = reader

    def run(self, ctx, scope: ReadingScope, extra: set = frozenset(), condition=None) -> Outcome:
        answers = self.r.answers()
        findings, held = self.patterns(ctx, scope.cases, answers)
        ctx = replace(ctx, patterns=held, undecided=frozenset())
        tried = sum(len(case.rules) for case in scope.cases)
        if condition is not None:
            return Outcome(findings, answers, tried, 0, ctx, condition.ev({}, ctx, answers))
        return Outcome(findings + self.rules(ctx, scope.others, answers, {}), answers, tried + len(scope.others),
                       0, ctx)

    def patterns(self, ctx, cases, answers, maybe: frozenset | None = None) -> tuple[list, dict]:
        """The patterns whose every REQUIRES rule of one case holds (the first such case), and their findings;
        *maybe*: the only patterns that can hold (the others the chart alone ruled out)."""
        r, findings, held = self.r, [], {}  # (system, pattern) → its walks' pieces: a name two systems share is two patterns
        concepts = r.slot_concepts(ctx)
        for case in cases:
            system = case.rules[0].system
            if (system, case.pattern) in held or (maybe is not None and case.pattern not in maybe):
                continue
            results, _ = case_results(r.compiled, case.rules, ctx, answers)
            if results is not None:
                found, held[(system, case.pattern)] = r.made.pattern(case.pattern, results, ctx, concepts)
                findings += found
        return findings, held

    def rules(self, ctx, others, answers, early: dict) -> list:
        """The findings of the rules that hold (*early*: results the chart alone decided while checks were
        collected)."""
        r, findings = self.r, []
        concepts = r.slot_concepts(ctx)
        for rule in others:
            ok, wits, where = early.get(rule.fact) or r.compiled[rule.fact].ev({}, ctx, answers)
            if ok:
                findings.append(r.made.rule(rule, wits, where, ctx, concepts))
        return findings


class Batched(Plain):
    """The evaluator for a server (see the module's docstring): one ``rule_checks`` call per reading."""

    def run(self, ctx, scope: ReadingScope, extra: set = frozenset(), condition=None) -> Outcome:
        r, checks, cases = self.r, set(), scope.cases
        ctx = replace(ctx, undecided=self.need_patterns(ctx, cases, checks))
        if condition is not None:
            condition.need({}, ctx, checks)
            answers = r.answers(checks | extra)
            findings, held = self.patterns(ctx, cases, answers, maybe=ctx.undecided)
            ctx = replace(ctx, patterns=held, undecided=frozenset())
            return Outcome(findings, answers, 0, len(checks), ctx, condition.ev({}, ctx, answers))
        others, early = self.need_others(ctx, scope.others, checks)
        answers = r.answers(checks | extra)
        findings, held = self.patterns(ctx, cases, answers, maybe=ctx.undecided)
        ctx = replace(ctx, patterns=held, undecided=frozenset())
        tried = sum(len(case.rules) for case in cases) + len(others)
        return Outcome(findings + self.rules(ctx, others, answers, early), answers, tried, len(checks), ctx)

    def need_patterns(self, ctx, cases, out: set) -> frozenset:
        """Collect the checks that decide the patterns (every case up to the first the chart alone decides
        true) and return the patterns that may hold."""
        compiled, decided, undecided = self.r.compiled, set(), set()
        for case in cases:
            system = case.rules[0].system
            if (system, case.pattern) in decided:
                continue
            result = need_every([(compiled[rule.fact], {}) for rule in case.rules], ctx, out)
            if result is not False:
                undecided.add(case.pattern)
                if result is True:
                    decided.add((system, case.pattern))
        return frozenset(undecided)

    def need_others(self, ctx, others, checks: set) -> tuple[list, dict]:
        """(the rules that may hold, the results of those the chart alone decided): the checks of the others are
        collected into *checks*; a rule the chart alone makes false is not evaluated again, one it decides is
        evaluated once, here."""
        r, kept, early = self.r, [], {}
        for rule in others:
            node = r.compiled[rule.fact]
            if rule.fact in r.chart_only:
                ok, wits, where = node.ev({}, ctx, {})
                if ok:
                    kept.append(rule)
                    early[rule.fact] = (ok, wits, where)
            elif node.need({}, ctx, checks) is not False:
                kept.append(rule)
        return kept, early


class Recalled(Plain):
    """The accelerated evaluator (see the module's docstring); ``test`` decides the patterns as Plain does."""

    def run(self, ctx, scope: ReadingScope, extra: set = frozenset(), condition=None) -> Outcome:
        if condition is not None or scope.only is not None:
            return super().run(ctx, scope, extra, condition)
        answers = self.r.answers()
        findings = self.r.recall.read(ctx, answers, scope)
        if findings is None:  # the first reading of its scope
            return super().run(ctx, scope, extra)
        return Outcome(findings, answers, len(scope.facts), 0, ctx)
