// The school options panel, built from GET /views/options alone (the chart's options are the rows of
// engine/options.csv): each option labelled in the page's language, its default chosen (and marked), its help
// shown, a choice's doc and school as its title; numeric options (birth year, longitude, leap threshold) as
// number inputs.
// Only an option set away from its default goes into the query.
"use strict";

import {el, getJSON} from "./dom.js";
import {lang, named, t} from "./i18n.js";

let table = [];  // the options as /views/options gives them

function choiceInput(option) {
  const none = option.default === null || option.default === undefined;
  const select = el("select", {name: option.name, id: `opt-${option.name}`, "aria-describedby": `help-${option.name}`},
                    none ? el("option", {value: ""}, "—") : null,
                    option.choices.map((c) => el("option", {value: String(c.value),
                                                              title: [c.help, c.school].filter(Boolean).join(" — ") || null})));
  if (!none) select.value = String(option.default);
  return select;
}

function numberInput(option) {
  return el("input", {type: "number", name: option.name, id: `opt-${option.name}`, inputmode: "decimal",
                      min: option.min ?? null, max: option.max ?? null, step: option.kind === "int" ? "1" : "any",
                      placeholder: option.default ?? "—", "aria-describedby": `help-${option.name}`});
}

/** Build the panel into *box* (once); false when the server offers no options. */
export async function buildOptions(box) {
  table = await getJSON("/views/options").catch(() => []);
  box.replaceChildren(...table.map((option) => el("div", {class: "option", "data-option": option.name},
    el("label", {for: `opt-${option.name}`}),
    option.kind === "choice" ? choiceInput(option) : numberInput(option),
    el("small", {class: "help", id: `help-${option.name}`}))));
  labelOptions(box);
  return table.length > 0;
}

/** Name every option, choice and help text in the page's language; the default choice is marked. */
export function labelOptions(box) {
  for (const option of table) {
    const row = box.querySelector(`[data-option="${option.name}"]`);
    row.querySelector("label").textContent = named(option.names, option.name);
    row.querySelector(".help").textContent = named(option.help);
    for (const node of row.querySelectorAll("option[value]")) {
      const choice = option.choices.find((c) => String(c.value) === node.value);
      if (!choice) continue;
      const mark = String(option.default) === node.value ? ` (${t("default")})` : "";
      node.textContent = `${named(choice.names, node.value)}${mark}`;
    }
  }
  box.closest("details")?.setAttribute("lang", lang());
}

/** Whether *field* holds an option's default (so the query leaves it out). */
export function atDefault(field) {
  const option = table.find((o) => o.name === field.name);
  return option !== undefined && option.default !== null && String(option.default) === field.value;
}
