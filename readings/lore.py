"""The named readings that are not rules of the tables: what the lore says of the chart's own slots.

- ``kin``: 五用神 / 六親 of each transmission against the day stem (``KIN_BRANCH`` facts);
- ``stages``: the 長生 stage of the day stem at each transmission (``LIFE_STAGE`` facts);
- ``vigour``: 旺相休囚死 of each transmission in the chart's season (``VIGOUR`` facts);
- ``relations``: 刑 沖 破 害 合 among the chart's slots (direct edges of those types);
- ``leixiang``: the 類神 of a topic — the 類象 of the initial transmission (and the general riding it) in
  the domains the topic consults (``CONSULTS`` Topic → Domain; a 類象 row's ``category`` names its domain).

Each is grounded into the same checks as the rules' graph predicates (one backend call answers the
rules and these together), and each finding's path is the real edge that decided it.
"""

from __future__ import annotations

from itertools import combinations

from leishen.readings.findings import chain_walk, graph_walk, meaning, node_json

TRANSMISSIONS = ("初傳", "中傳", "末傳")
RELATION_TYPES = ("CLASHES", "COMBINES", "PUNISHES", "HARMS", "BREAKS", "STEM_COMBINES")
RELATION_SLOTS = {"liuren": ("日干", "日支", "占時", "月將", "月建", "太歲", "初傳", "中傳", "末傳", "本命", "行年"),
                  "qimen": ("日干", "日支", "時干", "時支")}
FACT_READINGS = (("kin", "KIN_BRANCH", "Kin", "kin"), ("stages", "LIFE_STAGE", "LifeStage", "stage"),
                 ("vigour", "VIGOUR", "Vigour", "season"))


def _ids(reader, label: str) -> list[str]:
    return reader.ids_by_label[label]


def lore_checks(reader, b) -> dict:
    """(query, slot or pair, value) → the ground check that decides it."""
    out = {}
    s = b.slots
    if "liuren" in b.systems and "日干" in s:
        day = s["日干"].value
        for name in TRANSMISSIONS:
            if name not in s:
                continue
            t = s[name].value
            for k in _ids(reader, "Kin"):
                out[("kin", name, k)] = ("fact", "KIN_BRANCH", day, t, "kin", k, ())
            for st in _ids(reader, "LifeStage"):
                out[("stages", name, st)] = ("fact", "LIFE_STAGE", day, t, "stage", st, ())
            if "季節" in s:
                for v in _ids(reader, "Vigour"):
                    out[("vigour", name, v)] = ("fact", "VIGOUR", t, v, "season", s["季節"].value, ())
    return out


def relation_rows(reader, b) -> list[tuple[str, dict]]:
    """(system, row) of the named query ``relations_among`` over each system's slot nodes: the 刑 沖 破 害
    合 among them (one backend call for every system)."""
    nodes = {}
    for system, names in RELATION_SLOTS.items():
        if system in b.systems:
            for n in names:
                if n in b.slots and isinstance(b.slots[n].value, str):
                    nodes.setdefault(b.slots[n].value, set()).add(system)
    if not nodes:
        return []
    rows = _relations_among(reader, set(nodes))
    return [(system, row) for row in rows if row["type"] in RELATION_TYPES
            for system in sorted(nodes[row["source"]["id"]] & nodes[row["target"]["id"]])]


def relation_findings(reader, b, rows: list) -> list[dict]:
    """A finding for each relation between two slots of the same system (each pair of slots once)."""
    out = []
    for system, row in rows:
        src, dst = row["source"]["id"], row["target"]["id"]
        slots = [n for n in RELATION_SLOTS[system] if n in b.slots and b.slots[n].value in (src, dst)]
        for x, y in combinations(slots, 2):
            vx, vy = b.slots[x].value, b.slots[y].value
            if {vx, vy} != {src, dst} or (src == dst and vx != vy):
                continue
            forward = vx == src
            hop = {"rel": row["type"], "chart": False, "src": list(row["src"]), "key": row["fact"], "forward": forward}
            path = [{"node": row["source" if forward else "target"], "slot": x}, hop,
                    {"node": row["target" if forward else "source"], "slot": y}]
            path = [{"node": {k: v for k, v in h["node"].items()}, "slot": h["slot"]} if "node" in h else h
                    for h in path]
            rdef = reader.data_schema.relations[row["type"]]
            mean = {"id": None, "zh": rdef.zh, "ko": rdef.ko, "en": rdef.en}
            out.append(_lore(system, "relations", f"{x}-{y}/{row['type']}", row["fact"], reader, path, [], mean,
                             {x: vx, y: vy}))
    return out


