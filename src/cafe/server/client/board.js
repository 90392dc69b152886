// The café as the server draws it (SVG with data-chair / data-place / data-stool attributes), made playable by
// mouse and keyboard: the chairs a selected guest may take light up with the points they would score; every chair,
// place and stool is a button with a name a screen reader says ("h3, USA1, free, 4 points"); one of them is in the
// page's tab order at a time, and the arrow keys move between them.

import { h, signed } from "./dom.js";
import { t, tn } from "./i18n.js";
import { parseStep, tileWords } from "./steps.js";

const SVG = "http://www.w3.org/2000/svg";
const TARGETS = "[data-chair], [data-place], [data-stool]";
const targetOf = (box) => box.dataset.chair ?? box.dataset.place ?? `stool:${box.dataset.stool}`;

// Draws the café into holder. lit: target -> points; onPick(target) when a target is clicked or pressed;
// view and catalogue give the targets' names. The target that had the focus keeps it.
export function drawBoard(holder, svgText, lit, onPick, view, catalogue) {
  const focused = holder.contains(document.activeElement) ? targetOf(document.activeElement) : null;
  const fresh = !holder.querySelector("svg");
  holder.innerHTML = svgText; // drawn by the server from public data only: no one's text is in it
  const svg = holder.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("the café"));
  // its width in its own units: a phone shows it at 1.12 px a unit, to be panned (style.css)
  svg.style.setProperty("--units", svg.viewBox.baseVal.width);
  if (fresh) { // a café larger than its frame is first seen from its middle
    holder.scrollLeft = (holder.scrollWidth - holder.clientWidth) / 2;
    holder.scrollTop = (holder.scrollHeight - holder.clientHeight) / 2;
  }
  for (const [target, points] of lit) {
    const box = find(svg, target);
    if (!box) continue;
    box.classList.add("lit");
    const label = document.createElementNS(SVG, "text");
    const [cx, cy] = centre(box);
    const half = box.tagName === "circle" ? Number(box.getAttribute("r")) : Number(box.getAttribute("width")) / 2;
    const x = cx + half * 0.6; // the top right corner, clear of the guest who would sit there
    const y = cy - half * 0.45;
    label.setAttribute("x", x);
    label.setAttribute("y", y);
    label.setAttribute("class", "points");
    label.setAttribute("aria-hidden", "true");
    label.textContent = signed(points); // what it scores at once
    svg.append(label);
  }
  svg.querySelector(`[data-stool="${(view.bar?.length ?? 0) + 1}"]`)?.classList.add("next-stool");
  nameEverything(svg, lit, view, catalogue);
  const boxes = [...svg.querySelectorAll(TARGETS)];
  // in the tab order: the target that had the focus, else the first lit chair or place (never a stool first)
  const first = find(svg, focused) ?? boxes.find((b) => b.classList.contains("lit") && !b.dataset.stool) ?? boxes[0];
  for (const box of boxes) box.setAttribute("tabindex", box === first ? "0" : "-1");
  if (focused && first) first.focus();
  svg.addEventListener("click", (event) => {
    const box = event.target.closest(TARGETS);
    if (box) onPick(targetOf(box));
  });
  svg.addEventListener("keydown", (event) => {
    const box = event.target.closest?.(TARGETS);
    if (!box) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onPick(targetOf(box));
      return;
    }
    const next = neighbour(boxes, box, event.key);
    if (next) {
      event.preventDefault();
      box.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
    }
  });
}

// A chair or place by its name, a stool by "stool:N" (or by its number alone, as lit stools are given).
function find(svg, target) {
  if (!target) return null;
  if (target.startsWith("stool:")) return svg.querySelector(`[data-stool="${target.slice(6)}"]`);
  return svg.querySelector(`[data-chair="${target}"], [data-place="${target}"], [data-stool="${target}"]`);
}

function centre(box) {
  const x = Number(box.getAttribute("x") ?? box.getAttribute("cx"));
  const y = Number(box.getAttribute("y") ?? box.getAttribute("cy"));
  if (box.tagName === "circle") return [x, y];
  return [x + Number(box.getAttribute("width")) / 2, y + Number(box.getAttribute("height")) / 2];
}

const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// The nearest target in the arrow's direction (straight ahead counts more than aside).
function neighbour(boxes, from, key) {
  const direction = DIRECTIONS[key];
  if (!direction) return null;
  const [fx, fy] = centre(from);
  let best = null;
  let bestCost = Infinity;
  for (const box of boxes) {
    if (box === from) continue;
    const [x, y] = centre(box);
    const ahead = (x - fx) * direction[0] + (y - fy) * direction[1];
    if (ahead <= 1) continue;
    const aside = Math.abs((x - fx) * direction[1] + (y - fy) * direction[0]);
    const cost = ahead + 2 * aside;
    if (cost < bestCost) [best, bestCost] = [box, cost];
  }
  return best;
}

