"""Evaluate every rule against a chart's bindings, with one generic traversal over the vocabulary.

Three steps, the same on every backend:

1. :func:`collect_checks` walks every rule's condition in every scope instance and grounds each
   graph predicate (``has`` ``isa`` ``rel`` ``generates`` ``overcomes`` ``same_phase`` ``stage``
   ``vigour`` ``kin``) into a *check* on concrete node ids — a typed path between two nodes, or a
   reified fact with given parts — as the vocabulary defines it;
2. the backend answers all checks at once (the named query ``rule_checks``: one Cypher query on Neo4j,
   one traversal on NetworkX), each with its witness: the edges that decided it;
3. :func:`evaluate` decides each rule from the chart hops and those answers, and returns the
   witnesses of the parts that held.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leishen.loaders.conditions import Call, Rel, Rule, Scope, Slot, Sym, Vocabulary
from leishen.readings.bindings import LODGES, PLATE_OVER, RIDDEN_BY, Bindings, Bound

SYMMETRIC = frozenset(("CLASHES", "COMBINES", "HARMS", "BREAKS", "STEM_COMBINES"))
GRAPH_PREDICATES = ("has", "isa", "rel", "generates", "overcomes", "same_phase", "stage", "vigour", "kin")


@dataclass(frozen=True, slots=True)
class Context:
    """What a condition is evaluated against: the bindings, the topic asked, the patterns that hold."""

    bindings: Bindings
    vocab: Vocabulary
    labels: dict  # node id → label
    topic: str | None = None
    topics: frozenset = frozenset()  # the topics the reading covers: the one asked and those it is a case of
    patterns: dict = field(default_factory=dict)  # pattern id → [its path, *its evidence] (walks)


def resolve(slot: Slot, env: dict, ctx: Context) -> Bound | None:
    """The value of a slot (local first, then chart-level), following its suffixes by chart hops."""
    b = ctx.bindings
    bound = env.get(slot.name)
    if bound is None:
        name = slot.name
        for sysdef in ctx.vocab.systems.values():
            name = sysdef.get("aliases", {}).get(name, name)
        bound = b.slots.get(name)
    for suffix in slot.path:
        if bound is None or not isinstance(bound.value, str):
            return None
        value = bound.value
        if suffix == "將":
            nxt = b.rides.get(value)
            bound = bound.hop(RIDDEN_BY, nxt) if nxt else None
        elif suffix == "上":
            if value.startswith("Stem:"):
                lodge = b.slots.get("寄宮") if b.slots.get("日干") and b.slots["日干"].value == value else None
                if lodge is None:
                    return None
                bound = bound.hop(LODGES, lodge.value)
                value = lodge.value
            nxt = b.above.get(value)
            bound = bound.hop(PLATE_OVER, nxt) if nxt else None
        elif suffix == "下":
            nxt = b.below.get(value)
            bound = bound.hop("UNDER", nxt) if nxt else None
        elif suffix == "宮":
            nxt = b.stem_palace.get(value)
            bound = bound.hop("STANDS_IN", nxt) if nxt else None
    return bound


def _value(arg, env: dict, ctx: Context):
    """(node id, Bound | None) of a slot-or-symbol argument."""
    if isinstance(arg, Sym):
        return arg.id, None
    bound = resolve(arg, env, ctx)
    return (bound.value if bound else None), bound


def _earth_of(arg, env: dict, ctx: Context) -> str | None:
    """The earth position an ``over`` target names: a Branch, or a Stem slot's 寄宮."""
    value, bound = _value(arg, env, ctx)
    if isinstance(value, str) and value.startswith("Stem:"):
        lodge = ctx.bindings.slots.get("寄宮")
        return lodge.value if lodge and ctx.bindings.slots["日干"].value == value else None
    return value


def _steps(template: list[str], rel: Rel | None, a: str, b: str, labels: dict) -> tuple | None:
    """The concrete steps of a path template between nodes *a* and *b*: ``((type, dir), …)``."""
    steps = []
    for i, step in enumerate(template):
        if step == "$2":
            direction = "either" if rel.type in SYMMETRIC else ("in" if rel.reverse else "out")
            steps.append((rel.type, direction))
            continue
        optional, name = step.endswith("?"), step.rstrip("?")
        reverse, name = name.startswith("~"), name.lstrip("~")
        end = a if i == 0 else b
        if optional and labels.get(end) == "Element":
            continue
        steps.append((name, "in" if reverse else "out"))
    return tuple(steps)


