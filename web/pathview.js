// A finding's own path drawn in the order of the path: one vertical strip per chain (the path itself, ending in
// the finding, then each piece of further evidence), each hop one step down, the relation written beside its
// arrow. A node a path comes back to is drawn again where the path reaches it, so a loop never widens the
// drawing; strips sit side by side when the page is wide and one under another on a phone, so the drawing
// always fits the page's width. Nodes and relations are named in the page's language (GET /views/words); a hop
// read from the chart is dashed; an arrow points the way the stored relation does.
"use strict";

import {el, getJSON} from "./dom.js";
import {named, plain, t} from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const LAYOUT = {strip: 300, spacing: 16, pad: 6, head: 18, line: 16, relLine: 14, arrowX: 22, minGap: 28};
const cache = {nodes: {}, relations: {}};

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** The chains of a finding: the path (its last node followed by the finding itself) and each piece of
 * evidence; each chain a list of {key, node, rel} where rel is the hop that leads to that node (null first). */
export function chainsOf(finding, title) {
  const end = {key: "finding", id: null, name: title, slot: null, finding: true, polarity: finding.polarity || "none"};
  const chains = [];
  for (const [i, hops] of [finding.path || [], ...(finding.evidence || [])].entries()) {
    const steps = [];
    let rel = null;
    for (const hop of hops) {
      if (!("node" in hop) && !("value" in hop)) { rel = hop; continue; }
      const key = hop.node ? hop.node.id : `value:${hop.slot || ""} ${hop.value}`;
      const node = {key, id: hop.node ? hop.node.id : null, name: hop.node ? hop.node.name : String(hop.value),
                    slot: hop.slot || null};
      const last = steps[steps.length - 1];
      if (!last || last.key !== key) steps.push({key, node, rel: last ? rel || {} : null});
      rel = null;
    }
    if (i === 0) steps.push({key: end.key, node: end, rel: steps.length ? {} : null});
    if (steps.length) chains.push({kind: i === 0 ? "path" : "evidence", index: i, steps});
  }
  return chains;
}

async function wordsFor(chains) {
  const steps = chains.flatMap((c) => c.steps);
  const ids = [...new Set(steps.map((s) => s.node.id))].filter((id) => id && !(id in cache.nodes));
  const rels = [...new Set(steps.map((s) => s.rel && s.rel.rel))].filter((r) => r && !(r in cache.relations));
  if (ids.length || rels.length) {
    const q = new URLSearchParams({ids: ids.join(","), rels: rels.join(",")});
    const found = await getJSON(`/views/words?${q}`).catch(() => ({nodes: {}, relations: {}}));
    Object.assign(cache.nodes, found.nodes);
    Object.assign(cache.relations, found.relations);
    for (const id of ids) cache.nodes[id] ??= null;  // asked once: an unknown id keeps its own name
    for (const r of rels) cache.relations[r] ??= null;
  }
}

/** How wide *text* draws at *size* px (a CJK or Hangul character a full em, anything else about 0.56 em). */
function textWidth(text, size) {
  let w = 0;
  for (const ch of text) w += ch.codePointAt(0) >= 0x2e80 ? size : size * 0.56;
  return w;
}

/** *text* broken into lines at most *width* px wide at *size* px: at spaces where there are any, anywhere in
 * a word too long for a line. */
export function wrap(text, width, size) {
  const lines = [];
  let current = "";
  for (const word of String(text).split(/(?<=\s)/)) {
    if (current && textWidth(current + word, size) > width) { lines.push(current.trimEnd()); current = ""; }
    for (const ch of word) {
      if (current && textWidth(current + ch, size) > width) { lines.push(current); current = ""; }
      current += ch;
    }
  }
  if (current.trim()) lines.push(current.trimEnd());
  return lines.length ? lines : [""];
}

function nodeLabel(node) {
  return node.id && cache.nodes[node.id] ? named(cache.nodes[node.id], node.name) : node.name;
}

function relWord(rel) {
  if (!rel || !rel.rel) return "";
  return plain(named(cache.relations[rel.rel], rel.rel));
}

function lines(x, y, rows, cls, size, anchor) {
  return svg("text", {x, y, class: cls, "text-anchor": anchor || null},
             rows.map((row, i) => svg("tspan", {x, dy: i === 0 ? 0 : size + 2}, row)));
}

