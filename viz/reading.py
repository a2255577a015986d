"""A reading's page: chart slots → the symbols bound to them → the paths of the findings.

Input: the reading dict of :func:`leishen.service.book.read` — ``{"findings": [finding, …], …}``, each
finding ``{"id","system","rule":{"fact","name"},"polarity","certainty","bindings":{slot: node_id},
"path":[{"node":…,"slot":…}, {"rel":…,"src":[…],"chart":bool,"forward":bool}, {"node":…}, …],"evidence":[[hops]],
"meaning":{"zh","ko","en"},"src":[…]}``.  Slots are coloured by system, finding edges and finding
nodes by polarity, symbols by label; hops read from the chart are dashed; a hop with
``"forward": false`` is drawn the way the stored relation points (from the later node to the earlier).  Layout: by
position on the path, left to right (hierarchical, physics off: the page stands still at once); the page is a tool
(:mod:`leishen.viz.readingtool`): labels in its language, at most 150 nodes drawn first, search and filters.
"""

from __future__ import annotations

from leishen.viz.hover import Passages
from leishen.viz.offline import page_html
from leishen.viz.pagegraph import PageGraph
from leishen.viz.style import (CHART_HOP, POLARITY_COLOURS, SYSTEM_COLOURS, SYSTEM_NAMES, label_colour,
                               label_shape)


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


def hop_ids(finding: dict, hops: list[dict]) -> set[str]:
    """The page-graph ids of one hop list's nodes (a graph node, a chart value) and of its nodes' slots."""
    out = set()
    for hop in hops:
        if "node" in hop or "value" in hop:
            node_id, _ = hop_node(hop, finding["system"])
            out.add(node_id)
            if hop.get("slot") and "node" in hop:
                out.add(slot_id(finding["system"], hop["slot"]))
    return out


def finding_nodes(finding: dict) -> set[str]:
    """The page-graph ids a finding draws: its path's and evidence's nodes and slots, the slots of its bindings,
    and the finding itself."""
    ids = hop_ids(finding, finding.get("path") or [])
    for hops in finding.get("evidence") or ():
        ids |= hop_ids(finding, hops)
    bound = {slot_id(finding["system"], slot) for slot, node_id in (finding.get("bindings") or {}).items()
             if isinstance(node_id, str) and node_id in ids}
    return ids | bound | {f"finding:{finding['id']}"}


def reading_title(reading: dict) -> str:
    chart = reading.get("chart") or {}
    moment = (chart.get("moment") or {}).get("local") or reading.get("moment") or ""
    topic = reading.get("topic")
    return f"reading {moment}" + (f" · {topic}" if topic else "")


def reading_page(reading: dict, corpus=None, lang: str = "zh") -> str:
    """The HTML page of a reading's subgraph (see the module docstring for the input shape) as a tool
    (:mod:`leishen.viz.readingtool`): labelled in *lang*, at most ``FIRST_MAX`` nodes drawn at first, with a
    search box and filters by system, topic and relation."""
    from leishen.viz import readingtool as tool
    graph = reading_graph(reading, corpus)
    findings = list(reading.get("findings", ()))
    tool.tag(graph, findings)
    shown = tool.first_shown(findings, reading.get("topic"))
    tool.localise(graph, lang)
    tool.vis_ready(graph, shown)
    counts = {p: sum(1 for f in findings if f.get("polarity") == p) for p in POLARITY_COLOURS}
    tally = " ".join(f"{p} {n}" for p, n in counts.items() if n)
    note = (f"{tool.word(lang, 'findings')} {len(findings)}" + (f" ({tally})" if tally else "")
            + f" · {tool.word(lang, 'nodes')} {len(graph.nodes)}")
    legend = ([(c, tool.SYSTEMS[s].get(lang, SYSTEM_NAMES[s])) for s, c in SYSTEM_COLOURS.items()]
              + [(c, p) for p, c in POLARITY_COLOURS.items()] + [(CHART_HOP, "- - -")])
    title = f"{tool.word(lang, 'title')} {reading_title(reading).removeprefix('reading ')}"
    net = tool.layered(graph.network(hierarchical=True))
    rest = tool.split_rest(net)
    return page_html(net, title=title, note=note, legend=legend, tools=tool.tool_html(reading, lang, graph),
                     style=tool.TOOL_STYLE, script=tool.tool_script(lang, rest), lang=lang)
