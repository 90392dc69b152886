// How the page tells you that something waits for you: a short sound when it becomes your turn or a game of
// yours ends, and the count of your games waiting in the tab's title and a badge; each is off unless you turn it
// on. Both are kept in this browser (localStorage) and set in the account page's settings.
// The sound is made here, with the Web Audio API: a short tone, no file to fetch.

import { h } from "./dom.js";
import { signal, yourTurn } from "./days.js";
import { t } from "./i18n.js";

const SOUND = "cafe-sound"; // "on": a tone when it becomes your turn or a game of yours ends
const COUNT = "cafe-count"; // "on": the count of your waiting games in the title and badge

export const soundOn = () => localStorage.getItem(SOUND) === "on";
export const countOn = () => localStorage.getItem(COUNT) === "on";

let audio = null; // one AudioContext for the page, made when the first tone is played

// A short, soft two-note chime (about a third of a second).
export function chime() {
  audio ??= new AudioContext();
  if (audio.state === "suspended") audio.resume().catch(() => {}); // a browser that waits for a click: silent
  const now = audio.currentTime;
  for (const [offset, pitch] of [[0, 660], [0.14, 880]]) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = pitch;
    volume.gain.setValueAtTime(0.0001, now + offset);
    volume.gain.exponentialRampToValueAtTime(0.2, now + offset + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.18);
    tone.connect(volume).connect(audio.destination);
    tone.start(now + offset);
    tone.stop(now + offset + 0.2);
  }
}

const over = (state) => state.status === "finished" || Boolean(state.view?.over);

// A room's new state, after the one the page had (none: just arrived, which is no news): a tone if it became your
// turn, or a game of yours ended.
export function heard(before, state) {
  if (!before || state.you === null || !soundOn()) return;
  if ((yourTurn(state) && !yourTurn(before)) || (over(state) && !over(before) && before.status === "playing")) chime();
}

// The title and the badge, if the person wants them (off: nothing counted, and what was shown goes).
export function count(games, shown) {
  signal(countOn() ? games : [], shown);
}

// The settings of this browser, for the account page.
export function settingsPanel(recount) {
  const box = (key, on, label, changed) => h("label", { class: "setting" },
    h("input", { type: "checkbox", name: key, checked: on, onchange: (event) => {
      localStorage.setItem(key, event.target.checked ? "on" : "off");
      changed(event.target.checked);
    } }), h("span", {}, label));
  return h("section", { class: "account-form settings", "aria-labelledby": "settings-title" },
    h("h3", { id: "settings-title" }, t("Settings of this browser")),
    box(SOUND, soundOn(), t("Play a sound when it is your turn or a game of yours ends"),
      (on) => on && chime()), // heard at once: the person knows what to listen for
    box(COUNT, countOn(), t("Count the games waiting for you in the tab's title and a badge"), recount));
}
