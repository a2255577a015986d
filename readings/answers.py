"""The backend's answers to ground checks: the parameters of the named query ``rule_checks`` and each
answer's witness with a hashable key (the answers a reading asks as it goes: evaluators.Answers)."""

from __future__ import annotations


class Hops(list):
    """A check's witness, ``[[from, type, to, key, src, forward], …]``, with ``key``: its edges as a
    hashable tuple (from, type, to, key; an edge's src is its own)."""

    __slots__ = ("key",)

    def __init__(self, hops: list):
        super().__init__(hops)
        self.key = tuple((h[0], h[1], h[2], h[3]) for h in hops)


def check_params(checks) -> tuple[list, list[dict], list[dict]]:
    """(the checks in a stable order, the ``paths`` and ``facts`` parameters of ``rule_checks``); each
    parameter row's ``id`` is the check's index in that order."""
    order = sorted(checks)  # tags first ("fact" < "path"), then node ids and steps: all strings
    paths, facts = [], []
    for i, c in enumerate(order):
        if c[0] == "path":
            paths.append({"id": i, "a": c[1], "b": c[3], "types": [s[0] for s in c[2]], "dirs": [s[1] for s in c[2]]})
        else:
            facts.append({"id": i, "relation": c[1], "subject": c[2], "object": c[3], "role": c[4],
                          "value": c[5], "via_types": [s[0] for s in c[6]], "via_dirs": [s[1] for s in c[6]]})
    return order, paths, facts
