"""A chart read by graph traversal: every rule the chart meets, as findings with paths and sources.

:class:`Reader` holds the rules (from the fact tables), the node catalogue and a backend. ``read``
binds the chart's slots, grounds every in-scope rule's graph predicates into checks, has the backend
answer them in one named query (``rule_checks``), decides the patterns first (a pattern holds when
every ``REQUIRES`` rule of one of its cases holds), then every other rule, and returns the findings,
the per-topic tally of 吉 / 凶 / 平 / 混 and the list of findings that need judgment.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from leishen.errors import LeishenError
from leishen.loaders.build import build_graph
from leishen.loaders.conditions import vocabulary
from leishen.loaders.schema import load_schema
from leishen.readings.bindings import Lexicon, chart_bindings
from leishen.readings.evaluate import Context, collect_checks, evaluate
from leishen.readings.findings import chain_walk, fact_hop, finding, main_walk, node_json, witness_walk
from leishen.readings.lore import lore_checks, lore_findings
from leishen.readings.trail import chart_trail

POLARITY_MARKS = ("吉", "凶", "平", "混")


class TopicError(LeishenError):
    """An unknown topic (the message lists the topics)."""


class Reader:
    """Reads charts against the rules of the graph, on a backend (NetworkX by default)."""

    def __init__(self, backend=None, corpus=None):
        if backend is None:
            from leishen.backends import get_backend
            backend = get_backend("networkx")
        self.backend = backend
        self.data = build_graph(corpus)
        self.vocab = vocabulary()
        self.data_schema = load_schema()
        self.facts = {f.id: f for f in self.data.facts}
        self.lex = Lexicon(self.data.nodes)
        self.props = self.lex.props
        self.labels = {nid: p["label"] for nid, p in self.props.items()}
        self.seasons = {f.subject: f.object for f in self.data.facts if f.relation == "IN_SEASON"}
        self.requires = [r for r in self.data.rules if self.facts[r.fact].relation == "REQUIRES"]
        self.others = [r for r in self.data.rules if self.facts[r.fact].relation != "REQUIRES"]
        self.meanings = defaultdict(list)  # pattern id → facts giving its meaning without a condition
        for f in self.data.facts:
            if f.subject.startswith("Pattern:") and f.relation != "REQUIRES" and not f.when:
                self.meanings[f.subject].append(f)
        self.topic_ids = sorted({dict(f.qualifiers).get("topic") for f in self.data.facts if f.when} - {None})

    # ---- topics -------------------------------------------------------------------------------
    def topics(self) -> list[dict]:
        """The topics that have rules: {"id","zh","ko","en"}."""
        return [{"id": t, "zh": self.props[t]["name"], "ko": self.props[t]["ko"], "en": self.props[t]["en"]}
                for t in self.topic_ids if t in self.props]

    def topic_id(self, topic: str | None) -> str | None:
        """The Topic node id a zh, ko or en topic name (or an id) denotes; TopicError naming the topics."""
        if topic is None:
            return None
        wanted = topic.strip().lower()
        for t in self.topics():
            if wanted in (t["id"].lower(), t["zh"], t["ko"], t["en"].lower()):
                return t["id"]
        known = ", ".join(f"{t['zh']} ({t['en']})" for t in self.topics())
        raise TopicError(f"unknown topic {topic!r}; topics: {known}")

    # ---- evaluation ---------------------------------------------------------------------------
    def _in_scope(self, rule, ctx: Context) -> bool:
        if rule.system not in ctx.bindings.systems:
            return False
        topic = dict(self.facts[rule.fact].qualifiers).get("topic")
        return topic is None or topic == ctx.topic

    def answer(self, checks: set) -> dict:
        """Every ground check → its witness hops (None when it does not hold), in one backend call."""
        order = sorted(checks, key=repr)
        paths, facts = [], []
        for i, c in enumerate(order):
            if c[0] == "path":
                paths.append({"id": i, "a": c[1], "b": c[3], "types": [s[0] for s in c[2]],
                              "dirs": [s[1] for s in c[2]]})
            else:
                facts.append({"id": i, "relation": c[1], "subject": c[2], "object": c[3], "role": c[4],
                              "value": c[5], "via_types": [s[0] for s in c[6]], "via_dirs": [s[1] for s in c[6]]})
        rows = self.backend.run("rule_checks", paths=paths, facts=facts) if order else []
        return {order[r["id"]]: r["hops"] for r in rows}

    def select(self, wanted: str) -> tuple[set, bool]:
        """The rule facts a ``find`` asks for (by fact id, item, pattern or meaning name, or
        ``subject→object``), and whether a lore query (kin, stages, vigour, relations) is asked."""
        chosen = set()
        for rule in self.data.rules:
            fact = self.facts[rule.fact]
            names = {fact.id, fact.item, self._name(fact), self.props.get(fact.subject, {}).get("name"),
                     self.props.get(fact.object, {}).get("name")}
            if wanted in names:
                chosen.add(rule.fact)
        return chosen, wanted in ("kin", "stages", "vigour", "relations")

    def read(self, chart: dict, *, topic: str | None = None, only: set | None = None, lore: bool = True) -> dict:
        """The reading of a chart (JSON-able dict; see docs/readings.md). *only* limits the rules to
        those fact ids (``find``), *lore* adds the kin / stages / vigour / relations readings."""
        topic_id = self.topic_id(topic)
        b = chart_bindings(chart, self.lex, self.seasons)
        ctx = Context(b, self.vocab, self.labels, topic_id)
        keep = (lambda r: r.fact in only) if only is not None else (lambda r: True)  # noqa: E731
        requires = [r for r in self.requires if keep(r) and self._in_scope(r, ctx)]
        others = [r for r in self.others if keep(r) and self._in_scope(r, ctx)]
        checks: set = set()
        for rule in requires + others:
            collect_checks(rule.when, {}, ctx, checks)
        lore = lore_checks(self, b) if lore else {}
        answers = self.answer(checks | set(lore.values()))
        findings, held = self._patterns(requires, ctx, answers)
        ctx = replace(ctx, patterns=frozenset(held))
        counts = {"rules_in_scope": len(requires) + len(others), "checks": len(checks),
                  "out_of_scope": len(self.data.rules) - len(requires) - len(others)}
        for rule in others:
            ok, wits, where = evaluate(rule.when, {}, ctx, answers)
            if ok:
                findings.append(self._rule_finding(rule, wits, where, ctx))
        findings += lore_findings(self, b, answers, lore)
        counts["findings"] = len(findings)
        return {"moment": chart.get("moment"), "pillars": chart.get("pillars"), "systems": list(b.systems),
                "topic": self.props[topic_id]["name"] if topic_id else None, "bindings": b.as_ids(),
                "findings": findings, "tally": tally(findings),
                "needs_judgment": [f["id"] for f in findings if f["certainty"] == "needs_judgment"],
                "counts": counts, "trail": chart_trail(chart), "chart": chart}

    def _rule_finding(self, rule, wits: list, where: list, ctx: Context) -> dict:
        fact = self.facts[rule.fact]
        walks = [witness_walk(w, self.props) for w in wits]
        path, evidence = main_walk(fact, walks, self.props, self._slot_concepts(ctx))
        topic = dict(fact.qualifiers).get("topic")
        return finding(system=rule.system, topic=self.props[topic]["name"] if topic else None, query="rules",
                       fact=fact, name=self._name(fact), polarity=rule.polarity, judgment=rule.judgment,
                       bindings=_walk_bindings([path, *evidence]), path=path, evidence=evidence,
                       props=self.props, options=ctx.bindings.options.get(rule.system, {}), where=where)

    def _slot_concepts(self, ctx: Context) -> dict:
        """Concept nodes that stand for a chart slot (Concept:日干 …) → the slot's bound value."""
        out = {}
        for name, bound in ctx.bindings.slots.items():
            cid = self.lex.id("Concept", name)
            if cid and isinstance(bound.value, str):
                out[cid] = bound
        return out

    def fact_name(self, fact_id: str) -> str:
        fact = self.facts.get(fact_id)
        return self._name(fact) if fact else fact_id

    def _name(self, fact) -> str:
        s, o = self.props.get(fact.subject, {}), self.props.get(fact.object, {})
        return f"{s.get('name', fact.subject)}→{o.get('name', fact.object)}"

    def _patterns(self, requires: list, ctx: Context, answers: dict) -> tuple[list, set]:
        """The patterns whose every REQUIRES rule of one case holds, and their findings."""
        cases: dict[tuple, list] = defaultdict(list)
        for rule in requires:
            fact = self.facts[rule.fact]
            cases[(fact.subject, dict(fact.qualifiers).get("case", ""))].append(rule)
        findings, held = [], set()
        for (pattern, case), rules in sorted(cases.items()):
            if pattern in held:
                continue
            results = [(r, *evaluate(r.when, {}, ctx, answers)) for r in rules]
            if all(ok for _, ok, _, _ in results):
                held.add(pattern)
                findings += self._pattern_findings(pattern, results, ctx)
        return findings, held

    def _pattern_findings(self, pattern: str, results: list, ctx: Context) -> list[dict]:
        first_rule, _, wits, where = results[0]
        req = self.facts[first_rule.fact]
        walks = [witness_walk(w, self.props) for _, _, ws, _ in results for w in ws]
        head = next((w for w in walks if w[-1].get("node", {}).get("id") == req.object), None)
        path = (head or [node_json(req.object, self.props)]) + [fact_hop(req, forward=False),
                                                                node_json(pattern, self.props)]
        evidence = [w for w in walks if w is not head]
        judgment = "; ".join(r.judgment for r, *_ in results if r.judgment)
        out = []
        for meaning in self.meanings.get(pattern) or [None]:
            full = path + ([fact_hop(meaning), node_json(meaning.object, self.props)] if meaning else [])
            polarity = (meaning.polarity if meaning and meaning.polarity else first_rule.polarity)
            out.append(finding(system=first_rule.system, topic=None, query="patterns", fact=meaning or req,
                               name=self.props[pattern]["name"], polarity=polarity, judgment=judgment,
                               bindings=_walk_bindings([full, *evidence]), path=full, evidence=evidence,
                               props=self.props, options=ctx.bindings.options.get(first_rule.system, {}),
                               where=where))
        return out


def _walk_bindings(walks: list[list]) -> dict:
    """slot → node id of every slot a finding's walks start from."""
    out = {}
    for walk in walks:
        for hop in walk:
            if "slot" in hop and "node" in hop:
                out[hop["slot"]] = hop["node"]["id"]
    return out


def tally(findings: list[dict]) -> dict:
    """Per topic (None = the general reading): how many findings of each polarity."""
    out: dict = {}
    for f in findings:
        row = out.setdefault(f["topic"] or "general", {m: 0 for m in POLARITY_MARKS})
        if f["polarity"] in row:
            row[f["polarity"]] += 1
    return out


__all__ = ["Reader", "TopicError", "tally", "chain_walk"]
