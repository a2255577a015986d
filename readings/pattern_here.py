"""``pattern_here(P)``: a Qimen pattern (格) in one palace, for the lines that read the 格 of the palace a star
falls in (各看所落之宮, 003:91) rather than any 格 anywhere in the chart. See :mod:`leishen.readings.evaluate`.

A case of P holds in a palace when each of its ``REQUIRES`` rules does: a rule that ranges over 宮
(``some(宮, …)``, ``at(值符宮, …)``) in the palaces its body holds in, any other rule in every palace when it
holds (伏吟 of the whole plate, 五不遇時: a case that names no palace holds in every palace). A group pattern
(吉格 凶格) has a case per member case, written out, so it holds in the palaces its members hold in. In each palace
the first case that holds there decides, and the finding's witness is the pattern's walk through that
palace (made as the reading makes a pattern's walks), so its evidence shows the palace it was read in.
"""

from __future__ import annotations

from leishen.readings.predicates import PatternLeaf, slot_arg
from leishen.readings.protocol import FAIL, Predicate, register
from leishen.readings.records import RuleResult, WalkWitness

EVERY = None  # the key of a case that holds in every palace


@register
class PatternHereLeaf(PatternLeaf):
    """``pattern_here(P)`` inside a scope over 宮: P holds (as ``pattern(P)``) and one of its cases holds in
    this palace."""

    __slots__ = ()
    names = ("pattern_here",)

    def reads(self, rd):
        """The pattern, the palace of the instance, and everything its cases' REQUIRES rules read."""
        rd.atom(("pattern", self.system, self.id))
        rd.arg(slot_arg("宮"))
        for tree in rd.cases(self.system, self.id):
            tree.reads(rd.top())

    def ev(self, env, ctx, answers):
        walks = ctx.patterns.get((self.system, self.id))
        if walks is None:
            return FAIL
        here = env.get("宮")
        results = palace_results(ctx, self.system, self.id, answers, here.value if here else None)
        if results is None:
            return FAIL
        _, walks = ctx.reader.made.pattern(self.id, results, ctx)  # its walks through this palace
        return True, [WalkWitness("walk", w) for w in walks], []

    def need(self, env, ctx, out):
        """While checks are collected: those of every palace of P's cases (``pattern(P)`` asks those up to
        the first palace that holds), so the palaces are decided by the answers."""
        if self.id not in ctx.undecided:
            return False
        _need_every_palace(ctx, self.system, self.id, out)
        return None


def _cases(ctx, system: str, pattern: str) -> list:
    """The in-scope cases of a pattern: [[(REQUIRES rule, its compiled tree), …], …]."""
    compiled = ctx.reader.book.compiled
    return [[(r, compiled[r.fact]) for r in rules] for _, rules in ctx.scope.patterns.get((system, pattern), ())]


def _need_every_palace(ctx, system: str, pattern: str, out: set) -> None:
    """Collect the checks of every palace of a pattern's cases (gathered once per reading: every rule that reads
    the pattern in a palace asks the same)."""
    key = ("pattern_here need", system, pattern)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = set()
        for case in _cases(ctx, system, pattern):
            for _, tree in case:
                if hasattr(tree, "instances"):
                    for _, local in tree.instances({}, ctx):
                        tree.body.need(local, ctx, found)
                else:
                    tree.need({}, ctx, found)
    out |= found


def palace_results(ctx, system: str, pattern: str, answers, palace: str | None) -> list | None:
    """The results (:class:`RuleResult`) of the REQUIRES rules of the first case of the pattern that holds in
    *palace* (None: no case does)."""
    found = _by_palace(ctx, system, pattern, answers)
    mine, every = found.get(palace) if palace else None, found.get(EVERY)
    if mine is None or (every is not None and every[0] < mine[0]):
        mine = every
    return None if mine is None else mine[1]


def _by_palace(ctx, system: str, pattern: str, answers) -> dict:
    """palace id (EVERY: a case that names no palace) → (the index of the first case of the pattern that holds
    there, the results of its rules); kept in the reading's memo."""
    key = ("pattern_here", system, pattern)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = {}
        for i, case in enumerate(_cases(ctx, system, pattern)):
            for palace, results in _case_palaces(case, ctx, answers).items():
                found.setdefault(palace, (i, results))
    return found


def _case_palaces(case: list, ctx, answers) -> dict:
    """palace id (EVERY: every palace) → the results of a case's rules, in the case's order, in the palaces
    the case holds in."""
    chart, local = [], None  # results of the rules that name no palace; palace → those of the rules that do
    for rule, tree in case:
        places = _tree_palaces(tree, ctx, answers)
        if places is None:
            ok, wits, where = tree.ev({}, ctx, answers)
            if not ok:
                return {}
            chart.append(RuleResult(rule, wits, where))
        elif local is None:
            local = {p: [RuleResult(rule, *got)] for p, got in places.items()}
        else:
            local = {p: [*found, RuleResult(rule, *places[p])] for p, found in local.items() if p in places}
        if local is not None and not local:
            return {}
    if local is None:
        return {EVERY: chart}
    order = {rule.fact: i for i, (rule, _) in enumerate(case)}
    return {p: sorted(chart + found, key=lambda res: order[res.rule.fact]) for p, found in local.items()}


def _tree_palaces(tree: Predicate, ctx, answers) -> dict | None:
    """palace id → (witnesses, instances) where a REQUIRES rule over 宮 holds, in scope order; None for a rule
    that names no palace."""
    if not (hasattr(tree, "instances") and tree.pred in ("some", "at")):
        return None
    inst = tree.instances({}, ctx)
    if not inst or any("宮" not in local for _, local in inst[:1]):  # (an instance: (key, its local slots))
        return None
    found = {}
    for key, local in inst:
        ok, wits, where = tree.body.ev(local, ctx, answers)
        if ok:
            found[local["宮"].value] = (wits, [key, *where])
    return found

