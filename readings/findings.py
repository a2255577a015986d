"""Findings: a rule that holds, as JSON with its ordered path, its evidence and its source.

The path starts at a chart slot's node, follows the chart hops (marked ``chart: true``) and graph
edges (each with its type, key and ``src``) that decided the condition, and ends with the fact's own
edge to its meaning. The walks of the condition's other parts are the finding's ``evidence``.
"""

from __future__ import annotations

import json

from leishen.loaders.records import Fact


def node_json(node_id, props: dict[str, dict], slot: str | None = None) -> dict:
    """A path node: {"node": {"id","label","key","name"}, "slot"?}."""
    if isinstance(node_id, int):
        return {"value": node_id, "slot": slot}
    p = props.get(node_id, {})
    out = {"node": {"id": node_id, "label": p.get("label", node_id.partition(":")[0]),
                    "key": p.get("key", node_id.partition(":")[2]), "name": p.get("name", node_id)}}
    if slot:
        out["slot"] = slot
    return out


def chain_walk(chain: tuple, props: dict) -> list:
    """A bound value's chain of chart hops as a walk."""
    (root, slot), *hops = chain
    walk = [node_json(root, props, slot)]
    for rel, node in hops:
        walk += [{"rel": rel, "chart": True, "src": None}, node_json(node, props)]
    return walk


def graph_walk(hops: list, props: dict) -> list:
    """A graph witness ``[[from, type, to, key, src, forward], …]`` as a walk."""
    walk = [node_json(hops[0][0], props)]
    for frm, rtype, to, key, src, forward in hops:
        walk += [{"rel": rtype, "chart": False, "src": list(src or ()), "key": key, "forward": bool(forward)},
                 node_json(to, props)]
    return walk


def witness_walk(w, props: dict) -> list:
    """A witness (a chart chain, or ``("graph", hops, start chain, end slot)``) as a walk: a graph
    witness starts with the chart hops of the slot it was asked from, and names the slot it ends at."""
    if isinstance(w, tuple) and w and w[0] == "walk":  # a pattern's own path, already a walk
        return w[1]
    if isinstance(w, tuple) and w and w[0] == "qualifier":  # object ←OBJECT– fact –QUALIFIER→ value
        _, fid, obj, role, value, chain, src = w
        fact_node = node_json(f"Fact:{fid}", props)
        return (chain_walk(chain, props) if chain else [node_json(obj, props)]) + [
                {"rel": "OBJECT", "chart": False, "src": list(src or ()), "key": f"{fid}/object", "forward": False},
                fact_node,
                {"rel": "QUALIFIER", "chart": False, "src": list(src or ()), "key": f"{fid}/q/{role}", "forward": True},
                node_json(value, props)]
    if isinstance(w, tuple) and w and w[0] == "graph":
        _, hops, start, end = w
        walk = graph_walk(hops, props)
        if start:
            walk = chain_walk(start, props) + walk[1:]
        if end:
            walk[-1] = {**walk[-1], "slot": end}
        return walk
    return chain_walk(w, props)


def _end(walk: list) -> str | None:
    last = walk[-1]
    return last.get("node", {}).get("id")


def fact_hop(fact: Fact, forward: bool = True) -> dict:
    return {"rel": fact.relation, "chart": False, "src": [str(c) for c in fact.src], "key": fact.id,
            "forward": forward, "qualifiers": json.loads(fact.qualifiers_json())}


def walk_to(target: str, walks: list[list], props: dict, slot_concepts: dict) -> tuple[list, list]:
    """(a walk from a chart slot to *target*, the other walks): a witness that ends there; else, when
    the target is a Concept standing for a slot (Concept:日干), the slot's chain and an ``IS_SLOT`` chart
    hop; else the first witness and a ``MEETS`` chart hop (the chart meets the condition there)."""
    for i, walk in enumerate(walks):
        if _end(walk) == target:
            return walk, walks[:i] + walks[i + 1:]
    slot = slot_concepts.get(target)
    if slot is not None:
        return chain_walk(slot.chain, props) + [{"rel": "IS_SLOT", "chart": True, "src": None},
                                                node_json(target, props)], walks
    if walks:
        return walks[0] + [{"rel": "MEETS", "chart": True, "src": None}, node_json(target, props)], walks[1:]
    return [node_json(target, props)], []


def main_walk(fact: Fact, walks: list[list], props: dict, slot_concepts: dict) -> tuple[list, list]:
    """(path, evidence): the walk that reaches the fact's subject, extended by the fact's edge."""
    walk, rest = walk_to(fact.subject, walks, props, slot_concepts)
    return walk + [fact_hop(fact), node_json(fact.object, props)], rest


def meaning(node_id: str, props: dict) -> dict:
    p = props.get(node_id, {})
    return {"id": node_id, "zh": p.get("name", node_id), "ko": p.get("ko", ""), "en": p.get("en", "")}


def finding(*, system: str, topic: str | None, query: str, fact: Fact, name: str, polarity: str | None,
            judgment: str, bindings: dict, path: list, evidence: list, props: dict, options: dict,
            where: list) -> dict:
    """The finding JSON (see docs/readings.md)."""
    suffix = f"@{'/'.join(where)}" if where else ""
    return {"id": f"{system}/{query}/{fact.id}{suffix}", "system": system, "topic": topic, "query": query,
            "rule": {"fact": fact.id, "name": name, "item": fact.item or None},
            "polarity": polarity or None, "certainty": "needs_judgment" if judgment else "holds",
            "judgment": judgment or None, "bindings": bindings, "path": path, "evidence": evidence,
            "meaning": meaning(path[-1]["node"]["id"], props) if "node" in path[-1] else None,
            "src": [str(c) for c in fact.src], "variant": fact.variant or None, "options": options}