def graph_checks(call: Call, env: dict, ctx: Context) -> list[tuple]:
    """The ground checks of one graph predicate (several for alternatives, e.g. two vigours)."""
    pdef = ctx.vocab.predicates[call.pred]
    args = call.args
    if "path" in pdef:
        rel = next((x for x in args if isinstance(x, Rel)), None)
        ends = [x for x in args if not isinstance(x, Rel)]
        a, _ = _value(ends[0], env, ctx)
        b, _ = _value(ends[1], env, ctx)
        if not isinstance(a, str) or not isinstance(b, str):
            return []
        return [("path", a, _steps(pdef["path"], rel, a, b, ctx.labels), b)]
    spec = pdef["fact"]
    varargs = len(pdef["args"]) - 1 if pdef["args"][-1].endswith("*") else None

    def part(ref: str) -> list:
        """The node ids a spec part names: ``$N`` an argument (all the rest for a varargs one), or a slot."""
        if ref.startswith("$"):
            i = int(ref[1:])
            chosen = args[i:] if i == varargs else args[i:i + 1]
            return [_value(x, env, ctx)[0] for x in chosen]
        bound = ctx.bindings.slots.get(ref)
        return [bound.value] if bound else []
    subject, obj, values = part(spec["subject"]), part(spec["object"]), part(spec["value"])
    via = tuple((s.lstrip("~"), "in" if s.startswith("~") else "out") for s in spec.get("subject_via", ()))
    checks = []
    for s in subject:
        for o in obj:
            for v in values:
                if isinstance(s, str) and isinstance(o, str) and isinstance(v, str):
                    use_via = via if via and ctx.labels.get(s) != spec.get("subject_label") else ()
                    checks.append(("fact", spec["relation"], s, o, spec["qualifier"], v, use_via))
    return checks


def _instances(call: Call, env: dict, ctx: Context) -> list[tuple[str, dict]]:
    """The scope instances a ``some`` or ``at`` ranges over, each with its local slots."""
    head = call.args[0]
    if isinstance(head, Scope):
        return [(key, {**env, **local}) for key, local in ctx.bindings.scopes.get(head.name, ())]
    bound = resolve(head, env, ctx)
    if bound is None:
        return []
    for scope in ("傳", "宮", "位"):
        for key, local in ctx.bindings.scopes.get(scope, ()):
            if (scope == "傳" and key == head.name and not head.path) or \
                    (scope != "傳" and key == _scope_key(bound.value, ctx)):
                return [(key, {**env, **local})]
    return []


def _scope_key(value, ctx: Context):
    if isinstance(value, str) and value.startswith("Stem:"):
        lodge = ctx.bindings.slots.get("寄宮")
        return lodge.value if lodge else None
    return value


def collect_checks(call: Call, env: dict, ctx: Context, out: set) -> None:
    """Every ground graph check of a condition, in every scope instance (no short-circuit)."""
    if call.pred in GRAPH_PREDICATES:  # a path of no step (two phases, same_phase) is decided here, not asked
        out.update(c for c in graph_checks(call, env, ctx) if c[0] != "path" or c[2])
    elif call.pred in ("all", "any", "not"):
        for sub in call.args:
            collect_checks(sub, env, ctx, out)
    elif call.pred in ("some", "every", "at"):
        for _, local in _instances(call, env, ctx):
            collect_checks(call.args[1], local, ctx, out)


def _chain(bound: Bound | None) -> list:
    return [bound.chain] if bound else []


