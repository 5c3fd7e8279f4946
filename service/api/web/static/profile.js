// A player's profile, "/players/<id>": the record over rated games (played, won, average score),
// each game's rating with its place on the leaderboard and its history drawn as a small chart
// (chart.js, with a text alternative and a table), and the recent rated games, each one click
// from its replay.
//
//   showProfile(root, {playerId})

import {gql, player} from "./api.js";
import {dateOf, ratingChart} from "./chart.js";
import {gameKinds} from "./kinds.js";
import {kindPath} from "./leaderboard.js";
import {PROFILE} from "./queries.js";
import {h} from "./svg.js";

const START = 1500; // every rating starts there (projections/ratings.py)

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th");
  return `${n}${tail}`;
}

export async function showProfile(root, {playerId}) {
  const [kinds, data] = await Promise.all([gameKinds(), gql(PROFILE, {id: playerId})]);
  const nameOf = (kind) => (kinds.find((k) => k.kind === kind) || {name: kind}).name;
  const profile = data.player;
  const me = player();
  const mine = me && me.id === playerId;
  const name = profile ? profile.name : "Player";
  document.title = `${name} · Papyrus`;
  if (!profile) {
    root.replaceChildren(h("h1", {}, mine ? "Your profile" : "Player"),
      h("section", {class: "panel", "data-testid": "profile-empty"},
        h("p", {}, mine ? "You have no finished rated game yet."
          : "This player has no finished rated game yet (or there is no such player)."),
        h("p", {}, "A game counts once it is over and two or more people played it, with no "
          + "chosen seed."),
        h("p", {}, h("a", {href: "/leaderboards", "data-link": true}, "See the leaderboards"))));
    return null;
  }
  const record = h("section", {class: "panel", "aria-labelledby": "record-title"},
    h("h2", {id: "record-title"}, "Record"),
    h("dl", {class: "facts-list", "data-testid": "record"},
      h("dt", {}, "Rated games"), h("dd", {"data-testid": "games-played"}, String(profile.gamesPlayed)),
      h("dt", {}, "Won"), h("dd", {"data-testid": "games-won"}, String(profile.gamesWon)),
      h("dt", {}, "Average score"), h("dd", {}, profile.averageScore.toFixed(1)),
      profile.averageThinkingMs === null ? null : [h("dt", {}, "Thinking per timed turn"),
        h("dd", {}, `${(profile.averageThinkingMs / 1000).toFixed(1)} s`)]),
    profile.byKind.length ? h("ul", {class: "plain"}, profile.byKind.map((k) => h("li", {},
      `${nameOf(k.kind)}: ${k.gamesPlayed} played, ${k.gamesWon} won, average score ${k.averageScore.toFixed(1)}`)))
      : null);
  const ratings = h("section", {class: "panel", "aria-labelledby": "ratings-title"},
    h("h2", {id: "ratings-title"}, "Ratings"),
    data.playerRatings.length ? data.playerRatings.map((r) => {
      const id = `rating-${r.kind.toLowerCase()}`;
      const whole = r.history.length === r.games; // else the first points were cut
      return h("div", {class: "rating-block", "data-testid": id},
        h("h3", {}, nameOf(r.kind)),
        h("p", {},
          h("strong", {"data-testid": `${id}-value`}, String(Math.round(r.rating))),
          ` · ${ordinal(r.rank)} on the `,
          h("a", {href: kindPath(r.kind), "data-link": true}, `${nameOf(r.kind)} leaderboard`),
          ` · ${r.games} rated game${r.games === 1 ? "" : "s"}, ${r.wins} won · peak ${Math.round(r.peak)}`),
        ratingChart({points: r.history, label: `${nameOf(r.kind)} rating`, id: `${id}-chart`,
          start: whole ? START : null}));
    }) : h("p", {class: "muted"}, "No rating yet."));
  const recent = h("section", {class: "panel", "aria-labelledby": "recent-title"},
    h("h2", {id: "recent-title"}, "Recent games"),
    profile.recentGames.length
      ? h("ul", {class: "game-list", "data-testid": "recent-games"}, profile.recentGames.map((g) => h("li",
        {"data-game": g.gameId},
        h("a", {href: `/games/${encodeURIComponent(g.gameId)}`, "data-link": true, class: "button",
          "data-testid": `replay-${g.gameId}`},
        "Replay", h("span", {class: "visually-hidden"}, ` the ${nameOf(g.kind)} game of ${dateOf(g.finishedAt)}`)),
        h("span", {},
          h("strong", {}, nameOf(g.kind)), ` · ${dateOf(g.finishedAt)} · `,
          g.won ? h("span", {class: "badge won"}, "won") : (g.rank ? `${ordinal(g.rank)} place` : "played"),
          ` · score ${g.score} · seat ${g.seat + 1}`))))
      : h("p", {class: "muted"}, "No finished game yet."));
  root.replaceChildren(
    h("h1", {"data-testid": "profile-name"}, mine ? `${profile.name} (you)` : profile.name),
    h("div", {class: "columns"}, h("div", {}, record, ratings), h("div", {}, recent)));
  return null;
}
