// The leishen web page: a moment → the chart (/charts), its reading (/readings), the reading's graph
// (/views/reading) and the passages (/passages/{doc}:{line}).  Plain JS, no library, no network but
// the API that served this page.  When everything is drawn, <body data-ready="1">.
"use strict";

const I18N = {
  zh: {moment: "時刻", tz: "時區", topic: "占事", lang: "語言", schools: "流派選項", cast: "起課", findings: "斷語",
       graph: "推理圖", none: "無斷語", needs: "待斷", pillars: "四柱", term: "節氣"},
  ko: {moment: "시각", tz: "시간대", topic: "점사", lang: "언어", schools: "유파 선택", cast: "포국", findings: "판단",
       graph: "추론 그래프", none: "판단 없음", needs: "판단 필요", pillars: "사주", term: "절기"},
  en: {moment: "moment", tz: "time zone", topic: "topic", lang: "language", schools: "school options", cast: "cast",
       findings: "findings", graph: "reading graph", none: "no findings", needs: "needs judgment",
       pillars: "pillars", term: "solar term"},
};
// earth branches of the Liu Ren ring, as [branch, row, column] of a 4×4 square
const RING = [["巳", 0, 0], ["午", 0, 1], ["未", 0, 2], ["申", 0, 3], ["酉", 1, 3], ["戌", 2, 3],
              ["亥", 3, 3], ["子", 3, 2], ["丑", 3, 1], ["寅", 3, 0], ["卯", 2, 0], ["辰", 1, 0]];
const LOSHU = [4, 9, 2, 3, 5, 7, 8, 1, 6];  // palaces in reading order of the 3×3 grid
const PALACE = {1: "坎", 2: "坤", 3: "震", 4: "巽", 5: "中", 6: "乾", 7: "兌", 8: "艮", 9: "離"};
const SYSTEMS = {liuren: "大六壬", qimen: "奇門", ninestar: "九星"};
const FIXED = new Set(["moment", "tz", "topic", "systems", "lang"]);
// the lore readings, named in the chosen language (their rule name is the query's own word)
const LORE = {kin: {zh: "六親", ko: "육친", en: "kin"}, stages: {zh: "長生", ko: "십이운성", en: "life stage"},
              vigour: {zh: "旺相", ko: "왕상휴수사", en: "vigour"}, relations: {zh: "刑沖破害合", ko: "형충파해합", en: "relation"},
              shensha: {zh: "旬中神煞", ko: "순중신살", en: "decade spirit"}, leixiang: {zh: "類神", ko: "유신", en: "class symbol"}};

const $ = (id) => document.getElementById(id);
let notice = "";  // a note on the address the page was opened with, shown with the first reading
const form = $("ask");

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function getJSON(url) {
  const answer = await fetch(url, {headers: {Accept: "application/json"}});
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(`${url.split("?")[0]}: ${body.error || body.detail || answer.status}`);
  return body;
}

function lang() { return form.elements.lang.value; }
function t(key) { return (I18N[lang()] || I18N.en)[key] || key; }
function translate() { for (const n of document.querySelectorAll("[data-t]")) n.textContent = t(n.dataset.t); }

// ---- the form: defaults, the school options from the API's own schema, the query string

