// Small DOM helpers of the web page: build an element, fetch JSON from the API, a citation link.
"use strict";

export const $ = (id) => document.getElementById(id);

/** A new element: attributes (class, on* listeners, the rest as attributes) and children (null skipped). */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** The JSON answer of *url* on this server; an error answer throws its one-line message. */
export async function getJSON(url, signal) {
  const answer = await fetch(url, {headers: {Accept: "application/json"}, signal});
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(`${url.split("?")[0]}: ${body.error || body.detail || answer.status}`);
  return body;
}

/** The fragment a citation links to: 000:3 → #src-000-3 (the page shows that passage). */
export function citeHref(src) { return `#src-${String(src).replace(/[^0-9A-Za-z]+/g, "-")}`; }

/** The citation of a fragment made by citeHref: #src-000-3 → 000:3 (null for any other fragment). */
export function citeOf(hash) {
  const found = /^#src-(\w+)-(\d+)$/.exec(hash || "");
  return found ? `${found[1]}:${found[2]}` : null;
}

/** A keyboard-reachable link per citation (Tab reaches it, Enter shows the passage). */
export function cites(srcs) {
  return (srcs || []).map((s) => el("a", {class: "cite", href: citeHref(s), "data-src": s}, s));
}
