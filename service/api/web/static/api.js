// The client's only way to the server: the public GraphQL API over fetch, and its
// subscriptions over one websocket speaking graphql-transport-ws (written out by hand).
//
//   gql(query, variables) -> data            throws ApiError (.code, .message as the server words it)
//   subscribe(query, variables, onNext, onError) -> unsubscribe
//       variables may be a function: it is called again on every (re)subscription, so a caller
//       can resume from the last version it saw after the socket dropped.
//   token() / setToken(token, player)        the bearer token, kept in localStorage
//
// Every document of queries.js is one of the server's trusted documents (docs/API.md "Trusted
// documents"): the server knows it by its id, "sha256:" and the hex SHA-256 of its exact text,
// so the client sends that id (`documentId`, 71 bytes) instead of the text (up to a few
// kilobytes for a game with its board's view), on every request. The hash needs crypto.subtle,
// which the browser offers only in a secure context (https, localhost): elsewhere the text is
// sent, as before. A server that does not know a document (an older or newer one) answers
// UNKNOWN_DOCUMENT: that document is sent again as text, and as text from then on.

import {ME} from "./queries.js";

const TOKEN_KEY = "papyrus.token";
const PLAYER_KEY = "papyrus.player";

export class ApiError extends Error {
  constructor(message, code, requestId) {
    super(message);
    this.name = "ApiError";
    this.code = code || "UNKNOWN";
    this.requestId = requestId || null;
  }
}

export function token() {
  return window.localStorage.getItem(TOKEN_KEY);
}

// The player stored with the token ({id, name}), or null.
export function player() {
  try {
    return JSON.parse(window.localStorage.getItem(PLAYER_KEY) || "null");
  } catch {
    return null;
  }
}

export function setToken(value, who = null) {
  if (value) {
    window.localStorage.setItem(TOKEN_KEY, value);
    window.localStorage.setItem(PLAYER_KEY, JSON.stringify(who));
  } else {
    window.localStorage.removeItem(TOKEN_KEY);
    window.localStorage.removeItem(PLAYER_KEY);
  }
  socket.restart(); // the websocket authenticates once, when it opens
}

// The stored player, asked of the server (query me) when only the token is known.
export async function whoAmI() {
  if (!token()) return null;
  const known = player();
  if (known && known.id) return known;
  try {
    const data = await gql(ME);
    if (data.me) window.localStorage.setItem(PLAYER_KEY, JSON.stringify(data.me));
    return data.me;
  } catch {
    return null;
  }
}

const ids = new Map(); // text -> a promise of its id (null: none to send), computed once per text
const asText = new Set(); // texts the server answered UNKNOWN_DOCUMENT for: sent as text

// The id of `text` ("sha256:<hex>"), or null where it is to be sent as text.
function documentId(text) {
  if (asText.has(text) || !(window.crypto && window.crypto.subtle)) return Promise.resolve(null);
  if (!ids.has(text)) {
    const hashed = window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(
      (hash) => `sha256:${hex(hash)}`,
      () => null); // no hash, no id: the text goes
    ids.set(text, hashed);
  }
  return ids.get(text);
}

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

export async function gql(query, variables = {}) {
  const named = await documentId(query);
  if (!named) return post({query, variables});
  try {
    return await post({documentId: named, variables});
  } catch (failure) {
    if (failure.code !== "UNKNOWN_DOCUMENT") throw failure;
    asText.add(query); // a server that does not trust it: the text, now and from now on
    return post({query, variables});
  }
}

async function post(operation) {
  const headers = {"Content-Type": "application/json", "Accept": "application/json"};
  const bearer = token();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response;
  try {
    response = await fetch("/graphql", {method: "POST", headers, body: JSON.stringify(operation)});
  } catch (failure) {
    throw new ApiError(`The server cannot be reached (${failure.message}).`, "NETWORK");
  }
  const requestId = response.headers.get("X-Request-Id");
  let body;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(`The server answered ${response.status} without JSON.`, "INTERNAL", requestId);
  }
  if (body.errors && body.errors.length) {
    const first = body.errors[0];
    const code = first.extensions && first.extensions.code;
    if (code === "UNAUTHENTICATED" && bearer) {
      // a revoked or rotated token: forget it, so the next page is read as a spectator
      setToken(null);
      throw new ApiError(`${first.message} You are signed out; register again to play.`, code, requestId);
    }
    throw new ApiError(first.message, code, requestId);
  }
  return body.data;
}

