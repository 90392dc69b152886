// The lobby: every room, a form to open one, and the leaderboard.

import { h } from "./dom.js";

const EDITIONS = { board: "board game", cards: "card game" };

export function lobbyView(rooms, presets, actions) {
  const list = [...rooms.values()].filter((room) => room.status === "waiting" || room.status === "playing");
  const edition = h("select", { name: "edition", "aria-label": "edition" },
    Object.entries(EDITIONS).map(([value, label]) => h("option", { value }, label)));
  const rules = h("select", { name: "rules", "aria-label": "rules" });
  const fillRules = () => rules.replaceChildren(...presets[edition.value].map((p) => h("option", { value: p }, p)));
  edition.addEventListener("change", fillRules);
  fillRules();
  const name = h("input", { name: "name", placeholder: "room name (optional)", maxlength: 40 });
  const match = h("select", { name: "match", "aria-label": "one game or a match" },
    h("option", { value: "" }, "one game"), h("option", { value: "5" }, "a match: best of five"));
  const create = h("form", {
    class: "create",
    onsubmit: (event) => {
      event.preventDefault();
      actions.create(edition.value, rules.value, name.value.trim(), match.value ? Number(match.value) : null);
    },
  }, h("h2", {}, "Open a table"), edition, rules, match, name, h("button", { type: "submit" }, "Create room"));

  const rows = list.map((room) =>
    h("li", { class: `room ${room.status}`, "data-room": room.id },
      h("div", { class: "room-name" }, room.name),
      h("div", { class: "room-facts" },
        `${EDITIONS[room.edition]} · ${typeof room.rules === "string" ? room.rules : "custom rules"} · `,
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
