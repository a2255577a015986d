"""The Bounds of a chart's slots and what charts share of them: one Bound per (slot, node) and per hop
from a shared Bound, and the bound sections already seen (see :mod:`leishen.readings.bindings`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Bound:
    """A slot's value (node id, number or set of node ids) and the chart hops that derived it:
    ``chain[0]`` is ``(root node, root slot)``, each later item ``(hop type, node)``."""

    value: str | int | frozenset
    chain: tuple

    def hop(self, rel: str, node: str) -> "Bound":
        return Bound(node, self.chain + ((rel, node),))


LIMIT = 4096  #: sections :class:`Shared` keeps at most, by default (and four times as many Bounds)


class Shared:
    """What the charts bound with one Lexicon have in common: one Bound per (slot, node) and per hop
    from a shared Bound, and the bound sections already seen, by the exact chart fields they read.
    The sections stop growing at *limit* entries, the Bounds (far smaller) at four times as many; with
    the default school options, charts have about 2,600 distinct sections, 3,500 hops and 430 roots
    (some 14 MB in all). ``limit=0`` keeps nothing: every chart is bound anew."""

    __slots__ = ("limit", "bounds_limit", "roots", "hops", "sections")

    def __init__(self, limit: int = LIMIT):
        self.limit, self.bounds_limit = limit, 4 * limit
        self.roots: dict[tuple, Bound] = {}
        self.hops: dict[tuple, Bound] = {}
        self.sections: dict[tuple, object] = {}

    def root(self, name: str, node) -> Bound:
        """``Bound(node, ((node, name),))``: the slot *name* bound to *node* with no hop."""
        key = (name, node)
        found = self.roots.get(key)
        if found is None:
            found = Bound(node, ((node, name),))
            if len(self.roots) < self.bounds_limit:
                self.roots[key] = found
        return found

    def hop(self, parent: Bound, rel: str, node) -> Bound:
        """``parent.hop(rel, node)``, kept by the parent's chain, the hop and the node."""
        key = (parent.chain, rel, node)
        found = self.hops.get(key)
        if found is None:
            found = parent.hop(rel, node)
            if len(self.hops) < self.bounds_limit:
                self.hops[key] = found
        return found

    def section(self, key: tuple, make):
        """``make()``, kept under *key* (the section's kind and every chart field *make* reads); a key
        that cannot be hashed (a typed-in chart with a list where a name belongs) is not kept."""
        try:
            found = self.sections.get(key)
        except TypeError:
            return make()
        if found is None:
            found = make()
            if len(self.sections) < self.limit:
                self.sections[key] = found
        return found
