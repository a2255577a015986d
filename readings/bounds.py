"""The Bound of a chart's slot: its value and the chart hops that derived it (see :mod:`leishen.readings.bindings`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Bound:
    """A slot's value (node id, number or set of node ids) and the chart hops that derived it:
    ``chain[0]`` is ``(root node, root slot)``, each later item ``(hop type, node)``."""

    value: str | int | frozenset
    chain: tuple

    @staticmethod
    def root(name: str, node) -> "Bound":
        """The slot *name* bound to *node* with no hop."""
        return Bound(node, ((node, name),))

    def hop(self, rel: str, node: str) -> "Bound":
        return Bound(node, self.chain + ((rel, node),))
