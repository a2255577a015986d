"""What a reader keeps from one reading to the next: one owner, one budget, one switch (issue #30).

Every store is a dict keyed by values (node ids, checks, chart chains, the serial number a compiled node or a
recall group is given when it is made), never by ``id()``. Only the stores that earn their keep are kept: each
saves at least 10 % of a reading's time on a row of the bench (bench/README.md, "What a reader keeps"):

- ``memo``: (graph leaf's serial, its bound values) → which answer held and which argument's chain starts its
  witness (:mod:`leishen.readings.graph_leaf`);
- ``outcomes``: (recall group's serial, the numbers of the chart values its rules read) → their findings, and
  ``("value", a chart value)`` → its number (:mod:`leishen.readings.outcomes`);
- ``findings``: a finding's inputs → the finding (:mod:`leishen.readings.findings`); ``pieces``: a witness →
  its walk, a fact → its hop, a node → its path node and meaning (:mod:`leishen.readings.walks`);
- ``scopes``: (systems, topics, only) → the reading's scope (:meth:`Reader.scope_of`);
- ``bounds``: one Bound per (slot, node) and per hop, and the bound sections of a chart — a plate with its
  generals, a Qimen layout, a Nine Star plate — by the chart fields they read (:mod:`leishen.readings.bounds`).

``answers``, ``memo`` and ``outcomes`` hold the backend's answers or what only they decide: a reader made with
``cache=False`` (a server's: each Neo4j reading asks the server) keeps none of them, and reads with the Batched
evaluator; the other stores depend on the graph alone and are kept on every backend. The budget counts entries
over every store; when a reading starts past it, every store is emptied at once (a finding handed out stays
valid: findings are read-only). ``LEISHEN_NO_READING_CACHE=1`` keeps nothing from one reading to the next
(read when a reader is made or loaded); the readings are the same.
"""

from __future__ import annotations


SWITCH = "LEISHEN_NO_READING_CACHE"
BUDGET = 600_000  # entries over every store: about 340 MB at most (measured: 490,000 entries, 280 MB, after 4,000 readings of every topic)
STORES = ("memo", "outcomes", "findings", "pieces", "scopes", "bounds")
#: the stores made of the answers: kept only by a reader over a rule book (a live reader's answers may change)
ANSWERED = ("memo", "outcomes")


def switched_off() -> bool:
    """Whether LEISHEN_NO_READING_CACHE asks that nothing be kept from one reading to the next."""
    from leishen import settings
    return settings.get(SWITCH)


class Drop(dict):
    """A store that keeps nothing (a store switched off by name, to measure what it earns)."""

    def __setitem__(self, key, value):
        pass

    def setdefault(self, key, default=None):
        return default

    def update(self, *args, **kwargs):
        pass


class Kept:
    """The stores of one reader (see the module's docstring), each an attribute of its name (``kept.answers`` …):
    the reader's own dict when it keeps that store, else a dict that keeps nothing. *answers*: whether the
    backend's answers are kept (the ANSWERED stores). The switch is read when the reader is made or loaded from
    the disk cache; :meth:`switch_off` drops one store by name (bench/caches.py measures them so)."""

    def __init__(self, answers: bool = True, budget: int = BUDGET):
        self.answers_kept, self.budget, self.off = answers, budget, set()
        self.stores = {name: {} for name in STORES}
        self.refresh()

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.refresh()

    def keeps(self, name: str) -> bool:
        """Whether the store *name* lasts from one reading to the next."""
        if name in self.off or self.switched:
            return False
        return name not in ANSWERED or self.answers_kept

    def refresh(self) -> None:
        """Read the switch and set each store's attribute (and ``answers_on``: whether answers are kept)."""
        self.switched = switched_off()
        for name, store in self.stores.items():
            setattr(self, name, store if self.keeps(name) else Drop())

    def size(self) -> int:
        return sum(map(len, self.stores.values()))

    def start(self) -> None:
        """Called before a reading: empties every store when they hold more than the budget."""
        if self.size() > self.budget:
            for store in self.stores.values():
                store.clear()

    def switch_off(self, name: str) -> None:
        """Keep store *name* no longer (what bench/caches.py measures)."""
        if name not in self.stores:
            raise ValueError(f"cache: {name!r} is not one of {', '.join(self.stores)}")
        self.off.add(name)
        self.stores[name].clear()
        self.refresh()
