// The café in the browser: the lobby at "#", a room at "#room=ID". The server decides everything;
// this page shows what it says and sends what you click (docs/protocol.md).

import { accountView } from "./account.js";
import { h, replace, sentence } from "./dom.js";
import { howToButton } from "./howto.js";
import { holidayHeard, holidayRefused } from "./holidays.js";
import { invitationHeard } from "./invites.js";
import { count, heard } from "./notify.js";
import { chosenLanguage, LANGUAGES, loadLanguage, rememberLanguage, t } from "./i18n.js";
import { lobbyView, nameView, refreshRooms } from "./lobby.js";
import { LearnView } from "./learn.js";
import { Link } from "./net.js";
import { PuzzlePage } from "./puzzles.js";
import { playerView, ReplayView } from "./replay.js";
import { RoomView } from "./room.js";
import { TournamentsPage } from "./tournaments.js";

const app = document.getElementById("app");
const statusLine = document.getElementById("status");
const who = document.getElementById("who");
const notice = document.getElementById("notice");

const lang = chosenLanguage();
await loadLanguage(lang);
const catalogue = await (await fetch(`/catalogue.json?lang=${lang}`)).json();
// How to play, from every page: over it, so that a room and its seat stay as they are
document.getElementById("language-slot").before(howToButton(() => view?.state?.edition));
document.getElementById("language-slot").replaceWith(languagePicker());
const STATUS = { connecting: () => t("connecting…"), online: () => t("online"), offline: () => t("offline"),
  unnamed: () => t("not signed in") }; // unnamed: the server refused the name or token, and waits for another
const rooms = new Map(); // the lobby's rooms
const states = new Map(); // room id -> latest room state (with its drawing)
let me = null;
let view = null; // the RoomView on screen, or null in the lobby
let replayView = null; // a finished game's page on screen
let learnView = null; // the tutorial, kept while the page lives
let autoEnter = false; // the next room state with a seat of yours opens (after a create)
let carried = []; // the chat of a match's game, carried into the next game's room
let noticeTimer = null;
let accountBusy = false; // an account change in flight: the page begins anew when it is done

const inHash = (key) => new URLSearchParams(location.hash.slice(1)).get(key);
const roomInHash = () => inHash("room");
const learning = () => new URLSearchParams(location.hash.slice(1)).has("learn"); // "#learn", "#learn=ID"
const inAccount = () => inHash("account") !== null; // "#account", and a mailed link's "#account&reset=…"
const inPuzzles = () => inHash("puzzles") !== null;
const inTournaments = () => inHash("tournaments") !== null || inHash("tournament") !== null;
const inLobby = () => !roomInHash() && !inHash("game") && !inHash("player") && !learning() && !inAccount() && !inPuzzles()
  && !inTournaments();

function showNotice(text) {
  notice.textContent = text;
  notice.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (notice.hidden = true), 6000);
}

function setStatus(status) {
  statusLine.textContent = STATUS[status]?.() ?? status;
  statusLine.dataset.status = status;
}

const link = new Link(receive, setStatus, lang);

// The language of the page, on every page: chosen here, remembered, and the page reads again in it.
function languagePicker() {
  const select = h("select", { id: "language", "aria-label": t("Language"),
    onchange: () => { rememberLanguage(select.value); location.reload(); } },
  Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === lang }, name)));
  return select;
}

