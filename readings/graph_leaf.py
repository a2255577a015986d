"""The graph predicates of a condition (``has`` ``isa`` ``rel`` ``generates`` ``overcomes``
``same_phase`` ``stage`` ``vigour`` ``kin``): grounded into checks on node ids — a typed path between two
nodes, or a reified fact with given parts, as the vocabulary defines the predicate — and decided by the
backend's answers. See :mod:`leishen.readings.evaluate`.
"""

from __future__ import annotations

from leishen.loaders.conditions import Call, Rel, Slot, Vocabulary
from leishen.readings.bindings import Bindings
from leishen.readings.predicates import Arg, follow
from leishen.readings.protocol import FAIL, Predicate, register_templated, unique_args
from leishen.readings.records import FactCheck, GraphWitness, PathCheck, QualifierWitness

SYMMETRIC = frozenset(("CLASHES", "COMBINES", "HARMS", "BREAKS", "STEM_COMBINES"))


@register_templated
class Graph(Predicate):
    """A graph predicate: grounded into checks on node ids (a typed path, or a reified fact with given
    parts), decided by the backend's answers; the witness starts with the chart hops of its slot. Every
    vocabulary row ``decided_by = "graph"`` with a ``path`` or a ``fact`` template is one of these."""

    __slots__ = ("pred", "ends", "rel", "template", "spec", "fact_parts", "via", "witness_args", "inputs",
                 "end_inputs", "serial")
    decided_by = "graph"

    def __init__(self, call: Call, vocab: Vocabulary):
        pdef = vocab.predicates[call.pred]
        self.pred = call.pred
        self.ends = [Arg(a, vocab) for a in call.args if not isinstance(a, Rel)]
        self.rel = next((x for x in call.args if isinstance(x, Rel)), None)
        self.template, self.spec = pdef.get("path"), pdef.get("fact")
        self.fact_parts, self.via, named = [], (), []
        if self.spec is not None:
            varargs = len(pdef["args"]) - 1 if pdef["args"][-1].endswith("*") else None
            self.fact_parts = [self._part(self.spec[k], varargs, vocab) for k in ("subject", "object", "value")]
            self.via = tuple((s.lstrip("~"), "in" if s.startswith("~") else "out")
                             for s in self.spec.get("subject_via", ()))
            named = [a for k, part in zip(("subject", "object"), self.fact_parts)  # chart slots the definition names
                     if not str(self.spec[k]).startswith("$") for a in part]
        self.witness_args = [a for a in self.ends if a.slot is not None] + named  # witnesses start / end here
        self.serial = None  # its number among a reader's compiled nodes (the key of what the reader keeps of it)
        every = {id(a): a for a in (*self.ends, *(a for part in self.fact_parts for a in part))}
        self.inputs = [a for a in every.values() if a.slot is not None]  # what a result depends on
        self.end_inputs = [i for i, a in enumerate(self.inputs) if any(a is e for e in self.ends)]

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls(call, vocab)

    def reads(self, rd):
        for a in self.inputs:
            rd.arg(a)

    def slot_args(self):
        return unique_args(self.ends)

    def cost(self):
        return 4

    def chart_decided(self):
        return False

    def _part(self, ref: str, varargs: int | None, vocab: Vocabulary) -> list[Arg]:
        """The arguments a fact-template part names: ``$N`` (all the rest for a varargs one), or a slot."""
        if ref.startswith("$"):
            i = int(ref[1:])
            return self.ends[i:] if i == varargs else self.ends[i:i + 1]
        return [Arg(Slot(ref), vocab)]

    def checks(self, env: dict, ctx) -> list[tuple]:
        """The ground checks (several for alternatives, e.g. two vigours); [] when a slot is unbound."""
        b = ctx.bindings
        if self.template is not None:
            a, z = self.ends[0].value(env, b), self.ends[1].value(env, b)
            if not isinstance(a, str) or not isinstance(z, str):
                return []
            return [PathCheck("path", a, self._steps(a, z, ctx.reader.book.labels), z)]
        subject, obj, values = (tuple([x.value(env, b) for x in part]) for part in self.fact_parts)
        return self._fact_checks(subject, obj, values, ctx.reader.book.labels)

    def every_check(self, domain, labels: dict) -> set:
        """Every check this leaf can ask, each slot argument ranging over ``domain(arg)`` (a rule book's)."""
        if self.template is not None:
            return {PathCheck("path", a, self._steps(a, z, labels), z)
                    for a in domain(self.ends[0]) for z in domain(self.ends[1])}
        subject, obj, values = (tuple({n for x in part for n in domain(x)}) for part in self.fact_parts)
        return set(self._fact_checks(subject, obj, values, labels))

    def _fact_checks(self, subject: tuple, obj: tuple, values: tuple, labels: dict) -> list[tuple]:
        """The fact checks of these subject, object and value nodes (each combination of str ids)."""
        checks = []
        for s in subject:
            for o in obj:
                for v in values:
                    if isinstance(s, str) and isinstance(o, str) and isinstance(v, str):
                        use_via = self.via if self.via and labels.get(s) != self.spec.get("subject_label") else ()
                        checks.append(FactCheck("fact", self.spec["relation"], s, o, self.spec["qualifier"], v, use_via))
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
        """Decided by the answers; with the reader's ``memo`` (answers that never change: a book reader's) and a
        node the book compiled, once per distinct bound values: the memo keeps which answer held and which argument's
        chart hops begin and end its witness, and the witness is rebuilt from this chart's chains."""
        memo = ctx.reader.memo
        if memo is None or self.serial is None:
            return self._decide(env, ctx, answers)
        b = ctx.bindings
        slots, bounds, key = b.slots, [], [self.serial]
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
            if check.kind == "path" and not check.steps:  # two phases (納音 slots, Element.金): same_phase is identity
                if check.a != check.b:
                    return FAIL
                bounds = (a.bound(env, ctx.bindings) for a in self.ends if a.slot is not None)
                return True, [bd.chain for bd in bounds if bd is not None], []
            hops = answers.get(check)
            if hops:
                start, end = self._ends(env, ctx.bindings, hops)
                wits = [GraphWitness("graph", hops, start, end)]
                if check.kind == "fact":  # the fact's object –OBJECT← the fact –QUALIFIER→ its qualifier's value
                    last = hops[-1]
                    wits.append(QualifierWitness("qualifier", last.key, check.object, check.role, check.value,
                                                 self._chain_of(env, ctx.bindings, check.object), last.src))
                return True, wits, []
        return FAIL

    def _shape(self, env, ctx, answers, bounds) -> tuple | None:
        """What ``_decide`` found, without this chart's chains: () (false); ("same", None …) (identity of two
        phases); or ("graph", hops, start, end, qualifier): the index among the inputs of the argument whose
        chain starts the witness, the slot it ends at, the qualifier hop with the index of its chain."""
        ok, wits, _ = self._decide(env, ctx, answers)
        if not ok:
            return ()
        first = wits[0]
        if not isinstance(first, GraphWitness):
            return ("same", None, None, None, None)
        chains = [bd.chain if bd is not None else None for bd in bounds]
        index = (lambda c: None if c is None else chains.index(c))  # noqa: E731
        qualifier = wits[1]._replace(chain=index(wits[1].chain)) if len(wits) > 1 else None
        return ("graph", first.hops, index(first.start), first.end, qualifier)

    def _rebuild(self, shape, bounds):
        """The result of ``_decide`` from a memoised shape and this chart's bound inputs."""
        if not shape:
            return FAIL
        kind, hops, start, end, qualifier = shape
        if kind == "same":
            return True, [bounds[i].chain for i in self.end_inputs if bounds[i] is not None], []
        wits = [GraphWitness("graph", hops, None if start is None else bounds[start].chain, end)]
        if qualifier is not None:
            wits.append(qualifier._replace(chain=None if qualifier.chain is None else bounds[qualifier.chain].chain))
        return True, wits, []

    def need(self, env, ctx, out):
        checks = self.checks(env, ctx)
        if not checks:
            return False
        first = checks[0]
        if first.kind == "path" and not first.steps:  # a path of no step: decided here, never asked
            return first.a == first.b
        out.update(checks)
        return None

    def _chain_of(self, env: dict, b: Bindings, node: str):
        """The chain of the predicate's slot argument bound to *node* (None when none is)."""
        bounds = (a.bound(env, b) for a in self.ends if a.slot is not None)
        return next((bound.chain for bound in bounds if bound and bound.value == node), None)

    def _ends(self, env: dict, b: Bindings, hops: list) -> tuple:
        """(the chain of the slot a graph witness starts from, or None; the slot it ends at, or None). The
        slots are the predicate's arguments and the chart slots its definition names (kin: 日干)."""
        slots = [(a.slot, a.bound(env, b)) for a in self.witness_args]
        start = next((bd.chain for _, bd in slots if bd and bd.value == hops[0].source), None)
        end = next((str(s) for s, bd in slots if bd and bd.value == hops[-1].target and len(bd.chain) == 1), None)
        return start, end
