"""The whole reading graph as a tool (issue #39): what :func:`leishen.viz.reading.reading_page` adds to the drawn
graph so that a reader can work with it.

- every node and edge carries what the tool filters by: the ``systems`` and ``topics`` of the findings whose paths
  pass through it, the relation types (``rels``) it takes part in, and its names in zh, ko and en (``names``);
- labels in the page's language (:func:`localise`): a symbol by its ko or en name, a relation by its ko or en word;
- at most :data:`FIRST_MAX` nodes drawn at first (:func:`first_shown`: the findings of the asked topic first, then
  the general ones, whole paths at a time); the rest one click away (the "show the rest" button);
- a toolbar (:data:`TOOL_HTML`) with a search box (a node by any of its names or its id: focused and selected,
  ``<body data-found>``), filters by system, topic and relation, the counts shown, in the page's language;
- ``<body data-shown>`` (nodes drawn now), ``data-total`` and ``data-settled-ms`` (milliseconds from the page's
  request until its layout stood still).
"""

from __future__ import annotations

import html
import json

#: at most this many nodes are drawn when the page opens
FIRST_MAX = 150

WORDS = {
    "zh": {"title": "全推理圖", "search": "搜尋節點", "system": "系統", "topic": "占事", "relation": "關係",
           "all": "全部", "more": "顯示其餘", "general": "總占", "shown": "所示", "nodes": "節點", "findings": "斷語",
           "none": "未見"},
    "ko": {"title": "전체 추론 그래프", "search": "노드 검색", "system": "체계", "topic": "점사", "relation": "관계",
           "all": "전체", "more": "나머지 보기", "general": "총점", "shown": "표시", "nodes": "노드", "findings": "판단",
           "none": "없음"},
    "en": {"title": "whole reading graph", "search": "find a node", "system": "system", "topic": "topic",
           "relation": "relation", "all": "all", "more": "show the rest", "general": "general reading",
           "shown": "shown", "nodes": "nodes", "findings": "findings", "none": "not found"},
}
SYSTEMS = {"liuren": {"zh": "大六壬", "ko": "대육임", "en": "Da Liu Ren"},
           "qimen": {"zh": "奇門遁甲", "ko": "기문둔갑", "en": "Qimen Dunjia"},
           "ninestar": {"zh": "九星", "ko": "구성", "en": "Nine Stars"}}
#: the drawn edges that are no stored relation: a slot's binding and a path's last step to its finding
STRUCTURAL = ("BINDS", "FINDING")


def word(lang: str, key: str) -> str:
    """The tool's word *key* in *lang* (en for an unknown language)."""
    return WORDS.get(lang, WORDS["en"])[key]


def tag(graph, findings: list[dict]) -> None:
    """Mark every node and edge of *graph* (a PageGraph) with the systems, topics and relation types of the
    findings whose paths pass through it (a topic of None is the general reading, ``""``)."""
    from leishen.viz.reading import finding_nodes
    for finding in findings:
        ids = finding_nodes(finding)
        for node_id in ids:
            if node_id in graph.nodes:
                attrs = graph.nodes[node_id]
                attrs.setdefault("systems", set()).add(finding["system"])
                attrs.setdefault("topics", set()).add(finding.get("topic") or "")
        for key, edge in graph.edges.items():
            if key[0] in ids and key[1] in ids:
                graph.nodes[key[0]].setdefault("rels", set()).add(edge.kind)
                graph.nodes[key[1]].setdefault("rels", set()).add(edge.kind)


def first_shown(findings: list[dict], asked, limit: int = FIRST_MAX) -> set[str]:
    """The nodes drawn first: whole findings (path, evidence, slots, the finding) in the order the asked topic's,
    then the general reading's, then the others', while they fit in *limit* nodes."""
    from leishen.viz.reading import finding_nodes
    rank = {asked: 0, None: 1} if asked not in (None, "*") else {None: 0}
    chosen: set[str] = set()
    for finding in sorted(findings, key=lambda f: rank.get(f.get("topic"), 2)):
        ids = finding_nodes(finding)
        if len(chosen | ids) <= limit:
            chosen |= ids
    return chosen


