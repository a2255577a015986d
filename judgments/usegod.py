"""What a judgment reads first (用神) and the method steps it follows, from the reading's own findings and the
method facts of the tables: READ_FROM rows (``slot=`` a chart slot, or a star / gate whose palace is read),
the 004 significators (``role=significator``: 日干 the asker, 時干 the matter …), and for the general reading
(or a system a topic names no 用神 in) the rows of ``ontology/judgments/use_gods.csv``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from leishen.judgments.tables import _rows, _src, plain_note

METHOD_RELATIONS = frozenset({"READ_FROM", "SEEN_AT", "JUDGED_BY", "COUNTS_ONLY_WITH", "TIMES"})
SLOT_ALIASES = {"干上": "課1上", "支上": "課3上"}  # docs/rules.md: 干上 = 課1上, 支上 = 課3上
ROLE_RANK = {"先看": 0, "專看": 1, "兼看": 1}  # 002:151: read first; then as well (專看 初傳: only the first of the three transmissions, read beside 日上/支上 as 兼看)
QIMEN_PLACE = {"QimenStar": "star", "Gate": "gate", "Deity": "deity"}


class UseGod(NamedTuple):
    """A place the text says to read: a slot (bound in the chart) or a palace (where a named star / gate
    stands), its node, its rank (0 first), the finding or fact that says so, and its src (made per chart: a
    NamedTuple)."""

    system: str
    slot: str
    node: str | None
    rank: int
    role: str
    finding: str | None
    fact: str | None
    src: tuple[str, ...]
    why: str
    via: str | None = None  # the star / gate / deity the rule names, whose palace is read
    aim: str | None = None  # what it is read for (a READ_FROM row's for=: 花草 from 天沖, 樹木 from 天輔)


@lru_cache(maxsize=1)
def general_use_gods() -> tuple[tuple, ...]:
    """(topic, system, slot, role, src, note) rows of use_gods.csv."""
    return tuple((row["topic"] or None, row["system"], row["slot"], row["role"],
                  _src("use_gods.csv", n, row["src"]), row["note"]) for n, row in _rows("use_gods.csv"))


@dataclass(frozen=True, slots=True)
class FactInfo:
    """What a judgment reads of a fact's row, read once per reader: its category, the item it modifies, its own
    item, whether it is method, its season's name (the ``season=`` qualifier's node) and its role, and — for a
    READ_FROM or significator row — the 用神 it names (:class:`GodRow`)."""

    relation: str
    category: str | None
    modifies: str | None
    item: str
    method: bool
    season: str | None
    role: str | None
    god: "GodRow | None" = None


def fact_info(fact, props: dict) -> FactInfo:
    """The :class:`FactInfo` of a fact (*props*: node id → properties, for the season's name and the 用神)."""
    q = fact.qualifier_dict()
    season = q.get("season")
    god = god_row(fact, props) if fact.relation == "READ_FROM" or q.get("role") == "significator" else None
    return FactInfo(fact.relation, q.get("category"), q.get("modifies"), fact.item, is_method(fact),
                    props.get(season, {}).get("name", season) if season else None, q.get("role"), god)


def is_method(fact) -> bool:
    """A fact states how to read, not what the chart means: a READ_FROM / SEEN_AT / JUDGED_BY /
    COUNTS_ONLY_WITH / TIMES row, or one the tables mark ``category=method`` or ``role=significator``."""
    if fact is None:
        return False
    q = fact.qualifier_dict()
    return fact.relation in METHOD_RELATIONS or q.get("category") == "method" or q.get("role") == "significator"


def palace_of(chart: dict, label: str, name: str) -> str | None:
    """The Qimen palace (Palace node id) where the star / gate / deity *name* stands on this chart."""
    field = QIMEN_PLACE.get(label)
    for number, palace in ((chart.get("qimen") or {}).get("palaces") or {}).items():
        if field and (palace.get(field) == name or palace.get(f"{field}_hosted") == name):
            return f"Palace:p{number}"
    return None


def _bound(bindings: dict, slot: str):
    """The node a slot is bound to in the reading (干上 / 支上 read as 課1上 / 課3上)."""
    value = bindings.get(SLOT_ALIASES.get(slot, slot))
    return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class GodRow:
    """What a READ_FROM or significator fact says to read, the same on every chart: its system, the slot it names
    (干上 …), or the star / gate / deity whose palace is read (``via``, with its label and name), its role and rank,
    its src, why, and what it is read for (``for=``)."""

    fact: str
    system: str
    slot: str  # "" when the row reads a palace (via)
    via: str | None
    via_label: str
    via_name: str
    rank: int
    role: str
    src: tuple[str, ...]
    why: str
    aim: str | None


def god_row(fact, props: dict) -> GodRow:
    """The :class:`GodRow` of a READ_FROM or significator fact (its qualifiers read once)."""
    q = fact.qualifier_dict()
    system = "qimen" if fact.src and fact.src[0].doc in ("003", "004") else "liuren"
    role = q.get("role", "先看")
    rank = ROLE_RANK.get(role, 0 if role == "significator" and q.get("category") == "person" else 1)
    src = tuple(f"{c.doc}:{c.line}" for c in fact.src)
    # a READ_FROM row's note says why its place is read; a significator row is what its object is (時干 → 病, 004:139)
    why = (fact.note if fact.relation == "READ_FROM" else "") or props.get(fact.object, {}).get("en", "")
    if fact.relation == "READ_FROM" and not q.get("slot"):
        obj = props.get(fact.object, {})
        aim = props.get(q.get("for"), {}).get("name") if q.get("for") else None
        return GodRow(fact.id, "qimen", None, fact.object, obj.get("label", ""), obj.get("name", ""), rank, role,
                      src, why, aim)
    slot = q.get("slot") or props.get(fact.subject, {}).get("name")
    return GodRow(fact.id, system, slot or "", None, "", "", rank, role, src, why, None)


def bind_god(row: GodRow, finding: str | None, bindings: dict, chart: dict) -> UseGod | None:
    """The 用神 a :class:`GodRow` names on this chart, or None (a class of places such as 九州, or a slot the
    chart does not bind)."""
    if row.via is not None:
        place = palace_of(chart, row.via_label, row.via_name)
        if place is None:
            return None
        return UseGod("qimen", row.via_name, place, row.rank, row.role, finding, row.fact, row.src, row.why, row.via,
                      row.aim)
    node = _bound(bindings, row.slot)
    if node is None:
        return None
    return UseGod(row.system, SLOT_ALIASES.get(row.slot, row.slot), node, row.rank, row.role, finding, row.fact,
                  row.src, row.why)


def general_rows(topic: str | None, systems, bindings: dict) -> list[UseGod]:
    """The use_gods.csv 用神 of the general reading (or of a topic) in these systems, bound on this chart."""
    out = []
    for row_topic, system, slot, role, src, note in general_use_gods():
        if row_topic == topic and system in systems:
            node = _bound(bindings, slot)
            if node is not None:
                out.append(UseGod(system, slot, node, ROLE_RANK.get(role, 1), role, None, None, src, note))
    return out


def god_places(gods: list[UseGod]) -> dict[str, tuple[dict, dict]]:
    """system → (slot → the best rank of a 用神 there; node → the same): what :func:`place_rank` looks up."""
    out: dict = {}
    for g in gods:
        slots, nodes = out.setdefault(g.system, ({}, {}))
        slots[g.slot] = min(g.rank, slots.get(g.slot, g.rank))
        if g.node is not None:
            nodes[g.node] = min(g.rank, nodes.get(g.node, g.rank))
    return out


def aims_of(finding: dict, gods: list[UseGod]) -> str | None:
    """What the 用神 a finding is read at is read for (the first such 用神 with a ``for=``), or None."""
    slots = finding.get("bindings") or {}
    nodes = {s["node"].get("id") for s in (finding.get("path") or ())[:3] if "node" in s}
    for g in gods:
        if g.aim and g.system == finding.get("system") and (g.slot in slots or g.node in nodes):
            return g.aim
    return None


_NO_PLACES: tuple[dict, dict] = ({}, {})


def place_rank(finding: dict, places: dict, other: int) -> int:
    """The rank of the first-read 用神 a finding is read at (*other* when none); *places* from :func:`god_places`.
    A finding is read at a 用神 when it reads the 用神's slot (the slot is among those its path and evidence
    start from: 時元尅人元 reads the day stem as well as the hour's), or the 用神's node is the start of its path
    or the branch over it (the path's first two nodes: a position and what stands over it)."""
    slots, nodes = places.get(finding.get("system"), _NO_PLACES)
    if not nodes and not slots:  # no 用神 in its system (a general Qimen or Nine Star reading)
        return other
    best = other
    bindings = finding.get("bindings")
    if bindings:
        for slot in bindings:  # the best of the slots it reads
            rank = slots.get(slot, other)
            if rank < best:
                best = rank
        if best <= 0:  # a first-read slot: no node of its path ranks before it (ranks are 0 or more)
            return best
    path = finding.get("path")
    if path:
        for step in path[:3]:
            node = step.get("node")
            if node is not None:
                rank = nodes.get(node.get("id"), other)
                if rank < best:
                    best = rank
    return best


def _node(props: dict, nid: str) -> dict:
    p = props.get(nid, {})
    return {"id": nid, "label": p.get("label"), "name": p.get("name")}


def use_god_path(god: UseGod, finding: dict | None, props: dict) -> list[dict]:
    """The 用神's path: the rule that names it (its finding's path, or the fact's own edge), then the chart hop
    to what the chart binds there — the slot's node (``BINDS``) or the palace the named star or gate stands in
    (``STANDS_IN``)."""
    path = list(finding["path"]) if finding else []
    if not path and god.fact:
        path = [{"fact": god.fact, "src": list(god.src)}]
    if god.via:
        return path + [{"node": _node(props, god.via)}, {"rel": "STANDS_IN", "chart": True, "src": None},
                       {"node": _node(props, god.node), "slot": "宮"}]
    return path + [{"rel": "BINDS", "chart": True, "src": None}, {"node": _node(props, god.node), "slot": god.slot}]


def use_god_json(god: UseGod, props: dict, finding: dict | None = None) -> dict:
    """The JSON of a 用神, with its path."""
    node = props.get(god.node, {})
    return {"system": god.system, "slot": god.slot, "role": god.role,
            "node": {"id": god.node, "name": node.get("name"), "ko": node.get("ko"), "en": node.get("en")},
            "why": plain_note(god.why), "finding": god.finding, "fact": god.fact, "src": list(god.src),
            "path": use_god_path(god, finding, props)}
