// "My games", "/my-games": the signed-in player's tables in three lists, open (waiting for
// players: a link to the table), running (a link to play it, "your turn" where it is) and over
// (finished or abandoned: a link to the replay), from the read model's summaries.
//
//   showMyGames(root)

import {seatEntries, seatNumber} from "./a11y.js";
import {gql, player, token, whoAmI} from "./api.js";
import {gameKinds} from "./kinds.js";
import {profilePath} from "./leaderboard.js";
import {MY_TABLES} from "./queries.js";
import {h} from "./svg.js";

const gamePath = (id) => `/games/${encodeURIComponent(id)}`;

function seatText(summary, me) {
  return seatEntries(summary, me).map(([seat, name]) => `${seatNumber(seat)}: ${name}`).join(", ");
}

function item(summary, {me, nameOf, kind}) {
  const mySeats = summary.seats.filter((s) => s.playerId === me).map((s) => s.seat);
  const myTurn = kind === "running" && mySeats.some((s) => summary.activeSeats.includes(s));
  let link;
  let detail;
  if (kind === "open") {
    link = "Open the table";
    detail = `${summary.freeSeats} seat${summary.freeSeats === 1 ? "" : "s"} free`;
  } else if (kind === "running") {
    link = myTurn ? "Play (your turn)" : "Open the game";
    detail = `scores ${summary.scores.join(" – ")}`;
  } else {
    link = "Replay";
    const won = summary.winners && mySeats.some((s) => summary.winners.includes(s));
    detail = summary.status === "ABANDONED" ? "abandoned"
      : `${won ? "you won" : "finished, not won"} · scores ${summary.scores.join(" – ")}`;
  }
  return h("li", {"data-testid": `mine-${summary.gameId}`, "data-game": summary.gameId},
    h("a", {href: gamePath(summary.gameId), "data-link": true, class: "button",
      "data-testid": `go-${summary.gameId}`}, link,
    h("span", {class: "visually-hidden"}, `: ${nameOf(summary.kind)}, ${seatText(summary, me)}`)),
    h("span", {},
      h("strong", {}, nameOf(summary.kind)),
      myTurn ? h("span", {class: "badge turn"}, " your turn") : null,
      summary.ranked ? " · rated" : ` · unranked (${summary.unrankedReason})`,
      ` · ${detail}`,
      h("br"),
      h("span", {class: "muted small"}, `Seats ${seatText(summary, me)}`)));
}

export async function showMyGames(root) {
  document.title = "My games · Papyrus";
  const [kinds, me] = await Promise.all([gameKinds(), whoAmI()]);
  if (!token() || !me) {
    root.replaceChildren(h("h1", {}, "My games"),
      h("section", {class: "panel", "data-testid": "mygames-signed-out"},
        h("p", {}, "You are not signed in: register a name in the lobby, then your tables are listed here."),
        h("p", {}, h("a", {href: "/", "data-link": true, class: "button page-action"}, "Go to the lobby"))));
    return null;
  }
  const nameOf = (kind) => (kinds.find((k) => k.kind === kind) || {name: kind}).name;
  const data = await gql(MY_TABLES, {player: me.id, first: 30});
  const over = [...data.finished.nodes, ...data.abandoned.nodes]
    .sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : -1));
  const lists = [
    ["open", "Open tables", data.open.nodes, "You wait at no open table."],
    ["running", "Running games", data.running.nodes, "You play no running game."],
    ["finished", "Finished games", over, "No game of yours is over yet."],
  ];
  root.replaceChildren(
    h("h1", {}, "My games"),
    h("p", {}, `Signed in as ${(player() || me).name}. Your ratings, their history and your `
      + "recent rated games are on your profile."),
    h("p", {}, h("a", {href: profilePath(me.id), "data-link": true, class: "button page-action",
      "data-testid": "my-profile"}, "Your profile")),
    h("div", {class: "mygames"}, lists.map(([kind, title, nodes, empty]) =>
      h("section", {class: "panel", "aria-labelledby": `mine-${kind}-title`, "data-testid": `mine-${kind}`},
        h("h2", {id: `mine-${kind}-title`}, `${title} (${nodes.length})`),
        nodes.length
          ? h("ul", {class: "game-list"}, nodes.map((s) => item(s, {me: me.id, nameOf, kind})))
          : h("p", {class: "muted"}, empty)))));
  return null;
}
