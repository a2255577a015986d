"""The named readings that are not rules of the tables: what the lore says of the chart's own slots.

- ``kin``: 五用神 / 六親 of each transmission against the day stem (``KIN_BRANCH`` facts);
- ``stages``: the 長生 stage of the day stem at each transmission (``LIFE_STAGE`` facts);
- ``vigour``: 旺相休囚死 of each transmission in the chart's season (``VIGOUR`` facts);
- ``relations``: 刑 沖 破 害 合 among the chart's slots (direct edges of those types);
- ``leixiang``: the 類神 of a topic — the 類象 of the initial transmission (and the general riding it) in
  the domains the topic consults (``CONSULTS`` Topic → Domain; a 類象 row's ``category`` names its domain);
  for a Qimen topic, its tables (004:87 …) at the palaces its significators name (readings/leixiang_qimen.py).

Each is grounded into the same checks as the rules' graph predicates (one backend call answers the
rules and these together), and each finding's path is the real edge that decided it. A finding is made
the relation rows are the rule book's (:mod:`leishen.readings.book`), or a live backend's.
"""

from __future__ import annotations

from itertools import combinations
from operator import itemgetter

from leishen.errors import LeishenError
from leishen.loaders.conditions import TRANSMISSIONS
from leishen.readings.cache import keep
from leishen.readings.findings import lore_finding
from leishen.readings.walks import chain_walk, graph_walk, meaning, node_json
from leishen.readings.graph_leaf import SYMMETRIC
from leishen.readings.leixiang_qimen import TABLE_TYPE, table_findings, table_nodes
from leishen.readings.records import FactCheck

RELATION_TYPES = ("CLASHES", "COMBINES", "PUNISHES", "HARMS", "BREAKS", "STEM_COMBINES")
RELATION_SLOTS = {"liuren": ("日干", "日支", "占時", "月將", "月建", "太歲", "初傳", "中傳", "末傳", "本命", "行年"),
                  "qimen": ("日干", "日支", "時干", "時支")}


def kept(reader, key: tuple, make, *args):
    """``make(*args)``, kept in a book reader's ``memo`` store under *key* (lore findings depend on the chart values
    in *key* and the book's answers alone); made at each reading by a live reader."""
    return make(*args) if reader.live else keep(reader.kept.memo, key, make, *args)


def lore_checks(reader, b) -> list[tuple[tuple, dict]]:
    """The kin / stages / vigour checks of each transmission: ((slot, day stem, branch, season), (query, slot,
    value) → the ground check that decides it); none without a Liu Ren day stem."""
    s = b.slots
    if "liuren" not in b.systems or "日干" not in s:
        return []
    day, season = s["日干"].value, s["季節"].value if "季節" in s else None
    return [((name, day, s[name].value, season), fact_checks(reader, day, s[name].value, season, name))
            for name in TRANSMISSIONS if name in s]


def fact_checks(book, day: str | None, branch: str, season: str | None, name: str = "") -> dict:
    """The kin and stage of the day stem at a transmission's *branch* (none without a *day*), and the branch's
    vigour in the *season* (none without one): (query, *name*, value) → check."""
    checks = {}
    if day is not None:
        for k in book.ids_by_label["Kin"]:
            checks[("kin", name, k)] = FactCheck("fact", "KIN_BRANCH", day, branch, "kin", k, ())
        for st in book.ids_by_label["LifeStage"]:
            checks[("stages", name, st)] = FactCheck("fact", "LIFE_STAGE", day, branch, "stage", st, ())
    if season is not None:
        for v in book.ids_by_label["Vigour"]:
            checks[("vigour", name, v)] = FactCheck("fact", "VIGOUR", branch, v, "season", season, ())
    return checks


def relation_rows(reader, b) -> list[tuple[str, list, dict]]:
    """(system, its slots bound to a node, the named query ``relations_among``'s rows of the 刑 沖 破 害 合
    by the two nodes they join, :func:`pair_index`) for each system; the query is asked once over every
    system's slot nodes."""
    present = []
    for system, names in RELATION_SLOTS.items():
        if system in b.systems:
            slots = [n for n in names if n in b.slots and isinstance(b.slots[n].value, str)]
            if slots:
                present.append((system, slots))
    if not present:
        return []
    index = _relations_among(reader, {b.slots[n].value for _, slots in present for n in slots})
    return [(system, slots, index) for system, slots in present]


