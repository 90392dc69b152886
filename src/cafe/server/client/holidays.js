// Holidays (docs/protocol.md, "Holidays"): on the account page a person with an account begins one for some days,
// or ends it early; at a table of a game over days the others read "on holiday until DATE", in their language's
// way of writing dates.

import { h, sentence } from "./dom.js";
import { language, t, tn } from "./i18n.js";

let panel = null; // the account page's holiday panel while it is shown: { status, problem, form }

// A moment the server gave (seconds since the epoch) as the reader writes a date and time.
export const when = (seconds) => new Intl.DateTimeFormat(language(), { dateStyle: "long", timeStyle: "short" })
  .format(new Date(seconds * 1000));

// The lines of a room's seats whose people are on holiday.
export function holidayNotes(state) {
  return (state.holiday ?? []).map((until, seat) => (until === null ? null
    : h("p", { class: "on-holiday" }, t("{name} is on holiday until {date}",
      { name: state.seats[seat]?.name ?? "", date: when(until) }))));
}

// The account page's panel: how many days are left this year, and the holiday going on or a form to begin one.
export function holidayPanel(send) {
  const status = h("p", { class: "holiday-status", "aria-live": "polite" });
  const problem = h("p", { class: "problem", role: "alert", id: "holiday-problem" });
  const days = h("input", { name: "days", type: "number", min: 1, value: 7, required: true,
    "aria-describedby": "holiday-problem" });
  const begin = h("button", { type: "submit" }, t("Go on holiday"));
  const end = h("button", { type: "button", hidden: true, onclick: () => { problem.textContent = ""; send({ end: true }); } },
    t("End the holiday now"));
  const form = h("form", { class: "account-form holidays", "aria-labelledby": "holiday-title", novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      problem.textContent = "";
      send({ days: Number(days.value) });
    } },
  h("h3", { id: "holiday-title" }, t("Holiday")),
  h("p", {}, t("On holiday, the clocks of your games over days stand still: each turn of yours keeps the time it "
    + "had left. Live games go on as usual.")),
  status, h("label", { class: "holiday-days" }, h("span", {}, t("Days")), days), problem, begin, end);
  panel = { status, problem, form, days, begin, end };
  send({});
  return form;
}

// The server's answer to a holiday message: the panel says how things stand.
export function holidayHeard(message) {
  if (!panel?.form.isConnected) return;
  const left = message.allowance - message.used;
  const onHoliday = message.until !== null;
  panel.status.textContent = onHoliday
    ? t("You are on holiday until {date}.", { date: when(message.until) })
    : tn("You have {n} day of holiday left this year.", "You have {n} days of holiday left this year.", left);
  panel.days.max = Math.max(1, left);
  panel.days.closest("label").hidden = onHoliday;
  panel.begin.hidden = onHoliday;
  panel.end.hidden = !onHoliday;
}

// A refusal while the panel is shown: said in it (true), else not ours (false).
export function holidayRefused(message) {
  if (!panel?.form.isConnected || !["holiday", "field"].includes(message.code)) return false;
  panel.problem.textContent = sentence(message.message);
  return true;
}
