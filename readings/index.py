"""An index of the rules by what a chart must bind for them to hold (the reading's hot path).

Most rules require some slot to be bound to a given symbol (``eq(初傳, Branch.卯)``, or inside a scope
``some(位, all(eq(將, General.白虎), …))``). :func:`necessary_keys` reads, from a condition alone, a set
of keys of which at least one must be present in any chart where the condition holds; a rule is only
evaluated when the chart has one of its keys. The pruning never changes a result: a key is only
taken where the condition cannot hold without it (a test evaluates every rule unpruned and compares).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from leishen.loaders.conditions import TRANSMISSIONS, Call, Slot
from leishen.readings.predicates import Arg
from leishen.readings.protocol import holds, predicate_class


MAX_ALTERNATIVES = 64  # an all() of alternatives is combined only while it stays this small


def necessary_keys(call: Call, locals_of: dict, scope: str | None = None, sources: dict | None = None,
                   patterns: bool = False, functional: frozenset = frozenset()) -> list | None:
    """Alternatives ``[(scope, frozenset of (slot, node)), …]``: in any chart where *call* holds, for at
    least one alternative, one instance of the scope (scope None: the chart itself) binds every pair.
    None when nothing necessary can be read from the condition. *locals_of* maps a scope to its local
    slot names (a chart-level slot inside a scope is a chart-level pair); *sources* maps (relation type,
    node) to the nodes with such an edge to it, so ``has(X, R, N)`` / ``isa(X, N)`` need X among them;
    a predicate in *functional* (a reified fact whose last argument is the qualifier's value: ``stage``,
    ``kin``) needs the derived pair (the predicate without its value, the value). Each predicate's class
    says its own keys (:meth:`~leishen.readings.protocol.Predicate.keys`)."""
    return Keys(locals_of, scope, sources, patterns, functional).of(call, scope)


@dataclass(frozen=True)
class Keys:
    """What a predicate class reads its necessary keys with (see :func:`necessary_keys`)."""

    locals_of: dict
    scope: str | None
    sources: dict | None
    patterns: bool
    functional: frozenset

    def of(self, call: Call, scope: object = ...) -> list | None:
        """The necessary keys of *call*, in *scope* (by default this one's)."""
        here = self if scope is ... or scope == self.scope else replace(self, scope=scope)
        return predicate_class(call.pred).keys(call, here)


@dataclass(frozen=True)
class At:
    """A derived pair's key: *key* (a local slot, or a derived key) read in the instance ``at(head, …)``
    names."""

    head: Slot
    key: object


def slot_names(call: Call) -> set[str]:
    """The names of the slots a condition mentions."""
    names = set()
    for a in call.args:
        if isinstance(a, Slot):
            names.add(a.name)
        elif isinstance(a, Call):
            names |= slot_names(a)
    return names


def at_scope(head: Slot, names: set[str], locals_of: dict) -> str | None:
    """The scope whose instance ``at(head, …)`` names, as the evaluation finds it: a transmission by its
    name; else a palace (宮) or an earth position (位), told apart by a local slot only one of them has
    (None when the body names none)."""
    if head.name in TRANSMISSIONS and not head.path:
        return "傳"
    palace, position = names & locals_of["宮"] - locals_of["位"], names & locals_of["位"] - locals_of["宮"]
    return "宮" if palace and not position else "位" if position and not palace else None


def present_pairs(bindings, derived: dict | None = None, ctx=None) -> dict:
    """scope (None = the chart) → the list of (slot, node) pair sets it binds (one per instance), with
    the derived pairs of *derived* (scope → [(key, its reader)]) read in *ctx*."""
    chart = set()
    for name, b in bindings.slots.items():
        if isinstance(b.value, frozenset):
            chart.update((name, v) for v in b.value)
        elif isinstance(b.value, str):
            chart.add((name, b.value))
    derived = derived or {}
    chart.update(_derived(derived.get(None, ()), {}, ctx))
    out = {None: [frozenset(chart)]}
    for scope, instances in bindings.scopes.items():
        extra = derived.get(scope, ())
        rows = out[scope] = []
        for _, local in instances:
            own = frozenset((slot, b.value) for slot, b in local.items() if isinstance(b.value, str))
            rows.append(own.union(_derived(extra, local, ctx)) if extra else own)
    return out


def _derived(derived: list, env: dict, ctx) -> list:
    """The derived pairs that hold in *env*: (key, each value its reader finds)."""
    return [(key, v) for key, reader in derived for v in reader.values(env, ctx)]


def functional_predicates(vocab) -> dict:
    """The graph predicates whose last argument is the value of their reified fact's qualifier, with no
    other way to hold (``stage``, ``kin``): predicate → its fact template."""
    out = {}
    for name, pdef in vocab.predicates.items():
        spec = pdef.get("fact")
        if spec and spec.get("value") == f"${len(pdef['args']) - 1}" and not pdef["args"][-1].endswith("*") \
                and not spec.get("subject_via"):
            out[name] = spec
    return out


def fact_values(facts, specs: dict) -> dict:
    """(relation, subject, object, qualifier) → the qualifier's values, of every fact of a functional
    predicate's relation: the same facts the graph is loaded from."""
    roles = {spec["relation"]: spec["qualifier"] for spec in specs.values()}
    table = defaultdict(set)
    for f in facts:
        role = roles.get(f.relation)
        if role is not None:
            value = dict(f.qualifiers).get(role)
            for v in value if isinstance(value, list) else (value,):
                table[(f.relation, f.subject, f.object, role)].add(v)
    return {k: sorted(v) for k, v in table.items()}


class Holds:
    """A chart-decided condition (``over``, ``same``): the value True where it holds."""

    def __init__(self, node):
        self.node = node

    def values(self, env: dict, ctx) -> list:
        return [True] if holds(self.node, env, ctx, {}) else []


class SlotValue:
    """A slot (with suffixes, or a scope's local): the node it is bound to."""

    def __init__(self, arg: Arg):
        self.arg = arg

    def values(self, env: dict, ctx) -> list:
        bound = self.arg.bound(env, ctx.bindings)
        return [bound.value] if bound is not None and isinstance(bound.value, str) else []


class AtValues:
    """A derived key read in the instance ``at(head, …)`` names (found as the evaluation finds it)."""

    def __init__(self, ranging, inner):
        self.ranging, self.inner = ranging, inner

    def values(self, env: dict, ctx) -> list:
        return [v for _, local in self.ranging.instances(env, ctx) for v in self.inner.values(local, ctx)]


def derived_reader(key, vocab, functional: dict, table: dict):
    """How a derived pair's key is read in a chart (see :func:`present_pairs`)."""
    from leishen.readings.evaluate import Ranging, compile_condition
    if isinstance(key, At):
        return AtValues(Ranging("at", key.head, None, vocab), derived_reader(key.key, vocab, functional, table))
    if isinstance(key, str):
        return SlotValue(Arg(Slot(key), vocab))
    if isinstance(key, Slot):
        return SlotValue(Arg(key, vocab))
    if key.pred in functional:
        return FactValues(key, functional[key.pred], vocab, table)
    return Holds(compile_condition(key, vocab))


class FactValues:
    """The values a functional predicate's fact has for a chart's slots (the 長生 stage of 日干 at 初傳,
    the kin of 初傳 to 日干), read from the fact table: the derived pairs ``stage(A, B, S)`` needs."""

    def __init__(self, call: Call, spec: dict, vocab, table: dict):
        refs = (spec["subject"], spec["object"])
        self.parts = [Arg(call.args[int(r[1:])] if r.startswith("$") else Slot(r), vocab) for r in refs]
        self.relation, self.role, self.table = spec["relation"], spec["qualifier"], table

    def values(self, env: dict, ctx) -> list:
        subject, obj = (a.bound(env, ctx.bindings) for a in self.parts)
        if subject is None or obj is None:
            return []
        return self.table.get((self.relation, subject.value, obj.value, self.role), [])


def _order(pair: tuple):
    """A pair's place in the order that picks a rule's key: slot pairs by name, derived pairs after."""
    slot, value = pair
    return (0, slot, value) if isinstance(slot, str) else (1, repr(slot), repr(value))


class RuleIndex:
    """Rules by their necessary pairs, in their original order."""

    def __init__(self, rules: list, locals_of: dict, sources: dict | None = None, patterns: bool = False,
                 functional: frozenset = frozenset()):
        self.rules = rules
        self.always: list[int] = []
        self.derived: set = set()  # (scope, call or slot with suffixes): what derived pairs key a rule
        self.by_key: dict = defaultdict(lambda: defaultdict(dict))
        found = [necessary_keys(rule.when, locals_of, sources=sources, patterns=patterns, functional=functional)
                 for rule in rules]
        uses = Counter((where, pair) for alts in found if alts for where, pairs in alts for pair in pairs)
        for i, alts in enumerate(found):
            if alts is None:
                self.always.append(i)
                continue
            for where, pairs in alts:  # keyed by its pair the fewest rules need: the one least often met
                key = min(pairs, key=lambda pair: (uses[(where, pair)], _order(pair)))  # noqa: B023
                self.by_key[where][key].setdefault(pairs, []).append(i)
                self.derived |= {(where, slot) for slot, _ in pairs if not isinstance(slot, str)}
        # where → pair → [(pairs, the rules that need them)]: rules needing the same pairs are checked once
        self.by_key = {where: {pair: list(groups.items()) for pair, groups in by_pair.items()}
                       for where, by_pair in self.by_key.items()}
        self.keys = {where: frozenset(by_pair) for where, by_pair in self.by_key.items()}

    def candidates(self, present: dict) -> list:
        """The rules a chart may meet (those with an alternative some instance fully binds), in order.
        Only the pairs of an instance that key some rule are looked at (a set intersection)."""
        chosen = set(self.always)
        for where, instances in present.items():
            keys = self.keys.get(where)
            if not keys:
                continue
            by_pair = self.by_key[where]
            for inst in instances:
                for pair in keys.intersection(inst):
                    for pairs, rules in by_pair[pair]:
                        if pairs <= inst:
                            chosen.update(rules)
        return [self.rules[i] for i in sorted(chosen)]
