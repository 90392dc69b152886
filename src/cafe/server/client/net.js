// The WebSocket to the café (docs/protocol.md): says hello with the saved token (a guest) or with nothing (an
// account: the sign-in cookie goes with the WebSocket), reconnects after a drop, and asks for a room's full state
// when a gap in its sequence numbers shows a lost message.

const TOKEN = "cafe-token";

export class Link {
  constructor(onMessage, onStatus, language = "en") {
    this.onMessage = onMessage;
    this.language = language; // of the server's messages meant for people
    this.onStatus = onStatus;
    this.socket = null;
    this.name = null; // a new player's name, until the server gives a token
    this.seq = new Map(); // room -> the last sequence number seen
    this.retry = 500;
  }

  get token() {
    return localStorage.getItem(TOKEN);
  }

  forget() {
    localStorage.removeItem(TOKEN);
  }

  open(name = null) {
    if (name) this.name = name;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const old = this.socket;
    const socket = (this.socket = new WebSocket(url));
    if (old) old.close(); // a name the server refused: this socket never said hello
    this.onStatus("connecting");
    socket.addEventListener("open", () => {
      this.retry = 500;
      const token = this.token;
      const hello = { type: "hello", svg: true, lang: this.language };
      // a guest whose name an account took meanwhile says hello with the token and a new name
      this.send({ ...hello, ...(token ? { token } : {}), ...(this.name ? { name: this.name } : {}) });
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.onStatus("offline");
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    });
  }

  receive(message) {
    if (message.type === "welcome") {
      if (message.token) localStorage.setItem(TOKEN, message.token); // an account's hello needs none
      this.name = null;
      this.onStatus("online");
    }
    const room = message.type === "room" ? message.room.id : message.room;
    if (room !== undefined && message.seq !== undefined) {
      const last = this.seq.get(room);
      // a room message is a whole state: only chat and news can leave a hole behind
      if (message.type !== "room" && last !== undefined && message.seq > last + 1) this.send({ type: "sync", room });
      this.seq.set(room, message.seq);
    }
    this.onMessage(message);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}
