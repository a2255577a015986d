"""The leaves of a compiled condition: the predicates the graph decides (``has`` ``isa`` ``rel``
``generates`` ``overcomes`` ``same_phase`` ``stage`` ``vigour`` ``kin``, grounded into checks on node
ids) and those the chart, the request or the patterns found decide (``eq`` ``among`` ``same`` ``over``
``void`` ``topic`` ``pattern``); with the :class:`Context` they are evaluated against, the compiled
slot arguments and the chart hops slot suffixes follow. See :mod:`leishen.readings.evaluate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leishen.loaders.conditions import Call, Rel, Slot, Sym, Vocabulary
from leishen.readings.bindings import LODGES, PLATE_OVER, RIDDEN_BY, Bindings, Bound

SYMMETRIC = frozenset(("CLASHES", "COMBINES", "HARMS", "BREAKS", "STEM_COMBINES"))
GRAPH_PREDICATES = ("has", "isa", "rel", "generates", "overcomes", "same_phase", "stage", "vigour", "kin")
FAIL = (False, [], [])


@dataclass(frozen=True, slots=True)
class Context:
    """What a condition is evaluated against: the bindings, the topic asked, the patterns that hold
    (pattern id → [its path, *its evidence]) and, while checks are collected, the patterns that may
    hold but are not decided yet."""

    bindings: Bindings
    vocab: Vocabulary
    labels: dict  # node id → label
    topic: str | None = None
    patterns: dict = field(default_factory=dict)
    undecided: frozenset = frozenset()
    lookup: dict = field(default_factory=dict)  # per reading: the instance tables, filled as asked
    memo: dict | None = None  # with the reader's cache on: graph predicate results by their bound inputs
    topics: frozenset = frozenset()  # the topics the reading covers: the one asked and those it is a case of

    def instances_with(self, scope: str, local: str, values: frozenset) -> list[tuple[str, dict]]:
        """The instances of a scope whose local slot is bound to one of *values*, in scope order (kept
        per reading: rules often ask the same)."""
        asked = (scope, local, values)
        hit = self.lookup.get(asked)
        if hit is not None:
            return hit
        found = self.bindings.scopes.get(scope, ())
        index = self.lookup.get((scope, local))
        if index is None:
            index = self.lookup[(scope, local)] = {}
            for i, (_, inst) in enumerate(found):
                bound = inst.get(local)
                if bound is not None:
                    index.setdefault(bound.value, []).append(i)
        hits = [i for v in values for i in index.get(v, ())]
        hit = self.lookup[asked] = [found[i] for i in (sorted(hits) if len(hits) > 1 else hits)]
        return hit

    def at_index(self) -> tuple[dict, dict]:
        """The instances ``at`` names: (transmission name → instance, palace or earth position → the first
        instance of 宮, then 位, keyed by it), made once per reading."""
        found = self.lookup.get("at")
        if found is None:
            scopes = self.bindings.scopes
            by_name = {key: (key, local) for key, local in scopes.get("傳", ())}
            by_place: dict = {}
            for scope in ("宮", "位"):
                for key, local in scopes.get(scope, ()):
                    by_place.setdefault(key, (key, local))
            found = self.lookup["at"] = (by_name, by_place)
        return found


def follow(bound: Bound | None, path: tuple, b: Bindings) -> Bound | None:
    """A slot's value after its suffixes, each a chart hop: ``將`` the general riding the branch, ``上``
    the heaven branch over the earth position (a stem: over its 寄宮), ``下`` the earth position under
    the branch, ``宮`` the palace where the stem stands on the heaven plate."""
    for suffix in path:
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


class Arg:
    """A compiled slot-or-symbol argument: ``get(env, b)`` → (node id or value, Bound or None)."""

    __slots__ = ("slot", "local", "name", "path", "sym")

    def __init__(self, arg, vocab: Vocabulary):
        self.slot = arg if isinstance(arg, Slot) else None
        self.sym = arg.id if isinstance(arg, Sym) else None
        if self.slot is not None:
            name = arg.name
            for sysdef in vocab.systems.values():
                name = sysdef.get("aliases", {}).get(name, name)
            self.local, self.name, self.path = arg.name, name, arg.path

    def bound(self, env: dict, b: Bindings) -> Bound | None:
        """The slot's value (local first, then chart-level), following its suffixes by chart hops."""
        bound = env.get(self.local)
        if bound is None:
            bound = b.slots.get(self.name)
        return follow(bound, self.path, b) if self.path else bound

    def get(self, env: dict, b: Bindings):
        if self.slot is None:
            return self.sym, None
        bound = self.bound(env, b)
        return (bound.value if bound else None), bound