def evaluate(call: Call, env: dict, ctx: Context, answers: dict) -> tuple[bool, list, list]:
    """(holds, witnesses, instances): the chains and graph walks that decided a condition, and the
    scope instances it held in. *answers* maps each ground check to its witness (or None)."""
    pred, args = call.pred, call.args
    if pred == "all":
        wits, inst = [], []
        for sub in args:
            ok, w, i = evaluate(sub, env, ctx, answers)
            if not ok:
                return False, [], []
            wits += w
            inst += i
        return True, wits, inst
    if pred == "any":
        for sub in args:
            ok, w, i = evaluate(sub, env, ctx, answers)
            if ok:
                return True, w, i
        return False, [], []
    if pred == "not":
        ok, _, _ = evaluate(args[0], env, ctx, answers)
        return (not ok), [], []
    if pred == "every":
        wits, instances = [], _instances(call, env, ctx)
        for _, local in instances:
            ok, w, _ = evaluate(args[1], local, ctx, answers)
            if not ok:
                return False, [], []
            wits += w
        return bool(instances), wits, []
    if pred in ("some", "at"):
        for key, local in _instances(call, env, ctx):
            ok, w, i = evaluate(args[1], local, ctx, answers)
            if ok:
                return True, w, [key, *i]
        return False, [], []
    if pred in GRAPH_PREDICATES:
        for check in graph_checks(call, env, ctx):
            if check[0] == "path" and not check[2]:  # two phases (Element slots): same_phase is identity
                same = check[1] == check[3]
                return same, [b.chain for a in call.args if isinstance(a, Slot) and (b := resolve(a, env, ctx))] \
                    if same else [], []
            hops = answers.get(check)
            if hops:
                start, end = _ends(call, env, ctx, hops)
                wits = [("graph", hops, start, end)]
                if check[0] == "fact":  # the fact's object –OBJECT← the fact –QUALIFIER→ its qualifier's value
                    chain = _chain_of(call, env, ctx, check[3])
                    wits.append(("qualifier", hops[-1][3], check[3], check[4], check[5], chain, hops[-1][4]))
                return True, wits, []
        return False, [], []
    return chart_leaf(call, env, ctx)


def _chain_of(call: Call, env: dict, ctx: Context, node: str):
    """The chain of the predicate's slot argument bound to *node* (None when none is)."""
    for a in call.args:
        if isinstance(a, Slot):
            bound = resolve(a, env, ctx)
            if bound and bound.value == node:
                return bound.chain
    return None


def _ends(call: Call, env: dict, ctx: Context, hops: list) -> tuple:
    """(the chain of the slot a graph witness starts from, or None; the slot it ends at, or None). The
    slots are the predicate's arguments and the chart slots its definition names (kin: 日干)."""
    spec = ctx.vocab.predicates[call.pred].get("fact", {})
    named = [Slot(v) for k, v in spec.items() if k in ("subject", "object") and not str(v).startswith("$")]
    slots = [(a, resolve(a, env, ctx)) for a in (*call.args, *named) if isinstance(a, Slot)]
    start = next((b.chain for a, b in slots if b and b.value == hops[0][0]), None)
    end = next((str(a) for a, b in slots if b and b.value == hops[-1][2] and len(b.chain) == 1), None)
    return start, end


def chart_leaf(call: Call, env: dict, ctx: Context) -> tuple[bool, list, list]:
    """The predicates decided by the chart itself, the request, or the patterns already found."""
    pred, args = call.pred, call.args
    if pred == "pattern":
        walks = ctx.patterns.get(args[0].id)
        if walks is not None:
            return True, [("walk", w) for w in walks], []
        course = ctx.bindings.slots.get("課體")  # a 課體 the engine found (涉害, 伏吟, 八專 …) is a pattern too
        if course is not None and args[0].id in course.value:
            return True, [((args[0].id, "課體"),)], []
        return False, [], []
    if pred == "topic":
        return (args[0].id == ctx.topic or args[0].id in ctx.topics), [], []
    value, bound = _value(args[0], env, ctx)
    if value is None:
        return False, [], []
    if pred in ("eq", "among"):
        wanted = {a.id if isinstance(a, Sym) else a for a in args[1:]}
        if isinstance(value, frozenset):  # a set slot (空亡, 旬空): the witness is the member that matched
            hits = sorted(value & wanted)
            return bool(hits), [((m, bound.chain[0][1]),) for m in hits] if bound else [], []
        ok = value in wanted
        return ok, _chain(bound) if ok else [], []
    if pred == "same":
        other, obound = _value(args[1], env, ctx)
        ok = other == value
        return ok, (_chain(bound) + _chain(obound)) if ok else [], []
    if pred == "over":
        earth = ctx.bindings.below.get(value)
        ok = earth is not None and earth == _earth_of(args[1], env, ctx)
        return ok, [bound.chain + (("UNDER", earth),)] if ok and bound else [], []
    if pred == "void":
        voids = set()
        for name in ("旬空", "空亡"):
            if name in ctx.bindings.slots:
                voids |= ctx.bindings.slots[name].value
        ok = value in voids
        return ok, _chain(bound) if ok else [], []
    raise ValueError(f"no evaluator for predicate {pred!r}")


def in_scope(rule: Rule, ctx: Context) -> bool:
    """A rule is in scope when its system was computed."""
    return rule.system in ctx.bindings.systems
