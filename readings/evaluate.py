"""Evaluate every rule against a chart's bindings, with one generic traversal over the vocabulary.

A rule's condition is compiled once, when the reader is built, into a tree of small evaluators (one
per predicate of the vocabulary; the slot names, suffix paths, path templates and fact templates are
looked up then, not per chart). Three steps, the same on every backend:

1. :meth:`Predicate.need` walks a condition in every scope instance it may use and grounds each graph
   predicate (``has`` ``isa`` ``rel`` ``generates`` ``overcomes`` ``same_phase`` ``stage`` ``vigour``
   ``kin``) into a *check* on concrete node ids — a typed path between two nodes, or a reified fact
   with given parts — as the vocabulary defines it. It decides what the chart alone decides
   (three-valued: true, false, or ``None`` = depends on the graph) and asks only for the checks that
   can change the result or its witnesses (``all`` with a false part needs none);
2. the backend answers those checks at once (the named query ``rule_checks``: one Cypher query on
   Neo4j, one traversal on NetworkX), each with its witness: the edges that decided it;
3. :meth:`Predicate.ev` decides the condition from the chart hops and those answers, and returns the
   witnesses of the parts that held and the scope instances it held in.
"""

from __future__ import annotations

from leishen.loaders.conditions import Scope, Vocabulary
from leishen.readings.bindings import Bindings
from leishen.readings.graph_leaf import Graph  # noqa: F401  (registers the graph predicates)
from leishen.readings.pattern_here import PatternHereLeaf  # noqa: F401  (registers pattern_here)
from leishen.readings.predicates import Arg, Eq  # noqa: F401
from leishen.readings.protocol import FAIL, Predicate, compile_condition, holds, register  # noqa: F401
from leishen.readings.reading import at_index, instances_with

AT_SCOPES = ("傳", "宮", "位")  # where ``at`` finds the instance a slot names


@register
class All(Predicate):
    """``all``: every part holds. The parts the chart decides are tried before those the graph decides
    (a false one spares the graph's), and the witnesses still come in the condition's order."""

    __slots__ = ("subs", "order")
    names, decided_by = ("all",), "logic"

    def __init__(self, subs):
        self.subs = subs
        order = sorted(range(len(subs)), key=lambda i: subs[i].cost())
        self.order = None if order == sorted(order) else order

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls([sub(a) for a in call.args])

    def ev(self, env, ctx, answers):
        wits, inst = [], []
        if self.order is None:
            for sub in self.subs:
                ok, w, i = sub.ev(env, ctx, answers)
                if not ok:
                    return FAIL
                wits += w
                inst += i
            return True, wits, inst
        subs, found = self.subs, {}
        for k in self.order:
            ok, w, i = subs[k].ev(env, ctx, answers)
            if not ok:
                return FAIL
            found[k] = (w, i)
        for k in range(len(subs)):
            w, i = found[k]
            wits += w
            inst += i
        return True, wits, inst

    def need(self, env, ctx, out):
        subs = self.subs if self.order is None else [self.subs[k] for k in self.order]
        return need_every([(sub, env) for sub in subs], ctx, out)  # in any order: the same checks

    def parts(self):
        return self.subs


@register
class Any(Predicate):
    """``any``: the first part that holds gives the witnesses."""

    __slots__ = ("subs",)
    names, decided_by = ("any",), "logic"

    def __init__(self, subs):
        self.subs = subs

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls([sub(a) for a in call.args])

    def ev(self, env, ctx, answers):
        for sub in self.subs:
            ok, wits, where = sub.ev(env, ctx, answers)
            if ok:
                return ok, wits, where
        return FAIL

    def need(self, env, ctx, out):
        return need_first([(sub, env) for sub in self.subs], ctx, out)

    def parts(self):
        return self.subs


@register
class Not(Predicate):
    """``not``: the part does not hold, of slots the chart binds (a slot it reads unbound — 天 of 中五, 本命
    without a birth year — leaves the part undecided, so ``not`` does not hold either). Its witnesses are the
    chains of the slots the part reads (those it examined and found wanting), so a finding that holds by an
    absence still starts at the chart's slots."""

    __slots__ = ("sub", "args")
    names, decided_by = ("not",), "logic"

    def __init__(self, sub):
        self.sub = sub
        self.args = sub.slot_args()

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls(sub(call.args[0]))

    def ev(self, env, ctx, answers):
        b = ctx.bindings
        bounds = [a.bound(env, b) for a in self.args]
        if None in bounds or holds(self.sub, env, ctx, answers):
            return FAIL
        wits = []
        for bound in bounds:
            if isinstance(bound.value, str) and bound.chain not in wits:
                wits.append(bound.chain)
        return True, wits, []

    def need(self, env, ctx, out):
        b = ctx.bindings
        if any(a.bound(env, b) is None for a in self.args):
            return False
        got = self.sub.need(env, ctx, out)
        return None if got is None else not got

    def parts(self):
        return (self.sub,)


