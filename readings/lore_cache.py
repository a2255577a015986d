"""What the lore readings (readings/lore.py) keep across the readings of one reader.

- the kin / stages / vigour checks of a transmission (:class:`FactGroup`): they depend on node ids only,
  and are kept whatever the reader's cache;
- the findings already made, each keyed by everything it depends on (the slot names and node ids, the
  backend's answer that decided it, the topic): a later reading with the same input is handed the same
  finding (findings are read-only);
- with the reader's cache on (the backend's answers depend on node ids only and are kept): the
  ``relations_among`` table of every Stem and Branch indexed by its two ends, and a reading part's list of
  findings by the node ids it depends on.

The findings and lists are dropped together when the findings grow past *limit* (a finding handed out
stays valid; it is only no longer shared). Everything else is bounded by the graph's nodes.
"""

from __future__ import annotations

#: findings (about 3 kB each) and lists kept at most: a guard, not the working size — 4,000 random
#: charts read in every topic keep about 4,400 findings (13 MB), 1,600 check groups (5.5 MB) and
#: 5,000 lists (4 MB), and stop growing there (the graph's nodes bound them)
LIMIT = 10_000


class LoreChecks(dict):
    """:func:`~leishen.readings.lore.lore_checks`' answer: (query, slot, value) → the ground check that
    decides it, and ``groups``: the :class:`FactGroup` of each transmission it was made of."""

    __slots__ = ("groups",)

    def __init__(self):
        super().__init__()
        self.groups: tuple = ()


class FactGroup:
    """The kin / stages / vigour checks of one transmission slot. ``key``: (slot, day stem, branch,
    season); ``checks``: (query, slot, value) → check."""

    __slots__ = ("key", "checks")

    def __init__(self, key: tuple, checks: dict):
        self.key, self.checks = key, checks


class SlotRows(list):
    """The rows of ``relations_from`` for a reading; ``key`` = (node ids, types) when they are the reader's
    kept answers (cache on), so what is made of them can be kept by that key; else None."""

    __slots__ = ("key",)

    def __init__(self, rows, key: tuple | None = None):
        super().__init__(rows)
        self.key = key


class LoreStore:
    """The lore readings' store of one reader (see the module's docstring)."""

    def __init__(self, limit: int = LIMIT):
        self.limit = limit
        self.groups: dict[tuple, FactGroup] = {}
        self.names: dict[tuple, tuple] = {}  # each (query, slot, value) once, shared by the groups
        self.found: dict[tuple, dict] = {}
        self.lists: dict[tuple, list] = {}
        self.among: tuple | None = None  # (the node ids asked, the rows indexed by their ends)
        self.domains: dict = {}  # topic → the domains it consults
        self.first_topic: dict = {}  # domain → the first topic that consults it

    def finding(self, key: tuple, make, *args) -> dict:
        """The finding kept under *key*, made by ``make(*args)`` the first time."""
        found = self.found.get(key)
        if found is None:
            if len(self.found) >= self.limit:
                self.found.clear()
                self.lists.clear()
            found = self.found[key] = make(*args)
        return found

    def kept(self, key: tuple, make, *args):
        """What is kept under *key* (with the reader's cache on: a reading part's list of findings, an
        index of rows), made by ``make(*args)`` the first time."""
        found = self.lists.get(key)
        if found is None:
            if len(self.lists) >= self.limit:
                self.lists.clear()
            found = self.lists[key] = make(*args)
        return found


def lore_store(reader) -> LoreStore:
    """The reader's store, kept in its ``lore_answers`` (made on first use)."""
    store = reader.lore_answers.get("store")
    if store is None:
        store = reader.lore_answers["store"] = LoreStore()
    return store


def pair_index(rows: list, types) -> dict[tuple, list]:
    """Rows of ``relations_among`` of these types by the pair of nodes they join, either way round:
    (a, b) → [(order, forward, row)], *forward* when the row runs from a to b, *order* the row's place in
    *rows* (the query's order)."""
    index: dict[tuple, list] = {}
    for i, row in enumerate(rows):
        if row["type"] in types:
            a, b = row["source"]["id"], row["target"]["id"]
            index.setdefault((a, b), []).append((i, True, row))
            if a != b:
                index.setdefault((b, a), []).append((i, False, row))
    return index
