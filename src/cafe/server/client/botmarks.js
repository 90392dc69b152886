// A bot account's name is marked as such wherever a seat's name is shown ("Robo (bot)"): a program plays it
// (docs/protocol.md, "Bots").
import { t } from "./i18n.js";

export function seatName(seat) {
  if (!seat) return "?";
  return seat.bot_account ? t("{name} (bot)", { name: seat.name }) : seat.name;
}