def relation_findings(reader, b, rows: list) -> list[dict]:
    """A finding for each relation between two slots of the same system (each pair of slots once), in
    the query's row order, then by system, then by pair."""
    found = []
    for system, slots, index in rows:
        values = [b.slots[n].value for n in slots]
        for pos, ((x, vx), (y, vy)) in enumerate(combinations(zip(slots, values), 2)):
            matches = index.get((vx, vy))
            if matches and not reader.variants:  # a row the tables keep as a variant of the text (typo …)
                matches = [(order, forward, row) for order, forward, row in matches if not row["variant"]]
            if matches:
                pair = kept(reader, ("relations", system, x, y, vx, vy), lambda: [  # (row order, finding)
                    (order, _relation_finding(reader, system, x, y, forward, row)) for order, forward, row in matches])
                found += [(order, system, pos, f) for order, f in pair]
    found.sort(key=itemgetter(0, 1, 2))
    return [f for *_, f in found]


def _relation_finding(reader, system: str, x: str, y: str, forward: bool, row: dict) -> dict:
    """Slot x's node –relation→ slot y's node (the edge as the table states it: ``forward`` False when it
    runs from y to x)."""
    hop = {"rel": row["type"], "chart": False, "src": list(row["src"]), "key": row["fact"], "forward": forward}
    ends = (row["source"], row["target"]) if forward else (row["target"], row["source"])
    path = [{"node": dict(ends[0]), "slot": x}, hop, {"node": dict(ends[1]), "slot": y}]
    rdef = reader.data_schema.relations[row["type"]]
    mean = {"id": None, "zh": rdef.zh, "ko": rdef.ko, "en": rdef.en}
    # the slots in the relation's direction (子刑卯 and 卯刑子 apart); a symmetric one (沖 合 …) in the slots' order
    pair = f"{x}-{y}" if forward or row["type"] in SYMMETRIC else f"{y}-{x}"
    variant = f"/{row['fact']}" if row["variant"] else ""  # (read only with variants: beside its regular row)
    return lore_finding(system, "relations", f"{pair}/{row['type']}{variant}", row["fact"], reader, path, [], mean,
                 {x: ends[0]["id"], y: ends[1]["id"]})


def lore_findings(reader, b, answers: dict, groups: list) -> list[dict]:
    """The findings of the kin / stages / vigour readings whose checks hold (*groups*: lore_checks' answer for this
    reading)."""
    found = []
    for key, checks in groups:
        found += kept(reader, ("facts", key), _group_findings, reader, checks, answers)
    found.sort(key=itemgetter(0))
    return [f for _, f in found]


def _group_findings(reader, checks: dict, answers) -> list[tuple[str, dict]]:
    """(sort key: the repr of (query, slot, value), finding) of each check of a transmission that holds."""
    out = []
    for (query, where, value), check in checks.items():
        hops = answers.get(check)
        if hops:
            out.append((repr((query, where, value)), _fact_finding(reader, query, where, value, check, hops)))
    return out


def _fact_finding(reader, query: str, where: str, value: str, check: tuple, hops) -> dict:
    """The kin, stage or vigour finding of the transmission at slot *where*, from the check's witness."""
    path, evidence = _fact_path(where, check, hops, reader)
    vigour = check.relation == "VIGOUR"
    bound = check.subject if vigour else check.object  # the transmission's branch
    binds = {where: bound} if vigour else {"日干": check.subject, where: bound}  # every slot of its walks
    return lore_finding("liuren", query, f"{where}/{value}", hops[-1].key, reader, path, evidence,
                 meaning(value, reader.props), binds)


def _fact_path(slot: str, check: tuple, hops: list, reader) -> tuple[list, list]:
    """(path, evidence). VIGOUR: transmission → its vigour. KIN_BRANCH / LIFE_STAGE: transmission ←OBJECT–
    the fact –QUALIFIER→ the kin or stage, with the fact's own edge from the day stem as evidence."""
    walk = graph_walk(hops, reader.props)
    if check.relation == "VIGOUR":
        walk[0] = {**walk[0], "slot": slot}
        return walk, []
    fid, src = hops[-1].key, list(hops[-1].src or ())
    fact_node = node_json(f"Fact:{fid}", reader.props)
    path = [{**walk[2], "slot": slot},
            {"rel": "OBJECT", "chart": False, "src": src, "key": f"{fid}/object", "forward": False}, fact_node,
            {"rel": "QUALIFIER", "chart": False, "src": src, "key": f"{fid}/q/{check.role}", "forward": True},
            node_json(check.value, reader.props)]
    return path, [[{**walk[0], "slot": "日干"}, *walk[1:-1], {**walk[-1], "slot": slot}]]


