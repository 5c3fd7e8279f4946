// The generic board: the web client's board for a game whose package brings none of its own
// (GameModule.web_board is None), served as /app/boards/<kind>.js for such a game.
//
// drawBoard(container, {view, state, catalog, legalActions, seat, onAction, names})
//   draws the game's JSON `state` (Game.state, as the viewer may see it) readably: its plain
//   facts as a definition list, each larger part under a heading of its own, lists of records as
//   tables with column headers, nested records as nested definition lists; a seat number (under
//   a key such as `seat`, `owner`, `winners`) is shown with the seat's name from `names`.
//   Places no action: returns every entry of legalActions (the page lists them as buttons).
// VIEW: none, so the page asks for the JSON `state` (kinds.js withBoard).
// optionControls: none (a table of the game is created with its default options);
// describeOptions: the options as compact JSON; START_PLAYER: no `start_player` is sent.

import {h} from "../svg.js";

export const VIEW = "";
export const VIEW_NAME = null;
export const START_PLAYER = false;

const DEEPEST = 6; // nesting shown as lists and tables; deeper, as JSON
//: keys whose integer values (or lists of them) are seat numbers
const SEAT_KEY = /^(seat|seats|viewer|owner|winner|winners|player|current_player|start_player|to_act|active_seats|acting)$/;

export function optionControls(h) {
  return {
    nodes: [h("p", {class: "muted small", "data-testid": "default-options"},
      "A table of this game is created with its default options.")],
    read: () => ({}),
  };
}

export function describeOptions(options) {
  const shown = JSON.stringify(options ?? {});
  return shown === "{}" ? "default options" : shown;
}

// "current_player" and "currentPlayer" -> "current player"
const words = (key) => String(key).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
const heading = (key) => {
  const text = words(key);
  return text.charAt(0).toUpperCase() + text.slice(1);
};
const plain = (value) => value === null || typeof value !== "object";
const record = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

// (seats numbered from 1, as players count them; a bot's name, "Bot 2 (mcts)", says its seat)
function seatText(seat, names) {
  const name = names && names[seat];
  if (!name) return `seat ${seat + 1}`;
  return /^Bot \d+\b/.test(name) ? name : `${name} (seat ${seat + 1})`;
}

// One plain value in words: a seat with its name, yes/no, "none" for null.
function scalar(value, key, names) {
  if (value === null || value === undefined) return h("span", {class: "muted"}, "none");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Number.isInteger(value) && SEAT_KEY.test(key)) return seatText(value, names);
  return String(value);
}

function table(rows, key, names, depth) {
  const columns = [];
  for (const row of rows) {
    for (const column of Object.keys(row)) if (!columns.includes(column)) columns.push(column);
  }
  const head = h("thead", {}, h("tr", {}, columns.map((column) => h("th", {scope: "col"}, heading(column)))));
  const body = h("tbody", {}, rows.map((row) => h("tr", {}, columns.map((column) =>
    h("td", {}, column in row ? shown(row[column], column, names, depth + 1) : "")))));
  // seen under its heading or its term already: named for assistive technology only
  return h("div", {class: "generic-scroll"},
    h("table", {class: "generic-table", "data-key": key, "aria-label": heading(key)}, head, body));
}

// Any value: plain ones in words, lists of plain values joined, lists of records as a table,
// records as a definition list.
function shown(value, key, names, depth) {
  if (plain(value)) return scalar(value, key, names);
  if (depth > DEEPEST) return h("code", {}, JSON.stringify(value));
  if (Array.isArray(value)) {
    if (!value.length) return h("span", {class: "muted"}, "none");
    if (value.every(plain)) return value.map((item) => (item === null ? "none" : scalar(item, key, names))).join(", ");
    if (value.every(record)) return table(value, key, names, depth);
    return h("ol", {class: "generic-list", start: 0}, value.map((item) => h("li", {}, shown(item, key, names, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return h("span", {class: "muted"}, "none");
  return h("dl", {class: "generic-record", "data-key": key}, entries.map(([name, item]) => [
    h("dt", {}, heading(name)), h("dd", {"data-key": name}, shown(item, name, names, depth + 1))]));
}

let styled = false;
function stylesheet() {
  // its own stylesheet, next to it under /app/boards/ (the page's policy allows stylesheets only)
  if (styled) return;
  styled = true;
  document.head.append(h("link", {rel: "stylesheet", href: new URL("./generic.css", import.meta.url).href}));
}

export function drawBoard(container, {state, legalActions = [], names = null}) {
  stylesheet();
  const section = h("section", {class: "generic-board", "data-testid": "generic-board",
    "aria-labelledby": "generic-board-title"}, h("h2", {id: "generic-board-title"}, "The game"));
  if (!record(state) || !Object.keys(state).length) {
    section.append(h("p", {class: "muted"}, "Nothing to show yet."));
  } else {
    // the plain facts first, then each larger part under its own heading
    const facts = Object.entries(state).filter(([, value]) => plain(value) || (Array.isArray(value) && value.every(plain)));
    if (facts.length) {
      section.append(h("dl", {class: "generic-record", "data-testid": "state-facts"}, facts.map(([key, value]) => [
        h("dt", {}, heading(key)), h("dd", {"data-key": key}, shown(value, key, names, 1))])));
    }
    for (const [key, value] of Object.entries(state)) {
      if (facts.some(([fact]) => fact === key)) continue;
      section.append(h("section", {class: "generic-part", "data-key": key, "aria-label": heading(key)},
        h("h3", {}, heading(key)), shown(value, key, names, 1)));
    }
  }
  container.replaceChildren(section);
  return [...(legalActions || [])];
}
