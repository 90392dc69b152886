// A tournament's settings: the form a director opens one with, and the same settings in words on its page
// (docs/tournaments.md, "In the café"; the request is docs/protocol.md's POST /tournaments/open).

import { h, rulesText } from "./dom.js";
import { language, t, tn } from "./i18n.js";
import { CLOCKS, clockText } from "./days.js";
import { editionName } from "./lobby.js";

const FORMATS = {
  swiss: () => t("Swiss system: each round seats players of like standing together"),
  round_robin: () => t("Round robin: every pair of players meets once"),
  league: () => t("League: every pair of players meets once, in a best-of-five match"),
};
const COMPARE = {
  score: () => t("Match points compare each seat's final score with the same seat's at the other tables"),
  margin: () => t("Match points compare each seat's lead over its best table-mate with the same seat's at the other tables"),
};
const LATE = {
  bot: () => t("A computer player plays on in their seat; their game counts as a forfeit."),
  end: () => t("The others may end the game; it counts as not played, and as a forfeit for the late player."),
};
const MOST_PAUSE = 7 * 24 * 60; // minutes between rounds at most, as the server takes them

const clockWords = (hours) => (hours ? clockText(hours) : t("live: a few minutes a turn"));
const when = (iso) => new Intl.DateTimeFormat(language(), { dateStyle: "full", timeStyle: "short" })
  .format(new Date(iso));
const field = (text, control) => h("label", {}, h("span", {}, text), control);

// A choice of whole sentences, each wholly shown (a select would cut them on a phone): the first one chosen.
function choices(name, sentences, legend) {
  const group = h("fieldset", { class: "choices" }, h("legend", {}, legend),
    Object.entries(sentences).map(([value, words], i) => h("label", { class: "option" },
      h("input", { type: "radio", name, value, checked: i === 0 }), h("span", {}, words()))));
  group.value = () => group.querySelector("input:checked").value;
  return group;
}

// The form; `open(settings)` sends them and says what went wrong (it throws with the server's sentence).
export function openForm(catalogue, open, problem) {
  const name = h("input", { name: "name", required: true, maxlength: 60 });
  const edition = h("select", { name: "edition" },
    ["board", "cards"].map((value) => h("option", { value }, editionName(value))));
  const rules = h("select", { name: "rules" });
  const fillRules = () => rules.replaceChildren(...catalogue.presets[edition.value]
    .map((p) => h("option", { value: p.value }, p.label)));
  edition.addEventListener("change", fillRules);
  fillRules();
  const format = choices("format", FORMATS, t("Format"));
  const size = h("select", { name: "table_size" }, [2, 3, 4].map((n) => h("option", { value: n, selected: n === 4 }, n)));
  const rounds = h("input", { name: "rounds", type: "number", min: 1, max: 30, value: 3, required: true });
  const roundsField = field(t("Rounds"), rounds);
  format.addEventListener("change", () => {
    roundsField.hidden = format.value() !== "swiss"; // a round robin's rounds follow from its entries
    rounds.disabled = roundsField.hidden;
  });
  const clock = h("select", { name: "clock" }, CLOCKS.map((hours) => h("option", { value: hours }, clockWords(hours))));
  const late = choices("late", LATE, t("When a player's time is up"));
  late.hidden = true; // a live game's clock is the café's own: a computer player plays on
  clock.addEventListener("change", () => (late.hidden = clock.value === "0"));
  const duplicate = h("input", { type: "checkbox", name: "duplicate", checked: true });
  const compare = choices("compare", COMPARE, t("What match points compare"));
  const start = h("input", { name: "start", type: "datetime-local" });
  const pause = h("input", { name: "pause", type: "number", min: 0, max: MOST_PAUSE, inputmode: "numeric" });
  const form = h("form", { class: "open-tournament", onsubmit: async (event) => {
    event.preventDefault();
    const asked = { name: name.value, edition: edition.value, rules: rules.value, format: format.value(),
      table_size: Number(size.value), clock: Number(clock.value), duplicate: duplicate.checked, compare: compare.value() };
    if (clock.value !== "0") asked.late = late.value();
    if (format.value() === "swiss") asked.rounds = Number(rounds.value);
    if (start.value) asked.start = new Date(start.value).toISOString(); // the reader's local time, sent as UTC
    if (pause.value !== "") asked.pause = Number(pause.value);
    try {
      await open(asked);
    } catch (error) {
      problem.textContent = error.message;
    }
  } }, h("h2", {}, t("Open a tournament")),
  field(t("Name"), name), field(t("Edition"), edition), field(t("Rules"), rules), format,
  field(t("Players at a table"), size), roundsField, field(t("Time for each turn"), clock), late,
  h("label", { class: "option" }, duplicate, h("span", {}, t("Every table of a round plays the same deal."))),
  compare,
  field(t("The first round starts by itself at (your local time; empty: you start it)"), start),
  field(t("Each next round starts by itself this many minutes after the last one ends (empty: you start it)"), pause),
  problem, h("button", { type: "submit" }, t("Open the tournament")));
  return form;
}

// The tournament's settings as sentences and the rulebooks' words, never the wire's codes.
export function settingsView(cup, catalogue) {
  const rows = [
    [t("Edition"), editionName(cup.edition)],
    [t("Rules"), rulesText(cup.rules, catalogue, cup.edition)],
    [t("Format"), FORMATS[cup.format]()],
    [t("Rounds"), cup.rounds ? String(cup.rounds) : t("as many as the entries need")],
    [t("Players at a table"), String(cup.table_size)],
    [t("Time for each turn"), clockWords(cup.clock)],
    ...(cup.clock ? [[t("When a player's time is up"), LATE[cup.late ?? "bot"]()]] : []),
    [t("Deals"), cup.duplicate ? t("Every table of a round plays the same deal.")
      : t("Every table plays a deal of its own.")],
    [t("What match points compare"), COMPARE[cup.compare]()],
  ];
  const paused = cup.pause !== null && cup.pause !== undefined;
  if (!cup.final && (cup.next_start || !paused || !cup.played.length)) { // when the next round starts, if known
    rows.push([t("Next round"), cup.next_start
      ? t("Round {round} starts by itself on {time}.", { round: cup.played.length + 1, time: when(cup.next_start) })
      : t("The director starts the next round.")]);
  }
  if (paused) {
    rows.push([t("Between rounds"), tn("Each next round starts by itself {n} minute after the last one ends.",
      "Each next round starts by itself {n} minutes after the last one ends.", cup.pause)]);
  }
  return h("section", { class: "cup-settings" }, h("h2", {}, t("How it is played")),
    h("dl", {}, rows.flatMap(([term, words]) => [h("dt", {}, term), h("dd", {}, words)])));
}
