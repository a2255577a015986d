"""Evaluate every rule against a chart's bindings, with one generic traversal over the vocabulary.

A rule's condition is compiled once, when the reader is built, into a tree of small evaluators (one
per predicate of the vocabulary; the slot names, suffix paths, path templates and fact templates are
looked up then, not per chart). Three steps, the same on every backend:

1. :meth:`Node.need` walks a condition in every scope instance it may use and grounds each graph
   predicate (``has`` ``isa`` ``rel`` ``generates`` ``overcomes`` ``same_phase`` ``stage`` ``vigour``
   ``kin``) into a *check* on concrete node ids — a typed path between two nodes, or a reified fact
   with given parts — as the vocabulary defines it. It decides what the chart alone decides
   (three-valued: true, false, or ``None`` = depends on the graph) and asks only for the checks that
   can change the result or its witnesses (``all`` with a false part needs none);
2. the backend answers those checks at once (the named query ``rule_checks``: one Cypher query on
   Neo4j, one traversal on NetworkX), each with its witness: the edges that decided it;
3. :meth:`Node.ev` decides the condition from the chart hops and those answers, and returns the
   witnesses of the parts that held and the scope instances it held in.
"""

from __future__ import annotations

from leishen.loaders.conditions import Call, Scope, Vocabulary
from leishen.readings.bindings import Bindings
from leishen.readings.graph_leaf import GRAPH_PREDICATES, Graph
from leishen.readings.pattern_here import PatternHereLeaf
from leishen.readings.predicates import FAIL, Arg, ChartLeaf, Context, EqLeaf, Node, PatternLeaf, TopicLeaf  # noqa: F401


class All(Node):
    """``all``: every part holds. The parts the chart decides are tried before those the graph decides
    (a false one spares the graph's), and the witnesses still come in the condition's order."""

    __slots__ = ("subs", "order")

    def __init__(self, subs):
        self.subs = subs
        order = sorted(range(len(subs)), key=lambda i: cost(subs[i]))
        self.order = None if order == sorted(order) else order

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
            got = subs[k].ev(env, ctx, answers)
            if not got[0]:
                return FAIL
            found[k] = got
        for k in range(len(subs)):
            wits += found[k][1]
            inst += found[k][2]
        return True, wits, inst

    def need(self, env, ctx, out):
        subs = self.subs if self.order is None else [self.subs[k] for k in self.order]
        return need_every([(sub, env) for sub in subs], ctx, out)  # in any order: the same checks

    def parts(self):
        return self.subs


class Any(Node):
    __slots__ = ("subs",)

    def __init__(self, subs):
        self.subs = subs

    def ev(self, env, ctx, answers):
        for sub in self.subs:
            found = sub.ev(env, ctx, answers)
            if found[0]:
                return found
        return FAIL

    def need(self, env, ctx, out):
        return need_first([(sub, env) for sub in self.subs], ctx, out)

    def parts(self):
        return self.subs


class Not(Node):
    """``not``: the part does not hold, of slots the chart binds (a slot it reads unbound — 天 of 中五, 本命
    without a birth year — leaves the part undecided, so ``not`` does not hold either). Its witnesses are the
    chains of the slots the part reads (those it examined and found wanting), so a finding that holds by an
    absence still starts at the chart's slots."""

    __slots__ = ("sub", "args")

    def __init__(self, sub):
        self.sub = sub
        self.args = _slot_args(sub)

    def ev(self, env, ctx, answers):
        b = ctx.bindings
        bounds = [a.bound(env, b) for a in self.args]
        if None in bounds or self.sub.ev(env, ctx, answers)[0]:
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


class Ranging(Node):
    """``some`` / ``every`` / ``at``: the body in the instances of a scope (``at``: the one instance a
    slot names — a transmission by name, a palace or earth position by its value)."""

    __slots__ = ("pred", "scope", "head", "body", "lead")

    def __init__(self, pred: str, head, body: Node, vocab: Vocabulary):
        self.pred, self.body = pred, body
        self.scope = head.name if isinstance(head, Scope) else None
        self.head = None if self.scope else (head, Arg(head, vocab))
        self.lead = _leading_eq(body, self.scope, vocab) if pred == "some" and self.scope else None
        inputs = _need_inputs(body)
        if inputs is not None:
            self.body = Remembered(body, inputs)

    def parts(self):
        return (self.body,)

    def instances(self, env: dict, ctx: Context) -> list[tuple[str, dict]]:
        """The instances the body is tried in. ``some`` whose body needs ``eq(local, X)`` tries only the
        instances binding the local to X (the body fails in every other)."""
        b = ctx.bindings
        if self.lead is not None and not env:
            return ctx.instances_with(self.scope, *self.lead)
        if self.scope is not None:
            found = b.scopes.get(self.scope, ())
            return [(key, {**env, **local}) for key, local in found] if env else found
        slot, arg = self.head
        bound = arg.bound(env, b)
        if bound is None:
            return []
        by_name, by_place = ctx.at_index()
        found = by_name.get(slot.name) if not slot.path else None
        if found is None:
            found = by_place.get(_scope_key(bound.value, b))
        return [] if found is None else [(found[0], {**env, **found[1]})]

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


def cost(node: Node) -> int:
    """How much a node costs to decide, to order the parts of an ``all``: a leaf the chart or the request
    decides 1, a graph predicate 4, a logic node the sum of its parts, a range over a scope its body's
    times the instances it may try."""
    if isinstance(node, Graph):
        return 4
    if isinstance(node, Ranging):
        return cost(node.body) * (1 if node.head is not None or node.lead is not None else 9)
    return sum(cost(p) for p in node.parts()) if node.parts() else 1


