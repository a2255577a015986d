// A finding's own path drawn as a layered graph, left to right: the chart slot's node first, each hop a column
// further, the finding last; its further evidence joins the same columns. Nodes and relations are named in the
// page's language (GET /views/words); a hop read from the chart is dashed; an arrow points the way the stored
// relation does.
"use strict";

import {el, getJSON} from "./dom.js";
import {lang, named, t} from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const BOX = {w: 132, h: 44, gap: 78, vgap: 18, pad: 8};
const cache = {nodes: {}, relations: {}};

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** The graph of a finding: nodes by key (in order of first appearance) and the edges between them. */
export function pathGraph(finding, title) {
  const nodes = new Map(), edges = [];
  const add = (key, node) => { if (!nodes.has(key)) nodes.set(key, node); return key; };
  let last = null;
  for (const [i, hops] of [finding.path || [], ...(finding.evidence || [])].entries()) {
    let previous = null, rel = null;
    for (const hop of hops) {
      if (!("node" in hop) && !("value" in hop)) { rel = hop; continue; }
      const key = hop.node ? hop.node.id : `value:${hop.slot || ""} ${hop.value}`;
      add(key, {key, id: hop.node ? hop.node.id : null, name: hop.node ? hop.node.name : String(hop.value),
                slot: hop.slot || null});
      if (previous !== null && previous !== key) {
        edges.push({from: previous, to: key, rel: rel ? rel.rel : "", chart: Boolean(rel && rel.chart),
                    forward: !rel || rel.forward !== false, evidence: i > 0});
      }
      previous = key; rel = null;
    }
    if (i === 0) last = previous;
  }
  const end = add("finding", {key: "finding", id: null, name: title, slot: null, finding: true,
                              polarity: finding.polarity || "none"});
  if (last !== null) edges.push({from: last, to: end, rel: "", chart: false, forward: true, evidence: false});
  return {nodes, edges};
}

/** Each node's column: the longest chain of hops that leads to it (so every edge points to the right). */
export function layers(graph) {
  const layer = new Map([...graph.nodes.keys()].map((k) => [k, 0]));
  for (let round = 0; round < graph.nodes.size; round++) {
    let moved = false;
    for (const e of graph.edges) {
      if (layer.get(e.to) < layer.get(e.from) + 1) { layer.set(e.to, layer.get(e.from) + 1); moved = true; }
    }
    if (!moved) break;
  }
  return layer;
}

async function wordsFor(graph) {
  const ids = [...graph.nodes.values()].map((n) => n.id).filter((id) => id && !(id in cache.nodes));
  const rels = [...new Set(graph.edges.map((e) => e.rel))].filter((r) => r && !(r in cache.relations));
  if (ids.length || rels.length) {
    const q = new URLSearchParams({ids: ids.join(","), rels: rels.join(",")});
    const found = await getJSON(`/views/words?${q}`).catch(() => ({nodes: {}, relations: {}}));
    Object.assign(cache.nodes, found.nodes);
    Object.assign(cache.relations, found.relations);
    for (const id of ids) cache.nodes[id] ??= null;  // asked once: an unknown id keeps its own name
  }
}

function clip(text, size) { return text.length > size ? `${text.slice(0, size - 1)}…` : text; }

function nodeBox(node, x, y) {
  const label = node.id && cache.nodes[node.id] ? named(cache.nodes[node.id]) : node.name;
  const cls = node.finding ? `pv-node pv-finding pol-${node.polarity}` : node.slot ? "pv-node pv-slot" : "pv-node";
  return svg("g", {class: cls, "data-key": node.key, transform: `translate(${x},${y})`},
             svg("title", {}, [node.slot, label, node.id].filter(Boolean).join(" · ")),
             svg("rect", {width: BOX.w, height: BOX.h, rx: 5}),
             node.slot ? svg("text", {x: 6, y: 13, class: "pv-slot-name"}, node.slot) : null,
             svg("text", {x: BOX.w / 2, y: node.slot ? 33 : 27, "text-anchor": "middle", class: "pv-label"},
                 clip(label, lang() === "en" ? 19 : 9)));
}

function edgeLine(e, from, to) {
  const word = e.rel ? named(cache.relations[e.rel], e.rel) : "";
  const x1 = from.x + BOX.w, y1 = from.y + BOX.h / 2, x2 = to.x, y2 = to.y + BOX.h / 2;
  const line = svg("line", {x1, y1, x2, y2, class: `pv-edge${e.chart ? " pv-chart" : ""}${e.evidence ? " pv-evidence" : ""}`,
                            "marker-end": e.forward ? "url(#pv-arrow)" : null,
                            "marker-start": e.forward ? null : "url(#pv-arrow-back)"});
  const label = word ? svg("text", {x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, "text-anchor": "middle",
                                    class: "pv-rel"}, clip(word, lang() === "en" ? 14 : 6)) : null;
  return svg("g", {"data-rel": e.rel}, svg("title", {}, word || e.rel), line, label);
}

/** The SVG drawing of *graph* with its node positions. */
export function drawing(graph) {
  const layer = layers(graph), rows = new Map(), at = new Map();
  for (const [key] of graph.nodes) {
    const col = layer.get(key), row = rows.get(col) || 0;
    rows.set(col, row + 1);
    at.set(key, {x: BOX.pad + col * (BOX.w + BOX.gap), y: BOX.pad + row * (BOX.h + BOX.vgap)});
  }
  const width = BOX.pad * 2 + (Math.max(...layer.values()) + 1) * (BOX.w + BOX.gap) - BOX.gap;
  const height = BOX.pad * 2 + Math.max(...rows.values()) * (BOX.h + BOX.vgap) - BOX.vgap;
  const arrow = (id, d) => svg("marker", {id, viewBox: "0 0 10 10", refX: id.endsWith("back") ? 0 : 10, refY: 5,
                                          markerWidth: 7, markerHeight: 7, orient: "auto"}, svg("path", {d}));
  return svg("svg", {class: "pv", width, height, viewBox: `0 0 ${width} ${height}`, role: "img"},
             svg("defs", {}, arrow("pv-arrow", "M0,0 L10,5 L0,10 z"), arrow("pv-arrow-back", "M10,0 L0,5 L10,10 z")),
             ...graph.edges.map((e) => edgeLine(e, at.get(e.from), at.get(e.to))),
             ...[...graph.nodes.values()].map((n) => nodeBox(n, at.get(n.key).x, at.get(n.key).y)));
}

/** Draw *finding*'s path (its name *title*) into the panel *box*, shown under the finding's own item *item*. */
export async function showPath(box, item, finding, title) {
  const graph = pathGraph(finding, `${title} ${finding.polarity || ""}`.trim());
  await wordsFor(graph);
  box.hidden = false;
  box.replaceChildren(el("div", {class: "pv-head"}, `${t("path")}: ${title}`),
                      el("div", {class: "pv-scroll", tabindex: "0"}, drawing(graph)));
  item.append(box);
  document.body.dataset.path = finding.id;
}
