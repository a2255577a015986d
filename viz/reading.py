"""A reading's page: chart slots → the symbols bound to them → the paths of the findings.

Input: the reading dict of :func:`leishen.readings.read` — ``{"findings": [finding, …], …}``, each
finding ``{"id","system","rule":{"fact","name"},"polarity","certainty","bindings":{slot: node_id},
"path":[{"node":…,"slot":…}, {"rel":…,"src":[…],"chart":bool,"forward":bool}, {"node":…}, …],"evidence":[[hops]],
"meaning":{"zh","ko","en"},"src":[…]}``.  Slots are coloured by system, finding edges and finding
nodes by polarity, symbols by label; hops read from the chart are dashed; a hop with
``"forward": false`` is drawn the way the stored relation points (from the later node to the earlier).  Layout: by
position on the path, top to bottom (hierarchical, physics off) up to ``LAYERED_MAX`` nodes; larger
readings by force (stabilised once, then frozen), so they stay readable.
"""

from __future__ import annotations

from leishen.viz.hover import Passages
from leishen.viz.offline import page_html
from leishen.viz.pagegraph import PageGraph
from leishen.viz.style import (CHART_HOP, POLARITY_COLOURS, SYSTEM_COLOURS, SYSTEM_NAMES, label_colour,
                               label_shape)


# up to this many nodes the page is drawn in layers (slot, symbol, … finding); a larger reading is
# laid out by force (stabilised, then frozen): a few hundred nodes in one layer row are unreadable
LAYERED_MAX = 60


def hop_node_id(node: dict) -> str:
    """A path node's graph id (``Label:key``)."""
    return node.get("id") or f"{node['label']}:{node['key']}"


def hop_node(hop: dict, system: str, names: dict | None = None) -> tuple[str, dict]:
    """The id and pyvis attributes of a node hop (a graph node, or a chart value such as 局 5), labelled with
    the name the chart gives it (*names*, the reading's ``names``: 朱雀 for the node 玄武 under ``by_dun``)."""
    if "node" not in hop:
        value = f"{hop.get('slot') or ''} {hop['value']}".strip()
        return f"value:{system}:{value}", {"label": value, "title": f"chart value {value}", "shape": "box",
                                           "color": "#eeeeee", "kind": "value"}
    node = hop["node"]
    node_id = hop_node_id(node)
    name = (names or {}).get(node_id, node["name"])
    shown = name if name == node["name"] else f"{name} ({node['name']})"
    return node_id, {"label": name, "title": f"{node['label']} {shown}\n{node_id}",
                     "color": label_colour(node["label"]), "shape": label_shape(node["label"]), "size": 14,
                     "kind": node["label"]}


def slot_id(system: str, slot: str) -> str:
    return f"slot:{system}:{slot}"


def add_slot(graph: PageGraph, system: str, slot: str, node_id: str) -> None:
    """A chart slot (初傳, heaven@4 …) one level above the symbol bound to it, and its BINDS edge."""
    graph.add_node(slot_id(system, slot), label=slot, title=f"{SYSTEM_NAMES.get(system, system)} slot {slot}",
                   color=SYSTEM_COLOURS.get(system, "#999999"), shape="box", level=graph.nodes[node_id]["level"] - 1,
                   kind="slot",
                   font={"color": "#ffffff"})
    graph.add_edge(slot_id(system, slot), node_id, "BINDS", label="", colour=SYSTEM_COLOURS.get(system, "#999999"),
                   dashes=True, width=1)


def add_hops(graph: PageGraph, finding: dict, hops: list[dict], *, width: float,
             names: dict | None = None) -> str | None:
    """Draw one ordered hop list (node labels: the chart's *names*); returns the id of its last node."""
    colour = POLARITY_COLOURS.get(finding.get("polarity"), "#7f7f7f")
    previous, rel, level = None, None, 1
    for hop in hops:
        if "node" in hop or "value" in hop:
            node_id, attrs = hop_node(hop, finding["system"], names)
            graph.add_node(node_id, level=level, **attrs)
            if hop.get("slot") and "node" in hop:
                add_slot(graph, finding["system"], hop["slot"], node_id)
            if previous is not None and rel is not None:
                source, target = (previous, node_id) if rel.get("forward", True) else (node_id, previous)
                graph.add_edge(source, target, rel["rel"],
                               part={"src": rel.get("src") or (), "qualifiers": rel.get("qualifiers") or {},
                                     "note": "from the chart" if rel.get("chart") else None},
                               colour=CHART_HOP if rel.get("chart") else colour, dashes=bool(rel.get("chart")),
                               width=width)
            previous, rel, level = node_id, None, level + 1
        else:
            rel = hop
    return previous


