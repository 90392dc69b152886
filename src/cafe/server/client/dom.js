// Small helpers of the page: DOM nodes built without innerHTML (names and chat are other people's text
// and stay text), and points written as players write them.

import { t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "style") Object.assign(node.style, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function replace(parent, ...children) {
  parent.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

// Points as players write them: +3, 0, -2.
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : String(n)); // a true minus, as print has it

// What is played, in words: the preset and every option that differs from it ("printed rules + Surprise guests",
// "first edition (1989) + Scoring: single-nation tables score double").
export function rulesText(rules, catalogue, edition) {
  const preset = (name) => catalogue.presets[edition].find((p) => p.value === name);
  if (typeof rules === "string") return preset(rules)?.label ?? rules;
  const chosen = preset(rules.preset ?? "printed");
  const changed = catalogue.options[edition]
    .filter((o) => rules[o.key] !== undefined && JSON.stringify(rules[o.key]) !== JSON.stringify(chosen?.values?.[o.key]))
    .map((o) => (o.choices ? `${o.label}: ${choiceWords(o, rules[o.key])}` : rules[o.key] ? o.label : t("without {option}", { option: o.label })));
  return [chosen?.label ?? rules.preset, ...changed].join(" + ");
}

// A choice's short name ("never"); bar values are a list, named when they are a named bar's, else "custom".
const choiceWords = (option, value) => option.choices.find((c) => c.value === value
  || (Array.isArray(value) && String(c.values) === String(value)))?.label ?? t("custom");

// A part of the page that only screen readers hear: what just happened (a step, another's turn, a refusal).
export function announcer() {
  return h("div", { class: "announcer", "aria-live": "polite", role: "status" });
}

// Each text is a line of its own, so that several in a row are all read, a repeated one too; the last few stay.
export function announce(region, text) {
  region.append(h("p", {}, text));
  while (region.childElementCount > ANNOUNCED) region.firstElementChild.remove();
}

const ANNOUNCED = 8;

// A person's name in a finished game: a deleted account's seat has none, and says so.
export const shownName = (name) => name || t("deleted player");

// A refusal as a sentence: its first letter capital, a full stop at its end ("Der Stuhl h3 ist besetzt.").
export const sentence = (text) => {
  const whole = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…)]$/.test(whole) ? whole : `${whole}.`;
};
