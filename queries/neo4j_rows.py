"""Neo4j records → the exact row dicts of :mod:`leishen.queries.traversal`, one converter per named query; and the
wire form of the parameters of the queries that take many checks (:data:`ENCODERS`)."""

from __future__ import annotations

import json


def _end(m: dict | None, *, with_id: bool = True) -> dict | None:
    if m is None:
        return None
    short = {"label": m["label"], "key": m["key"], "name": m["name"]}
    return {"id": m["id"], **short} if with_id else short


def _stats(records: list[dict]) -> list[dict]:
    r = records[0]
    return [{"nodes": dict(sorted((k, v) for k, v in r["nodes"])),
             "relations": dict(sorted((k, v) for k, v in r["relations"]))}]


def _resolve(records: list[dict]) -> list[dict]:
    return [{**_end(r), "ko": r["ko"], "en": r["en"], "tier": r["tier"]} for r in records]


def _symbol_relations(records: list[dict]) -> list[dict]:
    return [{"direction": r["direction"], "type": r["type"], "zh": r["zh"], "other": _end(r["other"]),
             "via": _end(r["via"]), "role": r["role"], "src": list(r["src"]), "variant": r["variant"],
             "note": r["note"], "qualifiers": json.loads(r["qualifiers"]), "fact": r["fact"]} for r in records]


def _facts(records: list[dict]) -> list[dict]:
    rows = []
    for r in records:
        qualifiers = json.loads(r["qualifiers"])
        for q in r["node_qualifiers"]:
            qualifiers[q["role"]] = _end(q["end"], with_id=False)
        rows.append({"id": r["id"], "relation": r["relation"], "zh": r["zh"],
                     "subject": _end(r["subject"], with_id=False), "object": _end(r["object"], with_id=False),
                     "qualifiers": qualifiers, "src": list(r["src"]), "variant": r["variant"], "note": r["note"],
                     "item": r["item"]})
    return rows


def _shortest_path(records: list[dict]) -> list[dict]:
    return [{"nodes": [_end(n) for n in r["nodes"]], "types": list(r["types"])} for r in records]


def _relations_among(records: list[dict]) -> list[dict]:
    """The one row ``rows`` of relations_among, in the query's order."""
    return [{"source": _end(r["source"]), "target": _end(r["target"]), "type": r["type"], "zh": r["zh"],
             "src": list(r["src"]), "variant": r["variant"], "fact": r["fact"]} for r in records[0]["rows"]]


def _relations_from(records: list[dict]) -> list[dict]:
    """The one row ``rows`` of relations_from, in the query's order."""
    return [{"source": _end(r["source"]), "target": _end(r["target"]), "type": r["type"], "src": list(r["src"]),
             "qualifiers": json.loads(r["qualifiers"]), "variant": r["variant"], "fact": r["fact"]}
            for r in records[0]["rows"]]


def _rule_checks(records: list[dict]) -> list[dict]:
    """The smallest witness of each check (hops compared by from, type, to, key), as the traversal gives it; the
    query answers one row ``rows`` of ``[id, hops]``, a witness each."""
    best: dict = {}
    for check, found in records[0]["rows"]:
        hops = [[h[0], h[1], h[2], h[3], list(h[4] or ()), bool(h[5])] for h in found]
        key = tuple((h[0], h[1], h[2], h[3]) for h in hops)
        if check not in best or key < best[check][0]:
            best[check] = (key, hops)
    return [{"id": i, "hops": best[i][1]} for i in sorted(best)]


class Checks(list):
    """A list of checks whose repr is its length: the driver formats every parameter of a query for its debug log
    (eagerly, whatever the log level), which for a thousand checks costs more than packing and sending them."""

    def __repr__(self) -> str:
        return f"<{len(self)} walks>"


def _rule_checks_params(params: dict) -> dict:
    """The checks as the walks rule_checks.cypher takes: one ``[start, types, dirs, {end: [[id, role, value], …]}]``
    per start and steps, whatever the ends and the fact qualifiers (a path check has role and value None; a fact
    check walks its via steps and then its relation out, ending at its object). The server's work is per walk and
    per step, and the checks of a reading share most walks (the five vigours of one branch, the kins and stages of a
    transmission): 733 checks of a reading of every topic are 240 walks. Positional lists, so no key is repeated."""
    walks: dict = {}
    for c in params["paths"] or ():
        if isinstance(c["b"], str):  # a map key is a string; no node has another id, so such a check never holds
            ends = walks.setdefault((c["a"], tuple(c["types"]), tuple(c["dirs"])), {})
            ends.setdefault(c["b"], []).append([c["id"], None, None])
    for c in params["facts"] or ():
        if isinstance(c["object"], str):
            steps = (c["subject"], (*c["via_types"], c["relation"]), (*c["via_dirs"], "out"))
            walks.setdefault(steps, {}).setdefault(c["object"], []).append([c["id"], c["role"], c["value"]])
    return {"walks": Checks([a, list(types), list(dirs), ends] for (a, types, dirs), ends in walks.items()),
            "variants": bool(params.get("variants"))}


CONVERTERS = {"stats": _stats, "resolve": _resolve, "symbol_relations": _symbol_relations, "facts": _facts,
              "shortest_path": _shortest_path, "relations_among": _relations_among, "rule_checks": _rule_checks,
              "relations_from": _relations_from}

#: the wire form of a named query's parameters on Neo4j, where it differs from the parameters themselves
ENCODERS = {"rule_checks": _rule_checks_params}