def lore_findings(reader, b, answers: dict, checks: dict) -> list[dict]:
    """The findings of the kin / stages / vigour readings whose checks hold."""
    out = []
    for (query, where, value), check in sorted(checks.items(), key=repr):
        hops = answers.get(check)
        if not hops:
            continue
        path, evidence = _fact_path(b, where, check, hops, reader)
        out.append(_lore("liuren", query, f"{where}/{value}", hops[-1][3], reader, path, evidence,
                         meaning(value, reader.props), {where: b.slots[where].value}))
    return out


def _fact_path(b, slot: str, check: tuple, hops: list, reader) -> tuple[list, list]:
    """(path, evidence). VIGOUR: transmission → its vigour. KIN_BRANCH / LIFE_STAGE: transmission ←OBJECT–
    the fact –QUALIFIER→ the kin or stage, with the fact's own edge from the day stem as evidence."""
    walk = graph_walk(hops, reader.props)
    if check[1] == "VIGOUR":
        walk[0] = {**walk[0], "slot": slot}
        return walk, []
    fid, src = hops[-1][3], list(hops[-1][4] or ())
    fact_node = node_json(f"Fact:{fid}", reader.props)
    path = [{**walk[2], "slot": slot},
            {"rel": "OBJECT", "chart": False, "src": src, "key": f"{fid}/object", "forward": False}, fact_node,
            {"rel": "QUALIFIER", "chart": False, "src": src, "key": f"{fid}/q/{check[4]}", "forward": True},
            {"node": _node(check[5], reader)}]
    return path, [[{**walk[0], "slot": "日干"}, *walk[1:-1], {**walk[-1], "slot": slot}]]


def _node(value: str, reader) -> dict:
    p = reader.props[value]
    return {"id": value, "label": p["label"], "key": p["key"], "name": p["name"]}


def _lore(system, query, suffix, fact_id, reader, path, evidence, mean, bindings) -> dict:
    fact = reader.facts.get(fact_id)
    return {"id": f"{system}/{query}/{suffix}", "system": system, "topic": None, "query": query,
            "rule": {"fact": fact_id, "name": query, "item": (fact.item or None) if fact else None},
            "polarity": None, "certainty": "holds", "judgment": None, "bindings": bindings,
            "path": path, "evidence": evidence, "meaning": mean,
            "src": [str(c) for c in fact.src] if fact else path[1].get("src") or [],
            "variant": (fact.variant or None) if fact else None, "options": {}}


LEIXIANG_TYPES = ("SYMBOLIZES", "HAS_COLOUR", "HAS_NUMBER", "HAS_TASTE")
SHENSHA_TYPES = ("XUN_SHENSHA",)
#: where a 神煞 counts (000:3, 000:23): the asker's 干支 (干上, 支上), the 三傳, the hour, the 本命
SHENSHA_PLACES = ("干上", "支上", "初傳", "中傳", "末傳", "占時", "本命")


def _leixiang_chains(reader, b, topic) -> tuple[set, dict]:
    domains = set().union(*reader.consults.values()) if topic == "*" else reader.consults.get(topic)
    first = b.slots.get("初傳")
    if not domains or first is None or "liuren" not in b.systems:
        return set(), {}
    chains = {first.value: first.chain}
    if first.value in b.rides:
        chains[b.rides[first.value]] = first.hop("RIDDEN_BY", b.rides[first.value]).chain
    return domains, chains


def slot_relations(reader, b, topic: str | None) -> list[dict]:
    """One call of the named query ``relations_from`` for the 類神 and the 旬中神煞 of a chart."""
    _, chains = _leixiang_chains(reader, b, topic)
    nodes, types = set(chains), set(LEIXIANG_TYPES) if chains else set()
    if "旬" in b.slots and "liuren" in b.systems:
        nodes.add(b.slots["旬"].value)
        types |= set(SHENSHA_TYPES)
    return _relations_from(reader, nodes, sorted(types)) if nodes else []