const actions = {
  player: () => me?.player,
  notice: showNotice,
  create: (edition, rules, name, match, days = {}, secret = false) => {
    autoEnter = true;
    link.send({ type: "create", edition, rules, ...(name ? { name } : {}), ...(match ? { match } : {}), ...days,
      ...(secret ? { private: true } : {}) });
  },
  // a private table's link: the café's address with the room and its invitation code
  inviteLink: (state) => `${location.origin}${location.pathname}#room=${state.id}&invite=${state.invite}`,
  rematch: (accept) => link.send({ type: "rematch", room: roomInHash(), accept }),
  enter: (id) => (location.hash = `room=${id}`),
  leaderboard: async () => (await fetch("/leaderboard")).json(),
  newcomer: () => me?.played === false, // never finished a game: the lobby offers the tutorial first
  lobby: () => (location.hash = ""),
  // the games where you have a seat, not finished: the lobby lists them first, to resume
  mine: () => [...states.values()].map((s) => s.state).filter((s) => s.you !== null && s.status !== "finished"
    && s.status !== "closed"),
  say: (text) => link.send({ type: "say", room: roomInHash(), text }),
  // "/invite NAME" said at a table of yours, which opens to hear the answer
  invite: (room, name) => { link.send({ type: "say", room, text: `/invite ${name}` }); location.hash = `room=${room}`; },
  step: (step) => link.send({ type: "step", room: roomInHash(), step, plies: view?.state?.plies }),
  undo: () => link.send({ type: "undo", room: roomInHash(), plies: view?.state?.plies }),
  hint: () => link.send({ type: "hint", room: roomInHash() }),
  // the account panel's
  me: () => me,
  token: () => link.token,
  forget: () => link.forget(),
  busy: (busy) => (accountBusy = busy),
  claimed: () => { me = { ...me, account: true }; route(); },
  holiday: (asked) => link.send({ type: "holiday", ...asked }),
  recount: () => count(actions.mine(), roomInHash()),
};

// Your name (your own page) and your account, in the header.
const accountLink = h("a", { href: "#account", id: "account-link" });
who.after(accountLink);
function showWho() {
  replace(who, me ? h("a", { href: `#player=${me.player}`, class: "me" }, me.name) : null);
  accountLink.textContent = me ? t("Account") : t("Sign in");
}

function receive(message) {
  switch (message.type) {
    case "welcome": {
      const first = me === null;
      me = message;
      showWho(); // your name leads to your own page: your games and your rating
      if (inHash("invite")) acceptInvitation();
      else if (roomInHash()) link.send({ type: "enter", room: roomInHash() });
      else if (first && inLobby() && message.seated?.length === 1) location.hash = `room=${message.seated[0]}`; // back
      break;
    }
    case "lobby":
      rooms.clear();
      for (const room of message.rooms) rooms.set(room.id, room);
      listed();
      break;
    case "listing":
      rooms.set(message.room.id, message.room);
      listed();
      break;
    case "room": {
      const id = message.room.id;
      const old = states.get(id);
      message.room.heard = Date.now(); // its turn's time left ("left") counts from now
      states.set(id, { state: message.room, svg: message.svg ?? old?.svg });
      heard(old?.state, message.room); // a sound, if it became your turn or your game ended
      count(actions.mine(), roomInHash()); // the title and badge: your games waiting for you elsewhere
      const mine = message.room.you !== null && message.room.status !== "finished";
      if (autoEnter && !roomInHash() && mine) {
        autoEnter = false;
        location.hash = `room=${id}`; // your new room, or back at your seat after a reload
      } else if (message.room.match?.previous && message.room.match.previous === roomInHash()) {
        carried = view ? view.lines : [];
        location.hash = `room=${id}`; // the match's next game
      } else if (message.room.rematch?.next && roomInHash() === id) {
        location.hash = `room=${message.room.rematch.next}`; // everyone accepted: the rematch begins
      } else if (roomInHash() === id) show(id);
      else if (!view && inLobby() && message.room.you !== null) route(); // among "Your games"
      break;
    }
    case "invited":
      invitationHeard(message);
      break;
    case "holiday":
      holidayHeard(message);
      break;
    case "hint":
      if (view && message.room === roomInHash()) view.showHint(message.steps ?? [message.step]);
      break;
    case "chat":
      if (view && message.room === roomInHash()) view.chat(message.from, message.text, message.player);
      break;
    case "presence":
      if (view && message.room === roomInHash()) view.presence(message);
      break;
    case "history":
      if (view && message.room === roomInHash()) view.history(message.lines);
      break;
    case "info":
      if (view && message.room === roomInHash()) view.say(message.text, "info");
      else if (!message.room || !view) showNotice(message.text);
      break;
    case "error":
      if (message.code === "signed-out") { // signed out everywhere, a new password, or the account deleted
        if (!accountBusy) location.reload();
        return;
      }
      if (message.code === "token") {
        link.forget();
        setStatus("unnamed");
        askName(t("That player is not known here any more: choose a name."));
        return;
      }
      if (message.code === "name") {
        setStatus("unnamed");
        askName(sentence(message.message)); // the name cannot be used: the server says why, in the page's language
        return;
      }
      if (holidayRefused(message)) return; // said in the account page's holiday panel
      showNotice(message.rule ? `${sentence(message.message)} (${message.rule})` : sentence(message.message));
      if (message.code === "rules" && document.getElementById("create-problem")) {
        document.getElementById("create-problem").textContent = sentence(message.message); // said in the form itself
      }
      if (view && message.room === roomInHash()) view.refused(message.message);
      if (message.code === "room") location.hash = "";
      if (message.code === "over") location.hash = `game=${message.room}`; // a finished game: its replay
      break;
  }
}

