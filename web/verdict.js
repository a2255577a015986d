// The verdict panel: per judged topic (the asked one first) its verdict named in the page's language, the 用神,
// each facet with its answer and citations, the 應期 dates, the conflicts, what was set aside and the reasons
// (each a link to its finding below). The shape is docs/judgments.md.
"use strict";

import {$, cites, el} from "./dom.js";
import {lang, named, plain, t} from "./i18n.js";

const STATUS = {decided: "decided", open: "open", "未定": "undecided"};
// a 用神's role given in English by the judgment tables, named in the page's language (先看 兼看 … are shown as such)
const ROLES = {significator: {zh: "所主", ko: "소주", en: "significator"}};

function roleName(role) {
  if (ROLES[role]) return named(ROLES[role]);
  return /^[\x00-\x7f]+$/.test(role || "") && lang() !== "en" ? "·" : role;
}

/** The judgments in the order shown: the asked topic first, then the other topics, the general reading last. */
export function ordered(reading) {
  const all = (reading && reading.judgments) || [];
  const rank = (j) => (j.topic === reading.topic && j.topic !== null ? 0 : j.topic === null ? 2 : 1);
  return all.map((j, i) => [rank(j), i, j]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

/** What decided the verdict, in the page's language: the deciding facet's name, or the rule's own words (never
 * its internal number); "" when there are no words in this language. */
function decidedBy(j) {
  const by = j.verdict_by || {};
  if (by.facet) {
    const facet = (j.facets || []).find((f) => f.facet === by.facet);
    return `${t("by")} ${named(facet && facet.names, by.facet)}`;
  }
  return plain(by[lang()] || (lang() === "en" ? "" : by.zh) || "");
}

function summaryLine(j) {
  const said = j.summary ? plain(named(j.summary)) : "";
  return said ? el("p", {class: "summary"}, said) : null;
}

function verdictLine(j) {
  const name = named(j.verdict_names, j.verdict);
  const by = j.verdict_by || {};
  const why = decidedBy(j);
  return el("p", {class: "verdict-line"},
            el("span", {class: `verdict v-${j.verdict}`, "data-verdict": j.verdict},
               j.verdict, name !== j.verdict ? ` ${name}` : ""),
            why ? el("small", {class: "by"}, ` ${why} `) : null, cites(by.src));
}

function useGods(j) {
  if (!(j.use_god || []).length) return null;
  return el("div", {class: "usegod"}, el("h4", {}, t("usegod")), el("ul", {}, j.use_god.map((u) =>
    el("li", {"data-slot": u.slot, title: lang() === "en" ? plain(u.why) || null : null},
       el("span", {class: "role"}, roleName(u.role)), ` ${u.slot} → `, el("b", {}, named(u.node, u.node && u.node.name)),
       lang() === "en" && plain(u.why) ? el("small", {}, ` ${plain(u.why)}`) : null, cites(u.src)))));
}

const PALACES = ["", "坎一", "坤二", "震三", "巽四", "中五", "乾六", "兌七", "艮八", "離九"];

/** Where an answer is read: a palace by its name (乾六; "palace 6" on the en page), anything else as given. */
function placeName(place) {
  const palace = /^Palace:p(\d)$/.exec(place || "");
  if (!palace) return place;
  return lang() === "en" ? `palace ${palace[1]}` : PALACES[Number(palace[1])];
}

function answerItem(a) {
  const where = a.place ? ` @${placeName(a.place)}` : "";
  const seasons = (a.seasons || []).length ? ` (${a.seasons.join("、")})` : "";
  return el("span", {class: "answer", "data-value": a.value}, el("b", {}, named(a, a.value)), where, seasons,
            cites(a.src));
}

function facetRow(f) {
  const status = STATUS[f.status] || f.status;
  const cited = new Set([...(f.answer || []), ...(f.conflict || [])].flatMap((a) => a.src || []));
  const heading = (f.heading_src || []).filter((s) => !cited.has(s));  // the heading's own passage, once
  const conflict = (f.conflict || []).length
    ? el("div", {class: "conflict"}, `${t("conflicts")}: `, f.conflict.map(answerItem)) : null;
  return el("li", {class: `facet s-${status}`, "data-facet": f.facet},
            el("span", {class: "facet-name"}, named(f.names, f.facet)), f.verdict ? " ★" : "", " ",
            el("small", {class: "status"}, t(status)), " ",
            (f.answer || []).map(answerItem), conflict, heading.length ? el("small", {class: "heading"}, " §", cites(heading)) : null);
}

/** Why an 應期 has no date, in the page's language (its English note only on the en page). */
function whyUndated(w) {
  return plain(w.judgment_names ? named(w.judgment_names) : lang() === "en" ? w.judgment : "");
}

function whenRow(w) {
  const date = w.date ? el("b", {class: "date"}, w.date) : el("i", {}, t("nodate"));
  const where = [w.star, w.palace ? w.palace.replace("Palace:p", "") : null, w.stem].filter(Boolean).join(" ");
  return el("li", {class: "when", "data-date": w.date || ""}, named(w.for), ": ", date,
            w.pillar ? ` ${w.pillar}` : "", w.days !== undefined && w.days !== null ? ` (${w.days} ${t("days")})` : "",
            w.speed ? ` ${w.speed}` : "", where ? el("small", {}, ` ${where}`) : null,
            whyUndated(w) ? el("small", {}, ` ${whyUndated(w)}`) : null, cites(w.src));
}

function section(key, items, cls) {
  return items.length ? el("div", {class: cls}, el("h4", {}, t(key)), el("ul", {}, items)) : null;
}

function findingLink(id, anchors, text) {
  const to = anchors.get(id);
  return to ? el("a", {href: `#${to}`, class: "to-finding"}, text) : el("span", {}, text);
}

/** The words a reason links with: its meaning, else its finding's meaning or rule in the page's language. */
function reasonText(r, findings) {
  if (r.meaning) return named(r.meaning);
  const f = findings.get(r.finding);
  return (f && (named(f.meaning) || (f.rule || {}).name)) || "·";
}

function judgmentCard(j, anchors, findings) {
  const title = j.topic === null ? t("general") : named(j.names, j.topic);
  const readOn = j.read_on && j.read_on.why
    ? el("p", {class: "read-on"}, `${t("readOn")}: ${j.read_on.term || ""} ${j.read_on.moment.local} `,
         el("small", {}, plain(named(j.read_on.why))), cites(j.read_on.src)) : null;
  const facetName = (id) => named(((j.facets || []).find((f) => f.facet === id) || {}).names, id);
  const conflicts = (j.conflicts || []).map((c) => el("li", {}, `${facetName(c.facet)}: `, c.answers.map(answerItem)));
  const overridden = (j.overridden || []).map((o) => el("li", {}, findingLink(o.finding, anchors, "✕"),
    cites(o.src), " ← ", findingLink(o.by, anchors, "✓"), cites(o.by_src)));
  const reasons = (j.reasons || []).map((r) => el("li", {}, el("span", {class: `pol pol-${r.polarity || "none"}`},
    r.polarity || "·"), findingLink(r.finding, anchors, reasonText(r, findings)), " ",
    el("small", {}, plain(named(r.why))), cites(r.src)));
  return el("article", {class: "judgment-card", "data-topic": j.topic === null ? "" : j.topic},
            el("h3", {}, title), summaryLine(j), verdictLine(j), readOn, useGods(j),
            section("facets", (j.facets || []).map(facetRow), "facets"),
            section("when", (j.when || []).map(whenRow), "timing"),
            section("conflicts", conflicts, "conflicts"), section("overridden", overridden, "overridden"),
            reasons.length ? el("details", {class: "reasons"}, el("summary", {}, `${t("reasons")} (${reasons.length})`),
                                el("ul", {}, reasons)) : null);
}

/** Draw the verdict panel of *reading*; *anchors* maps a finding id to the id of its list item. */
export function renderVerdicts(reading, anchors) {
  const findings = new Map(((reading && reading.findings) || []).map((f) => [f.id, f]));
  const cards = ordered(reading).map((j) => judgmentCard(j, anchors, findings));
  $("verdicts").replaceChildren(el("h2", {}, t("verdicts")), ...cards);
}