def localise(graph, lang: str) -> None:
    """Label *graph*'s symbol nodes and relation edges in *lang* and give each node its zh/ko/en ``names``."""
    from leishen.service.lore import readings
    from leishen.viz.words import relation_words
    ids = [n for n, a in graph.nodes.items() if a.get("kind") not in ("slot", "value", "finding")]
    found = readings(ids)
    for node_id, attrs in graph.nodes.items():
        names = found.get(node_id)
        if names:
            attrs["names"] = {"zh": names["name"], "ko": names["ko"] or names["name"], "en": names["en"] or names["name"]}
            if lang != "zh":
                attrs["label"] = attrs["names"][lang]
        else:
            attrs["names"] = {"zh": attrs.get("label", "")}
    words = relation_words({edge.kind for edge in graph.edges.values()})
    for edge in graph.edges.values():
        if edge.kind in words and edge.label is None:
            edge.label = words[edge.kind][lang if lang in ("zh", "ko", "en") else "en"]


def vis_ready(graph, shown: set[str]) -> None:
    """Turn the sets on *graph*'s nodes into sorted lists (JSON), mark the nodes not drawn first hidden."""
    for node_id, attrs in graph.nodes.items():
        for key in ("systems", "topics", "rels"):
            attrs[key] = sorted(attrs.get(key, ()))
        attrs["first"] = node_id in shown
        attrs["hidden"] = node_id not in shown


def layered(net):
    """*net* laid out in layers from left to right (a slot, then each hop of a path a column further, the
    finding last), physics off: the page stands still as soon as it is drawn, whatever its size."""
    net.options["layout"] = {"hierarchical": {"enabled": True, "direction": "LR", "sortMethod": "directed",
                                              "levelSeparation": 150, "nodeSpacing": 46, "treeSpacing": 60,
                                              "blockShifting": True, "edgeMinimization": True}}
    net.options["physics"] = {"enabled": False}
    net.options["edges"]["smooth"] = {"enabled": True, "type": "cubicBezier", "forceDirection": "horizontal"}
    return net


def tool_html(reading: dict, lang: str, graph) -> str:
    """The toolbar: the search box, the system, topic and relation filters, the counts and the button that
    shows the rest, labelled in *lang*."""
    esc = html.escape
    topics = sorted({f.get("topic") or "" for f in reading.get("findings", ())}, key=lambda t: (t != "", t))
    from leishen.service.book import topics as all_topics
    named = {t["zh"]: t for t in all_topics()}
    topic_name = lambda t: word(lang, "general") if not t else (named.get(t) or {}).get(lang) or t  # noqa: E731
    rels = sorted({e.kind for e in graph.edges.values() if e.kind not in STRUCTURAL})
    rel_names = {e.kind: e.label or e.kind for e in graph.edges.values()}
    option = lambda value, text: f'<option value="{esc(value)}">{esc(text)}</option>'  # noqa: E731
    systems = "".join(f'<label><input type="checkbox" data-system="{s}" checked>{esc(n.get(lang, n["en"]))}</label>'
                      for s, n in SYSTEMS.items())
    return (f'<div id="leishen-tool"><input id="leishen-search" type="search" placeholder="{esc(word(lang, "search"))}"'
            f' aria-label="{esc(word(lang, "search"))}" list="leishen-names">'
            f'<datalist id="leishen-names"></datalist> <span id="leishen-found" role="status"></span> '
            f'<span class="tool-group" aria-label="{esc(word(lang, "system"))}">{systems}</span> '
            f'<label>{esc(word(lang, "topic"))} <select id="leishen-topic">{option("*", word(lang, "all"))}'
            f'{"".join(option(t, topic_name(t)) for t in topics)}</select></label> '
            f'<label>{esc(word(lang, "relation"))} <select id="leishen-rel">{option("", word(lang, "all"))}'
            f'{"".join(option(r, rel_names.get(r, r)) for r in rels)}</select></label> '
            f'<button type="button" id="leishen-more">{esc(word(lang, "more"))}</button> '
            f'<span id="leishen-count"></span></div>')


TOOL_STYLE = """
#leishen-tool { padding: 4px 12px; font-size: 13px; display: flex; flex-wrap: wrap; gap: 6px 10px;
                align-items: center; border-bottom: 1px solid #eee; }
#leishen-tool .tool-group label { margin-right: 6px; white-space: nowrap; }
#leishen-search { width: 12em; max-width: 100%; }
#leishen-found { color: #a33; }
"""

