"""The typed records that pass between the parts of a reading: ground checks, the backend's witness hops, the
witnesses of a condition and the results of a pattern's rules.

A compiled condition's ``ev`` returns ``(holds, witnesses, where)`` (a plain triple, made thousands of times a
reading; always unpacked, never read by position). A witness is a chart chain (the ``chain`` of a
:class:`~leishen.readings.bounds.Bound`: ``((root node, root slot), (hop type, node), …)``) or one of
:class:`GraphWitness`, :class:`QualifierWitness`, :class:`WalkWitness`. Checks are NamedTuples whose first field
names their kind, so that they sort and compare as the plain tuples the backends receive.
"""

from __future__ import annotations

from typing import NamedTuple


class PathCheck(NamedTuple):
    """A typed path from node *a* to node *b*: *steps* are ``((relation type, "out" | "in" | "either"), …)``."""

    kind: str  # "path"
    a: str
    steps: tuple
    b: str


class FactCheck(NamedTuple):
    """A reified fact of *relation* from *subject* to *object* whose qualifier *role* is *value*; *via*: the steps
    from the chart's node to the fact's subject (``subject_via``), else ()."""

    kind: str  # "fact"
    relation: str
    subject: str
    object: str
    role: str
    value: str
    via: tuple


class Hop(NamedTuple):
    """One edge of a witness, as ``rule_checks`` returns it."""

    source: str
    type: str
    target: str
    key: str
    src: list
    forward: bool


class Hops(list):
    """A check's witness, a list of :class:`Hop`, with ``key``: its edges as a hashable tuple (source, type,
    target, key; an edge's src is its own)."""

    __slots__ = ("key",)

    def __init__(self, hops: list):
        super().__init__(Hop(*h) for h in hops)
        self.key = tuple((h.source, h.type, h.target, h.key) for h in self)


class GraphWitness(NamedTuple):
    """The backend's witness of a graph predicate: its *hops*, the *start* chain of the slot it was asked from
    (None: none), the slot it ends at (*end*, None: none)."""

    kind: str  # "graph"
    hops: Hops
    start: tuple | None
    end: str | None


class QualifierWitness(NamedTuple):
    """A fact's object ←OBJECT– the fact –QUALIFIER→ its qualifier's *value* (a functional predicate: ``stage``,
    ``kin``); *chain*: the chart chain of the slot bound to the object (None: none); *src*: the fact's."""

    kind: str  # "qualifier"
    fact: str
    object: str
    role: str
    value: str
    chain: tuple | None
    src: list


class WalkWitness(NamedTuple):
    """A pattern's own walk (its path or one of its evidence walks, a :class:`~leishen.readings.walks.Piece`):
    ``pattern(P)`` holds by it."""

    kind: str  # "walk"
    piece: object

    @property
    def walk(self) -> list:
        return self.piece.walk


class RuleResult(NamedTuple):
    """A REQUIRES rule of a pattern's case that held, with its witnesses and the scope instances it held in."""

    rule: object
    witnesses: list
    where: list


def ask_checks(backend, checks, variants: bool) -> dict:
    """Every ground check → its witness hops (None when it does not hold), asked of *backend* in one call of the
    named query ``rule_checks`` (*variants*: the rows kept as variants of the text hold too)."""
    order, paths, facts = check_params(checks)
    rows = backend.run("rule_checks", paths=paths, facts=facts, variants=variants) if order else []
    found = dict.fromkeys(order)
    found.update((order[r["id"]], Hops(r["hops"])) for r in rows)
    return found


def check_params(checks) -> tuple[list, list[dict], list[dict]]:
    """(the checks in a stable order, the ``paths`` and ``facts`` parameters of ``rule_checks``); each
    parameter row's ``id`` is the check's index in that order."""
    order = sorted(checks)  # kinds first ("fact" < "path"), then node ids and steps: all strings
    paths, facts = [], []
    for i, c in enumerate(order):
        if c.kind == "path":
            paths.append({"id": i, "a": c.a, "b": c.b, "types": [t for t, _ in c.steps],
                          "dirs": [d for _, d in c.steps]})
        else:
            facts.append({"id": i, "relation": c.relation, "subject": c.subject, "object": c.object, "role": c.role,
                          "value": c.value, "via_types": [t for t, _ in c.via], "via_dirs": [d for _, d in c.via]})
    return order, paths, facts