// One websocket for every subscription of the page, reopened (with back-off) when it drops.
class Socket {
  constructor() {
    this.ws = null;
    this.acked = false;
    this.next = 1;
    this.active = new Map(); // id -> {query, variables, onNext, onError}
    this.retry = 500;
    this.timer = null;
  }

  url() {
    return `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/graphql`;
  }

  open() {
    if (this.ws || !this.active.size) return;
    const ws = new WebSocket(this.url(), "graphql-transport-ws");
    this.ws = ws;
    this.acked = false;
    ws.onopen = () => {
      const bearer = token();
      ws.send(JSON.stringify({type: "connection_init", payload: bearer ? {authorization: `Bearer ${bearer}`} : {}}));
    };
    ws.onmessage = (message) => this.receive(ws, message);
    ws.onclose = (event) => this.closed(ws, event);
  }

  send(message) {
    if (this.ws && this.acked && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  start(id) {
    const sub = this.active.get(id);
    const ws = this.ws;
    documentId(sub.query).then((named) => {
      // the id is computed asynchronously: the subscription may have ended, or the socket been
      // replaced (the new one starts every subscription again), in the meantime
      if (this.active.get(id) !== sub || this.ws !== ws) return;
      const variables = typeof sub.variables === "function" ? sub.variables() : sub.variables;
      sub.byId = Boolean(named);
      const payload = named ? {documentId: named, variables} : {query: sub.query, variables};
      this.send({id, type: "subscribe", payload});
    });
  }

  receive(ws, message) {
    if (ws !== this.ws) return;
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    const sub = this.active.get(data.id);
    switch (data.type) {
      case "connection_ack":
        this.acked = true;
        this.retry = 500;
        for (const id of this.active.keys()) this.start(id);
        break;
      case "ping":
        ws.send(JSON.stringify({type: "pong"}));
        break;
      case "next":
        if (!sub) break;
        if (data.payload.errors && data.payload.errors.length) {
          const first = data.payload.errors[0];
          sub.onError(new ApiError(first.message, first.extensions && first.extensions.code));
        } else {
          sub.onNext(data.payload.data);
        }
        break;
      case "error":
        if (!sub) break;
        {
          const first = (data.payload && data.payload[0]) || {message: "The subscription failed."};
          const code = first.extensions && first.extensions.code;
          if (code === "UNKNOWN_DOCUMENT" && sub.byId) {
            // a server that does not trust the document: subscribe again (the same operation
            // id: the server did not start it), with the text now and from now on
            asText.add(sub.query);
            this.start(data.id);
            break;
          }
          this.active.delete(data.id);
          sub.onError(new ApiError(first.message, code));
        }
        break;
      case "complete":
        if (sub) {
          this.active.delete(data.id);
          if (sub.onComplete) sub.onComplete();
        }
        break;
      default:
        break;
    }
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.acked = false;
    if (!this.active.size) return;
    if (event.code === 4403 || event.code === 4401) {
      // the server refused who we are: tell every subscriber, do not hammer it
      for (const sub of this.active.values()) {
        sub.onError(new ApiError(event.reason || "The websocket was refused.", "UNAUTHENTICATED"));
      }
      this.active.clear();
      return;
    }
    for (const sub of this.active.values()) {
      if (sub.onReconnecting) sub.onReconnecting();
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), this.retry);
    this.retry = Math.min(this.retry * 2, 10000);
  }

  add(sub) {
    const id = String(this.next++);
    this.active.set(id, sub);
    if (this.ws && this.acked) this.start(id);
    else this.open();
    return id;
  }

  remove(id) {
    if (!this.active.has(id)) return;
    this.active.delete(id);
    this.send({id, type: "complete"});
    if (!this.active.size && this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
  }

  restart() {
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
    if (this.active.size) this.open();
  }
}

const socket = new Socket();

export function subscribe(query, variables, onNext, onError = () => {}, hooks = {}) {
  const id = socket.add({query, variables, onNext, onError, ...hooks});
  return () => socket.remove(id);
}