@register
class Ranging(Predicate):
    """``some`` / ``every`` / ``at``: the body in the instances of a scope (``at``: the one instance a
    slot names — a transmission by name, a palace or earth position by its value)."""

    __slots__ = ("pred", "scope", "head", "head_arg", "body", "lead")
    names, decided_by = ("some", "every", "at"), "logic"

    def __init__(self, pred: str, head, body: Predicate | None, vocab: Vocabulary):
        self.pred, self.body = pred, body
        self.scope = head.name if isinstance(head, Scope) else None
        self.head = None if self.scope else head  # (``at``: the slot naming the instance)
        self.head_arg = None if self.scope else Arg(head, vocab)
        self.lead = _leading_eq(body, self.scope, vocab) if pred == "some" and self.scope else None

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls(call.pred, call.args[0], sub(call.args[1]), vocab)

    def parts(self):
        return (self.body,)

    def reads(self, rd):
        """Which instances the scope has (``at``: of 傳 宮 位, and the head slot with the 寄宮 a stem names),
        and what the body reads in them."""
        if self.scope is not None:
            rd.atom(("inst", self.scope))
            inner = (self.scope,)
        else:
            rd.arg(self.head_arg)
            rd.slot("寄宮")
            for scope in AT_SCOPES:
                rd.atom(("inst", scope))
            inner = AT_SCOPES
        self.body.reads(rd.inner(inner))

    def slot_args(self):
        return [self.head_arg] if self.head is not None else []

    def cost(self):
        return self.body.cost() * (1 if self.head is not None or self.lead is not None else 9)

    def instances(self, env: dict, ctx) -> list[tuple[str, dict]]:
        """The instances the body is tried in. ``some`` whose body needs ``eq(local, X)`` tries only the
        instances binding the local to X (the body fails in every other)."""
        b = ctx.bindings
        if self.lead is not None and not env:
            return instances_with(ctx, self.scope, *self.lead)
        if self.scope is not None:
            found = b.scopes.get(self.scope, ())
            return [(key, {**env, **local}) for key, local in found] if env else found
        slot = self.head
        bound = self.head_arg.bound(env, b)
        if bound is None:
            return []
        by_name, by_place = at_index(ctx)
        found = by_name.get(slot.name) if not slot.path else None
        if found is None:
            found = by_place.get(_scope_key(bound.value, b))
        if found is None:
            return []
        key, local = found
        return [(key, {**env, **local})]

    def ev(self, env, ctx, answers):
        if self.pred == "every":
            wits, instances = [], self.instances(env, ctx)
            for _, local in instances:
                ok, w, _ = self.body.ev(local, ctx, answers)
                if not ok:
                    return FAIL
                wits += w
            return bool(instances), wits, []
        for key, local in self.instances(env, ctx):
            ok, w, i = self.body.ev(local, ctx, answers)
            if ok:
                return True, w, [key, *i]
        return FAIL

    def need(self, env, ctx, out):
        parts = [(self.body, local) for _, local in self.instances(env, ctx)]
        if self.pred == "every":
            return need_every(parts, ctx, out) if parts else False
        return need_first(parts, ctx, out)


def need_every(parts: list, ctx, out: set) -> bool | None:
    """Three-valued 'every part holds' of (node, env) parts: false as soon as the chart makes one false
    (then no check is asked), else the checks of every part are asked."""
    mine, result = set(), True
    for node, env in parts:
        got = node.need(env, ctx, mine)
        if got is False:
            return False
        if got is None:
            result = None
    out |= mine
    return result


def need_first(parts: list, ctx, out: set) -> bool | None:
    """Three-valued 'some part holds': the first part that holds gives the witness, so the checks of
    every part before the first the chart makes true are asked."""
    result = False
    for node, env in parts:
        got = node.need(env, ctx, out)
        if got is True:
            return True if result is False else None
        if got is None:
            result = None
    return result


def _leading_eq(body: Predicate, scope: str, vocab: Vocabulary) -> tuple[str, frozenset] | None:
    """(local slot, values) when the body of a ``some`` over *scope* is, or is an ``all`` with a part that
    is, ``eq`` / ``among`` of one of the scope's own slots (no suffix): the body fails in every instance
    that does not bind the slot to one of the values."""
    for part in (body.subs if isinstance(body, All) else (body,)):
        if isinstance(part, Eq) and part.first.slot is not None \
                and not part.first.path and part.first.local in vocab.scopes[scope]["locals"]:
            return part.first.local, part.wanted
    return None


def _scope_key(value, b: Bindings):
    if isinstance(value, str) and value.startswith("Stem:"):
        lodge = b.slots.get("寄宮")
        return lodge.value if lodge else None
    return value
