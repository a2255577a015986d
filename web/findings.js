// The findings of a reading grouped by topic (the asked topic first, then the general rules) and system, with
// filters by polarity and system, the tally by topic, and per finding a button that draws its own path.
"use strict";

import {$, cites, el} from "./dom.js";
import {LORE, SYSTEMS, lang, named, t} from "./i18n.js";

const POLARITIES = ["吉", "凶", "平", "混", "none"];
const SYSTEM_ORDER = ["liuren", "qimen", "ninestar"];

/** finding id → the id of its list item (f-0, f-1 … in the reading's order). */
export function anchorsOf(reading) {
  return new Map(((reading && reading.findings) || []).map((f, i) => [f.id, `f-${i}`]));
}

/** A rule's or pattern's own name; a lore reading's name in the page's language (a relation with its slots). */
export function ruleName(f) {
  const lore = LORE[f.query];
  if (!lore) return (f.rule || {}).name || f.id;
  const path = f.path || [], slots = f.query === "relations" ? ` ${path[0].slot}–${path[path.length - 1].slot}` : "";
  return named(lore) + slots;
}

/** The groups shown: [topic, system, findings] with the asked topic first and the general rules next. */
export function groupsOf(reading) {
  const topics = [...new Set(reading.findings.map((f) => f.topic ?? null))];
  const rank = (x) => (x === reading.topic && x !== null ? 0 : x === null ? 1 : 2);
  topics.sort((a, b) => rank(a) - rank(b));
  const out = [];
  for (const topic of topics) for (const system of SYSTEM_ORDER) {
    const found = reading.findings.filter((f) => (f.topic ?? null) === topic && f.system === system);
    if (found.length) out.push([topic, system, found]);
  }
  return out;
}

function findingItem(f, anchor, onPath) {
  const meaning = named(f.meaning);
  return el("li", {id: anchor, "data-id": f.id, "data-polarity": f.polarity || "none", "data-system": f.system},
            el("span", {class: `pol pol-${f.polarity || "none"}`}, f.polarity || "·"),
            el("button", {type: "button", class: "finding-path", title: t("path"), onclick: () => onPath(f, anchor)},
               ruleName(f)), " ", meaning,
            f.certainty === "needs_judgment" ? el("span", {class: "judgment"}, ` (${t("needs")})`) : null,
            cites(f.src));
}

function checkbox(kind, value, label) {
  return el("label", {class: "filter"}, el("input", {type: "checkbox", checked: true, "data-kind": kind, value}), label);
}

function filters() {
  return el("fieldset", {id: "filters"},
            el("legend", {}, `${t("polarity")} · ${t("system")}`),
            POLARITIES.map((p) => checkbox("polarity", p, p === "none" ? t("noPol") : p)),
            el("span", {class: "sep"}, " | "),
            SYSTEM_ORDER.map((s) => checkbox("system", s, named(SYSTEMS[s]))));
}

/** A topic's name in the page's language (from the reading's judgments, which name their topics). */
export function topicName(reading, topic) {
  if (topic === null || topic === undefined || topic === "general") return t("general");
  const judged = ((reading && reading.judgments) || []).find((j) => j.topic === topic);
  return named(judged && judged.names, topic);
}

function tallyTable(reading) {
  const rows = Object.entries(reading.tally || {});
  const name = (topic) => topicName(reading, topic);
  return el("table", {id: "tally"}, el("caption", {}, t("tally")),
            el("tr", {}, el("th", {}, t("topic")), ["吉", "凶", "平", "混"].map((p) => el("th", {}, p))),
            rows.map(([topic, counts]) => el("tr", {"data-topic": topic}, el("th", {}, name(topic)),
              ["吉", "凶", "平", "混"].map((p) => el("td", {}, String(counts[p] || 0))))));
}

/** Show only the findings whose polarity and system are both ticked; a group with none shown is hidden. */
export function applyFilters() {
  const ticked = (kind) => new Set([...document.querySelectorAll(`#filters input[data-kind=${kind}]:checked`)]
    .map((box) => box.value));
  const polarity = ticked("polarity"), system = ticked("system");
  let shown = 0;
  for (const item of document.querySelectorAll("#findings li[data-id]")) {
    item.hidden = !(polarity.has(item.dataset.polarity) && system.has(item.dataset.system));
    shown += item.hidden ? 0 : 1;
  }
  for (const group of document.querySelectorAll("#findings .group")) {
    group.hidden = !group.querySelector("li[data-id]:not([hidden])");
  }
  $("shown").textContent = `${t("shown")} ${shown} / ${document.querySelectorAll("#findings li[data-id]").length}`;
  document.body.dataset.shown = String(shown);
}

/** Draw the findings of *reading*; *onPath(finding, anchor)* draws a finding's path when its name is clicked. */
export function renderFindings(reading, anchors, onPath) {
  const groups = groupsOf(reading).map(([topic, system, found]) =>
    el("section", {class: "group", "data-topic": topic ?? "", "data-system": system},
       el("h3", {}, `${topicName(reading, topic)} · ${named(SYSTEMS[system])} (${found.length})`),
       el("ol", {}, found.map((f) => findingItem(f, anchors.get(f.id), onPath)))));
  const none = reading.findings.length ? [] : [el("p", {}, t("none"))];  // replaceChildren writes null as "null"
  $("findings").replaceChildren(filters(), el("p", {id: "shown", role: "status"}), tallyTable(reading), ...none,
                                ...groups);
  $("filters").addEventListener("change", applyFilters);
  applyFilters();
  document.body.dataset.findings = String(reading.findings.length);
  document.body.dataset.lang = lang();
}