function nodeBox(step, order, x, y, width) {
  const {node} = step, label = nodeLabel(node);
  const rows = wrap(label, width - 12, 13);
  const top = node.slot ? 14 : 0, height = 12 + top + rows.length * LAYOUT.line;
  const cls = node.finding ? `pv-node pv-finding pol-${node.polarity}` : node.slot ? "pv-node pv-slot" : "pv-node";
  const group = svg("g", {class: cls, "data-key": node.key, "data-order": order, transform: `translate(${x},${y})`},
                    svg("title", {}, [node.slot, label].filter(Boolean).join(" · ")),
                    svg("rect", {width, height, rx: 5}),
                    node.slot ? svg("text", {x: 6, y: 12, class: "pv-slot-name"}, node.slot) : null,
                    lines(width / 2, top + 18, rows, "pv-label", 13, "middle"));
  return {group, height};
}

function hopArrow(rel, x, y, gapRows, width) {
  const y2 = y + gapRows.height;
  const chart = Boolean(rel && rel.chart), forward = !rel || rel.forward !== false;
  const line = svg("line", {x1: x + LAYOUT.arrowX, y1: y, x2: x + LAYOUT.arrowX, y2,
                            class: `pv-edge${chart ? " pv-chart" : ""}`,
                            "marker-end": forward ? "url(#pv-arrow)" : null,
                            "marker-start": forward ? null : "url(#pv-arrow-back)"});
  const label = gapRows.rows.length && gapRows.rows[0]
    ? lines(x + LAYOUT.arrowX + 10, y + 15, gapRows.rows, "pv-rel", 11) : null;
  return svg("g", {class: "pv-hop", "data-rel": (rel && rel.rel) || ""}, line, label);
}

/** One chain drawn as a strip at (x, y) of *width*: its heading, then each node under the one before. */
function strip(chain, x, y, width) {
  const parts = [svg("text", {x, y: y + 13, class: "pv-strip-head"},
                     chain.kind === "path" ? t("path") : `${t("evidence")} ${chain.index}`)];
  let at = y + LAYOUT.head;
  chain.steps.forEach((step, order) => {
    if (step.rel) {
      const rows = wrap(relWord(step.rel), width - LAYOUT.arrowX - 14, 11).filter(Boolean);
      const gap = {rows, height: Math.max(LAYOUT.minGap, 10 + rows.length * LAYOUT.relLine)};
      parts.push(hopArrow(step.rel, x, at, gap, width));
      at += gap.height;
    }
    const box = nodeBox(step, order, x, at, width);
    parts.push(box.group);
    at += box.height;
  });
  return {group: svg("g", {class: `pv-strip pv-${chain.kind}`, "data-chain": chain.index}, parts), height: at - y};
}

/** The SVG drawing of *chains* in at most *avail* px of width: strips side by side as they fit, then wrapped. */
export function drawing(chains, avail) {
  const width = Math.max(160, Math.min(LAYOUT.strip, avail - 2 * LAYOUT.pad));
  const perRow = Math.max(1, Math.floor((avail - 2 * LAYOUT.pad + LAYOUT.spacing) / (width + LAYOUT.spacing)));
  const drawn = [];
  let y = LAYOUT.pad, rowHeight = 0;
  chains.forEach((chain, i) => {
    const col = i % perRow;
    if (col === 0 && i > 0) { y += rowHeight + LAYOUT.spacing; rowHeight = 0; }
    const made = strip(chain, LAYOUT.pad + col * (width + LAYOUT.spacing), y, width);
    rowHeight = Math.max(rowHeight, made.height);
    drawn.push(made.group);
  });
  const cols = Math.min(perRow, chains.length);
  const w = 2 * LAYOUT.pad + cols * width + (cols - 1) * LAYOUT.spacing, h = y + rowHeight + LAYOUT.pad;
  const arrow = (id, d) => svg("marker", {id, viewBox: "0 0 10 10", refX: id.endsWith("back") ? 0 : 10, refY: 5,
                                          markerWidth: 7, markerHeight: 7, orient: "auto"}, svg("path", {d}));
  return svg("svg", {class: "pv", width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img"},
             svg("defs", {}, arrow("pv-arrow", "M0,0 L10,5 L0,10 z"), arrow("pv-arrow-back", "M10,0 L0,5 L10,10 z")),
             drawn);
}

/** Draw *finding*'s path (its name *title*) into the panel *box*, shown under the finding's own item *item*. */
export async function showPath(box, item, finding, title) {
  const chains = chainsOf(finding, `${title} ${finding.polarity || ""}`.trim());
  await wordsFor(chains);
  box.hidden = false;
  item.append(box);
  const avail = Math.min(item.clientWidth || 600, document.documentElement.clientWidth - 8) - 2;
  box.replaceChildren(el("div", {class: "pv-head"}, `${t("path")}: ${title}`),
                      el("div", {class: "pv-scroll", tabindex: "0"}, drawing(chains, avail)));
  document.body.dataset.path = finding.id;
}
