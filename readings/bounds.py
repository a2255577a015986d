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


class Shared:
    """What the charts bound with one Lexicon have in common, kept in the reader's ``bounds`` store
    (:mod:`leishen.readings.cache`): one Bound per (slot, node) and per hop from a shared Bound, and the bound
    sections already seen (a Liu Ren plate with its generals, a Qimen layout, a Nine Star plate), by the exact
    chart fields they read. With the default school options, charts have about 2,600 distinct sections, 3,500
    hops and 430 roots (some 14 MB in all)."""

    __slots__ = ("kept",)

    def __init__(self, kept):
        self.kept = kept

    def root(self, name: str, node) -> Bound:
        """``Bound(node, ((node, name),))``: the slot *name* bound to *node* with no hop."""
        store, key = self.kept.bounds, (name, node)  # (no other key of the store is a pair)
        found = store.get(key)
        if found is None:
            found = store[key] = Bound(node, ((node, name),))
        return found

    def hop(self, parent: Bound, rel: str, node) -> Bound:
        """``parent.hop(rel, node)``, kept by the parent's chain, the hop and the node."""
        store, key = self.kept.bounds, ("hop", parent.chain, rel, node)
        found = store.get(key)
        if found is None:
            found = store[key] = parent.hop(rel, node)
        return found

    def section(self, key: tuple, make):
        """``make()``, kept under *key* (the section's kind and every chart field *make* reads); a key
        that cannot be hashed (a typed-in chart with a list where a name belongs) is not kept."""
        store = self.kept.bounds
        try:
            found = store.get(key)
        except TypeError:
            return make()
        if found is None:
            found = store[key] = make()
        return found
