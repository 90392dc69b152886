// Small drawings of the page: the replay's button icons (drawn: a font's ⏮ ⏭ are empty boxes where the system
// lacks them), and tiles shown as the hand shows them, to be looked at rather than played.

import { h } from "./dom.js";
import { tileWords } from "./steps.js";

const SVG = "http://www.w3.org/2000/svg";
// paths on a 24 x 24 field
const ICONS = {
  start: ["M5 5h3v14H5z", "M20 5v14L10 12z"],
  turnBack: ["M12 5v14L3 12z", "M21 5v14l-9-7z"],
  back: ["M19 5v14L9 12z"],
  forward: ["M5 5v14l10-7z"],
  turnForward: ["M3 5v14l9-7z", "M12 5v14l9-7z"],
  end: ["M4 5v14l10-7z", "M16 5h3v14h-3z"],
};

export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of ICONS[name]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

// Tiles in their nations' colours with code and gender, each named for screen readers ("Cuban lady")
export function tileChips(tiles, catalogue) {
  return h("div", { class: "tiles", role: "list" }, tiles.map((tile) => {
    const nation = catalogue.nations[tile.slice(0, 3)];
    return h("span", {
      class: `tile shown${nation?.light ? " light" : ""}`, role: "listitem", style: { background: nation?.colour },
      "data-tile": tile, // a joker's grey (style.css)
      "aria-label": tileWords(tile, catalogue), title: tileWords(tile, catalogue),
    }, tile.slice(0, 3), h("span", { "aria-hidden": "true" }, tile.endsWith("f") ? "♀" : "♂"));
  }));
}
