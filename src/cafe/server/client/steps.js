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

// The tiles of a hand that have some legal step.
export function playableTiles(legal) {
  return new Set(legal.map(parseStep).filter((s) => s.tile).map((s) => s.tile));
}

// A tile in words, in the reader's language ("American gentleman"): the catalogue has every tile's.
export const tileWords = (tile, catalogue) => catalogue.tiles[tile] ?? tile;
