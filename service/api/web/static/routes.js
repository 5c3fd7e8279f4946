// The pages of the header's navigation besides the lobby and the game pages (app.js routes to
// them): the leaderboards, a player's profile, "my games". Each is a real path the server answers
// with index.html (service/asgi.py), so a link works when opened in a new tab or reloaded.
//
//   pageFor(path) -> async (root) => cleanup | null, or null when the path is none of these
//   arrived(path) -> marks the header's link of the current page (aria-current), puts the
//     title back and drops the "your turn" signal of the page left

import {setYourTurn} from "./yourturn.js";

export function pageFor(path) {
  let found = path.match(/^\/leaderboards(?:\/([^/]+))?\/?$/);
  if (found) {
    const kind = found[1] ? decodeURIComponent(found[1]) : null;
    return async (root) => (await import("./leaderboard.js")).showLeaderboard(root, {kind});
  }
  found = path.match(/^\/players\/([^/]+)\/?$/);
  if (found) {
    const playerId = decodeURIComponent(found[1]);
    return async (root) => (await import("./profile.js")).showProfile(root, {playerId});
  }
  if (/^\/my-games\/?$/.test(path)) {
    return async (root) => (await import("./mygames.js")).showMyGames(root);
  }
  return null;
}

export function arrived(path) {
  setYourTurn(false);
  document.title = "Papyrus";
  const section = path === "/" ? "lobby" : path.startsWith("/leaderboards") ? "leaderboards"
    : path.startsWith("/my-games") ? "my-games" : null;
  for (const link of document.querySelectorAll(".pages-nav a[data-nav]")) {
    if (link.dataset.nav === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}
