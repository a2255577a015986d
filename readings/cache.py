"""What a reader keeps from one reading to the next: one owner, one budget, one switch (issue #30).

Every store is a dict keyed by values (node ids, checks, chart chains, the serial number a compiled node or a
recall group is given when it is made), never by ``id()``. Only the stores that earn their keep are kept: each
saves at least 10 % of a reading's time on a row of the bench (bench/README.md, "What a reader keeps"):

- ``memo``: (graph leaf's serial, its bound values) → which answer held and which argument's chain starts its
  witness (:mod:`leishen.readings.graph_leaf`), and the lore findings by the chart values they read
  (:mod:`leishen.readings.lore`);
- ``outcomes``: (recall group's serial, the numbers of the chart values its rules read) → their findings, and
  ``("value", a chart value)`` → its number (:mod:`leishen.readings.outcomes`);
- ``findings``: a finding's inputs → the finding (:mod:`leishen.readings.findings`); ``pieces``: a witness →
  its walk, a fact → its hop, a node → its path node and meaning (:mod:`leishen.readings.walks`);
- ``scopes``: (systems, topics, only) → the reading's scope (:meth:`Reader.scope_of`);
- ``sections``: the bound sections of a chart — a plate with its generals, a Qimen layout, a Nine Star plate —
  by the chart fields they read (:mod:`leishen.readings.bindings`).

The answers themselves are the rule book's (:mod:`leishen.readings.book`), never kept here. ``memo`` and
``outcomes`` are made of them: a live reader (``cache=False``, a server's: each Neo4j reading asks the server)
keeps neither from one reading to the next, and reads with the Batched evaluator; the other stores depend on the
graph alone and are kept on every backend. The budget counts entries over every store; when a reading starts past
it, every store is emptied at once (a finding handed out stays valid: findings are read-only).
``LEISHEN_NO_READING_CACHE=1`` keeps nothing from one reading to the next and makes the reader live (read when
the reader is made); the readings are the same. What one reading looks up more than once is its own
(:class:`~leishen.readings.reading.Reading`'s ``memo``), gone with it.
"""

from __future__ import annotations


SWITCH = "LEISHEN_NO_READING_CACHE"
BUDGET = 600_000  # entries over every store: about 340 MB at most (measured: 490,000 entries, 280 MB, after 4,000 readings of every topic)
STORES = ("memo", "outcomes", "findings", "pieces", "scopes", "sections")
#: the stores made of the answers: kept only by a reader over a rule book (a live reader's answers may change)
ANSWERED = ("memo", "outcomes")


def keep(store: dict, key, make, *args):
    """``make(*args)``, kept in *store* under *key*: made the first time it is asked for."""
    found = store.get(key)
    if found is None:
        found = store[key] = make(*args)
    return found


def switched_off() -> bool:
    """Whether LEISHEN_NO_READING_CACHE asks that nothing be kept from one reading to the next."""
    from leishen import settings
    return settings.get(SWITCH)


class Kept:
    """The stores of one reader (see the module's docstring), each an attribute of its name (``kept.memo`` …).
    *answered*: whether the ANSWERED stores last (a reader over a rule book; a live reader empties them before each
    reading). With the switch on (read when the reader is made) the budget is 0: every store is emptied before each
    reading. :meth:`switch_off` empties one store by name before each reading (bench/caches.py measures them so)."""

    def __init__(self, answered: bool = True, budget: int = BUDGET):
        self.budget = 0 if switched_off() else budget
        self.off = set() if answered else set(ANSWERED)
        self.stores = {name: {} for name in STORES}
        for name, store in self.stores.items():
            setattr(self, name, store)

    def size(self) -> int:
        return sum(map(len, self.stores.values()))

    def start(self) -> None:
        """Called before a reading: empties every store when they hold more than the budget, else those switched
        off."""
        every = self.size() > self.budget
        for name, store in self.stores.items():
            if every or name in self.off:
                store.clear()

    def switch_off(self, name: str) -> None:
        """Keep store *name* no longer (what bench/caches.py measures)."""
        if name not in self.stores:
            raise ValueError(f"cache: {name!r} is not one of {', '.join(self.stores)}")
        self.off.add(name)
        self.stores[name].clear()