#: the tool's behaviour; runs after the page script (``network`` exists). %(words)s: the words of the language
TOOL_SCRIPT = """
(function () {
  const W = %(words)s, REST = %(rest)s, nodes = network.body.data.nodes, edges = network.body.data.edges;
  const total = nodes.length + REST.nodes.length;
  let all = false;
  const $ = (id) => document.getElementById(id);
  function wanted(n) {
    const systems = [...document.querySelectorAll('#leishen-tool [data-system]:checked')].map((b) => b.dataset.system);
    const topic = $('leishen-topic').value, rel = $('leishen-rel').value;
    if (!all && !n.first) return false;
    if (n.systems.length && !n.systems.some((s) => systems.includes(s))) return false;
    if (topic !== '*' && n.topics.length && !n.topics.includes(topic)) return false;
    if (rel && !(n.rels || []).includes(rel)) return false;
    return true;
  }
  function apply() {
    const shown = new Set();
    nodes.update(nodes.get().map((n) => { const on = wanted(n); if (on) shown.add(n.id); return {id: n.id, hidden: !on}; }));
    edges.update(edges.get().map((e) => ({id: e.id, hidden: !(shown.has(e.from) && shown.has(e.to))})));
    document.body.dataset.shown = String(shown.size);
    document.body.dataset.total = String(total);
    $('leishen-count').textContent = `${W.shown} ${shown.size} / ${total} ${W.nodes}`;
    $('leishen-more').hidden = all;
    return shown;
  }
  function showRest() {  // the nodes not drawn at first join the graph (laid out again with them)
    if (all) return;
    all = true;
    nodes.add(REST.nodes);
    edges.add(REST.edges);
    apply();
    network.fit();
  }
  function find() {
    const q = $('leishen-search').value.trim().toLowerCase();
    delete document.body.dataset.found;
    $('leishen-found').textContent = '';
    if (!q) return;
    const every = nodes.get().concat(all ? [] : REST.nodes);
    const hit = every.find((n) => n.id.toLowerCase() === q || Object.values(n.names || {}).some((v) =>
      String(v).toLowerCase() === q)) || every.find((n) => Object.values(n.names || {}).concat([n.label || ''])
      .some((v) => String(v).toLowerCase().includes(q)));
    if (!hit) { $('leishen-found').textContent = W.none; return; }
    if (!nodes.get(hit.id)) showRest();
    if (nodes.get(hit.id).hidden) nodes.update({id: hit.id, hidden: false});
    network.selectNodes([hit.id]);
    network.focus(hit.id, {scale: 1.2, animation: false});
    document.body.dataset.found = hit.id;
  }
  $('leishen-names').replaceChildren(...nodes.get().concat(REST.nodes).filter((n) => n.names && n.names.zh).map((n) => {
    const o = document.createElement('option'); o.value = n.label; return o; }));
  $('leishen-tool').addEventListener('change', (e) => { if (e.target.id !== 'leishen-search') apply(); });
  $('leishen-search').addEventListener('input', find);
  $('leishen-search').addEventListener('change', find);
  $('leishen-more').addEventListener('click', showRest);
  apply();
  network.fit();
  function settled() { document.body.dataset.settledMs = String(Math.round(performance.now())); }  // since the page was asked for
  if (document.body.dataset.settled === '1') settled();
  else { network.once('stabilized', settled); network.once('stabilizationIterationsDone', settled); }
})();
"""


def tool_script(lang: str, rest: dict) -> str:
    """The tool's script with the words of *lang* and *rest*, the nodes and edges not drawn at first."""
    return TOOL_SCRIPT % {"words": json.dumps(WORDS.get(lang, WORDS["en"]), ensure_ascii=False),
                          "rest": json.dumps(rest, ensure_ascii=False).replace("</", "<\\/")}


def split_rest(net) -> dict:
    """Take the nodes marked ``hidden`` (not drawn at first) and the edges touching them out of the pyvis *net*:
    ``{"nodes", "edges"}``, which the tool adds when asked; the first graph is laid out without them."""
    rest_ids = {n["id"] for n in net.nodes if n.get("hidden")}
    rest = {"nodes": [{**n, "hidden": False} for n in net.nodes if n["id"] in rest_ids],
            "edges": [e for e in net.edges if e["from"] in rest_ids or e["to"] in rest_ids]}
    net.nodes = [n for n in net.nodes if n["id"] not in rest_ids]
    net.edges = [e for e in net.edges if e["from"] not in rest_ids and e["to"] not in rest_ids]
    net.node_ids = [n["id"] for n in net.nodes]
    net.node_map = {n["id"]: n for n in net.nodes}
    return rest