class Node:
    """A compiled condition: ``ev`` decides it, ``need`` collects the checks that decide it."""

    __slots__ = ()

    def ev(self, env: dict, ctx: Context, answers) -> tuple[bool, list, list]:
        raise NotImplementedError

    def need(self, env: dict, ctx: Context, out: set) -> bool | None:
        return self.ev(env, ctx, {})[0]


class Graph(Node):
    """A graph predicate: grounded into checks on node ids (a typed path, or a reified fact with given
    parts), decided by the backend's answers; the witness starts with the chart hops of its slot."""

    __slots__ = ("pred", "ends", "rel", "template", "spec", "parts", "via", "slot_args", "_checks", "inputs", "end_inputs")

    def __init__(self, call: Call, vocab: Vocabulary):
        pdef = vocab.predicates[call.pred]
        self.pred = call.pred
        self.ends = [Arg(a, vocab) for a in call.args if not isinstance(a, Rel)]
        self.rel = next((x for x in call.args if isinstance(x, Rel)), None)
        self.template, self.spec = pdef.get("path"), pdef.get("fact")
        self.parts, self.via, named = [], (), []
        if self.spec is not None:
            varargs = len(pdef["args"]) - 1 if pdef["args"][-1].endswith("*") else None
            self.parts = [self._part(self.spec[k], varargs, vocab) for k in ("subject", "object", "value")]
            self.via = tuple((s.lstrip("~"), "in" if s.startswith("~") else "out")
                             for s in self.spec.get("subject_via", ()))
            named = [a for k, part in zip(("subject", "object"), self.parts)  # chart slots the definition names
                     if not str(self.spec[k]).startswith("$") for a in part]
        self.slot_args = [a for a in self.ends if a.slot is not None] + named  # witnesses start / end here
        self._checks: dict = {}
        every = {id(a): a for a in (*self.ends, *(a for part in self.parts for a in part))}
        self.inputs = [a for a in every.values() if a.slot is not None]  # what a result depends on
        self.end_inputs = [i for i, a in enumerate(self.inputs) if any(a is e for e in self.ends)]

    def _part(self, ref: str, varargs: int | None, vocab: Vocabulary) -> list[Arg]:
        """The arguments a fact-template part names: ``$N`` (all the rest for a varargs one), or a slot."""
        if ref.startswith("$"):
            i = int(ref[1:])
            return self.ends[i:] if i == varargs else self.ends[i:i + 1]
        return [Arg(Slot(ref), vocab)]

    def checks(self, env: dict, ctx: Context) -> list[tuple]:
        """The ground checks (several for alternatives, e.g. two vigours); [] when a slot is unbound."""
        b = ctx.bindings
        if self.template is not None:
            a, z = self.ends[0].get(env, b)[0], self.ends[1].get(env, b)[0]
            if not isinstance(a, str) or not isinstance(z, str):
                return []
            key = (a, z)
            found = self._checks.get(key)
            if found is None:
                found = self._checks[key] = [("path", a, self._steps(a, z, ctx.labels), z)]
            return found
        subject, obj, values = (tuple([x.get(env, b)[0] for x in part]) for part in self.parts)
        key = (subject, obj, values)
        found = self._checks.get(key)
        if found is None:
            found = self._checks[key] = self._fact_checks(subject, obj, values, ctx.labels)
        return found

    def _fact_checks(self, subject: tuple, obj: tuple, values: tuple, labels: dict) -> list[tuple]:
        """The fact checks of these subject, object and value nodes (each combination of str ids)."""
        checks = []
        for s in subject:
            for o in obj:
                for v in values:
                    if isinstance(s, str) and isinstance(o, str) and isinstance(v, str):
                        use_via = self.via if self.via and labels.get(s) != self.spec.get("subject_label") else ()
                        checks.append(("fact", self.spec["relation"], s, o, self.spec["qualifier"], v, use_via))
        return checks

    def _steps(self, a: str, z: str, labels: dict) -> tuple:
        """The concrete steps of the path template between *a* and *z*: ``((type, dir), …)``; an
        optional ``HAS_ELEMENT?`` step is left out at an end that is an Element itself."""
        steps = []
        for i, step in enumerate(self.template):
            if step == "$2":
                rel = self.rel
                steps.append((rel.type, "either" if rel.type in SYMMETRIC else ("in" if rel.reverse else "out")))
                continue
            optional, name = step.endswith("?"), step.rstrip("?")
            reverse, name = name.startswith("~"), name.lstrip("~")
            if optional and labels.get(a if i == 0 else z) == "Element":
                continue
            steps.append((name, "in" if reverse else "out"))
        return tuple(steps)

    def ev(self, env, ctx, answers):
        """Decided by the answers; with ``ctx.memo`` (answers that never change), once per distinct
        bound values: the memo keeps which answer held and which argument's chart hops begin and end
        its witness, and the witness is rebuilt from this chart's chains."""
        memo = ctx.memo
        if memo is None:
            return self._decide(env, ctx, answers)
        b = ctx.bindings
        slots, bounds, key = b.slots, [], [self]
        for a in self.inputs:  # Arg.bound, inlined: this is the reading's hottest loop
            bd = env.get(a.local)
            if bd is None:
                bd = slots.get(a.name)
            if a.path:
                bd = follow(bd, a.path, b)
            bounds.append(bd)
            key.append(None if bd is None else (bd.value, len(bd.chain)))
        key = tuple(key)
        shape = memo.get(key)
        if shape is None:
            shape = memo[key] = self._shape(env, ctx, answers, bounds)
        return self._rebuild(shape, bounds)

    def _decide(self, env, ctx, answers):
        for check in self.checks(env, ctx):
            if check[0] == "path" and not check[2]:  # two phases (納音 slots, Element.金): same_phase is identity
                if check[1] != check[3]:
                    return FAIL
                bounds = (a.bound(env, ctx.bindings) for a in self.ends if a.slot is not None)
                return True, [bd.chain for bd in bounds if bd is not None], []
            hops = answers.get(check)
            if hops:
                start, end = self._ends(env, ctx.bindings, hops)
                wits = [("graph", hops, start, end)]
                if check[0] == "fact":  # the fact's object –OBJECT← the fact –QUALIFIER→ its qualifier's value
                    chain = self._chain_of(env, ctx.bindings, check[3])
                    wits.append(("qualifier", hops[-1][3], check[3], check[4], check[5], chain, hops[-1][4]))
                return True, wits, []
        return FAIL

    def _shape(self, env, ctx, answers, bounds) -> tuple | None:
        """What ``_decide`` found, without this chart's chains: () (false); ("same",) (identity of two
        phases); or ("graph", hops, start, end, qualifier): the index among the inputs of the argument whose
        chain starts the witness, the slot it ends at, the qualifier hop with the index of its chain."""
        ok, wits, _ = self._decide(env, ctx, answers)
        if not ok:
            return ()
        if wits[0][0] != "graph":
            return ("same",)
        _, hops, start, end = wits[0]
        chains = [bd.chain if bd is not None else None for bd in bounds]
        index = (lambda c: None if c is None else chains.index(c))  # noqa: E731
        qualifier = None
        if len(wits) > 1:
            q = wits[1]
            qualifier = (q[1], q[2], q[3], q[4], index(q[5]), q[6])
        return ("graph", hops, index(start), end, qualifier)

    def _rebuild(self, shape, bounds):
        """The result of ``_decide`` from a memoised shape and this chart's bound inputs."""
        if not shape:
            return FAIL
        if shape[0] == "same":
            return True, [bounds[i].chain for i in self.end_inputs if bounds[i] is not None], []
        _, hops, start, end, qualifier = shape
        wits = [("graph", hops, None if start is None else bounds[start].chain, end)]
        if qualifier is not None:
            fid, obj, role, value, chain, src = qualifier
            wits.append(("qualifier", fid, obj, role, value, None if chain is None else bounds[chain].chain, src))
        return True, wits, []

    def need(self, env, ctx, out):
        checks = self.checks(env, ctx)
        if not checks:
            return False
        if checks[0][0] == "path" and not checks[0][2]:  # a path of no step: decided here, never asked
            return checks[0][1] == checks[0][3]
        out.update(checks)
        return None

    def _chain_of(self, env: dict, b: Bindings, node: str):
        """The chain of the predicate's slot argument bound to *node* (None when none is)."""
        for a in self.ends:
            if a.slot is not None:
                bound = a.bound(env, b)
                if bound and bound.value == node:
                    return bound.chain
        return None

    def _ends(self, env: dict, b: Bindings, hops: list) -> tuple:
        """(the chain of the slot a graph witness starts from, or None; the slot it ends at, or None). The
        slots are the predicate's arguments and the chart slots its definition names (kin: 日干)."""
        slots = [(a.slot, a.bound(env, b)) for a in self.slot_args]
        start = next((bd.chain for _, bd in slots if bd and bd.value == hops[0][0]), None)
        end = next((str(s) for s, bd in slots if bd and bd.value == hops[-1][2] and len(bd.chain) == 1), None)
        return start, end


