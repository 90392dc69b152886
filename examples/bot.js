#!/usr/bin/env node
// A bot for Café International in JavaScript: an engine speaking the engine protocol (docs/engine.md) on
// standard input and output, with nothing to install but Node (18 or later).  `cafe bot` connects it to a café
// as a bot account and feeds it its own seat's view only:
//
//     CAFE_BOT_TOKEN=... cafe bot --server http://localhost:8000 --player "cmd:node examples/bot.js"
//
// It asks for the legal steps (`option name legal`), so that it needs no rules of its own: it seats a guest at a
// table when it can, and otherwise takes the first step it is offered.  Write your own choice in `choose`.

"use strict";

const readline = require("node:readline");

let view = null; // the position, as the player to move sees it (GameView.to_json())
let legal = []; // the steps the rules allow now, in the notation (RULES.md §7.1)

function choose() {
  const seating = legal.filter((step) => step.includes("@") && !step.endsWith("@bar"));
  return seating.length > 0 ? seating[0] : legal[0];
}

function answer(line) {
  const [command, ...rest] = line.trim().split(" ");
  switch (command) {
    case "cep":
      return ["id name example-js-bot", "option name legal type check default false", "cepok"];
    case "isready":
      return ["readyok"];
    case "setoption":
    case "newgame":
      return [];
    case "position":
      if (rest[0] !== "view") return ["error only 'position view JSON' is understood here"];
      view = JSON.parse(rest.slice(1).join(" "));
      return [];
    case "legal":
      legal = rest.filter((step) => step.length > 0);
      return [];
    case "go":
      if (view === null || legal.length === 0) return ["error no position and legal steps yet"];
      return [`info seat ${view.seat}`, `bestmove ${choose()}`];
    case "quit":
      process.exit(0);
      return [];
    default:
      return [`error unknown command '${command}'`];
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  let lines;
  try {
    lines = answer(line);
  } catch (error) {
    lines = [`error ${error.message}`];
  }
  for (const out of lines) process.stdout.write(out + "\n");
});
