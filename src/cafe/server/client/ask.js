// A question the person answers before something that cannot be undone (leaving a seat, a bar stool that puts
// them out of the game): a modal <dialog>, so the focus stays in it, Escape says no, and a screen reader hears it
// as a dialog with its question.

import { h } from "./dom.js";

// Resolves true when the person says yes; the focus goes back where it was.
export function ask(question, yes, no) {
  const back = document.activeElement;
  return new Promise((resolve) => {
    const text = h("p", { id: "ask-text" }, question);
    const dialog = h("dialog", { class: "ask", "aria-labelledby": "ask-text" }, text,
      h("form", { method: "dialog", class: "buttons" },
        h("button", { value: "no", class: "quiet", autofocus: true }, no),
        h("button", { value: "yes", class: "go" }, yes)));
    dialog.addEventListener("close", () => {
      dialog.remove();
      back?.focus?.();
      resolve(dialog.returnValue === "yes");
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