LEIXIANG_TYPES = ("SYMBOLIZES", "HAS_COLOUR", "HAS_NUMBER", "HAS_TASTE")
SHENSHA_TYPES = ("XUN_SHENSHA",)
#: the reading option ``lessons``: ``core`` (the default) reads a 神煞 at the places the texts name (the SEEN_AT
#: rows, :func:`shensha_places`); ``all`` also at the uppers of the 2nd and 4th lessons, each after the lesson
#: the text names, as a practitioner reads all four lessons (docs/readings.md "Reading options")
LESSONS = ("core", "all")
DEFAULT_LESSONS = "core"
ALSO_READ = {"干上": "課2上", "支上": "課4上"}  # with lessons=all: the other lesson of the same side
#: the slot a place of the texts is (干上: the first lesson's upper, 支上: the third's; the others their own)
PLACE_SLOTS = {"干上": "課1上", "支上": "課3上"}


def shensha_places(facts) -> tuple[str, ...]:
    """Where a 神煞 counts (000:3, 000:23: 干支三傳占時本命): the ``slot`` of each SEEN_AT row of 神煞
    (ontology/facts/000/method.csv, item 000-S05.g1), in row order."""
    return tuple(dict(f.qualifiers)["slot"] for f in facts if f.relation == "SEEN_AT" and f.subject == "Shensha:神煞")


def lesson_places(places: tuple[str, ...], lessons: str) -> tuple[str, ...]:
    """The places a 神煞 is read at under the option *lessons*: *places* (``core``), or with ``all`` each of
    ALSO_READ's lessons after the place it goes with."""
    if lessons == "core":
        return places
    return tuple(p for place in places for p in (place, ALSO_READ.get(place)) if p)


class ReadingOptionError(LeishenError):
    """A reading option that is not known, or a value it does not take."""

    field = "lessons"


def checked_lessons(lessons: str | None) -> str:
    """The ``lessons`` reading option (None: the default), or ReadingOptionError naming the values it takes."""
    if lessons is None:
        return DEFAULT_LESSONS
    if lessons not in LESSONS:
        raise ReadingOptionError(f"lessons: {lessons!r} is not one of {', '.join(LESSONS)} (default "
                                 f"{DEFAULT_LESSONS}: 干支三傳占時本命; all: also the 2nd and 4th lessons' uppers)")
    return lessons


def _leixiang_chains(reader, b, topic) -> tuple[frozenset, dict]:
    """(the domains *topic* consults, node → chain of 初傳 and of the general riding it), or no chains
    when the reading has no 類神 to read."""
    domains = frozenset().union(*_consulting(reader, topic).values())
    first = b.slots.get("初傳")
    if not domains or first is None or "liuren" not in b.systems:
        return frozenset(), {}
    chains = {first.value: first.chain}
    if first.value in b.rides:
        chains[b.rides[first.value]] = first.hop("RIDDEN_BY", b.rides[first.value]).chain
    return domains, chains


def _consulting(reader, topic) -> dict:
    """Topic → the domains it consults, of the topics a reading of *topic* covers (its scope: the topic, those it
    is a case of and those read beside it; every topic for ``*``)."""
    if topic == "*":
        return reader.consults
    return {t: reader.consults[t] for t in sorted(reader.topic_scope(topic)) if t in reader.consults}


def slot_relations(reader, b, topic: str | None) -> list:
    """One call of the named query ``relations_from`` for the 類神, the 旬中神煞 and the Qimen topic tables
    (readings/leixiang_qimen.py) of a chart."""
    _, chains = _leixiang_chains(reader, b, topic)
    nodes, types = set(chains), set(LEIXIANG_TYPES) if chains else set()
    tables = table_nodes(reader, b, topic)
    if tables:
        nodes |= tables
        types.add(TABLE_TYPE)
    if "旬" in b.slots and "liuren" in b.systems:
        nodes.add(b.slots["旬"].value)
        types |= set(SHENSHA_TYPES)
    return _relations_from(reader, nodes, sorted(types)) if nodes else []


def _relations_among(reader, nodes: set) -> dict:
    """The rows of ``relations_among`` over *nodes* of the RELATION_TYPES, by the two nodes they join
    (:func:`pair_index`): the book's (every Stem and Branch, sorted by content, so the order among a reading's nodes
    is the query's), or asked of a live backend."""
    if reader.book.among is not None and not reader.live and nodes <= reader.book.stems_branches:
        return reader.book.among
    return pair_index(reader.backend.run("relations_among", node_ids=sorted(nodes)), RELATION_TYPES)


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


