// The lobby: register, open tables (with options and free seats), create a table of any game
// the server plays (`gameKinds`) with every option its board module offers, join, add bots, the
// running games to watch; live from lobbyChanged.
//
// Keyboard (issue #24): the main actions come first (signed in: the new table's game, seats and
// "Create the table", then its other options; signed out: Register); after
// every action the focus goes to the next control (Register: the new table's game; a new table or
// a join: that table's first control; a bot added: "Add a bot" again) and the live region says what
// happened; a table that fills moves to the game page with a word. Seats are numbered from 1 and
// bots named by seat and level ("Bot 2 (mcts)"), as on the board and in the replay (a11y.js).

import {announce, botName, focusLost, focusOn, levelOf, seatEntries, seatNumber} from "./a11y.js";
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
    parts.push(`seat ${seatNumber(options.start_player)} starts`);
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
  return h("ul", {class: "seats"}, seatEntries(summary).map(([seat, name, who]) =>
    h("li", {class: who ? "taken" : "free"}, `Seat ${seatNumber(seat)}: `, name)));
}

export async function showLobby(root) {
  let alive = true;
  const [kinds] = await Promise.all([gameKinds(), whoAmI()]);
  // every game's board module: its option controls and the words for its tables' options
  const boards = new Map(await Promise.all(kinds.map(async (k) => [k.kind, await boardOf(k.kind)])));
  const kindInfo = (kind) => kinds.find((k) => k.kind === kind);
  // (not a live region: it is set again on every change; a failure is announced)
  const status = h("p", {class: "live", "data-testid": "live"}, "Connecting…");
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
      drawColumns();
      drawAccount();
      drawCreate();
      announce(`Registered as ${data.registerPlayer.player.name}. Create a table below, or join an open one.`);
      focusOn(create.querySelector("select, input, button") || create);
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
    const form = tableForm({kinds, boards, run: runForm, created});
    create.append(condensed(form));
  }

  // The form with its main controls first: the first row (the game, the seats), then the submit
  // button, then every other option (the defaults are a good table: three Tabs to "Create").
  function condensed(form) {
    const submit = form.querySelector("button[type=submit]");
    const first = form.firstElementChild;
    if (!submit || !first || first === submit || first.contains(submit)) return form;
    const rest = [...form.children].filter((node) => node !== first && node !== submit && !node.contains(submit));
    form.replaceChildren(first, h("div", {class: "row"}, submit),
      h("p", {class: "muted small"}, "Or choose more options first:"), ...rest);
    return form;
  }

  // the table form's requests, through the page's run(): the last table created is remembered
  async function runForm(work) {
    const data = await run(work);
    if (data && data.createGame) lastCreated = data.createGame;
    return data;
  }

  async function created() {
    const made = lastCreated;
    await refresh();
    if (!made) return;
    const summary = openTables.get(made.id);
    const me = player();
    const seated = summary && me && summary.seats.some((s) => s.playerId === me.id);
    const known = kindInfo(made.kind);
    announce(`Table created: ${known ? known.name : made.kind} for ${made.seats.length}${
      seated ? `, you sit in seat ${seatNumber(summary.seats.find((s) => s.playerId === me.id).seat)}` : ""}. ${
      seated ? "Add a bot, or wait for other players." : "Join it, or add bots."}`);
    focusTable(made.id);
  }

  // The focus on a table's first control (its Join, bot level, Add a bot or Open), else on the
  // open tables' heading.
  function focusTable(gameId) {
    const item = tables.querySelector(`[data-testid="table-${CSS.escape(gameId)}"]`);
    const control = item && item.querySelector("button, select, a[href]");
    if (!focusOn(control)) focusOn(document.getElementById("open-title"));
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
    const before = openTables.get(gameId);
    const data = await run(() => gql(mutation, {gameId, ...extra}));
    if (!data) return;
    const game = data[field];
    const joined = field === "joinGame";
    if (game.status === "ACTIVE" && game.mySeat !== null && game.mySeat !== undefined) {
      // the table is full: the game page takes the focus (its heading) and says whose turn it is
      announce(`${joined ? `You took seat ${seatNumber(game.mySeat)}. ` : ""}The table is full: the game starts. Opening the game page.`);
      navigate(`/games/${encodeURIComponent(game.id)}`);
      return;
    }
    await refresh();
    const after = openTables.get(gameId);
    if (joined) {
      announce(game.mySeat !== null && game.mySeat !== undefined
        ? `You took seat ${seatNumber(game.mySeat)}.${after ? ` ${after.freeSeats} seat${after.freeSeats === 1 ? "" : "s"} still free.` : ""}`
        : "You joined the table.");
      focusTable(gameId);
      return;
    }
    const bots = (summary) => new Set(summary ? summary.seats.filter((s) => s.isBot).map((s) => s.seat) : []);
    const had = bots(before);
    const added = after ? after.seats.find((s) => s.isBot && !had.has(s.seat)) : null;
    announce(`${added ? `${botName(added.seat, levelOf(added.name) || extra.strategy)} takes seat ${seatNumber(added.seat)}` : `A ${extra.strategy || ""} bot joined`}.${
      after ? ` ${after.freeSeats} seat${after.freeSeats === 1 ? "" : "s"} still free.` : ""}`);
    if (focusLost()) focusTable(gameId);
  }

  function list(container, nodes, empty, options) {
    // drawn again on every lobby change: the control that had the keyboard's focus (a table's
    // Join, bot level or Open) has it again, so that a change elsewhere does not throw a
    // keyboard or screen-reader user back to the top of the page; when that control is gone
    // (a Join once seated), its table's first control, else the list's heading
    // unchanged: not drawn again (a control being pressed stays the same control)
    const me = player();
    const signature = JSON.stringify([nodes, options, me ? me.id : null,
      nodes.map((s) => [clocks.get(s.gameId) || null, levels.get(s.gameId) || null])]);
    if (drawn.get(container) === signature) return;
    drawn.set(container, signature);
    const focused = document.activeElement;
    const inside = focused && container.contains(focused);
    const testid = inside ? focused.dataset.testid : null;
    const item = inside ? focused.closest("li.table") : null;
    const table = item ? item.dataset.testid : null;
    container.replaceChildren(nodes.length
      ? h("ul", {class: "tables"}, nodes.map((s) => tableItem(s, options)))
      : h("p", {class: "muted"}, empty));
    if (!inside) return;
    const again = testid ? container.querySelector(`[data-testid="${CSS.escape(testid)}"]`) : null;
    if (again && focusOn(again, {scroll: false})) return;
    const row = table ? container.querySelector(`[data-testid="${CSS.escape(table)}"]`) : null;
    const control = row && row.querySelector("button, select, a[href]");
    if (control && focusOn(control, {scroll: false})) return;
    const section = container.closest("section");
    focusOn(section && section.querySelector("h2, h3"), {scroll: false});
  }

  let clocks = new Map(); // open tables' time controls, by game id (none: not timed)
  const levels = new Map(); // the bot level chosen for a table, by game id
  let openTables = new Map(); // the open tables' summaries, by game id, as last drawn
  const drawn = new Map(); // each list's container -> what it shows (its data), as last drawn
  let waitingAt = new Set(); // the open tables where I sit, as last read
  let lastCreated = null; // the table this page created last ({id, kind, seats})
  const refresh = coalesced(async () => {
    try {
      const data = await gql(LOBBY, {first: 50});
      if (!alive) return;
      clocks = new Map(data.timed.nodes.map((game) => [game.id, game.clock]));
      openTables = new Map(data.lobby.nodes.map((summary) => [summary.gameId, summary]));
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
        // a table of mine that another player filled: said, not jumped to (the focus stays)
        for (const summary of active) {
          if (summary.status === "ACTIVE" && waitingAt.has(summary.gameId)) {
            const known = kindInfo(summary.kind);
            announce(`Your ${known ? known.name : summary.kind} table is full: the game has started. Its Play link is under Your games.`);
          }
        }
        waitingAt = new Set(active.filter((s) => s.status === "OPEN").map((s) => s.gameId));
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
      announce(status.textContent);
    }, {onReconnecting: () => {
      status.textContent = "Reconnecting…";
    }});
    status.textContent = "Live: updated as tables change.";
  }

  // the main action first: Register when signed out, the new table when signed in
  const first = h("div", {});
  function drawColumns() {
    first.replaceChildren(...(signedIn() ? [create, account] : [account, create]));
  }
  const heading = h("h1", {tabindex: "-1"}, "Lobby");
  // the lists a few Tabs away too: links that take the focus to their headings
  const jump = (target, text) => h("a", {href: `#${target}`, class: "button", "data-testid": `jump-${target}`,
    onclick: (event) => {
      event.preventDefault(); // no fragment: the router would take it for a new page
      focusOn(document.getElementById(target));
    }}, text);
  root.replaceChildren(
    heading,
    h("nav", {class: "row", "aria-label": "On this page"},
      jump("open-title", "Go to the open tables"), jump("running-title", "Go to the running games")),
    status,
    message,
    h("div", {class: "columns"},
      first,
      h("div", {},
        h("section", {class: "panel", "aria-labelledby": "open-title"},
          h("h2", {id: "open-title", tabindex: "-1"}, "Open tables"), tables),
        h("section", {class: "panel", "aria-labelledby": "running-title"},
          h("h2", {id: "running-title", tabindex: "-1"}, "Running games"), running))));
  drawColumns();
  drawAccount();
  drawCreate();
  restartLive();
  await refresh();
  // arrived from another page (its control gone): the focus on the lobby's heading
  if (focusLost()) focusOn(heading, {scroll: false});
  return () => {
    alive = false;
    clearTimeout(timer);
    if (stop) stop();
  };
}
