// The lobby: register, open tables (with options and free seats), create a table with every
// option of both games, join, add bots, the running games to watch; live from lobbyChanged.

import {gql, player, setToken, subscribe, token, whoAmI} from "./api.js";
import {coalesced, navigate, problem, renderWho} from "./app.js";
import {ADD_BOT, CREATE_GAME, JOIN_GAME, LOBBY, LOBBY_CHANGED, MY_GAMES, REGISTER} from "./queries.js";
import {h} from "./svg.js";

const KINDS = {
  IMHOTEP: {name: "Imhotep", min: 2, max: 4},
  AMUN_RE: {name: "Amun-Re", min: 3, max: 5},
};
const IMHOTEP_SITES = [
  ["market", "Market"], ["pyramids", "Pyramids"], ["temple", "Temple"],
  ["burial_chamber", "Burial chamber"], ["obelisks", "Obelisks"],
];
const IMHOTEP_COLOURS = ["black", "white", "brown", "gray"];
//: the bot levels a table offers (README "Bot levels"; addBot's `strategy`)
const BOT_LEVELS = [
  ["random", "random (instant, plays any legal move)"],
  ["greedy", "greedy (best immediate gain)"],
  ["mcts", "mcts (searches; the strongest)"],
];
const AMUNRE_FLAGS = [
  ["classic_bank_majority", "Classic bank majority"],
  ["no_farmer_points", "No farmer points"],
  ["afterlife", "Afterlife module"],
  ["statues", "Statues module"],
  ["pharaoh", "Pharaoh module"],
  ["promo_favours", "Promo Favour cards"],
];

