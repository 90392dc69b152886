// The café as the server draws it (SVG with data-chair / data-place / data-stool attributes), made
// clickable: the chairs a selected guest may take light up with the points they would score.

import { signed } from "./dom.js";
import { parseStep } from "./steps.js";

const SVG = "http://www.w3.org/2000/svg";

export function drawBoard(holder, svgText, lit, onPick) {
  holder.innerHTML = svgText; // drawn by the server from public data only: no one's text is in it
  const svg = holder.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the café");
  for (const [target, points] of lit) {
    const box = svg.querySelector(`[data-chair="${target}"], [data-place="${target}"], [data-stool="${target}"]`);
    if (!box) continue;
    box.classList.add("lit");
    const label = document.createElementNS(SVG, "text");
    const x = Number(box.getAttribute("x") ?? box.getAttribute("cx")) + (box.tagName === "circle" ? 12 : 29);
    const y = Number(box.getAttribute("y") ?? box.getAttribute("cy")) + (box.tagName === "circle" ? -10 : 7);
    label.setAttribute("x", x);
    label.setAttribute("y", y);
    label.setAttribute("class", "points");
    label.textContent = signed(points); // what it scores at once
    svg.append(label);
  }
  svg.addEventListener("click", (event) => {
    const box = event.target.closest("[data-chair], [data-place], [data-stool]");
    if (!box) return;
    onPick(box.dataset.chair ?? box.dataset.place ?? `stool:${box.dataset.stool}`);
  });
}

// Outlines the chairs or places that these steps would use (a hint, a turn's best alternative) with a class.
export function markSteps(holder, steps, className) {
  for (const step of steps.map(parseStep)) {
    if (step.kind !== "seat" && step.kind !== "exchange") continue;
    holder.querySelector(`[data-chair="${step.target}"], [data-place="${step.target}"]`)?.classList.add(className);
  }
}
