// The router: "/" is the lobby (lobby.js); "/games/<id>" is the game page: live play while the
// game runs (play.js), the replay viewer (replay.js) when it is over, when "?v=<version>" is in
// the link, or when the user presses "Replay".
//
// Page modules export show<Page>(root, params) -> cleanup function (or a promise of one):
//   showLobby(root)                                   lobby.js
//   showPlay(root, {gameId})                          play.js
//   showReplay(root, {gameId, version})               replay.js (version: a number or null)
//   "/leaderboards[/<kind>]", "/players/<id>", "/my-games": routes.js
// navigate(path) moves without reloading (history.pushState); links with data-link do too.

import {player, setToken, token, whoAmI} from "./api.js";
import {h} from "./svg.js";
import {focusLost, focusOn} from "./a11y.js";
import {arrived, pageFor} from "./routes.js";

let cleanup = null;
let generation = 0;
let drawn = 0; // the generation whose page was drawn last

export function navigate(path, {replace = false} = {}) {
  if (replace) window.history.replaceState(null, "", path);
  else window.history.pushState(null, "", path);
  route();
}

// Redraws the "who am I" corner of the header (after registering or signing out).
export function renderWho() {
  const corner = document.getElementById("whoami");
  if (!corner) return;
  const who = player();
  corner.replaceChildren();
  if (token()) {
    corner.append(
      h("span", {"data-testid": "whoami"}, "Signed in as ",
        who && who.id ? h("a", {href: `/players/${encodeURIComponent(who.id)}`, "data-link": true,
          "data-testid": "whoami-profile", title: "Your profile"}, who.name || "a player")
          : (who && who.name) || "a player"),
      " ",
      h("button", {type: "button", class: "link", onclick: () => {
        setToken(null);
        renderWho();
        route();
      }}, "Sign out"),
    );
  } else {
    corner.append(h("span", {"data-testid": "whoami"}, "Spectator (no account)"));
  }
}

// A failure as the server words it, "message (CODE)", announced to assistive technology.
export function problem(failure) {
  return h("p", {class: "error", role: "alert", "data-testid": "error"},
    failure.message, failure.code ? ` (${failure.code})` : "");
}

// One run of `work` at a time: a call while it runs asks for one more run right after, however
// many calls came (so the last answer drawn is never older than the last call), while alive().
export function coalesced(work, alive) {
  let running = null;
  let again = false;
  return async function run() {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await work();
        } while (again && alive());
      } finally {
        running = null; // in the same turn as the last check: no call falls in between
      }
    })();
    return running;
  };
}

export function showError(root, failure) {
  const heading = h("h1", {}, "Something went wrong");
  root.replaceChildren(h("section", {class: "panel"},
    heading,
    problem(failure),
    h("p", {}, h("a", {href: "/", "data-link": true}, "Back to the lobby"))));
  focusOn(heading); // not left on <body>: the next Tab reaches "Back to the lobby"
}

async function route() {
  const mine = ++generation;
  if (cleanup) {
    try {
      cleanup();
    } catch (failure) {
      console.warn("cleanup failed", failure);
    }
    cleanup = null;
  }
  const root = document.getElementById("main");
  root.replaceChildren(h("p", {class: "loading"}, "Loading…"));
  await whoAmI();
  renderWho();
  const path = window.location.pathname;
  const params = new URLSearchParams(window.location.search);
  arrived(path);
  try {
    let done;
    const game = path.match(/^\/games\/([^/]+)\/?$/);
    const page = pageFor(path); // leaderboards, profiles, my games (routes.js)
    if (page) {
      done = await page(root);
    } else if (game) {
      const gameId = decodeURIComponent(game[1]);
      const v = params.get("v");
      if (v !== null && v !== "") {
        const {showReplay} = await import("./replay.js");
        done = await showReplay(root, {gameId, version: Number.isInteger(Number(v)) ? Number(v) : null});
      } else {
        const {showPlay} = await import("./play.js");
        done = await showPlay(root, {gameId});
      }
    } else {
      const {showLobby} = await import("./lobby.js");
      done = await showLobby(root);
    }
    if (mine !== generation) {
      if (typeof done === "function") done();
      // this page, left while it loaded, drew over the newer one: draw that one again
      if (drawn === generation) route();
      return;
    }
    drawn = mine;
    cleanup = typeof done === "function" ? done : null;
    // a page that put the focus nowhere (the link followed was redrawn away): its heading
    if (focusLost()) focusOn(root.querySelector("h1"), {scroll: false});
  } catch (failure) {
    if (mine === generation) {
      showError(root, failure);
      drawn = mine;
    }
  }
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener("popstate", route);
route();