// Names for screen readers: chairs and places as buttons, the guests, tables and stools as what they are.
function nameEverything(svg, lit, view, catalogue) {
  const nation = (code) => catalogue.nations[code]?.name ?? code;
  const sitting = new Map((view.guests ?? view.clients ?? []).map((g) => [g.chair ?? g.place, g]));
  const closed = new Set(view.closed_chairs ?? []);
  const slots = new Map((view.tables ?? []).map((table) => [table.slot, table.nation])); // the card game's
  for (const box of svg.querySelectorAll("[data-chair], [data-place]")) {
    const id = box.dataset.chair ?? box.dataset.place;
    const guest = sitting.get(id);
    const what = guest ? guestWords(guest, catalogue) : closed.has(id) ? t("closed") : t("free");
    const tables = box.dataset.tables.split(" ").map((s) => (slots.has(s) ? `${s} ${nation(slots.get(s))}` : s))
      .join(", ");
    const parts = [id, tables, what];
    if (lit.has(id)) parts.push(tn("{n} point", "{n} points", lit.get(id)));
    label(box, parts.join(", "), "button");
  }
  for (const box of svg.querySelectorAll("[data-stool]")) {
    const n = Number(box.dataset.stool);
    const parts = [t("bar stool {n}", { n }), signed(view.bar_values?.[n - 1] ?? 0)];
    const taken = view.bar?.[n - 1];
    parts.push(taken ? tileWords(taken, catalogue) : t("free"));
    if (lit.has(String(n))) parts.push(tn("{n} point", "{n} points", lit.get(String(n))));
    label(box, parts.join(", "), "button");
  }
  for (const box of svg.querySelectorAll("[data-table]")) {
    label(box, `${t("table")} ${box.dataset.table}, ${nation(box.dataset.nation)}`, "img");
  }
  for (const box of svg.querySelectorAll("[data-guest]")) {
    const guest = sitting.get(box.dataset.at);
    label(box, guest ? guestWords(guest, catalogue) : tileWords(box.dataset.guest, catalogue), "img");
  }
  for (const text of svg.querySelectorAll("text:not([aria-hidden])")) text.setAttribute("aria-hidden", "true");
}

function guestWords(guest, catalogue) {
  const words = tileWords(guest.tile ?? guest.card, catalogue);
  const given = guest.tile?.startsWith("JOK") ? guest.nation : null;
  return given ? `${words} (${catalogue.nations[given]?.name ?? given})` : words;
}

function label(box, text, role) {
  box.setAttribute("role", role);
  box.setAttribute("aria-label", text);
}

// Outlines the chairs or places (and the bar's next stool) that these steps would use (a hint, a turn's best
// alternative) with a class; from a number on (first), each with its place in the order too.
export function markSteps(holder, steps, className, first = 0) {
  steps.map(parseStep).forEach((step, k) => {
    const box = step.kind === "bar" ? holder.querySelector(".next-stool")
      : step.kind === "seat" || step.kind === "exchange"
        ? holder.querySelector(`[data-chair="${step.target}"], [data-place="${step.target}"]`) : null;
    if (!box) return;
    box.classList.add(className);
    if (!first) return;
    const [x, y] = centre(box);
    const label = document.createElementNS(SVG, "text");
    Object.entries({ x: x - 18, y: y - 20, class: `order ${className}`, "aria-hidden": "true" })
      .forEach(([key, value]) => label.setAttribute(key, value));
    label.textContent = String(first + k);
    box.after(label);
  });
}

// A guest (or card) of the hand as a button in its nation's colour, named as it is seen and then in words; k is its
// place in the hand (alike tiles are interchangeable, the place tells them apart).
export function tileButton(tile, k, catalogue, { selected = false, hinted = false, disabled = false, onclick }) {
  const nation = catalogue.nations[tile.slice(0, 3)];
  return h("button", {
    class: `tile${selected ? " selected" : ""}${nation?.light ? " light" : ""}${hinted ? " hinted" : ""}`,
    style: { background: nation?.colour ?? "#777" },
    "data-tile": tile,
    "data-index": k,
    title: tileWords(tile, catalogue),
    "aria-label": `${tile.slice(0, 3)}, ${tileWords(tile, catalogue)}`, // what is seen, then in words
    "aria-pressed": selected ? "true" : "false",
    disabled,
    onclick,
  }, tile.slice(0, 3), h("span", {}, tile.endsWith("f") ? "♀" : "♂"));
}

// The nations a joker may take on its chair, each a button in its colour with the points it scores there; ``pick``
// gets the chosen step's text.  ``extra``: more buttons after them (a room's "Cancel").
export function nationChooser(chooser, catalogue, pick, ...extra) {
  const nations = catalogue.nations;
  return h("div", { class: "chooser", role: "group", "aria-label": t("the joker's nation") },
    h("p", {}, t("The joker on {chair} is of which nation?", { chair: chooser.chair })),
    chooser.steps.map((s) => h("button", {
      class: `nation${nations[s.nation]?.light ? " light" : ""}`, style: { background: nations[s.nation]?.colour },
      "data-nation": s.nation, onclick: () => pick(s.text),
    }, `${nations[s.nation]?.name ?? s.nation} (${signed(s.points)})`)), ...extra);
}