function show(id) {
  const known = states.get(id);
  if (!known) return;
  if (!view) {
    view = new RoomView(catalogue, actions);
    for (const { line, kind, from, text, player } of carried) {
      if (kind === "chat") view.chat(from, text, player);
      else view.say(line, kind);
    }
    carried = [];
    replace(app, view.root);
  }
  view.show(known.state, known.svg);
  // the room's page replaced what had the focus ("Create room"): it is not left on the page's body
  if (!document.activeElement || document.activeElement === document.body) view.focusStart();
}

function route() {
  count(actions.mine(), roomInHash());
  replayView?.close();
  replayView = null;
  if (inHash("game")) { // a finished game's own page: no connection needed to look at it
    view = null;
    replayView = new ReplayView(inHash("game"), catalogue);
    replace(app, replayView.root);
    return;
  }
  if (learning()) { // the tutorial: no name needed
    view = null;
    learnView ??= new LearnView(catalogue);
    if (!app.contains(learnView.root)) replace(app, learnView.root);
    learnView.show(inHash("learn"));
    return;
  }
  if (inHash("player")) {
    view = null;
    playerView(inHash("player")).then((page) => { if (inHash("player")) replace(app, page); });
    return;
  }
  if (inAccount()) {
    view = null;
    accountView(actions).then((page) => {
      if (!inAccount()) return;
      replace(app, page);
      page.querySelector("h2").focus?.();
    });
    return;
  }
  if (!me && !link.token && !signedIn) return askName();
  if (inPuzzles()) { // puzzles are rated: the person's token names them
    view = null;
    replace(app, new PuzzlePage(catalogue, link.token).root);
    return;
  }
  if (inTournaments()) { // entering names the person by their token
    view = null;
    replace(app, new TournamentsPage(catalogue, link.token, inHash("tournament")).root);
    return;
  }
  const id = roomInHash();
  if (id && inHash("invite") && me) return acceptInvitation();
  if (id) {
    if (!view || view.state?.id !== id) {
      view = null;
      if (states.has(id)) show(id);
      link.send({ type: "enter", room: id });
    }
    return;
  }
  if (view) { // back in the lobby from a room: follow the lobby again
    link.send({ type: "lobby" });
    autoEnter = false;
  }
  view = null;
  replace(app, lobbyView(rooms, catalogue, actions));
}

// The lobby's rooms changed: shown anew in place, the form to open a table kept as the person left it.
function listed() {
  if (view || !inLobby()) return;
  const lobby = app.querySelector(".lobby");
  if (lobby) refreshRooms(lobby, rooms, catalogue, actions);
  else route();
}

// An invitation link opened: the room, and a seat if the code is right; the code leaves the address bar.
function acceptInvitation() {
  const [room, code] = [roomInHash(), inHash("invite")];
  history.replaceState(null, "", `#room=${room}`);
  view = null;
  link.send({ type: "join", room, code });
}

function askName(problem) {
  replace(app, nameView((name) => link.open(name), problem));
}

window.addEventListener("hashchange", route);
// signed in (the cookie, which the page cannot read, says so to the server): the hello needs no token
const signedIn = await fetch("/account").then((answer) => answer.json()).then((found) => found.account, () => false);
showWho();
if (link.token || signedIn) link.open();
if (!inLobby() || link.token || signedIn) route();
else askName();
