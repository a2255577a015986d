// The month view of a 擇時 search: a calendar grid of one month on the page's time zone, each day that has hours
// with the verdict asked coloured by that verdict (the count of those hours in the cell), the others grey; a day
// opens its readings (the page's form cast on the first such hour of that day). It asks /find (topic, verdict,
// the month's hours: at most 744, the server's limit) and nothing else. <section id="month" data-ready="1"> when
// the grid is drawn.
"use strict";

import {$, el, getJSON} from "./dom.js";

const VERDICTS = ["吉", "凶", "混", "平", "未定"];
const WEEK = ["一", "二", "三", "四", "五", "六", "日"];  // Monday first
const STYLE = `#month form { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
#month-grid { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 2px; max-width: 440px; margin: 6px 0; }
#month-grid .head { text-align: center; color: #666; font-size: 12px; }
#month-grid .day { border: 1px solid #ccc; border-radius: 3px; padding: 4px 2px; color: #fff; cursor: pointer; font: inherit; }
#month-grid .day:disabled { background: #f2f2f2; color: #555; cursor: default; }
#month-grid .day small { display: block; font-size: 11px; }`;

/** The section: a form (month, topic, verdict) and the grid, put before the reading. */
function section() {
  const form = el("form", {id: "month-ask", autocomplete: "off"},
    el("label", {}, "擇時 ", el("input", {type: "month", name: "month", required: true})),
    el("label", {}, "topic ", el("input", {name: "topic", size: 8, list: "topics", required: true, value: "出行"})),
    el("label", {}, "verdict ", el("select", {name: "verdict"}, ...VERDICTS.map((v) => el("option", {value: v}, v)))),
    el("button", {type: "submit"}, "month"));
  form.elements.month.value = new Date().toISOString().slice(0, 7);
  form.addEventListener("submit", search);
  return el("details", {id: "month"}, el("summary", {}, "擇時 — month view"), form,
            el("p", {id: "month-status", role: "status"}), el("div", {id: "month-grid"}));
}

/** The month's first and last hour as the server reads them (local times on the page's time zone). */
function range(month) {
  const [year, number] = month.split("-").map(Number);
  const days = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return {year, number, days, start: `${month}-01T00:00:00`, end: `${month}-${String(days).padStart(2, "0")}T23:00:00`};
}

/** The hits of the search, grouped by their local date: date → [local moments]. */
function byDay(hits) {
  const out = new Map();
  for (const hit of hits) {
    const day = hit.moment.local.slice(0, 10);
    if (!out.has(day)) out.set(day, []);
    out.get(day).push(hit.moment.local);
  }
  return out;
}

/** A day's cell: coloured by the verdict when some of its hours have it; a click reads its first such hour. */
function cell(date, day, hours, verdict) {
  if (!hours) return el("button", {type: "button", class: "day", "data-date": date, disabled: true}, String(day));
  return el("button", {type: "button", class: `day v-${verdict}`, "data-date": date, "data-hours": hours.length,
                       title: `${date}: ${hours.length} h ${verdict}`, onclick: () => openDay(hours[0])},
            String(day), el("small", {}, `${hours.length}h`));
}

function draw(span, days, verdict) {
  const first = (new Date(Date.UTC(span.year, span.number - 1, 1)).getUTCDay() + 6) % 7;  // Monday = 0
  const cells = WEEK.map((w) => el("span", {class: "head"}, w));
  for (let k = 0; k < first; k += 1) cells.push(el("span", {class: "blank"}));
  for (let d = 1; d <= span.days; d += 1) {
    const date = `${span.year}-${String(span.number).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    cells.push(cell(date, d, days.get(date), verdict));
  }
  $("month-grid").replaceChildren(...cells);
}

/** The page's form cast on *local* (a day's first hour with the verdict): its readings, as the page shows them. */
function openDay(local) {
  const form = $("ask");
  form.elements.moment.value = local.slice(0, 16);
  form.requestSubmit();
}

async function search(event) {
  event.preventDefault();
  const form = event.target, box = $("month");
  delete box.dataset.ready;
  const span = range(form.elements.month.value), verdict = form.elements.verdict.value;
  const query = new URLSearchParams({topic: form.elements.topic.value, verdict, start: span.start, end: span.end,
                                     tz: $("ask").elements.tz.value || "UTC", limit: "10000"});
  $("month-status").textContent = "…";
  try {
    draw(span, byDay(await getJSON(`/find?${query}`)), verdict);
    $("month-status").textContent = "";
  } catch (err) {
    $("month-grid").replaceChildren();
    $("month-status").textContent = err.message;
  }
  box.dataset.ready = "1";
}

document.head.append(el("style", {}, STYLE));
$("main").before(section());
