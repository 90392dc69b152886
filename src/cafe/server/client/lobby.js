// The lobby: every room, a form to open one, and the leaderboard.

import { h, rulesText } from "./dom.js";

const EDITIONS = { board: "board game", cards: "card game" };

export function lobbyView(rooms, catalogue, actions) {
  const presets = catalogue.presets;
  const list = [...rooms.values()].filter((room) => room.status === "waiting" || room.status === "playing");
  const edition = h("select", { name: "edition", "aria-label": "edition" },
    Object.entries(EDITIONS).map(([value, label]) => h("option", { value }, label)));
  const rules = h("select", { name: "rules", "aria-label": "rules" });
  const more = h("div", { class: "options" });
  const fillRules = () => {
    rules.replaceChildren(...presets[edition.value].map((p) => h("option", { value: p }, p)));
    more.replaceChildren(...catalogue.options[edition.value].map(optionControl));
  };
  edition.addEventListener("change", fillRules);
  fillRules();
  const chosen = () => { // the preset, and every option set otherwise than its default
    const out = { preset: rules.value };
    for (const o of catalogue.options[edition.value]) {
      const control = more.querySelector(`[name="${o.key}"]`);
      const value = o.choices ? control.value : control.checked;
      if (value !== o.default) out[o.key] = value;
    }
    return Object.keys(out).length > 1 ? out : rules.value;
  };
  const name = h("input", { name: "name", placeholder: "room name (optional)", maxlength: 40 });
  const match = h("select", { name: "match", "aria-label": "one game or a match" },
    h("option", { value: "" }, "one game"), h("option", { value: "5" }, "a match: best of five"));
  const create = h("form", {
    class: "create",
    onsubmit: (event) => {
      event.preventDefault();
      actions.create(edition.value, chosen(), name.value.trim(), match.value ? Number(match.value) : null);
    },
  }, h("h2", {}, "Open a table"), edition, rules,
  h("details", { class: "more" }, h("summary", {}, "More options"), more),
  match, name, h("p", { class: "problem", role: "alert", id: "create-problem" }),
  h("button", { type: "submit" }, "Create room"));

  const rows = list.map((room) =>
    h("li", { class: `room ${room.status}`, "data-room": room.id },
      h("div", { class: "room-name" }, room.name),
      h("div", { class: "room-facts" },
        `${EDITIONS[room.edition]} · ${rulesText(room.rules, catalogue.options[room.edition])} · `,
        `${room.seats.length}/${room.max_players} seats · ${room.status}`,
        room.match ? ` · match, game ${room.match.game} of ${room.match.best_of} at most` : ""),
      h("div", { class: "room-seats" }, room.seats.map((s) => s.name).join(", ") || "no one yet"),
      h("button", { onclick: () => actions.enter(room.id) }, room.status === "waiting" ? "Enter" : "Watch")));
  const board = h("section", { class: "leaderboard" }, h("h2", {}, "Leaderboard"), h("p", {}, "loading…"));
  actions.leaderboard().then((players) => {
    const table = players.length
      ? h("table", {},
          h("tr", {}, h("th", {}, "player"), h("th", {}, "rating"), h("th", {}, "games")),
          players.map((p) => h("tr", {}, h("td", {}, h("a", { href: `#player=${p.player}` }, p.name)),
            h("td", {}, p.rating.toFixed(1)), h("td", {}, p.games))))
      : h("p", {}, "No rated games yet: games between two or more people are rated.");
    board.replaceChildren(h("h2", {}, "Leaderboard"), table);
  });
  return h("div", { class: "lobby" },
    h("section", { class: "rooms" }, h("h2", {}, "Rooms"),
      rows.length ? h("ul", {}, rows) : h("p", {}, "No rooms yet: open a table.")),
    h("aside", {}, create, board));
}

export function nameView(onName, problem) {
  const input = h("input", { name: "player", placeholder: "your name", maxlength: 24, required: true, autofocus: true });
  return h("form", {
    class: "welcome",
    onsubmit: (event) => {
      event.preventDefault();
      if (input.value.trim()) onName(input.value.trim());
    },
  }, h("h2", {}, "Welcome to the café"), problem ? h("p", { class: "problem" }, problem) : null,
  h("label", {}, "Your name ", input), h("button", { type: "submit" }, "Enter the café"));
}

// One option of the rules: a switch, or a choice of values, each with its line of help.
function optionControl(option) {
  if (!option.choices) {
    return h("label", { class: "option" }, h("input", { type: "checkbox", name: option.key }), ` ${option.label}`,
      h("small", {}, option.help));
  }
  const select = h("select", { name: option.key, "aria-label": option.label },
    option.choices.map((c) => h("option", { value: c.value }, `${c.value}: ${c.help}`)));
  return h("label", { class: "option" }, `${option.label} `, select);
}