def finding_node(finding: dict, passages: Passages, level: int) -> dict:
    """The finding itself: its rule name and polarity, its meaning and its citations on hover."""
    meaning = finding.get("meaning") or {}
    lines = [f"{finding['rule'].get('name') or ''}  {finding.get('polarity') or ''}  ({finding.get('certainty') or ''})",
             *[meaning[k] for k in ("zh", "ko", "en") if meaning.get(k)],
             f"rule {finding['rule'].get('fact', '')}", *passages.cited(finding.get("src"))]
    colour = POLARITY_COLOURS.get(finding.get("polarity"), "#7f7f7f")
    name = f"{finding['rule'].get('name') or finding['id']} {finding.get('polarity') or ''}".strip()
    gloss = meaning.get("zh") or ""
    if gloss and gloss not in name:
        name += "\n" + (gloss if len(gloss) <= 12 else gloss[:11] + "…")
    return {"label": name,
            "title": "\n".join(lines), "shape": "box", "level": level, "kind": "finding",
            "color": {"background": colour, "border": "#000000" if finding.get("certainty") == "holds" else "#ffffff"},
            "font": {"color": "#ffffff"}, "shapeProperties": {"borderDashes": finding.get("certainty") != "holds"}}


def reading_graph(reading: dict, corpus=None) -> PageGraph:
    """Every finding's path (and its further evidence) from its chart slot to the finding."""
    graph, names = PageGraph(Passages(corpus)), reading.get("names")
    for finding in reading.get("findings", ()):
        last = add_hops(graph, finding, finding["path"], width=2.5, names=names)
        for hops in finding.get("evidence") or ():
            add_hops(graph, finding, hops, width=1, names=names)
        for slot, node_id in sorted((finding.get("bindings") or {}).items()):
            if isinstance(node_id, str) and node_id in graph.nodes:
                add_slot(graph, finding["system"], slot, node_id)
        if last is not None:
            node = f"finding:{finding['id']}"
            graph.add_node(node, **finding_node(finding, graph.passages, graph.nodes[last]["level"] + 1))
            graph.add_edge(last, node, "FINDING", label="", colour=POLARITY_COLOURS.get(finding.get("polarity"), "#7f7f7f"))
    return graph


def reading_title(reading: dict) -> str:
    chart = reading.get("chart") or {}
    moment = (chart.get("moment") or {}).get("local") or reading.get("moment") or ""
    topic = reading.get("topic")
    return f"reading {moment}" + (f" · topic {topic}" if topic else "")


def reading_page(reading: dict, corpus=None) -> str:
    """The HTML page of a reading's subgraph (see the module docstring for the input shape)."""
    graph = reading_graph(reading, corpus)
    findings = reading.get("findings", ())
    counts = {p: sum(1 for f in findings if f.get("polarity") == p) for p in POLARITY_COLOURS}
    counts["no polarity"] = len(findings) - sum(counts.values())
    tally = " ".join(f"{p} {n}" for p, n in counts.items() if n)
    note = f"{len(findings)} findings" + (f" ({tally})" if tally else "") + f" · {len(graph.nodes)} nodes"
    legend = ([(c, SYSTEM_NAMES[s]) for s, c in SYSTEM_COLOURS.items()]
              + [(c, p) for p, c in POLARITY_COLOURS.items()] + [(CHART_HOP, "chart hop (dashed)")])
    layered = len(graph.nodes) <= LAYERED_MAX
    return page_html(graph.network(hierarchical=layered), title=reading_title(reading), note=note, legend=legend)
