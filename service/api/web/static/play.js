// The game page while a game runs: the board (the game's board module, kinds.js), the legal
// actions without a place on it as buttons, errors as the server words them, undo requests and
// answers, live from gameChanged. A spectator (no token) sees the spectator view. A finished game
// opens the replay viewer (replay.js); "Replay" opens it at the current version.

import {gql, subscribe, token} from "./api.js";
import {coalesced, navigate, problem} from "./app.js";
import {boardOf, kindOf, withBoard} from "./kinds.js";
import {ACT, ANSWER_UNDO, CATALOG, GAME, GAME_CHANGED, GAME_HEAD, RECLAIM_SEAT, REQUEST_UNDO} from "./queries.js";
import {h} from "./svg.js";

const catalogs = new Map();

export async function catalogOf(kind) {
  if (!catalogs.has(kind)) {
    catalogs.set(kind, gql(CATALOG, {kind}).then((data) => data.catalog).catch((failure) => {
      catalogs.delete(kind);
      throw failure;
    }));
  }
  return catalogs.get(kind);
}

export function seatNames(game) {
  const names = {};
  for (const seat of game.seats) {
    names[seat.seat] = seat.isBot ? `Bot ${seat.seat}` : seat.player ? seat.player.name : `Seat ${seat.seat}`;
  }
  return names;
}

// "1:05:09", "4:07", "0:03" from milliseconds (never negative)
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

// What a seat has left at this instant: the server read `remainingMs` when it answered
// (`readAt`, this browser's time); a running seat's time has counted down since.
function leftNow(seatClock, readAt) {
  return seatClock.running ? seatClock.remainingMs - (Date.now() - readAt) : seatClock.remainingMs;
}

function noSuchGame(root, gameId) {
  root.replaceChildren(h("section", {class: "panel"}, h("h1", {}, "No such game"),
    h("p", {class: "error", role: "alert", "data-testid": "error"}, `There is no game ${gameId}.`),
    h("p", {}, h("a", {href: "/", "data-link": true}, "Back to the lobby"))));
  return null;
}

const over = (game) => game.status === "FINISHED" || game.status === "ABANDONED";

async function replayOf(root, gameId) {
  const {showReplay} = await import("./replay.js");
  return showReplay(root, {gameId, version: null});
}