def _relations_among(reader, nodes: set) -> list[dict]:
    """The rows of ``relations_among`` over *nodes*. With the reader's cache on, the query is asked once
    for every Stem and Branch and each reading takes the rows among its own nodes (the rows are sorted
    by content, so the order is the query's)."""
    if reader.cache and "among" not in reader.lore_answers:
        every = sorted(reader.ids_by_label["Stem"] + reader.ids_by_label["Branch"])
        reader.lore_answers["among"] = (frozenset(every), reader.backend.run("relations_among", node_ids=every))
    every, table = reader.lore_answers.get("among", (frozenset(), None))
    if table is None or not nodes <= every:
        return reader.backend.run("relations_among", node_ids=sorted(nodes))
    return [row for row in table if row["source"]["id"] in nodes and row["target"]["id"] in nodes]


def _relations_from(reader, nodes: set, types: list[str]) -> list[dict]:
    """The rows of ``relations_from``; with the reader's cache on, asked once per node and types (the
    rows are sorted by source first, so joining them node by node keeps the query's order)."""
    if not reader.cache:
        return reader.backend.run("relations_from", node_ids=sorted(nodes), types=types)
    rows = []
    for node in sorted(nodes):
        key = ("from", node, tuple(types))
        if key not in reader.lore_answers:
            reader.lore_answers[key] = reader.backend.run("relations_from", node_ids=[node], types=types)
        rows += reader.lore_answers[key]
    return rows


def leixiang_findings(reader, b, topic: str | None, rows: list[dict]) -> list[dict]:
    """The 類象 of 初傳 (and of its general) in the domains *topic* consults."""
    domains, chains = _leixiang_chains(reader, b, topic)
    first = b.slots.get("初傳")
    out = []
    for row in rows:
        fact = reader.facts.get(row["fact"])
        if row["type"] not in LEIXIANG_TYPES or row["source"]["id"] not in chains \
                or row["qualifiers"].get("category") not in domains or fact is None or fact.when:
            continue
        hop = {"rel": row["type"], "chart": False, "src": list(row["src"]), "key": row["fact"], "forward": True}
        path = chain_walk(chains[row["source"]["id"]], reader.props) + [hop, node_json(row["target"]["id"], reader.props)]
        found = _lore("liuren", "leixiang", f"{row['source']['id']}/{row['fact']}", row["fact"], reader, path, [],
                      meaning(row["target"]["id"], reader.props), {"初傳": first.value})
        topics = [t for t, d in reader.consults.items() if row["qualifiers"].get("category") in d]
        out.append({**found, "topic": reader.props[topic if topic != "*" else topics[0]]["name"]})
    return out


def shensha_findings(reader, b, rows: list[dict]) -> list[dict]:
    """The 旬中神煞 of the chart's 旬 (儀 丁 奇 閉口 五亡 …, 002:147) where they count: on a place of
    000:3 / 000:23 (干上 支上 三傳 占時 本命). Path: 旬 –XUN_SHENSHA→ the branch, at its slot."""
    out = []
    for row in rows:
        if row["type"] not in SHENSHA_TYPES:
            continue
        for place in SHENSHA_PLACES:
            slot = "課1上" if place == "干上" else "課3上" if place == "支上" else place
            bound = b.slots.get(slot)
            if bound is None or bound.value != row["target"]["id"]:
                continue
            hop = {"rel": row["type"], "chart": False, "src": list(row["src"]), "key": row["fact"], "forward": True,
                   "qualifiers": row["qualifiers"]}
            path = [{"node": row["source"], "slot": "旬"}, hop, {"node": row["target"], "slot": slot}]
            kind = row["qualifiers"].get("kind", "")
            mean = {"id": None, "zh": f"{kind}神" if len(kind) == 1 else kind, "ko": "", "en": f"the decade's {kind}"}
            out.append(_lore("liuren", "shensha", f"{place}/{row['fact']}", row["fact"], reader, path, [], mean,
                             {"旬": b.slots["旬"].value, slot: bound.value}))
    return out
