// The lobby's form for a new table: the game (any the server plays, `gameKinds`), the seats in
// its range, the game's own options (its board module's optionControls), the time control, the
// undo policy (`undo`), who starts (for a game that takes `start_player`), the seed, and whether
// to take seat 0.
//
//   tableForm({kinds, boards, run, created}) -> the form
//     kinds: gameKinds' list; boards: kind -> board module; run(work): work's answer, or null
//     once the page has shown its failure; created(): called once a table is made (and joined)
//   levelSelect(id, label) -> a menu of the bot levels

import {gql} from "./api.js";
import {CREATE_GAME, JOIN_GAME} from "./queries.js";
import {h} from "./svg.js";

//: the bot levels a table offers (docs/bots.md "Bot levels"; addBot's `strategy`)
const BOT_LEVELS = [
  ["random", "random (instant, plays any legal move)"],
  ["greedy", "greedy (best immediate gain)"],
  ["mcts", "mcts (searches; the strongest)"],
];

export function levelSelect(id, label) {
  return h("select", {id, "data-testid": id, "aria-label": label},
    BOT_LEVELS.map(([value, text]) => h("option", {value}, text)));
}

export function tableForm({kinds, boards, run, created}) {
  const kindInfo = (kind) => kinds.find((k) => k.kind === kind);
  const kind = h("select", {id: "create-kind", "data-testid": "create-kind"},
    kinds.map((k) => h("option", {value: k.kind}, k.name)));
  const seats = h("select", {id: "create-seats", "data-testid": "create-seats"});
  const seed = h("input", {id: "create-seed", "data-testid": "create-seed", maxlength: 200,
    placeholder: "empty: the game may be rated"});
  // whether the table will be rated, by the server's rule (Game.ranked, domain.table.why_unrated):
  // a seed makes it unranked; else it is rated once two or more people hold a seat each (a
  // game with fewer, against bots, is not), and the table then shows `ranked` itself
  const rating = h("p", {class: "muted", "data-testid": "create-ranked", "aria-live": "polite"});
  function drawRating() {
    rating.textContent = seed.value.trim()
      ? "Unranked: the creator chose the seed."
      : "Rated if two or more people play, each in one seat; a game with fewer than two human "
        + "players (against bots) is not rated.";
  }
  seed.addEventListener("input", drawRating);
  drawRating();
  // the table's undo policy (createGame's option "undo", domain/undo.py): on by default
  const undo = h("select", {id: "create-undo", "data-testid": "create-undo"},
    h("option", {value: "on"}, "allowed (others agree to theirs)"),
    h("option", {value: "off"}, "off (ranked play)"));
  const rulesBox = h("fieldset", {class: "options"}, h("legend", {}, "Table rules"),
    h("div", {class: "row"}, h("label", {for: "create-undo"}, "Undo"), undo));
  const sit = h("input", {id: "create-sit", type: "checkbox", checked: true, "data-testid": "create-sit"});
  const start = h("select", {id: "create-start", "data-testid": "create-start"});
  const startRow = h("div", {class: "row"}, h("label", {for: "create-start"}, "Start player"), start);
  const options = h("fieldset", {class: "options"});
  let controls = null; // the game's option controls: {nodes, read()}
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
    const {minSeats: min, maxSeats: max} = kindInfo(kind.value);
    const before = Number(seats.value) || min;
    seats.replaceChildren(...Array.from({length: max - min + 1}, (_, i) => {
      const n = min + i;
      return h("option", {value: n, selected: n === Math.min(Math.max(before, min), max)}, `${n} players`);
    }));
    const n = Number(seats.value);
    start.replaceChildren(h("option", {value: "random"}, "random"),
      ...Array.from({length: n}, (_, i) => h("option", {value: i}, `seat ${i + 1}`))); // counted from 1 (the value: 0-based)
  }

  // the game's own options, as its board module offers them
  function drawOptions() {
    const board = boards.get(kind.value);
    controls = board.optionControls(h, {seats: Number(seats.value)});
    options.replaceChildren(h("legend", {}, `${kindInfo(kind.value).name} options`), ...controls.nodes);
    startRow.style.display = board.START_PLAYER ? "" : "none"; // a game without `start_player`
  }

  function chosenOptions() {
    const out = controls.read();
    if (boards.get(kind.value).START_PLAYER) {
      out.start_player = start.value === "random" ? "random" : Number(start.value);
    }
    const clock = chosenClock();
    if (clock) out.clock = clock;
    if (undo.value === "off") out.undo = false; // the server's default is on
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
    rulesBox,
    startRow,
    h("div", {class: "row"}, h("label", {for: "create-seed"}, "Seed (unranked)"), seed),
    rating,
    h("div", {class: "row check"}, sit, h("label", {for: "create-sit"}, "Take seat 1 myself")),
    h("button", {type: "submit", "data-testid": "create"}, "Create the table"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = {kind: kind.value, seats: Number(seats.value), options: chosenOptions()};
    if (seed.value.trim()) input.seed = seed.value.trim();
    const made = await run(() => gql(CREATE_GAME, {input}));
    if (!made) return;
    if (sit.checked) await run(() => gql(JOIN_GAME, {gameId: made.createGame.id, seat: 0}));
    created();
  });
  return form;
}