class Remembered(Node):
    """A scope's body whose collected checks depend only on the values its arguments stand for (graph
    predicates, ``eq`` ``among`` ``same``, no pattern, topic, ``over``, ``void`` or inner scope): its
    ``need`` — the three-valued result and the checks it adds — is kept by those values, across
    readings (checks are ground on node ids, never on the graph's answers, which are asked fresh)."""

    __slots__ = ("node", "inputs", "kept")
    LIMIT = 4096  # values kept per body

    def __init__(self, node: Node, inputs: list):
        self.node, self.inputs, self.kept = node, inputs, {}

    def ev(self, env, ctx, answers):
        return self.node.ev(env, ctx, answers)

    def parts(self):
        return (self.node,)

    def need(self, env, ctx, out):
        b = ctx.bindings
        key = tuple([a.value(env, b) for a in self.inputs])
        found = self.kept.get(key)
        if found is None:
            mine: set = set()
            found = (self.node.need(env, ctx, mine), frozenset(mine))
            if len(self.kept) < self.LIMIT:
                self.kept[key] = found
        out |= found[1]
        return found[0]


def _need_inputs(node: Node) -> list | None:
    """The arguments a body's ``need`` reads, when nothing else decides it and it grounds two graph
    predicates or more (else None: not worth keeping)."""
    args, graphs = [], [0]

    def walk(n) -> bool:
        if isinstance(n, Graph):
            graphs[0] += 1
            args.extend(n.inputs)
            return True
        if isinstance(n, ChartLeaf) and n.pred in ("eq", "among", "same"):
            args.extend(a for a in (n.first, n.second) if a is not None and a.slot is not None)
            return True
        if isinstance(n, (All, Any)):
            return all(walk(x) for x in n.subs)
        if isinstance(n, Not):
            return walk(n.sub)
        return False

    if not walk(node) or graphs[0] < 2:
        return None
    unique = {(a.local, a.name, a.path): a for a in args}
    return list(unique.values())


def _slot_args(node: Node) -> list:
    """The slot arguments a condition reads outside any inner scope (whose locals are bound per instance),
    each once, in the condition's order."""
    if isinstance(node, Ranging):
        return [node.head[1]] if node.head is not None else []
    if isinstance(node, Graph):
        found = list(node.ends)
    elif isinstance(node, ChartLeaf):
        found = [node.first] + ([node.second] if node.second is not None else [])
    else:
        found = [a for part in node.parts() for a in _slot_args(part)]
    unique: dict = {}
    for a in found:
        if a.slot is not None:
            unique.setdefault((a.local, a.name, a.path), a)
    return list(unique.values())


def chart_decides(node: Node) -> bool:
    """Whether the chart and the request alone decide a condition (no graph predicate, no pattern)."""
    return not isinstance(node, (Graph, PatternLeaf)) and all(chart_decides(p) for p in node.parts())


def need_every(parts: list, ctx: Context, out: set) -> bool | None:
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


def need_first(parts: list, ctx: Context, out: set) -> bool | None:
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


def _leading_eq(body: Node, scope: str, vocab: Vocabulary) -> tuple[str, frozenset] | None:
    """(local slot, values) when the body of a ``some`` over *scope* is, or is an ``all`` with a part that
    is, ``eq`` / ``among`` of one of the scope's own slots (no suffix): the body fails in every instance
    that does not bind the slot to one of the values."""
    for part in (body.subs if isinstance(body, All) else (body,)):
        if isinstance(part, ChartLeaf) and part.pred in ("eq", "among") and part.first.slot is not None \
                and not part.first.path and part.first.local in vocab.scopes[scope]["locals"]:
            return part.first.local, part.wanted
    return None


def _scope_key(value, b: Bindings):
    if isinstance(value, str) and value.startswith("Stem:"):
        lodge = b.slots.get("寄宮")
        return lodge.value if lodge else None
    return value


def compile_condition(call: Call, vocab: Vocabulary, system: str | None = None, interned: dict | None = None) -> Node:
    """The evaluator tree of a parsed condition (see :mod:`leishen.loaders.conditions`) of a rule of
    *system* (``void`` tests that system's void; None: the void of any system the chart has). With
    *interned*, equal conditions (and equal parts of conditions) of the same system are compiled once,
    into the same node, so what is kept per node (the graph predicates' memo, the checks of a scope's
    body) is shared by every rule that has them."""
    if interned is None:
        return _compile(call, vocab, system, None)
    key = (call, system)
    found = interned.get(key)
    if found is None:
        found = interned[key] = _compile(call, vocab, system, interned)
    return found


def _compile(call: Call, vocab: Vocabulary, system: str | None, interned: dict | None) -> Node:
    pred, args = call.pred, call.args
    if pred == "all":
        return All([compile_condition(a, vocab, system, interned) for a in args])
    if pred == "any":
        return Any([compile_condition(a, vocab, system, interned) for a in args])
    if pred == "not":
        return Not(compile_condition(args[0], vocab, system, interned))
    if pred in ("some", "every", "at"):
        return Ranging(pred, args[0], compile_condition(args[1], vocab, system, interned), vocab)
    if pred in GRAPH_PREDICATES:
        return Graph(call, vocab)
    if pred == "pattern":
        return PatternLeaf(call, system)
    if pred == "pattern_here":
        return PatternHereLeaf(call, system)
    if pred == "topic":
        return TopicLeaf(call)
    if pred in ("eq", "among"):
        return EqLeaf(call, vocab, system)
    if pred in ("same", "over", "void"):
        return ChartLeaf(call, vocab, system)
    raise ValueError(f"no evaluator for predicate {pred!r}")
