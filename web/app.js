// The leishen web page: a moment → its chart (/charts) and reading (/readings): the verdict panel first, then the
// boards, then the findings; a finding's own path on click; the whole reading graph (/views/reading) when asked;
// the passages (/passages/{doc}:{line}) behind every citation. Plain JS modules, no library, no network but the
// API that served this page. When everything is drawn, <body data-ready="1">; while a cast is in flight,
// <body data-busy="1"> and the loading indicator shows.
"use strict";

import {$, citeOf, el, getJSON} from "./dom.js";
import {lang, named, setLang, t, translate} from "./i18n.js";
import {atDefault, buildOptions, labelOptions} from "./options.js";
import {renderLiuren, renderNinestar, renderPillars, renderQimen} from "./boards.js";
import {renderVerdicts} from "./verdict.js";
import {anchorsOf, renderFindings, ruleName} from "./findings.js";
import {showPath} from "./pathview.js";

const form = $("ask");
const state = {notice: "", query: "", chart: null, reading: null, topics: [], inflight: null};

// ---- the form: defaults, the query string, the parameters sent

function localNow() {
  const d = new Date(), p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function params() {
  // every field but the language; a school option at its default is left out (the server's default applies)
  const out = new URLSearchParams();
  for (const field of form.elements) {
    if (!field.name || field.name === "lang" || field.value === "" || atDefault(field)) continue;
    out.set(field.name, field.name === "moment" && field.value.length === 16 ? field.value + ":00" : field.value);
  }
  return out;
}

function fromQuery() {
  // the form from the query string; false (and the status says why) when its moment is not a date-time
  const q = new URLSearchParams(location.search);
  const asked = (q.get("moment") || "").trim(), now = !asked || asked.toLowerCase() === "now";
  form.elements.moment.value = (now ? localNow() : asked).slice(0, 16);
  form.elements.lang.value = ["zh", "ko", "en"].includes(q.get("lang")) ? q.get("lang") : form.elements.lang.value;
  setLang(form.elements.lang.value);
  if (!now && !form.elements.moment.value) {  // the input refuses what is not a date-time: never a reading of now
    $("status").textContent = `moment: '${asked}' is not a date-time such as 2026-12-01T10:00`;
    return false;
  }
  const unknown = [...q.keys()].filter((k) => !["moment", "tz", "lang"].includes(k) && !form.elements[k]);
  if (unknown.length) state.notice = `not read (no such option on this page): ${unknown.join(", ")}`;
  form.elements.tz.value = q.get("tz") || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  for (const [k, v] of q) if (!["moment", "tz", "lang"].includes(k) && form.elements[k]) form.elements[k].value = v;
  return true;
}

function nameTopics() {
  $("topics").replaceChildren(...state.topics.map((topic) => el("option", {value: topic.zh}, named(topic))));
}

// ---- drawing what was read (again on a language change, without asking the server)

function drawPath(finding, anchor) {
  const item = $(anchor);
  return showPath($("path"), item, finding, item.querySelector(".finding-path").textContent);
}

function render() {
  const {chart, reading} = state;
  translate();
  labelOptions($("school-options"));
  nameTopics();
  if (!chart || !reading) return;
  const anchors = anchorsOf(reading);
  renderVerdicts(reading, anchors);
  renderPillars(chart);
  if (chart.liuren) renderLiuren(chart.liuren, reading);
  if (chart.qimen) renderQimen(chart.qimen);
  if (chart.ninestar) renderNinestar(chart.ninestar);
  $("path").hidden = true;
  renderFindings(reading, anchors, drawPath);
}

// ---- the passage behind a citation, the whole reading graph when asked

async function showPassage(src) {
  const box = $("passage");
  $("passage-box").hidden = false;
  try {
    const found = await getJSON(`/passages/${encodeURI(src)}`);
    const korean = lang() === "ko" && found.ko  // the corpus's own translation, read by the server at run time
      ? [el("p", {class: "translation", lang: "ko"}, el("small", {}, `${t("translation")}: `), found.ko)] : [];
    box.replaceChildren(el("b", {}, src), " ", found.text || "", ...korean);
  } catch (err) {
    box.replaceChildren(el("b", {}, src), " ", err.message);
  }
}

function loadGraph() {
  // the reading graph as a tool, in the page's language (asked again when the language changes)
  const frame = $("graph"), asked = `${state.query}&lang=${lang()}`;
  if (!$("graph-view").open || frame.dataset.query === asked) return;
  frame.dataset.query = asked;
  frame.src = `/views/reading?${asked}`;
}

// ---- a cast: one in flight at a time (a new one stops the last), the indicator shown meanwhile

function busy(on) {
  $("busy").hidden = !on;
  $("main").setAttribute("aria-busy", on ? "true" : "false");
  if (on) document.body.dataset.busy = "1"; else delete document.body.dataset.busy;
}

async function cast(event) {
  if (event) event.preventDefault();
  if (state.inflight) state.inflight.abort();
  const flight = state.inflight = new AbortController();
  delete document.body.dataset.ready;
  $("status").textContent = state.notice;  // what the address asked that the page cannot (shown once)
  state.notice = "";
  busy(true);
  state.query = params().toString();
  history.replaceState(null, "", `?${state.query}&lang=${form.elements.lang.value}${location.hash}`);
  try {
    [state.chart, state.reading] = await Promise.all([getJSON(`/charts?${state.query}`, flight.signal),
                                                      getJSON(`/readings?${state.query}`, flight.signal)]);
    render();
    loadGraph();
  } catch (err) {
    if (flight.signal.aborted) return;  // a newer cast took over
    $("status").textContent = err.message;
  }
  busy(false);
  state.inflight = null;
  document.body.dataset.ready = "1";
}

function changeLanguage() {
  setLang(form.elements.lang.value);
  history.replaceState(null, "", `?${state.query}&lang=${form.elements.lang.value}${location.hash}`);
  render();
  loadGraph();
}

form.addEventListener("submit", cast);
form.addEventListener("invalid", (event) => {  // a field the browser refuses to send: the page says which and why
  $("status").textContent = `${event.target.name}: ${event.target.validationMessage}`;
}, true);
form.elements.lang.addEventListener("change", changeLanguage);
document.addEventListener("click", (event) => {  // a citation link (mouse, or Enter on the focused link)
  const link = event.target.closest("a.cite");
  if (link) showPassage(link.dataset.src);
});
window.addEventListener("hashchange", () => { const src = citeOf(location.hash); if (src) showPassage(src); });
$("passage-close").addEventListener("click", () => { $("passage-box").hidden = true; });
$("graph-view").addEventListener("toggle", loadGraph);

Promise.all([buildOptions($("school-options")), getJSON("/topics").catch(() => [])]).then(([, topics]) => {
  state.topics = topics;
  const ok = fromQuery();
  const cited = citeOf(location.hash);  // an address naming a passage (#src-000-3) shows it
  if (cited) showPassage(cited);  // after the options exist: the query may set them
  translate();
  labelOptions($("school-options"));
  nameTopics();
  if (ok) return cast();
  document.body.dataset.ready = "1";
  return null;
});
