"""The 類象 of a Qimen topic, read at the palaces its method names (issue #29, item 6).

004 gives each topic its correspondence tables — 家宅: the house parts and people by 八神 八門 (004:87) and by
十干 九星 (004:91); 疾病: the illness by 八神 八門 (004:123), the body part by 十干 and the cause by 九星
(004:127), the illness by 九宮 (004:131) — and says where the topic is read: its significator rows
(``role=significator``, 論干支 / 論值符 / 論值使: 日干 the person, 時干 the house or the illness, 值符 the
cause of an illness, 值使 its course). A table row (``SYMBOLIZES``, no ``when``, ``topic=`` the topic) is read
at the palace of the significator whose ``category`` is the row's own, or one its ``reads=`` qualifier adds
(the illness's palace reads the body parts too: 上下加臨識病處, 004:151): the persons at the asker's palace,
the house at the house's, the illness and the body part at the illness's, the cause at the 值符's.

A palace is where the slot stands: a stem (日干, 時干) on the **heaven plate** (``日干.宮``, the one Qimen
reading of a pillar stem's palace: docs/conventions-qm004.md "The day stem's palace"; a 甲 stem where its
旬首儀 stands), the 值符 and the 值使 in 值符宮 and 值使宮. What is read there: the palace itself (九宮 rows),
its deity, gate, star (and a hosted star), and its heaven and earth stems (and hosted ones).

A finding's path: the stem slot's node –STANDS_IN→ the palace, or the palace slot (值符宮, 值使宮), then
(–DEITY/GATE/STAR/…→ what stands there) –SYMBOLIZES→ the symbol, each hop a chart hop but the last, the table row
with its ``src``.
"""

from __future__ import annotations

from dataclasses import dataclass

from leishen.readings.findings import lore_finding
from leishen.readings.walks import chain_walk, meaning, node_json
from leishen.readings.topics import ALL_TOPICS

#: the significator slots a Qimen topic is read at: a pillar stem → the slot of the stem as it stands on the plates
#: (a 甲 as its 旬首儀), whose heaven-plate palace is read; the 值符 and the 值使 → the slot of their palace
STEM_SLOTS = {"日干": "日盤干", "時干": "時盤干"}
PALACE_SLOTS = {"值符": "值符宮", "值使": "值使宮"}
PLACE_SLOTS = {**STEM_SLOTS, **PALACE_SLOTS}
#: what is read in a palace, in this order (宮: the palace's own 九宮 row)
PALACE_LOCALS = ("宮", "神", "門", "星", "星寄", "天", "天寄", "地", "地寄")
TABLE_TYPE = "SYMBOLIZES"
QIMEN_DOCS = ("003", "004")


@dataclass(frozen=True, slots=True)
class Place:
    """A significator of a topic that names a palace: the topic (id and name), the slot, the table categories
    read at its palace (its own ``category`` and those its ``reads=`` adds) and the significator row."""

    topic: str
    topic_name: str
    slot: str
    categories: frozenset
    fact: str


def topic_places(facts, props: dict) -> dict[str, tuple[Place, ...]]:
    """topic id → the :class:`Place` of each Qimen significator row of the topic whose subject is a slot of
    PLACE_SLOTS, in the tables' order (the rule book's ``places``)."""
    out: dict[str, list] = {}
    for fact in facts:
        place = _place_of(fact, props)
        if place is not None:
            out.setdefault(place.topic, []).append(place)
    return {t: tuple(ps) for t, ps in out.items()}


def _place_of(fact, props: dict) -> Place | None:
    """The Place a significator fact names, or None (not a Qimen significator, or its subject is no palace
    slot: 十干, 納音, 天門 …)."""
    q = fact.qualifier_dict()
    topic, slot = q.get("topic"), props.get(fact.subject, {}).get("name")
    if q.get("role") != "significator" or not topic or slot not in PLACE_SLOTS:
        return None
    if not fact.src or fact.src[0].doc not in QIMEN_DOCS:
        return None
    reads = frozenset(filter(None, (q.get("category"), *(q.get("reads") or "").split(","))))
    return Place(topic, props.get(topic, {}).get("name", topic), slot, reads, fact.id)


def places_in(reader, topic_id: str | None) -> list[Place]:
    """The Places of the topics a reading of *topic_id* covers (every topic for ``*``; none for the general
    reading)."""
    if topic_id is None:
        return []
    every = reader.places
    scope = reader.topic_scope(topic_id) if topic_id != ALL_TOPICS else frozenset(every)
    return [p for t in sorted(scope & every.keys()) for p in every[t]]


