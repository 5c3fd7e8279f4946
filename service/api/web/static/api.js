// The client's only way to the server: the Papyrus SDK (./sdk/papyrus.js, compiled from
// clients/typescript/papyrus.ts: one client for the page and for programs, not two), set up
// for this page. Every other module imports what it needs from here:
//
//   gql(query, variables) -> data            throws ApiError (.code, .message as the server words it)
//   subscribe(query, variables, onNext, onError, {onReconnecting, onComplete}) -> unsubscribe
//       all on one websocket speaking graphql-transport-ws, reopened with back-off when it drops;
//       variables may be a function: it is called again on every (re)subscription, so a caller
//       can resume from the last version it saw after the socket dropped.
//   token() / setToken(token, player)        the bearer token, kept in localStorage
//
// Every document of queries.js is one of the server's trusted documents (docs/API.md "Trusted
// documents"): the server knows it by its id, "sha256:" and the hex SHA-256 of its exact text,
// so the SDK sends that id (`documentId`, 71 bytes) instead of the text (up to a few kilobytes
// for a game with its board's view), on every request. The hash needs crypto.subtle, which the
// browser offers only in a secure context (https, localhost): elsewhere the text is sent, as
// before. A server that does not know a document (an older or newer one) answers
// UNKNOWN_DOCUMENT: that document is sent again as text, and as text from then on.

import {ME} from "./queries.js";
import {ApiError, PapyrusClient} from "./sdk/papyrus.js";

export {ApiError};

const TOKEN_KEY = "papyrus.token";
const PLAYER_KEY = "papyrus.player";

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

// The page's client: the page's own origin, the browser's fetch and WebSocket, the token read
// from storage at every request and whenever the websocket opens (it authenticates once then).
const client = new PapyrusClient({
  token,
  onUnauthenticated: (failure) => {
    // a revoked or rotated token: forget it, so the next page is read as a spectator
    setToken(null);
    return new ApiError(`${failure.message} You are signed out; register again to play.`, failure.code,
      failure.requestId);
  },
});

export function setToken(value, who = null) {
  if (value) {
    window.localStorage.setItem(TOKEN_KEY, value);
    window.localStorage.setItem(PLAYER_KEY, JSON.stringify(who));
  } else {
    window.localStorage.removeItem(TOKEN_KEY);
    window.localStorage.removeItem(PLAYER_KEY);
  }
  client.setToken(value || null); // the websocket is opened again, with the new token
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

export function gql(query, variables = {}) {
  return client.gql(query, variables);
}

export function subscribe(query, variables, onNext, onError = () => {}, hooks = {}) {
  return client.subscribe(query, variables, {
    next: onNext,
    error: onError,
    ...(hooks.onReconnecting ? {reconnecting: hooks.onReconnecting} : {}),
    ...(hooks.onComplete ? {complete: hooks.onComplete} : {}),
  });
}