def path_nodes(walk: list) -> list[str]:
    return [h["node"]["id"] for h in walk if "node" in h]


def _walk_bindings(walks: list[list]) -> dict:
    """slot → node id of every slot a finding's walks start from."""
    out = {}
    for walk in walks:
        for hop in walk:
            if "slot" in hop and "node" in hop:
                out[hop["slot"]] = hop["node"]["id"]
    return out


def witness_key(w) -> tuple:
    """What a witness is, as a hashable key: a chart chain as it is; a graph witness by its edges
    (the answer's ``Hops.key``); a pattern's walk by the walk object (walks come from :class:`Made`,
    which keeps them)."""
    tag = w[0]
    if tag == "graph":
        return ("graph", w[1].key, w[2], w[3])
    if tag == "qualifier":
        return w[:6]
    if tag == "walk":
        return ("walk", id(w[1]))
    return w


class Made:
    """Builds the findings of rules and patterns, once per distinct input: a finding depends only on
    the rule, its witnesses, the scope instances it held in, the school options and the slot a
    Concept of the fact stands for, so a finding already made is handed out again (findings are
    read-only; the store is emptied when it grows past *limit* entries, between readings)."""

    def __init__(self, reader, limit: int = 20_000):  # about 100 MB of findings at most
        self.r, self.limit, self.store, self._options = reader, limit, {}, {}

    def start(self) -> None:
        """Called before a reading: empties the store when it has grown past its limit."""
        if len(self.store) > self.limit:
            self.store.clear()
        self._options = {}

    def options_key(self, ctx, system: str) -> str:
        """The school options of a system in this reading, as a key (made once per reading)."""
        key = self._options.get(system)
        if key is None:
            key = self._options[system] = repr(ctx.bindings.options.get(system, {}))
        return key

    def rule(self, rule, wits: list, where: list, ctx, concepts: dict) -> dict:
        """The finding of a rule that holds: its path reaches the fact's subject and ends at its meaning."""
        r, fact = self.r, self.r.facts[rule.fact]
        options = ctx.bindings.options.get(rule.system, {})
        concept = concepts.get(fact.subject)
        key = (rule.fact, tuple(map(witness_key, wits)), tuple(where), self.options_key(ctx, rule.system),
               concept.chain if concept else None)
        found = self.store.get(key)
        if found is None:
            walks = [witness_walk(w, r.props) for w in wits]
            path, evidence = main_walk(fact, walks, r.props, concepts)
            topic = r.rule_topic[rule.fact]
            found = self.store[key] = finding(
                system=rule.system, topic=r.props[topic]["name"] if topic else None, query="rules", fact=fact,
                name=r._name(fact), polarity=rule.polarity, judgment=rule.judgment,
                bindings=_walk_bindings([path, *evidence]), path=path, evidence=evidence, props=r.props,
                options=options, where=where)
        return found

    def pattern(self, pattern: str, results: list, ctx, concepts: dict) -> tuple[list, list]:
        """(the findings of a pattern that holds, its walks [path, *evidence]) from the results
        ``(rule, ok, witnesses, where)`` of its case's REQUIRES rules."""
        req, system = self.r.facts[results[0][0].fact], results[0][0].system
        options = ctx.bindings.options.get(system, {})
        concept = concepts.get(req.object)
        key = (pattern, tuple((r.fact, tuple(map(witness_key, ws)), tuple(where)) for r, _, ws, where in results),
               ctx.topic, self.options_key(ctx, system), concept.chain if concept else None)
        found = self.store.get(key)
        if found is None:
            path, evidence = self._pattern_path(pattern, results, concepts)
            found = self.store[key] = (self._pattern_findings(pattern, results, path, evidence, ctx, options),
                                       [path, *evidence])
        return found

    def _pattern_path(self, pattern: str, results: list, concepts: dict) -> tuple[list, list]:
        """The walk from a chart slot to the pattern (through its first REQUIRES edge) and the others."""
        props = self.r.props
        req = self.r.facts[results[0][0].fact]
        walks = [witness_walk(w, props) for _, _, ws, _ in results for w in ws]
        head, evidence = walk_to(req.object, walks, props, concepts)
        return head + [fact_hop(req, forward=False), node_json(pattern, props)], evidence

    def _pattern_findings(self, pattern: str, results: list, path: list, evidence: list, ctx,
                          options: dict) -> list[dict]:
        """The pattern itself (the walk ends at the pattern), then a finding per meaning of it that has no
        condition of its own and no other topic (meanings with a condition are rules, found as such)."""
        r = self.r
        first_rule, _, _, where = results[0]
        req = r.facts[first_rule.fact]
        judgment = "; ".join(x.judgment for x, *_ in results if x.judgment)
        meanings = [m for m in r.meanings.get(pattern, ())
                    if dict(m.qualifiers).get("topic") in (None, ctx.topic, *ctx.topics)]
        out = []
        for meaning in [None, *meanings]:
            full = path + ([fact_hop(meaning), node_json(meaning.object, r.props)] if meaning else [])
            polarity = (meaning.polarity if meaning and meaning.polarity else first_rule.polarity)
            topic = dict(meaning.qualifiers).get("topic") if meaning else None
            out.append(finding(system=first_rule.system, topic=r.props[topic]["name"] if topic else None,
                               query="patterns", fact=meaning or req, name=r.props[pattern]["name"],
                               polarity=polarity, judgment=judgment, bindings=_walk_bindings([full, *evidence]),
                               path=full, evidence=evidence, props=r.props, options=options, where=where))
        return out