def palace_of(b, slot: str) -> tuple[object, str | None]:
    """(the Bound a significator slot's path starts from, the palace — Palace node id — it stands in on this
    chart): a pillar stem as it stands on the plates (日盤干: itself, a 甲 as its 儀) and its palace on the heaven
    plate (``b.stem_palace``); for the 值符 (the duty star) or the 值使 (the duty gate) the slot 值符宮 / 值使宮."""
    own = b.slots.get(PLACE_SLOTS[slot])
    if own is None:
        return None, None
    return own, b.stem_palace.get(own.value) if slot in STEM_SLOTS else own.value


def bound_places(reader, b, topic_id: str | None) -> list[tuple[Place, object, str, dict]]:
    """(Place, the Bound its path starts from, its palace, the palace's locals) of each Place of the reading
    bound on this Qimen chart."""
    if "qimen" not in b.systems:
        return []
    cells = dict(b.scopes.get("宮") or ())
    out = []
    for place in places_in(reader, topic_id):
        start, pid = palace_of(b, place.slot)
        if pid in cells:
            out.append((place, start, pid, cells[pid]))
    return out


def table_nodes(reader, b, topic_id: str | None) -> set:
    """The nodes whose table rows a reading asks for (``relations_from``): what stands in each palace read."""
    return {local.value for _, _, _, cells in bound_places(reader, b, topic_id)
            for name, local in cells.items() if name in PALACE_LOCALS and isinstance(local.value, str)}


def table_findings(reader, b, topic_id: str | None, rows: list) -> list[dict]:
    """The table rows read at the palaces of the reading's Places (*rows*: the ``relations_from`` rows of the
    reading), in the Places' order, then PALACE_LOCALS', then the rows'. A symbol the text names twice for one
    node (勾陳、白虎: one deity) is read once, by its first row."""
    by_source: dict[str, list] = {}
    for row in rows:
        if row["type"] == TABLE_TYPE:
            by_source.setdefault(row["source"]["id"], []).append(row)
    out, seen = [], set()
    for place, start, pid, cells in bound_places(reader, b, topic_id):
        for local in PALACE_LOCALS:
            node = cells.get(local)
            for row in by_source.get(node.value, ()) if node is not None else ():
                if not _read_here(reader, place, row) or (place.slot, node.value, row["target"]["id"]) in seen:
                    continue
                seen.add((place.slot, node.value, row["target"]["id"]))
                out.append(_finding(reader, place, start, pid, local, node, row))
    return out


def _read_here(reader, place: Place, row: dict) -> bool:
    """Whether a row is one of the place's tables: the place's topic and one of its categories, a plain table
    row (no ``when``), a regular row (a variant only when the reader reads variants)."""
    q = row["qualifiers"]
    if q.get("topic") != place.topic or q.get("category") not in place.categories:
        return False
    fact = reader.facts.get(row["fact"])
    return fact is not None and not fact.when and (reader.variants or not fact.variant)


def _finding(reader, place: Place, start, pid: str, local: str, node, row: dict) -> dict:
    """The stem –STANDS_IN→ its palace, or the palace slot (值符宮 值使宮), (–hop→ what stands there) –SYMBOLIZES→
    the symbol."""
    props = reader.props
    path = chain_walk(start.chain, props)
    binds = {start.chain[0][1]: start.chain[0][0]}  # the slot the path starts at (日干 時干 值符宮 值使宮)
    if place.slot in STEM_SLOTS:
        path += [{"rel": "STANDS_IN", "chart": True, "src": None}, node_json(pid, props, "宮")]
        binds.update({PLACE_SLOTS[place.slot]: start.value} if len(start.chain) > 1 else {})  # a 甲 stem's 儀
        binds["宮"] = pid
    if local != "宮":  # the palace's hop to what stands there (its chain from the palace)
        *hops, last = chain_walk(node.chain, props)[1:]
        path += [*hops, {**last, "slot": local}]
        binds[local] = node.value
    path += [{"rel": row["type"], "chart": False, "src": list(row["src"]), "key": row["fact"], "forward": True,
              "qualifiers": row["qualifiers"]}, node_json(row["target"]["id"], props)]
    return {**lore_finding("qimen", "leixiang", f"{start.chain[0][1]}/{row['source']['id']}/{row['fact']}",
                           row["fact"], reader, path, [], meaning(row["target"]["id"], props), binds),
            "topic": place.topic_name}