// A one-line description of a table's options.
export function describeOptions(kind, options, clock = null) {
  const parts = [];
  if (!options) return "";
  if (kind === "IMHOTEP") {
    const sides = options.sides || {};
    const values = IMHOTEP_SITES.map(([key]) => sides[key] || "A");
    if (values.every((v) => v === values[0])) parts.push(`all sides ${values[0]}`);
    else parts.push(IMHOTEP_SITES.map(([key, label], i) => `${label} ${values[i]}`).join(", "));
    if (options.wrath_of_the_pharaoh) parts.push("Wrath of the Pharaoh");
    if (Array.isArray(options.colours) && options.colours.some((c, i) => c !== IMHOTEP_COLOURS[i])) {
      parts.push(`colours ${options.colours.join("/")}`);
    }
  } else {
    for (const [key, label] of AMUNRE_FLAGS) if (options[key]) parts.push(label);
    if (!parts.length) parts.push("base game");
  }
  if (options.start_player !== undefined && options.start_player !== "random") {
    parts.push(`seat ${options.start_player} starts`);
  }
  const timed = describeClock(clock);
  if (timed) parts.push(timed);
  return parts.join(" · ");
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

function levelSelect(id, label) {
  return h("select", {id, "data-testid": id, "aria-label": label},
    BOT_LEVELS.map(([value, text]) => h("option", {value}, text)));
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
  await whoAmI();
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
    const kind = h("select", {id: "create-kind", "data-testid": "create-kind"},
      Object.entries(KINDS).map(([value, k]) => h("option", {value}, k.name)));
    const seats = h("select", {id: "create-seats", "data-testid": "create-seats"});
    const seed = h("input", {id: "create-seed", "data-testid": "create-seed", maxlength: 200,
      placeholder: "empty: a ranked game"});
    const sit = h("input", {id: "create-sit", type: "checkbox", checked: true, "data-testid": "create-sit"});
    const start = h("select", {id: "create-start", "data-testid": "create-start"});
    const options = h("fieldset", {class: "options"});
    const controls = {};
    const clockMode = h("select", {id: "clock-mode", "data-testid": "clock-mode"},
      h("option", {value: "none"}, "none (untimed)"),
      h("option", {value: "move"}, "a deadline per move"),
      h("option", {value: "bank"}, "a time bank plus an increment"));
    const number = (id, value, min, label) => h("input", {id, "data-testid": id, type: "number",
      min, step: "any", value, "aria-label": label, class: "short"});
    const moveMinutes = number("clock-move", "1440", "0.02", "minutes per move");
    const bankMinutes = number("clock-bank", "10", "0.02", "minutes in the bank");
    const incrementSeconds = number("clock-increment", "20", "0", "seconds added after each move");
    const onExpiry = h("select", {id: "clock-expiry", "data-testid": "clock-expiry"},
      h("option", {value: "takeover"}, "a bot takes the seat over"),
      h("option", {value: "abandon"}, "the game is abandoned"));
    const takeoverLevel = levelSelect("clock-bot", "level of the bot that takes over");
    const clockBox = h("fieldset", {class: "options"}, h("legend", {}, "Time control"),
      h("div", {class: "row"}, h("label", {for: "clock-mode"}, "Clock"), clockMode));
    function drawClock() {
      clockBox.replaceChildren(h("legend", {}, "Time control"),
        h("div", {class: "row"}, h("label", {for: "clock-mode"}, "Clock"), clockMode));
      if (clockMode.value === "move") {
        clockBox.append(h("div", {class: "row"}, h("label", {for: "clock-move"}, "Minutes per move"), moveMinutes));
      } else if (clockMode.value === "bank") {
        clockBox.append(h("div", {class: "row"}, h("label", {for: "clock-bank"}, "Minutes in the bank"), bankMinutes),
          h("div", {class: "row"}, h("label", {for: "clock-increment"}, "Seconds added per move"), incrementSeconds));
      }
      if (clockMode.value !== "none") {
        clockBox.append(h("div", {class: "row"}, h("label", {for: "clock-expiry"}, "When time runs out"), onExpiry));
        if (onExpiry.value === "takeover") {
          clockBox.append(h("div", {class: "row"}, h("label", {for: "clock-bot"}, "Take-over bot"), takeoverLevel));
        }
      }
    }
    clockMode.addEventListener("change", drawClock);
    onExpiry.addEventListener("change", drawClock);
    drawClock();
    function chosenClock() {
      if (clockMode.value === "none") return null;
      const clock = {mode: clockMode.value, onExpiry: onExpiry.value};
      if (onExpiry.value === "takeover") clock.bot = takeoverLevel.value;
      if (clockMode.value === "move") clock.moveMs = Math.round(Number(moveMinutes.value) * 60000);
      else {
        clock.bankMs = Math.round(Number(bankMinutes.value) * 60000);
        clock.incrementMs = Math.round(Number(incrementSeconds.value) * 1000);
      }
      return clock;
    }

    function drawSeats() {
      const k = KINDS[kind.value];
      const before = Number(seats.value) || k.min;
      seats.replaceChildren(...Array.from({length: k.max - k.min + 1}, (_, i) => {
        const n = k.min + i;
        return h("option", {value: n, selected: n === Math.min(Math.max(before, k.min), k.max)}, `${n} players`);
      }));
      const n = Number(seats.value);
      start.replaceChildren(h("option", {value: "random"}, "random"),
        ...Array.from({length: n}, (_, i) => h("option", {value: i}, `seat ${i}`)));
    }

    function drawOptions() {
      options.replaceChildren(h("legend", {}, `${KINDS[kind.value].name} options`));
      for (const key of Object.keys(controls)) delete controls[key];
      if (kind.value === "IMHOTEP") {
        for (const [key, label] of IMHOTEP_SITES) {
          const id = `side-${key}`;
          controls[`side:${key}`] = h("select", {id, "data-testid": id},
            h("option", {value: "A"}, "side A"), h("option", {value: "B"}, "side B"));
          options.append(h("div", {class: "row"}, h("label", {for: id}, label), controls[`side:${key}`]));
        }
        controls.wrath = h("input", {id: "opt-wrath", type: "checkbox", "data-testid": "opt-wrath"});
        options.append(h("div", {class: "row check"}, controls.wrath,
          h("label", {for: "opt-wrath"}, "Wrath of the Pharaoh (−5 without a stone on every site)")));
        const n = Number(seats.value);
        const colours = h("div", {class: "row"}, h("span", {}, "Colours"));
        for (let i = 0; i < n; i += 1) {
          const id = `opt-colour-${i}`;
          controls[`colour:${i}`] = h("select", {id, "data-testid": id, "aria-label": `colour of seat ${i}`},
            IMHOTEP_COLOURS.map((c, j) => h("option", {value: c, selected: i === j}, c)));
          colours.append(controls[`colour:${i}`]);
        }
        options.append(colours);
      } else {
        for (const [key, label] of AMUNRE_FLAGS) {
          const id = `opt-${key}`;
          controls[key] = h("input", {id, type: "checkbox", "data-testid": id});
          options.append(h("div", {class: "row check"}, controls[key], h("label", {for: id}, label)));
        }
      }
    }

    function chosenOptions() {
      const n = Number(seats.value);
      const out = {};
      if (kind.value === "IMHOTEP") {
        const sides = {};
        for (const [key] of IMHOTEP_SITES) sides[key] = controls[`side:${key}`].value;
        out.sides = sides;
        out.wrath_of_the_pharaoh = controls.wrath.checked;
        const colours = Array.from({length: n}, (_, i) => controls[`colour:${i}`].value);
        if (colours.some((c, i) => c !== IMHOTEP_COLOURS[i])) out.colours = colours;
      } else {
        for (const [key] of AMUNRE_FLAGS) out[key] = controls[key].checked;
      }
      out.start_player = start.value === "random" ? "random" : Number(start.value);
      const clock = chosenClock();
      if (clock) out.clock = clock;
      return out;
    }

    kind.addEventListener("change", () => {
      drawSeats();
      drawOptions();
    });
    seats.addEventListener("change", () => {
      drawSeats();
      drawOptions();
    });
    drawSeats();
    drawOptions();
    const form = h("form", {"data-testid": "create-form"},
      h("div", {class: "row"}, h("label", {for: "create-kind"}, "Game"), kind,
        h("label", {for: "create-seats"}, "Seats"), seats),
      options,
      clockBox,
      h("div", {class: "row"}, h("label", {for: "create-start"}, "Start player"), start),
      h("div", {class: "row"}, h("label", {for: "create-seed"}, "Seed (unranked)"), seed),
      h("div", {class: "row check"}, sit, h("label", {for: "create-sit"}, "Take seat 0 myself")),
      h("button", {type: "submit", "data-testid": "create"}, "Create the table"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = {kind: kind.value, seats: Number(seats.value), options: chosenOptions()};
      if (seed.value.trim()) input.seed = seed.value.trim();
      const created = await run(() => gql(CREATE_GAME, {input}));
      if (!created) return;
      if (sit.checked) await run(() => gql(JOIN_GAME, {gameId: created.createGame.id, seat: 0}));
      refresh();
    });
    create.append(form);
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
        h("strong", {}, KINDS[summary.kind] ? KINDS[summary.kind].name : summary.kind),
        h("span", {class: "muted"}, ` · ${summary.seats.length} seats · `),
        h("span", {"data-testid": "free-seats"}, `${summary.freeSeats} free`),
        summary.ranked ? null : h("span", {class: "muted"}, ` · unranked (${summary.unrankedReason})`)),
      h("div", {class: "muted", "data-testid": "options"},
        describeOptions(summary.kind, summary.options, clocks.get(summary.gameId))),
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