def _relations_from(reader, nodes: set, types: list[str]) -> list:
    """The rows of ``relations_from``: the book's rows of each node (sorted by source first, so joining them node by
    node keeps the query's order), or asked of a live backend."""
    if reader.book.rows_from is None or reader.live or not set(types) <= set(reader.book.from_types):
        return reader.backend.run("relations_from", node_ids=sorted(nodes), types=types)
    wanted = set(types)
    return [row for node in sorted(nodes) for row in reader.book.rows_from.get(node, ()) if row["type"] in wanted]


def leixiang_findings(reader, b, topic: str | None, rows: list) -> list[dict]:
    """The 類象 of 初傳 (and of its general) in the domains *topic* consults (*rows*: slot_relations'
    answer for this reading)."""
    domains, chains = _leixiang_chains(reader, b, topic)
    tables = table_findings(reader, b, topic, rows)  # the Qimen topic's tables at its palaces
    if not chains:
        return tables
    return kept(reader, ("leixiang", topic, tuple(chains.items())), _leixiang_list, reader, topic, domains, chains,
                rows) + tables


def _leixiang_list(reader, topic: str, domains: frozenset, chains: dict, rows: list[dict]) -> list[dict]:
    """The 類象 rows from a chain's node in one of *domains*, as findings, each named for the first topic of the
    reading's scope that consults the row's domain (家宅's reading names 宮室's rows 宮室's)."""
    out, consulting = [], _consulting(reader, topic)
    for row in rows:
        source = row["source"]["id"]
        if row["type"] not in LEIXIANG_TYPES or source not in chains:
            continue
        category = row["qualifiers"].get("category")
        if category not in domains:
            continue
        fact = reader.facts.get(row["fact"])
        if fact is None or fact.when or (fact.variant and not reader.variants):  # a variant row: only when asked
            continue
        first = next(t for t, d in consulting.items() if category in d)
        out.append(_leixiang_finding(reader, row, chains[source], reader.props[first]["name"]))
    return out


def _leixiang_finding(reader, row: dict, chain: tuple, topic_name: str) -> dict:
    """初傳 (–RIDDEN_BY→ its general) –類象→ the symbol."""
    hop = {"rel": row["type"], "chart": False, "src": list(row["src"]), "key": row["fact"], "forward": True}
    path = chain_walk(chain, reader.props) + [hop, node_json(row["target"]["id"], reader.props)]
    return {**lore_finding("liuren", "leixiang", f"{row['source']['id']}/{row['fact']}", row["fact"], reader, path,
                           [], meaning(row["target"]["id"], reader.props), {"初傳": chain[0][0]}), "topic": topic_name}


def shensha_findings(reader, b, rows: list, lessons: str = DEFAULT_LESSONS) -> list[dict]:
    """The 旬中神煞 of the chart's 旬 (儀 丁 奇 閉口 五亡 …, 002:147) where they count: on a place of
    000:3 / 000:23 (干上 支上 三傳 占時 本命; with *lessons* ``all`` also 課2上 and 課4上). Path: 旬 –XUN_SHENSHA→
    the branch, at its slot. In row order, then place order."""
    places = [(j, place, b.slots.get(PLACE_SLOTS.get(place, place)))
              for j, place in enumerate(lesson_places(reader.shensha_places, lessons))]
    found = [(i, j, place, row) for i, row in enumerate(rows) if row["type"] in SHENSHA_TYPES
             and (reader.variants or not row["variant"])  # a variant row (a slip of the text): only when asked
             for j, place, bound in places if bound is not None and bound.value == row["target"]["id"]]
    return [_shensha_finding(reader, place, b.slots["旬"].value, row)
            for *_, place, row in sorted(found, key=itemgetter(0, 1))]


def _shensha_finding(reader, place: str, xun: str, row: dict) -> dict:
    """旬 –XUN_SHENSHA→ the branch, standing on *place*."""
    slot = PLACE_SLOTS.get(place, place)
    hop = {"rel": row["type"], "chart": False, "src": list(row["src"]), "key": row["fact"], "forward": True,
           "qualifiers": row["qualifiers"]}
    path = [{"node": row["source"], "slot": "旬"}, hop, {"node": row["target"], "slot": slot}]
    kind = row["qualifiers"].get("kind", "")
    zh = f"{kind}神" if len(kind) == 1 else kind
    mean = {"id": None, "zh": zh, "ko": f"순중(旬中)의 {zh}", "en": f"the decade's {kind}"}
    return lore_finding("liuren", "shensha", f"{place}/{row['fact']}", row["fact"], reader, path, [], mean,
                 {"旬": xun, slot: row["target"]["id"]})
