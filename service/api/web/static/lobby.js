// The lobby: register, open tables (with options and free seats), create a table of any game
// the server plays (`gameKinds`) with every option its board module offers, join, add bots, the
// running games to watch; live from lobbyChanged.

import {gql, player, setToken, subscribe, token, whoAmI} from "./api.js";
import {coalesced, navigate, problem, renderWho} from "./app.js";
import {boardOf, gameKinds} from "./kinds.js";
import {ADD_BOT, JOIN_GAME, LOBBY, LOBBY_CHANGED, MY_GAMES, REGISTER} from "./queries.js";
import {h} from "./svg.js";
import {levelSelect, tableForm} from "./tableform.js";

// A one-line description of a table's options: the game's own (in its board's words), who
// starts, the time control.
function describeOptions(board, options, clock = null) {
  if (!options) return "";
  const parts = [board ? board.describeOptions(options) : JSON.stringify(options)];
  if (options.start_player !== undefined && options.start_player !== "random") {
    parts.push(`seat ${options.start_player} starts`);
  }
  parts.push(describeClock(clock));
  return parts.filter(Boolean).join(" · ");
}

function minutes(ms) {
  const s = Math.round(ms / 1000);
  return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
}

// A table's time control in words ("" for none): `Game.clock` (its enums upper-case) or
// createGame's `clock` option (lower-case).
export function describeClock(clock) {
  const mode = clock && clock.mode ? clock.mode.toLowerCase() : "none";
  if (mode === "none") return "";
  const when = (clock.onExpiry || "").toLowerCase() === "abandon" ? "abandoned on expiry"
    : `a ${clock.bot || "random"} bot takes over on expiry`;
  if (mode === "move") return `${minutes(clock.moveMs)} per move, ${when}`;
  return `${minutes(clock.bankMs)} + ${Math.round((clock.incrementMs || 0) / 1000)} s per move, ${when}`;
}

function seatList(summary) {
  const taken = new Map(summary.seats.filter((s) => s.isBot || s.playerId).map((s) => [s.seat, s]));
  const total = summary.seats.length >= taken.size + summary.freeSeats
    ? summary.seats.length : taken.size + summary.freeSeats;
  const items = [];
  for (let seat = 0; seat < total; seat += 1) {
    const who = taken.get(seat);
    items.push(h("li", {class: who ? "taken" : "free"},
      `Seat ${seat}: `, who ? (who.isBot ? who.name || "a bot" : who.name || "a player") : "free"));
  }
  return h("ul", {class: "seats"}, items);
}

