// The game page while a game runs: the board (the game's board module, kinds.js), the legal
// actions without a place on it as buttons, errors as the server words them, undo requests and
// answers, live from gameChanged. A spectator (no token) sees the spectator view. A finished game
// opens the replay viewer (replay.js); "Replay" opens it at the current version.
//
// Keyboard and screen readers (issue #24): the page opens with the focus on its heading; every
// move is a focusable control with the move's words as its name (the boards' places, the list's
// buttons), Enter or Space plays it; after a move or an undo request the focus is on the status
// line ("Your turn.", "Bot 2 (mcts) is playing."), which the next Tab leaves for the board's first
// place (the arrow keys go from place to place on the board); a redraw gives the focus back to
// the control that had it. The live region (a11y.js)
// says each turn change, what the other seats played (from the events gameChanged brings, in the
// board's words: its describeEvent), undo requests and answers. "Skip to the board" is shown.

import {announce, focusLost, focusOn, keepFocus, seatName, seatNumber, seatTitle, showSkipToBoard} from "./a11y.js";
import {gql, subscribe, token} from "./api.js";
import {coalesced, navigate, problem} from "./app.js";
import {boardOf, kindOf, withBoard} from "./kinds.js";
import {ACT, ANSWER_UNDO, CATALOG, GAME, GAME_CHANGED, GAME_HEAD, RECLAIM_SEAT, REQUEST_UNDO} from "./queries.js";
import {h} from "./svg.js";
import {setYourTurn} from "./yourturn.js";

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

const seatEntry = (seat) => ({seat: seat.seat, isBot: seat.isBot, strategy: seat.strategy,
  name: seat.player ? seat.player.name : null});

// Each seat's name as the boards show it: a person's name, "Bot 2 (mcts)", "Seat 3" (free).
export function seatNames(game) {
  const names = {};
  for (const seat of game.seats) names[seat.seat] = seatName(seatEntry(seat));
  return names;
}

// Each seat's name with its number where the name does not say it: "Ann (seat 1)", "Bot 2 (mcts)".
export function seatTitles(game) {
  const titles = {};
  for (const seat of game.seats) titles[seat.seat] = seatTitle(seatEntry(seat));
  return titles;
}

const words = (id) => String(id ?? "").replace(/_/g, " ");

// A seat's move in a few words: the board's own (describeEvent: null for an event that is no
// one's choice, such as a delivery or the end of a round), else, for an event about the seat
// that recorded it, its type and plain values; null for one not worth telling.
export function describeEvent(board, event) {
  const told = board && board.describeEvent ? board.describeEvent(event) : undefined;
  if (told !== undefined && told !== null) return told;
  const actor = event.bySeat ?? event.seat;
  if (event.seat !== actor) return null;
  const values = Object.entries(event.data || {})
    .filter(([key, value]) => value !== null && value !== undefined && typeof value !== "object"
      && !/^(seat|player|by_seat)$/.test(key)) // the seat is named already
    .slice(0, 3).map(([key, value]) => `${words(key)} ${words(value)}`);
  return `${words(event.type)}${values.length ? ` (${values.join(", ")})` : ""}`;
}