def _chain(bound: Bound | None) -> list:
    return [bound.chain] if bound else []


class PatternLeaf(Node):
    """``pattern(P)``: P was found by its REQUIRES rules, or the engine named it as the 課體."""

    __slots__ = ("id",)

    def __init__(self, call: Call):
        self.id = call.args[0].id

    def ev(self, env, ctx, answers):
        walks = ctx.patterns.get(self.id)
        if walks is not None:
            return True, [("walk", w) for w in walks], []
        course = ctx.bindings.slots.get("課體")  # a 課體 the engine found (涉害, 伏吟, 八專 …) is a pattern too
        if course is not None and self.id in course.value:
            return True, [((self.id, "課體"),)], []
        return FAIL

    def need(self, env, ctx, out):
        if self.id in ctx.undecided:  # its REQUIRES rules' checks are collected with them
            return None
        return self.ev(env, ctx, {})[0]


class TopicLeaf(Node):
    """``topic(T)``: the reading asks T or a sub-topic of T (``ctx.topics``), or every topic at once (``*``)."""

    __slots__ = ("id",)

    def __init__(self, call: Call):
        self.id = call.args[0].id

    def ev(self, env, ctx, answers):
        return (self.id == ctx.topic or ctx.topic == "*" or self.id in ctx.topics), [], []


