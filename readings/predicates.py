"""The leaves of a compiled condition the chart, the request or the patterns found decide (``eq``
``among`` ``same`` ``over`` ``void`` ``topic`` ``pattern``; the graph's are in
:mod:`leishen.readings.graph_leaf`), each a :class:`~leishen.readings.protocol.Predicate`, with the compiled
slot arguments and the chart hops slot suffixes follow. See :mod:`leishen.readings.evaluate`.
"""

from __future__ import annotations

from leishen.loaders.conditions import Call, Slot, Sym, Vocabulary
from leishen.readings.bindings import LODGES, PLATE_OVER, RIDDEN_BY, Bindings, Bound
from leishen.readings.deity_names import DEITY_NAME, misnamed, named_deities, read_names
from leishen.readings.protocol import FAIL, Predicate, holds, register, unique_args
from leishen.readings.records import WalkWitness


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

    def value(self, env: dict, b: Bindings):
        """The node id (or value) the argument stands for; None when its slot is unbound."""
        if self.slot is None:
            return self.sym
        bound = env.get(self.local)
        if bound is None:
            bound = b.slots.get(self.name)
        if self.path:
            bound = follow(bound, self.path, b)
        return None if bound is None else bound.value


def slot_arg(name: str) -> Arg:
    """A compiled argument for the chart slot *name* (no suffix, no alias)."""
    arg = Arg.__new__(Arg)
    arg.slot, arg.sym, arg.local, arg.name, arg.path = Slot(name), None, name, name, ()
    return arg


def _chain(bound: Bound | None) -> list:
    return [bound.chain] if bound else []


@register
class PatternLeaf(Predicate):
    """``pattern(P)``: P was found by the REQUIRES rules of the rule's own system (a name two systems share,
    伏吟, is two patterns: the Liu Ren 伏吟 is not the Qimen one), or, in a Liu Ren rule, the engine named
    it as the 課體. *system* None (a condition tested without one): found in any system."""

    __slots__ = ("id", "system")
    names, decided_by = ("pattern",), "rules"

    def __init__(self, call: Call, system: str | None = None):
        self.id, self.system = call.args[0].id, system

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls(call, system)

    def ev(self, env, ctx, answers):
        if self.system is not None:
            walks = ctx.patterns.get((self.system, self.id))
        else:
            walks = next((w for (_, p), w in ctx.patterns.items() if p == self.id), None)
        if walks is not None:
            return True, [WalkWitness("walk", w) for w in walks], []
        course = ctx.bindings.slots.get("課體") if self.system in (None, "liuren") else None
        if course is not None and self.id in course.value:  # a 課體 the engine found (涉害, 伏吟, 八專 …)
            return True, [((self.id, "課體"),)], []
        return FAIL

    def need(self, env, ctx, out):
        if self.id in ctx.undecided:  # its REQUIRES rules' checks are collected with them
            return None
        return holds(self, env, ctx, {})

    def reads(self, rd):
        rd.atom(("pattern", self.system, self.id))
        if self.system in (None, "liuren"):
            rd.slot("課體")

    def chart_decided(self):
        return False


@register
class TopicLeaf(Predicate):
    """``topic(T)``: the reading asks T or a sub-topic of T (``ctx.topics``), or every topic at once (``*``)."""

    __slots__ = ("id",)
    names, decided_by = ("topic",), "request"

    def __init__(self, call: Call):
        self.id = call.args[0].id

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls(call)

    def ev(self, env, ctx, answers):
        return (self.id == ctx.topic or ctx.topic == "*" or self.id in ctx.topics), [], []

    def reads(self, rd):  # (the topic is part of the reading scope, not of the chart)
        pass