// Whose turn it is, in a sentence.
function turnText(game, names) {
  if (game.status === "OPEN") return "Waiting for players: the game starts when every seat is taken.";
  if (game.status === "ABANDONED") return "The game was abandoned.";
  if (game.status === "FINISHED") {
    const who = (s) => names[s] || `Seat ${seatNumber(s)}`;
    const winners = game.result ? game.result.winners.map(who) : [];
    const scores = game.result ? game.result.scores.map((score, s) => `${who(s)} ${score}`) : [];
    return `The game is over${winners.length ? `: ${winners.join(" and ")} won` : ""}.${
      scores.length ? ` Scores: ${scores.join(", ")}.` : ""}`;
  }
  const mine = game.mySeat !== null && game.mySeat !== undefined && game.activeSeats.includes(game.mySeat);
  const others = game.activeSeats.filter((s) => s !== game.mySeat).map((s) => names[s] || `Seat ${seatNumber(s)}`);
  if (mine) return others.length ? `Your turn (${others.join(", ")} too).` : "Your turn.";
  if (!others.length) return "Nobody is to act.";
  return `${others.join(" and ")} ${others.length > 1 ? "are" : "is"} playing.`;
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
  const heading = h("h1", {}, "No such game");
  root.replaceChildren(h("section", {class: "panel"}, heading,
    h("p", {class: "error", role: "alert", "data-testid": "error"}, `There is no game ${gameId}.`),
    h("p", {}, h("a", {href: "/", "data-link": true}, "Back to the lobby"))));
  focusOn(heading); // not left on <body>: the next Tab reaches "Back to the lobby"
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
  let drawnText = JSON.stringify(game); // the game drawn, as read
  let alive = true;
  let busy = false;

  const heading = h("h1", {tabindex: "-1", "data-testid": "game-heading"});
  // (not a live region: it changes on every version; the live region says what matters)
  const facts = h("p", {class: "facts"});
  // whose turn it is: where the focus goes after a move
  const statusLine = h("p", {class: "status-line", tabindex: "-1", "data-testid": "status-line"});
  const live = h("span", {class: "live", "data-testid": "live"}, "Connecting…");
  const message = h("div", {"aria-live": "assertive", "data-testid": "messages"});
  const boardBox = h("div", {class: "board-box", "data-testid": "board", id: "board", tabindex: "-1",
    role: "region", "aria-label": "The board"});
  const actions = h("div", {class: "actions", "data-testid": "actions"});
  const undo = h("div", {class: "undo", "data-testid": "undo"});
  const clockBox = h("div", {class: "clock", "data-testid": "clock"});
  let readAt = Date.now();
  const replay = h("button", {type: "button", "data-testid": "replay", onclick: () =>
    navigate(`/games/${encodeURIComponent(gameId)}?v=${game.version}`)}, "Replay");

  root.replaceChildren(
    h("div", {class: "game-head"}, heading, h("div", {class: "row"}, live, replay,
      h("a", {href: "/", "data-link": true, class: "button"}, "Lobby"))),
    facts, statusLine, message,
    h("div", {class: "play"}, boardBox,
      h("aside", {class: "side", "aria-label": "Your moves"},
        clockBox, h("h2", {}, "Moves"), actions, h("h2", {}, "Undo"), undo)));

  async function act(action) {
    if (busy) return;
    busy = true;
    acted = true;
    // the control played goes away with the redraw: the focus waits on the status line
    statusLine.textContent = "Playing your move…";
    focusOn(statusLine, {scroll: false});
    message.replaceChildren();
    root.classList.add("busy");
    try {
      await gql(ACT, {gameId, action, expectedVersion: game.version});
    } catch (failure) {
      message.replaceChildren(problem(failure));
      statusLine.textContent = turnText(game, seatNames(game)); // the game as drawn still holds
    } finally {
      busy = false;
      root.classList.remove("busy");
    }
    refresh(); // the subscription refreshes too; whichever comes first draws the new version
  }

  async function mutate(document, variables, done = "") {
    message.replaceChildren();
    focusOn(statusLine, {scroll: false}); // the button pressed goes away with the redraw
    try {
      await gql(document, variables);
      announce(done);
    } catch (failure) {
      message.replaceChildren(problem(failure));
    }
    acted = true;
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
      const titles = seatTitles(game);
      const who = (s) => (s === game.mySeat ? "you" : titles[s] || `seat ${seatNumber(s)}`);
      undo.append(h("p", {"data-testid": "undo-request"},
        `${request.seat === game.mySeat ? "You ask" : `${titles[request.seat] || `Seat ${seatNumber(request.seat)}`} asks`} to take actions back to version ${request.toVersion}; waiting for ${request.waiting.map(who).join(", ")}.`));
      if (game.mySeat !== null && request.waiting.includes(game.mySeat)) {
        undo.append(h("div", {class: "row"},
          h("button", {type: "button", "data-testid": "undo-accept", onclick: () => mutate(ANSWER_UNDO, {gameId, accept: true}, "You accepted the undo.")}, "Accept the undo"),
          h("button", {type: "button", "data-testid": "undo-refuse", onclick: () => mutate(ANSWER_UNDO, {gameId, accept: false}, "You refused the undo.")}, "Refuse")));
      }
      return;
    }
    if (game.mySeat === null || game.mySeat === undefined) {
      undo.append(h("p", {class: "muted"}, "Spectators cannot undo."));
      return;
    }
    const can = game.canUndo;
    undo.append(h("button", {type: "button", "data-testid": "undo-request-button", disabled: !can.allowed,
      onclick: () => mutate(REQUEST_UNDO, {gameId},
        can.immediate ? "Your last action is taken back." : "You asked to undo your last action; the others must agree.")},
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
    h("span", {}, names[seatClock.seat] || `Seat ${seatNumber(seatClock.seat)}`), " ",
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
        onclick: () => mutate(RECLAIM_SEAT, {gameId}, "You have your seat back.")}, "Reclaim my seat"));
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
    // the title and favicon say "your turn" while this tab is hidden (yourturn.js)
    setYourTurn(game.status === "ACTIVE" && game.mySeat !== null && game.mySeat !== undefined
      && game.activeSeats.includes(game.mySeat));
    const names = seatNames(game);
    const you = game.mySeat !== null && game.mySeat !== undefined ? `you are ${names[game.mySeat]} (seat ${seatNumber(game.mySeat)})` : "you are watching (spectator view)";
    heading.textContent = `${known ? known.name : game.kind} · ${game.status === "OPEN" ? "waiting for players" : game.status.toLowerCase()}`;
    const turn = game.activeSeats.length ? `to act: ${game.activeSeats.map((s) => names[s] || `seat ${seatNumber(s)}`).join(", ")}` : "nobody to act";
    statusLine.textContent = turnText(game, names);
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
      // one read at a time: answers arrive in order; the same game read again (gameChanged's
      // wake-ups after a read that had their versions already) is not drawn again: a redraw
      // would move nothing, yet a key pressed on a place during it would be lost
      const text = JSON.stringify(data.game);
      if (text !== drawnText) {
        game = data.game;
        drawnText = text;
        readAt = Date.now();
        redraw();
      }
      tell();
    } catch (failure) {
      if (alive) message.replaceChildren(problem(failure));
    }
  }, () => alive);

  // What the live region says after a draw: what the other seats played since the last one
  // (the events gameChanged brought), undo requests and answers, and whose turn it is when that
  // changed (or the viewer has just acted: "Your turn." again after a bot's quick reply).
  let heard = []; // events gameChanged brought, not yet told
  let told = {turn: null, undo: null};
  let acted = false;
  let waiting = null; // a tell put off until gameChanged has brought the events drawn
  let waits = 0;
  function tell(first = false) {
    clearTimeout(waiting);
    if (!first && seen < game.version && waits < 5) {
      // drawn before gameChanged brought its events (a read right after a bot's quick reply):
      // what the bot played is told with whose turn it is, a moment later
      waits += 1;
      waiting = setTimeout(() => alive && tell(), 200);
      return;
    }
    waits = 0;
    const names = seatNames(game);
    const titles = seatTitles(game);
    const parts = [];
    const news = heard.filter((event) => event.version <= game.version);
    heard = heard.filter((event) => event.version > game.version);
    const by = new Map(); // actor -> descriptions, in order
    for (const event of news) {
      const actor = event.bySeat ?? event.seat;
      if (event.type === "undo_answered") {
        const data = event.data || {};
        if (actor !== game.mySeat) parts.push(`${titles[actor] || "A player"} ${data.accept ? "accepted" : "refused"} the undo.`);
        continue;
      }
      if (event.type === "actions_undone") {
        parts.push("Actions were taken back.");
        continue;
      }
      if (event.type === "undo_requested" || event.type === "game_started" || event.type === "seat_taken") continue;
      if (actor === null || actor === undefined || actor === game.mySeat || event.automatic || event.undone) continue;
      if (!by.has(actor)) by.set(actor, []);
      const said = describeEvent(board, event);
      if (said) by.get(actor).push(said);
    }
    for (const [actor, said] of by) {
      if (!said.length) continue;
      const shown = said.slice(0, 3).join("; ");
      parts.push(`${names[actor] || `Seat ${seatNumber(actor)}`}: ${shown}${said.length > 3 ? `, and ${said.length - 3} more` : ""}.`);
    }
    const request = game.undoRequest;
    if (request && request.seat !== game.mySeat && (!told.undo || told.undo !== request.version)) {
      const asked = game.mySeat !== null && request.waiting.includes(game.mySeat);
      parts.push(`${titles[request.seat] || `Seat ${seatNumber(request.seat)}`} asks to take actions back to version ${request.toVersion}.${
        asked ? " Accept or refuse it under Undo." : ""}`);
    }
    told.undo = request ? request.version : null;
    const turn = `${game.status}:${game.activeSeats.join(",")}`;
    if (first || acted || turn !== told.turn || parts.length) parts.push(turnText(game, names));
    if (first) {
      const me = game.mySeat !== null && game.mySeat !== undefined;
      parts.unshift(`${known ? known.name : game.kind}: ${me ? `you are ${names[game.mySeat]}, seat ${seatNumber(game.mySeat)}` : "you are watching"}.`);
    }
    told.turn = turn;
    acted = false;
    if (parts.length) announce(parts.join(" "));
  }

  // On the board, the arrow keys go from one place to play to the next (Home, End: the first,
  // the last), besides Tab.
  boardBox.addEventListener("keydown", (event) => {
    const step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
    const edge = {Home: "first", End: "last"}[event.key];
    if ((!step && !edge) || event.altKey || event.ctrlKey || event.metaKey) return;
    const places = [...boardBox.querySelectorAll("[role=button][tabindex='0']")];
    const at = places.indexOf(event.target);
    if (at < 0 || !places.length) return;
    event.preventDefault();
    const next = edge === "first" ? 0 : edge === "last" ? places.length - 1
      : (at + step + places.length) % places.length;
    places[next].focus();
  });

  // a redraw keeps the focus where it was (a move gone: the status line)
  function redraw() {
    keepFocus(root, draw, () => statusLine);
  }

  let seen = game.version;
  const stop = subscribe(GAME_CHANGED, () => ({gameId, afterVersion: seen}), (data) => {
    const change = data.gameChanged;
    seen = Math.max(seen, change.version);
    if (change.event) heard.push(change.event);
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
  showSkipToBoard(true);
  // arrived from the lobby (its button gone) or opened: the focus on the heading, not on a move
  if (focusLost()) focusOn(heading, {scroll: false});
  tell(true);
  let resized = null;
  const onResize = () => {
    clearTimeout(resized);
    resized = setTimeout(() => game.view && redraw(), 150);
  };
  window.addEventListener("resize", onResize);
  return () => {
    alive = false;
    clearTimeout(waiting);
    showSkipToBoard(false);
    stop();
    clearInterval(ticker);
    window.removeEventListener("resize", onResize);
  };
}
