import { t } from "./i18n.js";

// Reading the canonical notation of the legal steps the server sends (docs/records.md):
// TILE@CHAIR, JOK?@CHAIR=NATION, TILE@bar, TILE~CHAIR, down:TILE, pass, stop, draw, close.

export function parseStep(text) {
  if (text.startsWith("down:")) return { text, kind: "down", tile: text.slice(5) };
  const exchange = text.match(/^(\w{4})~(\w+)$/);
  if (exchange) return { text, kind: "exchange", tile: exchange[1], target: exchange[2] };
  const seat = text.match(/^(\w{4})@(\w+)(?:=(\w{3}))?$/);
  if (seat) {
    const kind = seat[2] === "bar" ? "bar" : "seat";
    return { text, kind, tile: seat[1], target: seat[2], nation: seat[3] ?? null };
  }
  return { text, kind: text }; // pass, stop, draw, close
}

// What a selected tile may do: its chairs (each with its steps, a joker's nations), the bar, face down.
export function movesOf(tile, legal, points) {
  const chairs = new Map();
  let bar = null;
  let down = null;
  for (const step of legal.map(parseStep)) {
    if (step.tile !== tile) continue;
    step.points = points[step.text] ?? 0;
    if (step.kind === "seat" || step.kind === "exchange") {
      if (!chairs.has(step.target)) chairs.set(step.target, []);
      chairs.get(step.target).push(step);
    } else if (step.kind === "bar") bar = step;
    else if (step.kind === "down") down = step;
  }
  return { chairs, bar, down };
}

// What a picked guest (or card) may do, in words: a lit chair or place, or why none is lit.
export function whereTo(moves, edition) {
  const board = edition === "board";
  if (moves?.chairs.size) {
    return board ? t("choose a lit chair (click, or Enter on the café).")
      : t("choose a lit place (click, or Enter on the café).");
  }
  if (!board) return t("no place can take this card now: pick another.");
  return moves?.bar ? t("no chair can take this guest now: send it to the bar, or pick another.")
    : t("no chair can take this guest now: pick another.");
}

// The tiles of a hand that have some legal step.
export function playableTiles(legal) {
  return new Set(legal.map(parseStep).filter((s) => s.tile).map((s) => s.tile));
}

// A tile in words, in the reader's language ("American gentleman"): the catalogue has every tile's.
export const tileWords = (tile, catalogue) => catalogue.tiles[tile] ?? tile;

// A step as the turn log shows it, in few words: "Chinese lady on i12", "ends the turn".
const SAID = { pass: () => t("passes"), stop: () => t("ends the turn"), draw: () => t("draws a card"),
  close: () => t("closes the game"), down: () => t("a card face down") };
export function stepWords(text, catalogue) {
  const step = parseStep(text);
  const guest = step.tile ? tileWords(step.tile, catalogue) : null;
  switch (step.kind) {
    case "seat":
      return step.nation
        ? t("{guest} on {chair} as {nation}", { guest, chair: step.target,
          nation: catalogue.nations[step.nation]?.name ?? step.nation })
        : t("{guest} on {chair}", { guest, chair: step.target });
    case "bar":
      return t("{guest} to the bar", { guest });
    case "exchange":
      return t("{guest} for the joker on {chair}", { guest, chair: step.target });
    case "down":
      return t("face down: {card}", { card: guest });
    default:
      return SAID[text]?.() ?? text;
  }
}

// A whole turn in words, its steps (in notation: "CHNf@i12,stop", or already split) said one after another;
// "—" for a turn of no steps
export function turnWords(steps, catalogue) {
  const list = typeof steps === "string" ? steps.split(",") : steps;
  return list.filter((s) => s && s !== "stop").map((s) => stepWords(s, catalogue)).join(", ") || "—";
}

// A step as a sentence, for those who hear the game ("Kim seats the Chinese lady on bar stool 3"); stool: the
// bar stool a bar step took.
export function stepSentence(name, text, catalogue, stool) {
  const step = parseStep(text);
  const guest = step.tile ? catalogue.objects?.[step.tile] ?? tileWords(step.tile, catalogue) : null;
  const nation = step.nation ? catalogue.nations[step.nation]?.name ?? step.nation : null;
  switch (step.kind) {
    case "seat":
      return nation ? t("{name} seats {guest} on {chair} as {nation}", { name, guest, chair: step.target, nation })
        : t("{name} seats {guest} on {chair}", { name, guest, chair: step.target });
    case "bar":
      return t("{name} seats {guest} on bar stool {n}", { name, guest, n: stool });
    case "exchange":
      return t("{name} exchanges {guest} for the joker on {chair}", { name, guest, chair: step.target });
    case "down":
      return step.tile ? t("{name} lays {guest} face down", { name, guest }) : t("{name} lays a card face down", { name });
    case "pass":
      return t("{name} passes", { name });
    case "stop":
      return t("{name} ends the turn", { name });
    case "draw":
      return t("{name} draws a card", { name });
    case "close":
      return t("{name} closes the game", { name });
    default:
      return `${name}: ${text}`;
  }
}