function localNow() {
  const d = new Date(), p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function enumOf(schema, spec) {
  // an option's allowed values: inline, behind a $ref to components/schemas, or in an anyOf (… | null)
  if (!schema) return null;
  if (schema.$ref) return enumOf(spec.components.schemas[schema.$ref.split("/").pop()], spec);
  if (schema.enum) return schema.enum;
  for (const alt of schema.anyOf || []) { const found = enumOf(alt, spec); if (found) return found; }
  return null;
}

async function schoolOptions() {
  // the school options are the enumerated query parameters of GET /charts in the API's own schema
  const spec = await getJSON("/openapi.json").catch(() => null);
  const op = spec && spec.paths && spec.paths["/charts"] && spec.paths["/charts"].get;
  const box = $("school-options");
  for (const p of (op && op.parameters) || []) {
    const choices = enumOf(p.schema, spec);
    if (!choices || FIXED.has(p.name) || p.in !== "query") continue;
    const fallback = p.schema.default === undefined || p.schema.default === null;
    const select = el("select", {name: p.name, id: `opt-${p.name}`},
                      fallback ? el("option", {value: ""}, "—") : null,
                      choices.map((c) => el("option", {value: c}, String(c))));
    if (!fallback) select.value = p.schema.default;
    box.append(el("label", {for: `opt-${p.name}`, title: p.description || ""}, p.name), select);
  }
}

async function topicList() {
  // the topics that have rules (GET /topics), offered in the chosen language
  const found = await getJSON("/topics").catch(() => []);
  $("topics").replaceChildren(...found.map((topic) => el("option", {value: topic.zh}, topic[lang()] || topic.en || "")));
}

function params() {
  const out = new URLSearchParams();
  for (const field of form.elements) {
    if (!field.name || field.name === "lang" || field.value === "") continue;
    out.set(field.name, field.name === "moment" && field.value.length === 16 ? field.value + ":00" : field.value);
  }
  return out;
}

function fromQuery() {
  // the form from the query string; false (and the status says why) when its moment is not a date-time
  const q = new URLSearchParams(location.search);
  const asked = (q.get("moment") || "").trim(), now = !asked || asked.toLowerCase() === "now";
  form.elements.moment.value = (now ? localNow() : asked).slice(0, 16);
  if (!now && !form.elements.moment.value) {  // the input refuses what is not a date-time: never a reading of now
    $("status").textContent = `moment: '${asked}' is not a date-time such as 2026-12-01T10:00`;
    return false;
  }
  const unknown = [...q.keys()].filter((k) => !["moment", "tz", "lang"].includes(k) && !form.elements[k]);
  if (unknown.length) notice = `not read (no such option on this page): ${unknown.join(", ")}`;
  form.elements.tz.value = q.get("tz") || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  for (const [k, v] of q) if (k !== "moment" && k !== "tz" && form.elements[k]) form.elements[k].value = v;
  return true;
}

// ---- the boards

function renderPillars(chart) {
  const p = chart.pillars;
  $("pillars").replaceChildren(`${chart.moment.local}  ${t("pillars")} ${p.year} ${p.month} ${p.day} ${p.hour}  `
                               + `${t("term")} ${chart.solar_term.name}`);
}

function renderLiuren(lr) {
  const course = new Set(lr.transmissions);
  const cells = RING.map(([earth, row, col]) => {
    const heaven = lr.plate[earth];
    return el("div", {class: "cell" + (course.has(heaven) ? " in-course" : ""), "data-earth": earth,
                      style: `grid-row:${row + 1};grid-column:${col + 1}`},
              el("b", {}, heaven), (lr.generals || {})[heaven] || "", el("br"), el("small", {}, earth));
  });
  const lessons = lr.lessons.slice().reverse();
  const grid = el("div", {class: "lessons"}, lessons.map((x) => el("span", {}, x.upper)),
                  lessons.map((x) => el("span", {}, x.lower)));
  const names = ["初傳", "中傳", "末傳"];
  const rows = (lr.transmission_details || lr.transmissions.map((b) => ({branch: b}))).map((x, i) =>
    el("div", {}, `${names[i]} ${x.branch} ${x.dun || ""} ${x.general || ""}${x.void ? " 空" : ""}`));
  const centre = el("div", {class: "centre"}, el("div", {}, "四課"), grid, el("div", {class: "transmissions"}, rows));
  $("liuren").replaceChildren(...cells, centre);
  const noble = lr.noble ? `貴人 ${lr.noble.branch}${lr.noble.daytime ? "晝" : "夜"}${lr.noble.direction}` : "";
  $("liuren-facts").replaceChildren(`${lr.method} ${(lr.course || []).join("・")} · 月將 ${lr.month_general} · `
    + `旬空 ${(lr.void || []).join("")} · 驛馬 ${lr.horse || ""} · ${noble}`);
}

function renderQimen(qm) {
  $("qimen-head").replaceChildren(`${qm.dun}遁${qm.ju}局 ${qm.yuan} · 值符 ${qm.duty_star}→${qm.duty_star_palace}`
    + ` · 值使 ${qm.duty_gate}→${qm.duty_gate_palace} · 空 ${(qm.void || []).join("")} · 馬 ${qm.horse}`);
  $("qimen").replaceChildren(...LOSHU.map((n) => {
    const p = qm.palaces[n] || qm.palaces[String(n)] || {};
    const both = (a, b) => (a || "") + (b || "");
    return el("div", {class: "palace", "data-palace": String(n)},
              el("span", {class: "name"}, `${PALACE[n]}${n}`), el("span", {class: "deity"}, p.deity || ""), el("br"),
              `${both(p.star, p.star_hosted)} ${p.gate || ""}`, el("br"),
              p.heaven ? `天${both(p.heaven, p.heaven_hosted)} ` : "", `地${both(p.earth, p.earth_hosted)}`);
  }));
}

function renderNinestar(ns) {
  const plates = Object.entries(ns.plates || {}).map(([which, plate]) =>
    el("div", {}, el("div", {}, `${{year: "年", month: "月", day: "日"}[which] || which} ${ns[which] || ""}`),
       el("div", {class: "grid9"}, LOSHU.map((n) => el("div", {class: "palace"}, plate[n] || plate[String(n)] || "")))));
  $("ninestar").replaceChildren(el("div", {class: "stars"}, plates));
}

// ---- the reading: findings with polarity and citations, the passage on click, the graph

async function showPassage(src) {
  const box = $("passage");
  box.hidden = false;
  try {
    const found = await getJSON(`/passages/${encodeURI(src)}`);
    box.replaceChildren(el("b", {}, src), " ", found.text || "");
  } catch (err) {
    box.replaceChildren(el("b", {}, src), " ", err.message);
  }
}

function ruleName(f) {
  // a rule's or pattern's own name; a lore reading's name in the chosen language (a relation with its two slots)
  const lore = LORE[f.query];
  if (!lore) return (f.rule || {}).name || f.id;
  const path = f.path || [], slots = f.query === "relations" ? ` ${path[0].slot}–${path[path.length - 1].slot}` : "";
  return (lore[lang()] || lore.en) + slots;
}

function renderFindings(reading) {
  const items = (reading.findings || []).map((f) => {
    const meaning = (f.meaning || {})[lang()] || (f.meaning || {}).zh || "";
    const cites = (f.src || []).map((s) => el("a", {class: "cite", onclick: () => showPassage(s)}, s));
    return el("li", {"data-id": f.id}, el("span", {class: `pol pol-${f.polarity || "none"}`}, f.polarity || "·"),
              el("span", {class: "sys"}, SYSTEMS[f.system] || f.system), el("b", {}, ruleName(f)), " ",
              meaning, f.certainty === "needs_judgment" ? el("span", {class: "judgment"}, ` (${t("needs")})`) : null,
              cites);
  });
  $("findings").replaceChildren(...(items.length ? items : [el("li", {}, t("none"))]));
  document.body.dataset.findings = String((reading.findings || []).length);
}

function loadGraph(query) {
  return new Promise((resolve) => {
    const frame = $("graph");
    frame.addEventListener("load", resolve, {once: true});
    frame.src = `/views/reading?${query}`;
  });
}

async function cast(event) {
  if (event) event.preventDefault();
  delete document.body.dataset.ready;
  $("status").textContent = notice;  // what the address asked that the page cannot (shown once)
  notice = "";
  translate();
  const query = params().toString();
  history.replaceState(null, "", `?${query}&lang=${lang()}`);
  try {
    const [chart, reading] = await Promise.all([getJSON(`/charts?${query}`), getJSON(`/readings?${query}`)]);
    renderPillars(chart);
    if (chart.liuren) renderLiuren(chart.liuren);
    if (chart.qimen) renderQimen(chart.qimen);
    if (chart.ninestar) renderNinestar(chart.ninestar);
    renderFindings(reading);
    await loadGraph(query);
  } catch (err) {
    $("status").textContent = err.message;
  }
  document.body.dataset.ready = "1";
}

form.addEventListener("submit", cast);
form.elements.lang.addEventListener("change", () => topicList().then(() => cast()));
schoolOptions().then(() => {  // the query first: its lang names the topics offered
  const ok = fromQuery();
  return topicList().then(() => (ok ? cast() : (document.body.dataset.ready = "1")));
});
