// How to play, over whatever page is open: a modal <dialog>, so the lobby or the room (and the seat in it) stays
// as it was underneath, Escape or "Close" goes back to it, and the focus returns to the button that opened it.
// The sections and the examples' drawings come from the server in the reader's language (/howto/EDITION.json).

import { h } from "./dom.js";
import { language, t } from "./i18n.js";

const pages = new Map(); // edition -> the page as the server gave it

async function fetched(edition) {
  if (!pages.has(edition)) {
    const answer = await fetch(`/howto/${edition}.json?lang=${language()}`);
    if (!answer.ok) throw new Error(answer.statusText);
    pages.set(edition, await answer.json());
  }
  return pages.get(edition);
}

// The header's button: opens How to play at the edition of the room on screen (the board game in the lobby).
export function howToButton(editionNow) {
  return h("button", { type: "button", class: "howto-open", "aria-haspopup": "dialog",
    onclick: (event) => openHowTo(editionNow() ?? "board", event.currentTarget) }, t("How to play"));
}

export function openHowTo(edition, back = document.activeElement) {
  const body = h("div", { class: "howto-body" });
  const title = h("h2", { id: "howto-title", tabindex: -1 });
  const tabs = ["board", "cards"].map((which) => h("button", {
    type: "button", class: "quiet", "data-edition": which,
    onclick: () => show(which),
  }, which === "board" ? t("board game") : t("card game")));
  const close = h("button", { type: "button", class: "howto-close", onclick: () => dialog.close() }, t("Close"));
  const dialog = h("dialog", { class: "howto", "aria-labelledby": "howto-title" },
    h("div", { class: "howto-head" }, title, h("div", { class: "howto-tabs", role: "group",
      "aria-label": t("edition") }, tabs), close),
    body);
  dialog.addEventListener("close", () => {
    dialog.remove();
    back?.focus?.();
  });
  document.body.append(dialog);
  dialog.showModal();

  async function show(which) {
    for (const tab of tabs) tab.setAttribute("aria-pressed", String(tab.dataset.edition === which));
    body.replaceChildren(h("p", {}, t("loading…")));
    try {
      const page = await fetched(which);
      title.textContent = page.title;
      body.replaceChildren(contents(page), ...page.sections.map(section));
      body.scrollTop = 0;
      dialog.dataset.edition = which;
    } catch {
      body.replaceChildren(h("p", { class: "problem", role: "alert" }, t("How to play could not be loaded: try again.")));
    }
  }
  show(edition);
  return dialog;
}

// The sections' titles, each a link to its section: the page at a glance.
function contents(page) {
  return h("nav", { class: "howto-contents", "aria-label": t("Contents") },
    h("ol", {}, page.sections.map((s) => h("li", {}, h("a", { href: `#howto-${s.key}`,
      onclick: (event) => { // within the dialog: the page's own address (#room=...) is left as it is
        event.preventDefault();
        const target = document.getElementById(`howto-${s.key}`);
        target.scrollIntoView({ block: "start" });
        target.focus({ preventScroll: true });
      } }, s.title)))));
}

function section(s) {
  return h("section", { class: "howto-section", "aria-labelledby": `howto-${s.key}` },
    h("h3", { id: `howto-${s.key}`, tabindex: -1 }, s.title),
    s.paragraphs.map((p) => h("p", {}, p)),
    s.examples.map(example));
}

// An example: the engine's drawing of its position, named by its caption for a screen reader.
function example(e) {
  const id = `howto-example-${e.key}`;
  const picture = h("div", { class: "howto-picture" });
  picture.innerHTML = e.svg; // drawn by the server from the rules' own positions: no one's text is in it
  const svg = picture.querySelector("svg");
  svg?.setAttribute("role", "img");
  svg?.setAttribute("aria-labelledby", id);
  svg?.removeAttribute("height");
  return h("figure", { class: "howto-example", "data-example": e.key }, picture,
    h("figcaption", { id }, e.caption));
}
