"""The Qimen deities of two namings (issue #29): 白虎 is 勾陳 and 玄武 is 朱雀 in 陽遁 under ``qimen_deities = by_dun``
(《奇門遁甲演義》), one node each. A palace keeps the name its chart gives the deity (the hidden local
:data:`DEITY_NAME`), and a rule on ``神`` that writes one of these names matches the node only where the chart names it
so: ``Deity.勾陳`` never matches a palace whose deity the chart calls 白虎 (docs/conventions-qm004.md §2)."""

from __future__ import annotations

from leishen.engine.qimen.symbols import DEITIES_MODERN, DEITIES_YANG_CLASSICAL, DEITY_ALIASES
from leishen.loaders.conditions import Call, Slot, Sym

#: a palace's hidden local: the name the chart gives its deity (a chart hop ``NAMED`` from the palace); read only by
#: ``eq`` / ``among`` of ``神`` with a deity of two namings, never written in a condition
DEITY_NAME = "神名"
#: the names one naming has and the other not: 勾陳 朱雀 (陽遁 by_dun) and 白虎 玄武
TWO_NAMED = frozenset(DEITIES_MODERN) ^ frozenset(DEITIES_YANG_CLASSICAL)


def deity_name(name: str) -> str:
    """The engine's spelling of a deity name as a chart or a rule writes it (元武 → 玄武, 騰蛇 → 螣蛇, 符 → 值符)."""
    return DEITY_ALIASES.get(name, name)


def named_deities(call: Call) -> dict[str, frozenset]:
    """node id → the chart names it must bear, for each deity of two namings an ``eq``/``among`` on ``神`` writes
    (``Deity.勾陳``: the node 白虎 where the chart names it 勾陳; ``Deity.元武``: the node 玄武 named 玄武); empty for
    any other call."""
    first, out = call.args[0], {}
    if not (isinstance(first, Slot) and first.name == "神" and not first.path):
        return out
    for a in call.args[1:]:
        name = deity_name(a.name) if isinstance(a, Sym) else None
        if name in TWO_NAMED:
            out[a.id] = out.get(a.id, frozenset()) | {name}
    return out


def misnamed(named: dict, value, env: dict | None) -> bool:
    """The deity *value* stands in this palace (*env*) under a name the rule does not write."""
    names = named.get(value)
    chart = env.get(DEITY_NAME) if names and env else None
    return chart is not None and chart.value not in names


def read_names(rd, arg) -> None:
    """Tell the reads collector *rd* (readings/outcomes.Reads) that the palace's deity name is read, through the
    compiled argument *arg*, in each enclosing scope over 宮."""
    for level in rd.stack:
        for ref in level:
            if "神" in rd.locals_of.get(ref, ()):
                rd.atom(("local", ref, DEITY_NAME, DEITY_NAME, ()), arg)