class ChartLeaf(Node):
    """The predicates the chart itself decides: ``eq`` ``among`` ``same`` ``over`` ``void``."""

    __slots__ = ("pred", "first", "second", "wanted", "voids")

    def __init__(self, call: Call, vocab: Vocabulary, system: str | None = None):
        self.pred = call.pred
        void_of = vocab.predicates["void"]["void_of"]  # the void slot of each system
        self.voids = (void_of[system],) if system in void_of else tuple(void_of.values())
        self.first = Arg(call.args[0], vocab)
        self.second = Arg(call.args[1], vocab) if len(call.args) > 1 else None
        self.wanted = frozenset(a.id if isinstance(a, Sym) else a for a in call.args[1:])

    def ev(self, env, ctx, answers):
        b = ctx.bindings
        value, bound = self.first.get(env, b)
        if value is None:
            return FAIL
        pred = self.pred
        if pred in ("eq", "among"):
            if isinstance(value, frozenset):  # a set slot (空亡, 旬空): the witness is the member that matched
                hits = sorted(value & self.wanted)
                return bool(hits), [((m, bound.chain[0][1]),) for m in hits] if bound else [], []
            return (True, _chain(bound), []) if value in self.wanted else FAIL
        if pred == "same":
            other, obound = self.second.get(env, b)
            return (True, _chain(bound) + _chain(obound), []) if other == value else FAIL
        if pred == "over":
            earth = b.below.get(value)
            ok = earth is not None and earth == self._earth(env, b)
            return (True, [bound.chain + (("UNDER", earth),)] if bound else [], []) if ok else FAIL
        if pred == "void":
            voids = set()
            for name in self.voids:
                if name in b.slots:
                    voids |= b.slots[name].value
            return (True, _chain(bound), []) if value in voids else FAIL
        raise ValueError(f"no evaluator for predicate {pred!r}")

    def _earth(self, env: dict, b: Bindings) -> str | None:
        """The earth position an ``over`` target names: a Branch, or a Stem slot's 寄宮."""
        value, _ = self.second.get(env, b)
        if isinstance(value, str) and value.startswith("Stem:"):
            lodge = b.slots.get("寄宮")
            return lodge.value if lodge and b.slots["日干"].value == value else None
        return value


class EqLeaf(ChartLeaf):
    """``eq`` / ``among``: the slot is bound to one of the nodes (a set slot: one of them is in it)."""

    __slots__ = ()

    def ev(self, env, ctx, answers):
        a = self.first
        bound = env.get(a.local) if env else None
        if bound is None:
            bound = ctx.bindings.slots.get(a.name)
        if a.path and bound is not None:
            bound = follow(bound, a.path, ctx.bindings)
        if bound is None:
            return FAIL
        value = bound.value
        if value.__class__ is frozenset:  # a set slot (空亡, 旬空): the witness is the member that matched
            hits = sorted(value & self.wanted)
            return (True, [((m, bound.chain[0][1]),) for m in hits], []) if hits else FAIL
        return (True, [bound.chain], []) if value in self.wanted else FAIL