export async function showPlay(root, {gameId}) {
  // the game's kind first: its board says what to ask of the game
  const head = await gql(GAME_HEAD, {id: gameId});
  if (!head.game) return noSuchGame(root, gameId);
  if (over(head.game)) return replayOf(root, gameId);
  const [board, catalog, known] = await Promise.all([
    boardOf(head.game.kind), catalogOf(head.game.kind), kindOf(head.game.kind),
  ]);
  const first = await gql(withBoard(GAME, board), {id: gameId});
  if (!first.game) return noSuchGame(root, gameId);
  if (over(first.game)) return replayOf(root, gameId);
  let game = first.game;
  let alive = true;
  let busy = false;

  const heading = h("h1", {});
  const facts = h("p", {class: "facts", "aria-live": "polite"});
  const live = h("span", {class: "live", "data-testid": "live"}, "Connecting…");
  const message = h("div", {"aria-live": "assertive", "data-testid": "messages"});
  const boardBox = h("div", {class: "board-box", "data-testid": "board"});
  const actions = h("div", {class: "actions", "data-testid": "actions"});
  const undo = h("div", {class: "undo", "data-testid": "undo"});
  const clockBox = h("div", {class: "clock", "data-testid": "clock"});
  let readAt = Date.now();
  const replay = h("button", {type: "button", "data-testid": "replay", onclick: () =>
    navigate(`/games/${encodeURIComponent(gameId)}?v=${game.version}`)}, "Replay");

  root.replaceChildren(
    h("div", {class: "game-head"}, heading, h("div", {class: "row"}, live, replay,
      h("a", {href: "/", "data-link": true, class: "button"}, "Lobby"))),
    facts, message,
    h("div", {class: "play"}, boardBox,
      h("aside", {class: "side", "aria-label": "Your moves"},
        clockBox, h("h2", {}, "Moves"), actions, h("h2", {}, "Undo"), undo)));

  async function act(action) {
    if (busy) return;
    busy = true;
    message.replaceChildren();
    root.classList.add("busy");
    try {
      await gql(ACT, {gameId, action, expectedVersion: game.version});
    } catch (failure) {
      message.replaceChildren(problem(failure));
    } finally {
      busy = false;
      root.classList.remove("busy");
    }
    refresh(); // the subscription refreshes too; whichever comes first draws the new version
  }

  async function mutate(document, variables) {
    message.replaceChildren();
    try {
      await gql(document, variables);
    } catch (failure) {
      message.replaceChildren(problem(failure));
    }
    refresh();
  }

  function drawUndo() {
    undo.replaceChildren();
    const request = game.undoRequest;
    if (!game.undoAllowed) {
      undo.append(h("p", {class: "muted"}, "Undo is off at this table (ranked play)."));
      return;
    }
    if (request) {
      undo.append(h("p", {"data-testid": "undo-request"},
        `Seat ${request.seat} asks to take actions back to version ${request.toVersion}; waiting for seat(s) ${request.waiting.join(", ")}.`));
      if (game.mySeat !== null && request.waiting.includes(game.mySeat)) {
        undo.append(h("div", {class: "row"},
          h("button", {type: "button", "data-testid": "undo-accept", onclick: () => mutate(ANSWER_UNDO, {gameId, accept: true})}, "Accept the undo"),
          h("button", {type: "button", "data-testid": "undo-refuse", onclick: () => mutate(ANSWER_UNDO, {gameId, accept: false})}, "Refuse")));
      }
      return;
    }
    if (game.mySeat === null || game.mySeat === undefined) {
      undo.append(h("p", {class: "muted"}, "Spectators cannot undo."));
      return;
    }
    const can = game.canUndo;
    undo.append(h("button", {type: "button", "data-testid": "undo-request-button", disabled: !can.allowed,
      onclick: () => mutate(REQUEST_UNDO, {gameId})},
    can.immediate ? "Undo my last action" : "Ask to undo my last action"),
    h("p", {class: "muted small"}, can.reason));
  }

  // The table's clock (timed tables only): every seat's time, ticking for the seats on the
  // clock, who is played by a bot since their time ran out, and the way back for the viewer.
  function drawClock() {
    const clock = game.clock;
    clockBox.replaceChildren();
    if (!clock) return;
    const names = seatNames(game);
    const rule = clock.mode === "MOVE" ? `${clockText(clock.moveMs)} per move`
      : `${clockText(clock.bankMs)} + ${Math.round(clock.incrementMs / 1000)} s per move`;
    const expiry = clock.onExpiry === "ABANDON" ? "the game is abandoned when a time runs out"
      : `a ${clock.bot} bot takes a seat over when its time runs out`;
    clockBox.append(h("h2", {}, "Clock"), h("p", {class: "muted small"}, `${rule}; ${expiry}.`));
    const bots = new Set(game.seats.filter((seat) => seat.isBot).map((seat) => seat.seat));
    clockBox.append(h("ul", {class: "clock-seats"}, clock.seats.map((seatClock) => h("li", {
      class: seatClock.running ? "running" : "", "data-testid": `clock-${seatClock.seat}`,
    },
    h("span", {}, names[seatClock.seat] || `Seat ${seatClock.seat}`), " ",
    bots.has(seatClock.seat) && !seatClock.takenOver
      ? h("span", {class: "muted"}, "a bot: not timed")
      : h("strong", {"data-remaining": String(seatClock.seat)}, clockText(leftNow(seatClock, readAt))),
    seatClock.running ? h("span", {class: "muted"}, " · on the clock") : "",
    seatClock.takenOver ? h("span", {class: "badge", "data-testid": `taken-over-${seatClock.seat}`}, " played by a bot") : "",
    seatClock.timedOut && !seatClock.takenOver ? h("span", {class: "muted"}, " (timed out once)") : ""))));
    const mine = game.mySeat !== null && game.mySeat !== undefined
      ? clock.seats.find((c) => c.seat === game.mySeat) : null;
    if (mine && mine.takenOver && game.status === "ACTIVE") {
      clockBox.append(h("button", {type: "button", "data-testid": "reclaim",
        onclick: () => mutate(RECLAIM_SEAT, {gameId})}, "Reclaim my seat"));
    }
  }

  function tickClock() {
    if (!game.clock) return;
    for (const seatClock of game.clock.seats) {
      const cell = clockBox.querySelector(`[data-remaining="${seatClock.seat}"]`);
      if (cell) cell.textContent = clockText(leftNow(seatClock, readAt));
    }
  }
  const ticker = setInterval(tickClock, 1000);

  function draw() {
    drawClock();
    const names = seatNames(game);
    const you = game.mySeat !== null && game.mySeat !== undefined ? `you are ${names[game.mySeat]} (seat ${game.mySeat})` : "you are watching (spectator view)";
    heading.textContent = `${known ? known.name : game.kind} · ${game.status === "OPEN" ? "waiting for players" : game.status.toLowerCase()}`;
    const turn = game.activeSeats.length ? `to act: ${game.activeSeats.map((s) => names[s] || `seat ${s}`).join(", ")}` : "nobody to act";
    facts.replaceChildren(
      h("span", {"data-testid": "version"}, `version ${game.version}`), " · ",
      h("span", {"data-testid": "turn"}, turn), " · ",
      h("span", {"data-testid": "you"}, you),
      game.ranked ? "" : ` · unranked (${game.unrankedReason})`);
    if (!game.view) {
      boardBox.replaceChildren(h("p", {class: "muted"}, "The game starts when every seat is taken."));
      actions.replaceChildren();
      drawUndo();
      return;
    }
    const unplaced = board.drawBoard(boardBox, {
      view: game.view, state: game.state, catalog, legalActions: game.moves, seat: game.mySeat,
      onAction: act, names,
    });
    actions.replaceChildren();
    if (!game.moves.length) {
      actions.append(h("p", {class: "muted", "data-testid": "no-moves"},
        game.status === "FINISHED" ? "The game is over." : game.mySeat === null || game.mySeat === undefined ? "Spectating." : "Not your turn."));
    } else if (!unplaced.length) {
      actions.append(h("p", {class: "muted"}, "Choose a highlighted place on the board."));
    } else {
      actions.append(h("ul", {class: "move-list"}, unplaced.map((move) => {
        const index = game.moves.indexOf(move);
        return h("li", {}, h("button", {type: "button", "data-move": String(index), onclick: () => act(move.action)}, move.label));
      })));
    }
    if (game.status === "FINISHED" && game.result) {
      actions.append(h("p", {"data-testid": "result"}, `Final scores: ${game.result.scores.join(" – ")}`));
    }
    drawUndo();
    root.dataset.version = String(game.version);
    root.dataset.status = game.status;
  }

  const refresh = coalesced(async () => {
    try {
      const data = await gql(withBoard(GAME, board), {id: gameId});
      if (!alive || !data.game) return;
      game = data.game; // one read at a time: answers arrive in order
      readAt = Date.now();
      draw();
    } catch (failure) {
      if (alive) message.replaceChildren(problem(failure));
    }
  }, () => alive);

  let seen = game.version;
  const stop = subscribe(GAME_CHANGED, () => ({gameId, afterVersion: seen}), (data) => {
    const change = data.gameChanged;
    seen = Math.max(seen, change.version);
    live.textContent = `Live · version ${change.version}`;
    refresh();
  }, (failure) => {
    live.textContent = `Live updates stopped: ${failure.message} (${failure.code})`;
  }, {
    onReconnecting: () => {
      live.textContent = "Reconnecting…";
    },
    onComplete: () => {
      live.textContent = "The game is over.";
      refresh();
    },
  });
  live.textContent = token() ? "Live" : "Live (spectator)";
  draw();
  let resized = null;
  const onResize = () => {
    clearTimeout(resized);
    resized = setTimeout(() => game.view && draw(), 150);
  };
  window.addEventListener("resize", onResize);
  return () => {
    alive = false;
    stop();
    clearInterval(ticker);
    window.removeEventListener("resize", onResize);
  };
}