export async function showLobby(root) {
  let alive = true;
  const [kinds] = await Promise.all([gameKinds(), whoAmI()]);
  // every game's board module: its option controls and the words for its tables' options
  const boards = new Map(await Promise.all(kinds.map(async (k) => [k.kind, await boardOf(k.kind)])));
  const kindInfo = (kind) => kinds.find((k) => k.kind === kind);
  const status = h("p", {class: "live", "data-testid": "live", "aria-live": "polite"}, "Connecting…");
  const message = h("div", {"aria-live": "assertive"});
  const tables = h("div", {"data-testid": "open-tables"});
  const running = h("div", {"data-testid": "running-games"});
  const mine = h("div", {"data-testid": "my-games"});
  const account = h("section", {class: "panel", "aria-labelledby": "account-title"});
  const create = h("section", {class: "panel", "aria-labelledby": "create-title"});

  function signedIn() {
    return Boolean(token());
  }

  async function run(work) {
    message.replaceChildren();
    try {
      return await work();
    } catch (failure) {
      message.replaceChildren(problem(failure));
      return null;
    }
  }

  function drawAccount() {
    account.replaceChildren(h("h2", {id: "account-title"}, "Your account"));
    if (signedIn()) {
      const who = player();
      account.append(h("p", {}, `You play as `, h("strong", {}, who ? who.name : "a player"),
        ". Your token is kept in this browser only."), h("h3", {}, "Your games"), mine);
      return;
    }
    const name = h("input", {id: "register-name", name: "name", required: true, maxlength: 40,
      autocomplete: "nickname", "data-testid": "register-name"});
    const form = h("form", {class: "row", "data-testid": "register-form"},
      h("label", {for: "register-name"}, "Name"), name,
      h("button", {type: "submit", "data-testid": "register"}, "Register"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = await run(() => gql(REGISTER, {name: name.value.trim()}));
      if (!data) return;
      setToken(data.registerPlayer.token, data.registerPlayer.player);
      renderWho();
      restartLive();
      drawAccount();
      drawCreate();
      refresh();
    });
    account.append(h("p", {}, "Register a name to play; watching needs no account."), form);
  }

  function drawCreate() {
    create.replaceChildren(h("h2", {id: "create-title"}, "Create a table"));
    if (!signedIn()) {
      create.append(h("p", {}, "Register first to create a table."));
      return;
    }
    create.append(tableForm({kinds, boards, run, created: () => refresh()}));
  }

  function tableItem(summary, {open}) {
    const me = player();
    const seated = me && summary.seats.some((s) => s.playerId === me.id);
    const buttons = [];
    if (open && signedIn()) {
      if (!seated) {
        buttons.push(h("button", {type: "button", "data-testid": `join-${summary.gameId}`,
          onclick: () => seatAction(JOIN_GAME, summary.gameId, "joinGame")}, "Join"));
      }
      const level = levelSelect(`bot-level-${summary.gameId}`, "level of the bot to add");
      // the lists are drawn again on every lobby change: the level chosen stays chosen
      if (levels.has(summary.gameId)) level.value = levels.get(summary.gameId);
      level.addEventListener("change", () => levels.set(summary.gameId, level.value));
      buttons.push(level, h("button", {type: "button", "data-testid": `bot-${summary.gameId}`,
        onclick: () => seatAction(ADD_BOT, summary.gameId, "addBot", {strategy: level.value})}, "Add a bot"));
    }
    buttons.push(h("a", {href: `/games/${encodeURIComponent(summary.gameId)}`, "data-link": true,
      class: "button", "data-testid": `open-${summary.gameId}`}, open ? "Open" : (seated ? "Play" : "Watch")));
    return h("li", {class: "table", "data-testid": `table-${summary.gameId}`, "data-kind": summary.kind},
      h("div", {class: "table-head"},
        h("strong", {}, kindInfo(summary.kind) ? kindInfo(summary.kind).name : summary.kind),
        h("span", {class: "muted"}, ` · ${summary.seats.length} seats · `),
        h("span", {"data-testid": "free-seats"}, `${summary.freeSeats} free`),
        summary.ranked ? null : h("span", {class: "muted"}, ` · unranked (${summary.unrankedReason})`)),
      h("div", {class: "muted", "data-testid": "options"},
        describeOptions(boards.get(summary.kind), summary.options, clocks.get(summary.gameId))),
      seatList(summary),
      h("div", {class: "row"}, buttons));
  }

  async function seatAction(mutation, gameId, field, extra = {}) {
    const data = await run(() => gql(mutation, {gameId, ...extra}));
    if (!data) return;
    const game = data[field];
    if (game.status === "ACTIVE" && game.mySeat !== null && game.mySeat !== undefined) {
      navigate(`/games/${encodeURIComponent(game.id)}`);
      return;
    }
    refresh();
  }

  function list(container, nodes, empty, options) {
    // drawn again on every lobby change: the control that had the keyboard's focus (a table's
    // Join, bot level or Open) has it again, so that a change elsewhere does not throw a
    // keyboard or screen-reader user back to the top of the page
    const focused = document.activeElement;
    const testid = focused && container.contains(focused) ? focused.dataset.testid : null;
    container.replaceChildren(nodes.length
      ? h("ul", {class: "tables"}, nodes.map((s) => tableItem(s, options)))
      : h("p", {class: "muted"}, empty));
    if (testid) {
      const again = container.querySelector(`[data-testid="${CSS.escape(testid)}"]`);
      if (again) again.focus();
    }
  }

  let clocks = new Map(); // open tables' time controls, by game id (none: not timed)
  const levels = new Map(); // the bot level chosen for a table, by game id
  const refresh = coalesced(async () => {
    try {
      const data = await gql(LOBBY, {first: 50});
      if (!alive) return;
      clocks = new Map(data.timed.nodes.map((game) => [game.id, game.clock]));
      const open = new Set(data.lobby.nodes.map((s) => s.gameId));
      for (const id of levels.keys()) if (!open.has(id)) levels.delete(id); // tables gone
      list(tables, data.lobby.nodes, "No open table: create one.", {open: true});
      list(running, data.running.nodes, "No game is running.", {open: false});
      const me = player();
      if (signedIn() && me) {
        const games = await gql(MY_GAMES, {player: me.id});
        if (!alive) return;
        const active = games.gameSummaries.nodes.filter((s) => s.status === "ACTIVE" || s.status === "OPEN");
        list(mine, active, "You sit at no running table.", {open: false});
      }
      tables.dataset.loaded = "true";
    } catch (failure) {
      if (alive) message.replaceChildren(problem(failure));
    }
  }, () => alive);

  let timer = null;
  let stop = null;
  function restartLive() {
    if (stop) stop();
    stop = subscribe(LOBBY_CHANGED, {}, () => {
      status.textContent = "Live: updated as tables change.";
      clearTimeout(timer);
      timer = setTimeout(refresh, 100);
    }, (failure) => {
      status.textContent = `Live updates stopped: ${failure.message} (${failure.code})`;
    }, {onReconnecting: () => {
      status.textContent = "Reconnecting…";
    }});
    status.textContent = "Live: updated as tables change.";
  }

  root.replaceChildren(
    h("h1", {}, "Lobby"),
    status,
    message,
    h("div", {class: "columns"},
      h("div", {}, account, create),
      h("div", {},
        h("section", {class: "panel", "aria-labelledby": "open-title"},
          h("h2", {id: "open-title"}, "Open tables"), tables),
        h("section", {class: "panel", "aria-labelledby": "running-title"},
          h("h2", {id: "running-title"}, "Running games"), running))));
  drawAccount();
  drawCreate();
  restartLive();
  await refresh();
  return () => {
    alive = false;
    clearTimeout(timer);
    if (stop) stop();
  };
}