class ChartLeaf(Predicate):
    """A predicate the chart itself decides, of one or two arguments (a slot, then a slot or nodes)."""

    __slots__ = ("pred", "first", "second", "wanted")
    decided_by = "chart"

    def __init__(self, call: Call, vocab: Vocabulary, system: str | None = None):
        self.pred = call.pred
        self.first = Arg(call.args[0], vocab)
        self.second = Arg(call.args[1], vocab) if len(call.args) > 1 else None
        self.wanted = frozenset(a.id if isinstance(a, Sym) else a for a in call.args[1:])

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls(call, vocab, system)

    def reads(self, rd):
        for a in (self.first, self.second):
            if a is not None:
                rd.arg(a)

    def slot_args(self):
        return unique_args((self.first, self.second))


@register
class Eq(ChartLeaf):
    """``eq`` / ``among``: the slot is bound to one of the nodes (a set slot: one of them is in it); a deity of two
    namings (白虎/勾陳, 玄武/朱雀) only where the chart names it as the rule does (:func:`named_deities`)."""

    __slots__ = ("named", "name_arg")
    names = ("eq", "among")

    def __init__(self, call: Call, vocab: Vocabulary, system: str | None = None):
        super().__init__(call, vocab, system)
        self.named = named_deities(call)
        self.name_arg = slot_arg(DEITY_NAME) if self.named else None

    def reads(self, rd):
        super().reads(rd)
        if self.name_arg is not None:
            read_names(rd, self.name_arg)

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
        if value not in self.wanted or (self.named and misnamed(self.named, value, env)):
            return FAIL
        return True, [bound.chain], []


@register
class Same(ChartLeaf):
    """``same``: both slots are bound to the same node."""

    __slots__ = ()
    names = ("same",)

    def ev(self, env, ctx, answers):
        b = ctx.bindings
        value, bound = self.first.get(env, b)
        if value is None:
            return FAIL
        other, obound = self.second.get(env, b)
        return (True, _chain(bound) + _chain(obound), []) if other == value else FAIL



@register
class Over(ChartLeaf):
    """``over``: the heaven branch sits over the earth position (a Stem slot: its 寄宮); the witnesses are the
    branch's walk down to the earth, then the slot it stands over."""

    __slots__ = ()
    names = ("over",)

    def ev(self, env, ctx, answers):
        b = ctx.bindings
        value, bound = self.first.get(env, b)
        if value is None:
            return FAIL
        earth = b.below.get(value)
        target, tbound = self.second.get(env, b)
        if earth is None or earth != self._earth(target, b):
            return FAIL
        wits = [bound.chain + (("UNDER", earth),)] if bound else []
        if tbound is not None and isinstance(tbound.value, str):  # (本命, 日干 …: what decided it is named)
            wits.append(tbound.chain)
        return True, wits, []

    def _earth(self, value, b: Bindings) -> str | None:
        """The earth position an ``over`` target (its value) names: a Branch, or a Stem slot's 寄宮."""
        if isinstance(value, str) and value.startswith("Stem:"):
            lodge = b.slots.get("寄宮")
            return lodge.value if lodge and b.slots["日干"].value == value else None
        return value

    def reads(self, rd):
        super().reads(rd)
        rd.arg(self.first, kind="below")  # the earth under the first argument's value
        rd.slot("寄宮")
        rd.slot("日干")


@register
class Void(ChartLeaf):
    """``void``: the slot's branch is in the chart's void of the rule's system (Liu Ren 旬空, Qimen 空亡)."""

    __slots__ = ("voids",)
    names = ("void",)

    def __init__(self, call: Call, vocab: Vocabulary, system: str | None = None):
        super().__init__(call, vocab, system)
        void_of = vocab.predicates["void"]["void_of"]  # the void slot of each system
        self.voids = (void_of[system],) if system in void_of else tuple(void_of.values())

    def ev(self, env, ctx, answers):
        b = ctx.bindings
        value, bound = self.first.get(env, b)
        if value is None:
            return FAIL
        voids = set()
        for name in self.voids:
            if name in b.slots:
                voids |= b.slots[name].value
        return (True, _chain(bound), []) if value in voids else FAIL

    def reads(self, rd):
        super().reads(rd)
        for name in self.voids:
            rd.slot(name)
