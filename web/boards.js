// The boards of a chart: the pillars; the Liu Ren plate with the 將 over the 四課 and each of the 三傳 with its
// 將, 遁干 and 六親 (the kin findings of the reading, cited); the Qimen palaces; the three Nine Star plates with
// each palace's name and direction.
"use strict";

import {$, cites, el} from "./dom.js";
import {named, t} from "./i18n.js";

// earth branches of the Liu Ren ring, as [branch, row, column] of a 4×4 square
const RING = [["巳", 0, 0], ["午", 0, 1], ["未", 0, 2], ["申", 0, 3], ["酉", 1, 3], ["戌", 2, 3],
              ["亥", 3, 3], ["子", 3, 2], ["丑", 3, 1], ["寅", 3, 0], ["卯", 2, 0], ["辰", 1, 0]];
const LOSHU = [4, 9, 2, 3, 5, 7, 8, 1, 6];  // palaces in reading order of the 3×3 grid (south at the top)
const PALACE = {1: "坎", 2: "坤", 3: "震", 4: "巽", 5: "中", 6: "乾", 7: "兌", 8: "艮", 9: "離"};
// the direction of each palace (the Later Heaven arrangement, south at the top as the boards are drawn)
const DIRECTION = {1: {zh: "北", ko: "북", en: "N"}, 2: {zh: "西南", ko: "남서", en: "SW"},
                   3: {zh: "東", ko: "동", en: "E"}, 4: {zh: "東南", ko: "남동", en: "SE"},
                   5: {zh: "中", ko: "중앙", en: "C"}, 6: {zh: "西北", ko: "북서", en: "NW"},
                   7: {zh: "西", ko: "서", en: "W"}, 8: {zh: "東北", ko: "북동", en: "NE"}, 9: {zh: "南", ko: "남", en: "S"}};
const TRANSMISSIONS = ["初傳", "中傳", "末傳"];

export function renderPillars(chart) {
  const p = chart.pillars;
  $("pillars").replaceChildren(`${chart.moment.local}  ${t("pillars")} ${p.year} ${p.month} ${p.day} ${p.hour}  `
                               + `${t("term")} ${chart.solar_term.name}`);
}

/** slot (初傳 …) → the kin finding of the reading that names its 六親 ({names, src}). */
export function kinBySlot(reading) {
  const out = {};
  for (const f of (reading && reading.findings) || []) {
    if (f.query !== "kin") continue;
    for (const slot of Object.keys(f.bindings || {})) if (TRANSMISSIONS.includes(slot)) out[slot] = f;
  }
  return out;
}

function lessonsGrid(lr) {
  const lessons = lr.lessons.slice().reverse();  // read right to left: the fourth lesson first
  const generals = lr.generals || {};
  const row = (cls, values) => values.map((v) => el("span", {class: cls}, v || "·"));
  return el("div", {class: "lessons", "aria-label": t("lessons")},
            row("general", lessons.map((x) => generals[x.upper])), row("upper", lessons.map((x) => x.upper)),
            row("lower", lessons.map((x) => x.lower)));
}

function transmissionRows(lr, kin) {
  const details = lr.transmission_details || lr.transmissions.map((b) => ({branch: b}));
  return details.map((x, i) => {
    const found = kin[TRANSMISSIONS[i]];
    return el("div", {class: "transmission", "data-slot": TRANSMISSIONS[i]},
              el("span", {class: "kin", title: t("kin")}, found ? named(found.meaning) : ""),
              ` ${TRANSMISSIONS[i]} `, el("b", {}, x.branch), ` ${x.dun || ""} `,
              el("span", {class: "general"}, x.general || ""), x.void ? " 空" : "", found ? cites(found.src) : null);
  });
}

export function renderLiuren(lr, reading) {
  const course = new Set(lr.transmissions);
  const cells = RING.map(([earth, row, col]) => {
    const heaven = lr.plate[earth];
    return el("div", {class: "cell" + (course.has(heaven) ? " in-course" : ""), "data-earth": earth,
                      style: `grid-row:${row + 1};grid-column:${col + 1}`},
              el("b", {}, heaven), (lr.generals || {})[heaven] || "", el("br"), el("small", {}, earth));
  });
  const centre = el("div", {class: "centre"}, lessonsGrid(lr));
  $("liuren").replaceChildren(...cells, centre);
  $("liuren-course").replaceChildren(el("div", {class: "transmissions"}, transmissionRows(lr, kinBySlot(reading))));
  const noble = lr.noble ? `貴人 ${lr.noble.branch}${lr.noble.daytime ? "晝" : "夜"}${lr.noble.direction}` : "";
  $("liuren-facts").replaceChildren(`${lr.method} ${(lr.course || []).join("・")} · 月將 ${lr.month_general} · `
    + `旬空 ${(lr.void || []).join("")} · 驛馬 ${lr.horse || ""} · ${noble}`);
}

function palaceName(n) {
  return el("span", {class: "name"}, `${PALACE[n]}${n}`, el("small", {class: "dir"}, named(DIRECTION[n])));
}

export function renderQimen(qm) {
  $("qimen-head").replaceChildren(`${qm.dun}遁${qm.ju}局 ${qm.yuan} · 值符 ${qm.duty_star}→${qm.duty_star_palace}`
    + ` · 值使 ${qm.duty_gate}→${qm.duty_gate_palace} · 空 ${(qm.void || []).join("")} · 馬 ${qm.horse}`);
  $("qimen").replaceChildren(...LOSHU.map((n) => {
    const p = qm.palaces[n] || qm.palaces[String(n)] || {};
    const both = (a, b) => (a || "") + (b || "");
    return el("div", {class: "palace", "data-palace": String(n)},
              palaceName(n), el("span", {class: "deity"}, p.deity || ""), el("br"),
              `${both(p.star, p.star_hosted)} ${p.gate || ""}`, el("br"),
              p.heaven ? `天${both(p.heaven, p.heaven_hosted)} ` : "", `地${both(p.earth, p.earth_hosted)}`);
  }));
}

export function renderNinestar(ns) {
  const plates = Object.entries(ns.plates || {}).map(([which, plate]) =>
    el("div", {class: "plate9", "data-plate": which},
       el("div", {}, `${{year: "年", month: "月", day: "日"}[which] || which} ${ns[which] || ""}`),
       el("div", {class: "grid9"}, LOSHU.map((n) => el("div", {class: "palace", "data-palace": String(n)},
         el("b", {}, plate[n] || plate[String(n)] || ""), palaceName(n))))));
  $("ninestar").replaceChildren(el("div", {class: "stars"}, plates));
}
