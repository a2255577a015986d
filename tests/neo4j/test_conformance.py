"""Same answers: every named query on Neo4j (its .cypher file) and on NetworkX (its traversal), over a few hundred
generated charts, must give identical rows.

Inputs come from charts: real charts computed by the engine for seeded random moments (every string in a chart
that names a symbol becomes a node id), and synthetic charts (random branches, stems, generals, gates, stars …
drawn from the graph). For each chart: ``relations_among`` its symbols, ``symbol_relations`` and ``facts`` of each
symbol, ``shortest_path`` between pairs of them, and ``resolve`` of every string it shows.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone

import pytest
from leishen.queries.catalog import QUERIES

pytestmark = pytest.mark.neo4j

ENGINE_CHARTS = 200
SYNTHETIC_CHARTS = 150
CHART_LABELS = ("Branch", "Stem", "General", "Gate", "QimenStar", "Deity", "Palace", "FlyingStar", "Trigram",
                "Element", "Kin", "LifeStage", "Shensha", "Month", "Mansion")


def _strings(value):
    """Every string inside a chart (dict keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _engine_charts(count: int, rnd: random.Random) -> list[list[str]]:
    """Strings of charts computed for random moments (the engine's own shape does not matter here)."""
    from leishen.engine.chart import build_chart

    start = datetime(1900, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    charts = []
    for _ in range(count):
        moment = start + timedelta(minutes=rnd.randrange(200 * 365 * 24 * 60))
        charts.append(sorted(set(_strings(build_chart(moment)))))
    return charts


def _symbol_ids(nx_store, strings: list[str], cache: dict) -> list[str]:
    """Node ids that a chart's strings (and their single characters) name at the best tier."""
    ids = set()
    for text in strings:
        for piece in {text, *(text if len(text) <= 3 else ())}:
            if piece not in cache:
                rows = nx_store.run("resolve", q=piece.lower())
                best = min((r["tier"] for r in rows), default=None)
                cache[piece] = [r["id"] for r in rows if r["tier"] == best]
            ids.update(cache[piece])
    return sorted(ids)


def _synthetic_charts(nx_store, count: int, rnd: random.Random) -> list[list[str]]:
    """Random symbol sets shaped like a chart: a few of each chart label, with repeats (伏吟-like) allowed."""
    graph = nx_store.graph
    by_label: dict[str, list[str]] = {}
    for node, attrs in graph.nodes(data=True):
        by_label.setdefault(attrs["label"], []).append(node)
    charts = []
    for _ in range(count):
        ids = []
        for label in CHART_LABELS:
            pool = sorted(by_label.get(label, []))
            if pool:
                ids += rnd.choices(pool, k=rnd.randint(0, 4))
        charts.append(ids)
    return charts


@pytest.fixture(scope="module")
def inputs(nx_store) -> dict[str, list[dict]]:
    """Parameters for every named query, drawn from a few hundred charts."""
    rnd = random.Random(20240229)
    cache: dict = {}
    charts = [_symbol_ids(nx_store, strings, cache) for strings in _engine_charts(ENGINE_CHARTS, rnd)]
    charts += _synthetic_charts(nx_store, SYNTHETIC_CHARTS, rnd)
    symbols = sorted({i for chart in charts for i in chart})
    docs = [None, "000", "002", "003", "004", "nope"]
    params: dict[str, list[dict]] = {name: [] for name in QUERIES}
    params["stats"].append({})
    names = sorted(cache)
    params["resolve"] = [{"q": q.lower()} for q in rnd.sample(names, min(300, len(names)))]
    params["resolve"] += [{"q": "no such name"}, {"q": ""}]
    params["symbol_relations"] = [{"node_id": i} for i in symbols] + [{"node_id": "Branch:nope"}]
    params["facts"] = [{"doc": rnd.choice(docs), "node_id": i} for i in symbols]
    params["facts"] += [{"doc": d, "node_id": None} for d in docs]
    for chart in charts:
        params["relations_among"].append({"node_ids": chart})
        if len(chart) >= 2:
            for _ in range(2):
                a, b = rnd.sample(chart, 2)
                params["shortest_path"].append({"source": a, "target": b})
    params["shortest_path"] += [{"source": symbols[0], "target": symbols[0]},
                                {"source": symbols[0], "target": "Branch:nope"}]
    params["rule_checks"] = _rule_check_inputs(nx_store, rnd)
    kinds = [["SYMBOLIZES", "HAS_COLOUR"], ["CLASHES"], ["HAS_ELEMENT", "MEMBER_OF", "IN_SEASON"], []]
    params["relations_from"] = [{"node_ids": chart, "types": rnd.choice(kinds)} for chart in charts[::2]]
    typed = [["CLASHES", "COMBINES"], ["HARMS"], ["SYMBOLIZES", "ALIAS_OF"], []]
    params["shortest_path"] += [{**p, "types": rnd.choice(typed)} for p in params["shortest_path"][::3]]
    return params


def _rule_check_inputs(nx_store, rnd) -> list[dict]:
    """15 calls of 600 ground checks each, drawn from every check the rule book can ask (readings/book.py), and
    the edge cases: no checks, unknown nodes, a path whose types match nothing."""
    from leishen.readings.records import FactCheck, PathCheck, check_params
    from leishen.service.book import kept_book

    every = sorted(kept_book().every_check())
    out = []
    for _ in range(15):
        picked = {(PathCheck if c[0] == "path" else FactCheck)(*c) for c in rnd.sample(every, 600)}
        _, paths, facts = check_params(picked)
        out.append({"paths": paths, "facts": facts})
    out.append({"paths": [], "facts": []})
    out += [{**out[k], "variants": True} for k in range(3)]  # the text's variant relations walked too
    out.append({"paths": [{"id": 0, "a": "Branch:nope", "b": "Branch:zi", "types": ["CLASHES"], "dirs": ["either"]},
                          {"id": 1, "a": "Branch:zi", "b": "Branch:wu", "types": ["HARMS"], "dirs": ["out"]}],
                "facts": [{"id": 2, "relation": "VIGOUR", "subject": "Stem:jia", "object": "Vigour:wang", "role": "season",
                           "value": "Season:spring", "via_types": ["HAS_ELEMENT", "HAS_ELEMENT"], "via_dirs": ["out", "in"]}]})
    out += [_walked_checks(nx_store.graph, rnd, 1000 + 300 * k) for k in range(4)]
    out.append(_sharing_walks(out[-1], rnd, 3000))
    return out


def _sharing_walks(checks: dict, rnd, first_id: int) -> dict:
    """The walked checks with siblings that share their start and steps (Neo4j walks them once), under new ids: each
    path again with its own end or another path's, each fact again with its own qualifier value or another's."""
    paths, facts = checks["paths"], checks["facts"]
    ends, values = [p["b"] for p in paths], [f["value"] for f in facts]
    twins = [{**p, "b": rnd.choice([p["b"], rnd.choice(ends)])} for p in paths]
    twins += [{**f, "value": rnd.choice([f["value"], rnd.choice(values)])} for f in facts]
    for i, twin in enumerate(twins):
        twin["id"] = first_id + i
    return {"paths": paths + twins[:len(paths)], "facts": facts + twins[len(paths):]}


def _walked_checks(graph, rnd, first_id: int) -> dict:
    """Checks of every shape the query accepts, not only those today's rules ask: 1 to 3 steps in any mix of
    directions ('either' included, a step back along the relation just taken included), and facts with via steps
    in any directions; about half walked along real relations (so they hold), the rest with a wrong end, type or
    qualifier (so they do not), and some with a start that is no node."""
    nodes = sorted(n for n, a in graph.nodes(data=True) if a["label"] not in ("Fact", "Passage"))
    reified = ("SUBJECT", "OBJECT", "QUALIFIER", "CITES")

    def walk(start, steps):
        types, dirs, node = [], [], start
        for _ in range(steps):
            out = [(v, d["type"], "out") for _, v, d in graph.out_edges(node, data=True) if d["type"] not in reified]
            back = [(u, d["type"], "in") for u, _, d in graph.in_edges(node, data=True) if d["type"] not in reified]
            if not out + back:
                return None
            node, rtype, way = rnd.choice(out + back)
            types.append(rtype)
            dirs.append("either" if rnd.random() < 0.25 else way)
        return node, types, dirs

    paths, facts, i = [], [], first_id
    while len(paths) < 120:
        start = rnd.choice(nodes)
        walked = walk(start, rnd.randint(1, 3))
        if walked is None:
            continue
        end, types, dirs = walked
        if rnd.random() < 0.4:
            end = rnd.choice([rnd.choice(nodes), end, "Branch:nope"])
        if rnd.random() < 0.1:
            start = "Branch:nope"
        paths.append({"id": i, "a": start, "b": end, "types": types, "dirs": dirs})
        i += 1
    qualified = [(u, v, d) for u, v, d in graph.edges(data=True) if d.get("fact") and json.loads(d["qualifiers"] or "{}")]
    while len(facts) < 60:
        subject, obj, d = rnd.choice(qualified)
        role, value = rnd.choice(sorted(json.loads(d["qualifiers"]).items()))
        via_types, via_dirs, start = [], [], subject
        if rnd.random() < 0.5:  # reach the subject from a neighbour's neighbour: walk 2 steps back, then forward
            walked = walk(subject, 2)
            if walked is None:
                continue
            start, back_types, back_dirs = walked
            flip = {"out": "in", "in": "out", "either": "either"}
            via_types, via_dirs = back_types[::-1], [flip[x] for x in back_dirs[::-1]]
        if rnd.random() < 0.3:
            value = rnd.choice([value, rnd.choice(nodes), str(value) + "?"])
        facts.append({"id": i, "relation": d["type"], "subject": start, "object": obj, "role": rnd.choice([role, role, "kin"]),
                      "value": value, "via_types": via_types, "via_dirs": via_dirs})
        i += 1
    return {"paths": paths, "facts": facts}


def test_the_inputs_cover_every_named_query_and_hundreds_of_charts(inputs):
    assert set(inputs) == set(QUERIES)
    assert all(inputs[name] for name in QUERIES)
    assert len(inputs["relations_among"]) >= 300


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_both_backends_give_identical_rows(name, inputs, nx_store, neo4j_backend):
    mismatches, non_empty = [], 0
    for params in inputs[name]:
        expected = nx_store.run(name, **params)
        got = neo4j_backend.run(name, **params)
        non_empty += bool(expected)
        if got != expected:
            mismatches.append((params, expected[:2], got[:2]))
    assert not mismatches, f"{len(mismatches)} of {len(inputs[name])} inputs differ; first: {mismatches[0]}"
    assert non_empty >= min(len(inputs[name]), 3) // 3, "the inputs hardly ever find anything"
