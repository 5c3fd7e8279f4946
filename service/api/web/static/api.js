// The client's only way to the server: the public GraphQL API over fetch, and its
// subscriptions over one websocket speaking graphql-transport-ws (written out by hand).
//
//   gql(query, variables) -> data            throws ApiError (.code, .message as the server words it)
//   subscribe(query, variables, onNext, onError) -> unsubscribe
//       variables may be a function: it is called again on every (re)subscription, so a caller
//       can resume from the last version it saw after the socket dropped.
//   token() / setToken(token, player)        the bearer token, kept in localStorage

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

export async function gql(query, variables = {}) {
  const headers = {"Content-Type": "application/json", "Accept": "application/json"};
  const bearer = token();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response;
  try {
    response = await fetch("/graphql", {method: "POST", headers, body: JSON.stringify({query, variables})});
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
    const variables = typeof sub.variables === "function" ? sub.variables() : sub.variables;
    this.send({id, type: "subscribe", payload: {query: sub.query, variables}});
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
        this.active.delete(data.id);
        {
          const first = (data.payload && data.payload[0]) || {message: "The subscription failed."};
          sub.onError(new ApiError(first.message, first.extensions && first.extensions.code));
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
