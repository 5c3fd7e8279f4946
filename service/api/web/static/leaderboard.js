// The leaderboards: "/leaderboards" shows every game's (the best 20 of each), and
// "/leaderboards/<kind>" one game's (the best 100), as tables: rank, the player (a link to the
// profile), rating, games played, wins. Ratings are multi-player Elo over rated games: two or
// more people, no chosen seed (domain/table.py why_unrated).
//
//   showLeaderboard(root, {kind})    kind: a GameKind in lower case ("imhotep"), or null

import {gql} from "./api.js";
import {gameKinds} from "./kinds.js";
import {LEADERBOARD} from "./queries.js";
import {h} from "./svg.js";

export const kindPath = (kind) => `/leaderboards/${encodeURIComponent(kind.toLowerCase())}`;
export const profilePath = (playerId) => `/players/${encodeURIComponent(playerId)}`;

function board(info, page, {alone}) {
  const id = `leaderboard-${info.kind.toLowerCase()}`;
  const heading = h("h2", {id: `${id}-title`}, alone ? "Best rating first" : `${info.name} leaderboard`);
  const lines = page.nodes;
  const body = lines.length
    ? h("table", {class: "data leaderboard", "data-testid": id, "aria-labelledby": `${id}-title`},
      h("thead", {}, h("tr", {},
        h("th", {scope: "col", class: "num"}, "Rank"),
        h("th", {scope: "col"}, "Player"),
        h("th", {scope: "col", class: "num"}, "Rating"),
        h("th", {scope: "col", class: "num"}, h("abbr", {title: "games played"}, "Games")),
        h("th", {scope: "col", class: "num"}, "Wins"))),
      h("tbody", {}, lines.map((line) => h("tr", {"data-player": line.playerId},
        h("td", {class: "num"}, String(line.rank)),
        h("th", {scope: "row"}, h("a", {href: profilePath(line.playerId), "data-link": true,
          class: "cell-link", "data-testid": `player-${line.playerId}`}, line.name)),
        h("td", {class: "num", "data-testid": "rating"}, String(Math.round(line.rating))),
        h("td", {class: "num", "data-testid": "games"}, String(line.games)),
        h("td", {class: "num"}, String(line.wins))))))
    : h("p", {class: "muted", "data-testid": `${id}-empty`},
      `Nobody is rated in ${info.name} yet: a finished game between two or more people rates them.`);
  const more = page.totalCount > lines.length
    ? h("p", {class: "muted small"}, `The best ${lines.length} of ${page.totalCount} rated players.`)
    : null;
  return h("section", {class: "panel", "aria-labelledby": `${id}-title`}, heading, body, more);
}

export async function showLeaderboard(root, {kind = null} = {}) {
  const kinds = await gameKinds();
  const chosen = kind ? kinds.find((k) => k.kind.toLowerCase() === kind.toLowerCase()) : null;
  const shown = chosen ? [chosen] : kinds;
  const pages = await Promise.all(shown.map((k) =>
    gql(LEADERBOARD, {kind: k.kind, first: chosen ? 100 : 20}).then((data) => data.leaderboard)));
  const picker = h("nav", {class: "page-tabs", "aria-label": "Leaderboards by game"},
    h("ul", {},
      h("li", {}, h("a", {href: "/leaderboards", "data-link": true,
        "aria-current": chosen ? null : "page"}, "Every game")),
      kinds.map((k) => h("li", {}, h("a", {href: kindPath(k.kind), "data-link": true,
        "aria-current": chosen && chosen.kind === k.kind ? "page" : null}, k.name)))));
  root.replaceChildren(...[
    h("h1", {}, chosen ? `${chosen.name} leaderboard` : "Leaderboards"),
    picker,
    kind && !chosen ? h("p", {class: "error", role: "alert"}, `This server does not play ${kind}.`) : null,
    h("p", {class: "muted"}, "Multi-player Elo (start 1500): every rated game counts each pair of its "
      + "players as one match. Games against bots, forks and tables with a chosen seed are not rated."),
    h("div", {class: "boards"}, shown.map((k, i) => board(k, pages[i], {alone: Boolean(chosen)})))].filter(Boolean));
  document.title = chosen ? `${chosen.name} leaderboard · Papyrus` : "Leaderboards · Papyrus";
  return null;
}
