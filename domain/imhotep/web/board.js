// Imhotep's board for the web client, served as /app/boards/imhotep.js (GameModule.web_board):
// everything the client needs of Imhotep, the client itself naming no game.
//
// drawBoard(container, {view, catalog, legalActions, seat, onAction, names})
//   draws the board as SVG from the typed view (VIEW below) and catalog(kind: IMHOTEP): the
//   players (score, sled, quarry, cards), the ships at sea with their slots, the five sites
//   (side A or B) with their docks, the market cards, the round.
//   legalActions: [{type, label, action}] for the viewer; a slot, a dock, a market card or a
//   pyramid that one of them acts on is clickable (data-action = its index). Returns the entries
//   that have no place on the board (the page lists them as buttons).
// VIEW, VIEW_NAME: the typed-view fragment the game page and the replay ask for, and its name.
// describeEvent(event) -> what a seat's event did, in a few words ("placed a stone on ship 2,
//   slot 3"), for the game page's live region; null for an event it does not word.
// Seats are numbered from 1 where a person reads them (`seat` values stay 0-based); every place
// that plays a move is a keyboard control named by the move (svg.js clickable: Enter or Space).
// optionControls(h, {seats}) -> {nodes, read()}: the lobby's controls for a new table's options
//   (sides, the Wrath of the Pharaoh, colours) and the options they say; START_PLAYER: the game
//   takes `start_player`; describeOptions(options): a table's options in one line.

import {clickable, contentWidth, el, lower, piece, title} from "../svg.js";

export const VIEW_NAME = "ImhotepView";
export const VIEW = `
fragment ImhotepView on ImhotepState {
  game round rounds viewer currentPlayer startPlayer
  options { wrathOfThePharaoh sides { market pyramids temple burialChamber obelisks } }
  players { seat colour score sled quarry cards }
  ships { id capacity minimum slots load site }
  docks { market pyramids temple burialChamber obelisks }
  market { side faceUp pairCount pair }
  sites {
    pyramids { side overflow pyramids { name stones spaces } }
    temple { side width stones visible }
    burialChamber { side stones }
    obelisks { side heights singles towers beside towerPoints }
  }
  discardPile drawPileCount roundStackCount
  roundCards { id ships }
  passes
  pending { kind owner options }
  finalScoring { burialChamber obelisks decorations statues blueCards wrath }
  gameOver
  outcome { scores ranks winners }
  hidden { drawPile roundStack removedRoundCard }
}`;

// The four stone colours (catalog `colours`), each with a shape and a letter too.
const STONE_STYLES = {
  black: {name: "black", fill: "#1b1b1b", ink: "#fff", shape: "circle", letter: "K"},
  white: {name: "white", fill: "#fafafa", ink: "#000", shape: "square", letter: "W"},
  brown: {name: "brown", fill: "#8c510a", ink: "#fff", shape: "triangle", letter: "N"},
  gray: {name: "gray", fill: "#9a9a9a", ink: "#000", shape: "diamond", letter: "G"},
};
//: the seats' colours when the table's options name none (in seat order)
const COLOURS = ["black", "white", "brown", "gray"];

const PW = 300; // panel width
const GAP = 12;
// Sizes of the board's places: on a touch screen or in one column (a phone) every place to tap
// is drawn at least 44 units (the drawing is never shown smaller than its units there).
let TOUCH = false;
const TAP = 44;
const SITES = ["market", "pyramids", "temple", "burial_chamber", "obelisks"];
const SITE_NAMES = {
  market: "Market", pyramids: "Pyramids", temple: "Temple",
  burial_chamber: "Burial chamber", obelisks: "Obelisks",
};
const CAMEL = {market: "market", pyramids: "pyramids", temple: "temple", burial_chamber: "burialChamber", obelisks: "obelisks"};
// market card colours: colour-blind-safe fills, and a letter each
const CARD_STYLES = {
  red: {fill: "#D55E00", ink: "#fff", letter: "R"},
  blue: {fill: "#0072B2", ink: "#fff", letter: "B"},
  green: {fill: "#009E73", ink: "#fff", letter: "G"},
  purple: {fill: "#CC79A7", ink: "#000", letter: "P"},
};
const FINAL_STEPS = [
  ["burialChamber", "Burial chamber"], ["obelisks", "Obelisks"], ["decorations", "Decorations"],
  ["statues", "Statues"], ["blueCards", "Unused blue cards"], ["wrath", "Wrath of the Pharaoh"],
];

function stoneStyle(view, seat) {
  const player = view.players.find((p) => p.seat === seat);
  const colour = player ? lower(player.colour) : null;
  return STONE_STYLES[colour] || STONE_STYLES.gray;
}

function seatName(view, names, seat) {
  const style = stoneStyle(view, seat);
  const who = names && names[seat] ? names[seat] : `seat ${seat + 1}`;
  return `${who} (${style.name}, ${style.letter})`;
}

function cardInfo(catalog, id) {
  // the typed view carries enum values (the catalog id upper-cased): compare lower-cased
  const cards = (catalog && catalog.marketCards) || [];
  const key = lower(id);
  return cards.find((c) => c.id === key) || {id: key, name: key.replace(/_/g, " "), colour: "blue", text: ""};
}

// Words of a name on at most `lines` lines of about `width` characters.
function wrap(text, width, lines = 3) {
  const out = [];
  let line = "";
  for (const word of String(text).split(/\s+/)) {
    if (line && (line + " " + word).length > width) {
      out.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) out.push(line);
  return out.slice(0, lines);
}

class Places {
  // Which legal action has its place where; the ones never drawn are returned at the end.
  constructor(legalActions, onAction) {
    this.entries = legalActions || [];
    this.used = new Set();
    this.onAction = onAction;
  }

  find(test) {
    const found = [];
    this.entries.forEach((entry, index) => {
      if (test(entry.action || {}, entry)) found.push(index);
    });
    return found;
  }

  bind(node, index) {
    const entry = this.entries[index];
    this.used.add(index);
    node.setAttribute("data-action", String(index));
    node.append(title(entry.label));
    return clickable(node, entry.label, () => this.onAction(entry.action));
  }

  unplaced() {
    return this.entries.filter((_, index) => !this.used.has(index));
  }
}

function panel(heading, height, body, attrs = {}) {
  return {height, node: el("g", {class: "panel", ...attrs},
    el("rect", {x: 0, y: 0, width: PW, height, rx: 8, class: "panel-bg"}),
    el("text", {x: 10, y: 20, class: "panel-title"}, heading),
    body)};
}

function slotCell(view, places, ship, slotIndex, x, y, size, {owner}) {
  const occupant = ship.slots[slotIndex];
  const group = el("g", {"data-testid": `ship-${ship.id}-slot-${slotIndex + 1}`});
  group.append(el("rect", {x, y, width: size, height: size, rx: 3, class: "slot"}));
  if (occupant !== null && occupant !== undefined) {
    group.append(piece(stoneStyle(view, occupant), x + size / 2, y + size / 2, size * 0.36,
      `stone of ${seatName(view, owner, occupant)}`));
  } else {
    const found = places.find((a) =>
      (a.type === "place_stone" || a.type === "bonus_place") && a.ship === ship.id && a.slot === slotIndex + 1);
    if (found.length) {
      places.bind(group, found[0]);
    } else {
      group.append(title(`ship ${ship.id}, slot ${slotIndex + 1}: empty`));
    }
  }
  return group;
}

function shipShape(view, places, ship, x, y, names, {slot = TOUCH ? TAP : 26} = {}) {
  const width = ship.capacity * (slot + 4) + 16;
  const hull = `M${x},${y + 8} L${x + width},${y + 8} L${x + width - 10},${y + slot + 18} L${x + 10},${y + slot + 18} Z`;
  const group = el("g", {class: "ship", "data-testid": `ship-${ship.id}`},
    el("path", {d: hull, class: "hull"}));
  for (let i = 0; i < ship.capacity; i += 1) {
    group.append(slotCell(view, places, ship, i, x + 8 + i * (slot + 4), y + 11, slot, {owner: names}));
  }
  group.append(el("text", {x: x + width + 6, y: y + slot / 2 + 12, class: "small"},
    `Ship ${ship.id}`, el("tspan", {x: x + width + 6, dy: 15, class: "muted"}, `min ${ship.minimum}`)));
  return {node: group, width: width + 60};
}

function playerPanel(view, catalog, seat, names, viewer) {
  const player = view.players.find((p) => p.seat === seat);
  const style = stoneStyle(view, seat);
  const current = view.currentPlayer === seat && !view.gameOver;
  const height = 118;
  const body = el("g", {});
  body.append(piece(style, 22, 46, 12, `${style.name} stones`));
  const who = names && names[seat] ? names[seat] : `Seat ${seat + 1}`;
  body.append(el("text", {x: 42, y: 42, class: "name"}, `${who}${viewer === seat ? " (you)" : ""}`));
  body.append(el("text", {x: 42, y: 58, class: "muted small"}, `seat ${seat + 1} · ${style.name} (${style.letter})`));
  body.append(el("text", {x: PW - 12, y: 50, class: "score", "text-anchor": "end",
    "data-testid": `score-${seat}`}, String(player.score)),
  el("text", {x: PW - 12, y: 64, class: "muted small", "text-anchor": "end"}, "points"));
  // the sled: 5 places
  body.append(el("text", {x: 10, y: 86, class: "small"}, "Sled"));
  for (let i = 0; i < 5; i += 1) {
    const cx = 55 + i * 23;
    body.append(el("rect", {x: cx - 10, y: 71, width: 20, height: 20, rx: 3, class: "slot"}));
    if (i < player.sled) body.append(piece(style, cx, 81, 8.5));
  }
  body.append(el("g", {"data-testid": `sled-${seat}`}, title(`sled: ${player.sled} stones`)));
  body.append(el("text", {x: 170, y: 86, class: "small"}, `Quarry ${player.quarry}`));
  // cards in front of the player
  const cards = player.cards || [];
  body.append(el("text", {x: 10, y: 108, class: "small"}, cards.length ? "Cards" : "No cards"));
  cards.forEach((id, i) => {
    const info = cardInfo(catalog, id);
    const style = CARD_STYLES[lower(info.colour)] || CARD_STYLES.blue;
    const x = 50 + i * 26;
    if (x > PW - 26) return;
    body.append(el("g", {"data-testid": `card-${seat}-${i}`},
      el("rect", {x, y: 95, width: 24, height: 18, rx: 2, fill: style.fill, stroke: "#333"}),
      el("text", {x: x + 12, y: 108, "text-anchor": "middle", class: "tiny", style: `fill:${style.ink}`},
        info.name.split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase()),
      title(`${info.name} (${info.colour}): ${info.text}`)));
  });
  return panel(current ? `▶ To play: seat ${seat + 1}` : `Seat ${seat + 1}`, height, body,
    {"data-testid": `player-${seat}`, class: current ? "panel current" : "panel"});
}

function seaPanel(view, places, names) {
  const atSea = view.ships.filter((s) => !s.site);
  const step = TOUCH ? TAP + 26 : 52;
  const height = 34 + Math.max(1, atSea.length) * step;
  const body = el("g", {});
  atSea.forEach((ship, i) => body.append(shipShape(view, places, ship, 10, 28 + i * step, names).node));
  if (!atSea.length) body.append(el("text", {x: 10, y: 50, class: "muted"}, "Every ship has sailed."));
  return panel(`Round ${view.round} of ${view.rounds}: ships at sea`, height, body, {"data-testid": "sea"});
}

function dockRow(view, places, site, names, y) {
  // the ship docked at the site, or the ships that may sail there (a click sails)
  const group = el("g", {"data-testid": `dock-${site}`});
  const docked = view.docks[CAMEL[site]];
  if (docked !== null && docked !== undefined) {
    const ship = view.ships.find((s) => s.id === docked);
    if (ship) {
      group.append(el("text", {x: 10, y: y + 24, class: "small"}, "Docked:"));
      group.append(shipShape(view, places, ship, 62, y, names, {slot: 18}).node);
    }
    return {node: group, height: 44};
  }
  const found = places.find((a) => (a.type === "sail" || a.type === "play_lever") && lower(a.site) === site);
  if (!found.length) {
    group.append(el("text", {x: 10, y: y + 18, class: "muted small"}, "Dock free"));
    return {node: group, height: 26};
  }
  let x = 10;
  let row = 0;
  const chipH = TOUCH ? TAP : 22;
  for (const index of found) {
    const action = places.entries[index].action;
    const text = action.type === "sail" ? `Sail ship ${action.ship} here` : `Lever: ship ${action.ship}`;
    const width = text.length * 6.6 + 14;
    if (x + width > PW - 8) {
      x = 10;
      row += 1;
    }
    const chip = el("g", {class: "chip"},
      el("rect", {x, y: y + 4 + row * (chipH + 4), width, height: chipH, rx: 11}),
      el("text", {x: x + width / 2, y: y + chipH / 2 + 8 + row * (chipH + 4), "text-anchor": "middle", class: "small"}, text));
    group.append(places.bind(chip, index));
    x += width + 6;
  }
  return {node: group, height: chipH + 10 + row * (chipH + 4)};
}

// A site panel's body with the dock row on top: the body and where the site's own drawing starts
// (`gap` below the row).
function docked(view, places, site, names, gap = 8) {
  const body = el("g", {});
  const dock = dockRow(view, places, site, names, 26);
  body.append(dock.node);
  return {body, top: 26 + gap + dock.height};
}

function marketPanel(view, catalog, places, names) {
  const market = view.market;
  const {body, top} = docked(view, places, "market", names, 4);
  const cardW = 68;
  const cardH = 92;
  const drawCard = (id, x, group, caption) => {
    if (id === null || id === undefined) {
      group.append(el("rect", {x, y: top, width: cardW, height: cardH, rx: 6, class: "slot"}),
        el("text", {x: x + cardW / 2, y: top + cardH / 2, "text-anchor": "middle", class: "muted small"}, "taken"));
      return;
    }
    const info = cardInfo(catalog, id);
    const style = CARD_STYLES[lower(info.colour)] || CARD_STYLES.blue;
    group.append(el("rect", {x, y: top, width: cardW, height: cardH, rx: 6, class: "card"}),
      el("rect", {x, y: top, width: cardW, height: 18, rx: 6, fill: style.fill}),
      el("text", {x: x + 6, y: top + 13, class: "tiny", style: `fill:${style.ink}`}, `${style.letter} · ${info.colour}`));
    wrap(info.name, 10).forEach((line, i) => group.append(
      el("text", {x: x + cardW / 2, y: top + 36 + i * 13, "text-anchor": "middle", class: "small"}, line)));
    if (caption) group.append(el("text", {x: x + cardW / 2, y: top + cardH - 6, "text-anchor": "middle", class: "tiny muted"}, caption));
  };
  const faceUp = (market && market.faceUp) || [];
  faceUp.forEach((id, i) => {
    const x = 8 + i * (cardW + 6);
    const group = el("g", {"data-testid": `market-card-${i}`});
    drawCard(id, x, group);
    const info = id ? cardInfo(catalog, id) : null;
    const found = id ? places.find((a) => a.type === "take_card" && lower(a.card) === lower(id)) : [];
    if (found.length) places.bind(group, found[0]);
    else if (info) group.append(title(`${info.name}: ${info.text}`));
    body.append(group);
  });
  let height = top + cardH + 12;
  if (market && (market.pairCount > 0 || (market.pair && market.pair.length))) {
    const y = height;
    const pair = market.pair || [];
    const group = el("g", {"data-testid": "market-pair"});
    if (pair.length) {
      body.append(el("text", {x: 10, y: y + 12, class: "small"}, "The face-down pair:"));
      pair.forEach((id, i) => {
        const cardGroup = el("g", {"data-testid": `pair-card-${i}`});
        const save = height;
        drawCard(id, 8 + i * (cardW + 6), cardGroup);
        height = save;
        const found = places.find((a) => a.type === "keep" && lower(a.card) === lower(id));
        if (found.length) places.bind(cardGroup, found[0]);
        group.append(cardGroup);
      });
      group.setAttribute("transform", `translate(0 ${y + 18 - top})`);
      height = y + 18 + cardH + 12;
    } else {
      const pairH = TOUCH ? TAP : 40;
      group.append(el("rect", {x: 8, y, width: 150, height: pairH, rx: 6, class: "card back"}),
        el("text", {x: 83, y: y + pairH / 2 + 5, "text-anchor": "middle", class: "small"}, `${market.pairCount} face down`));
      const found = places.find((a) => a.type === "take_pair");
      if (found.length) places.bind(group, found[0]);
      height = y + pairH + 12;
    }
    body.append(group);
  }
  return panel(`Market (side ${market ? market.side : "?"})`, height, body, {"data-testid": "site-market"});
}

function pyramidsPanel(view, catalog, places, names) {
  const site = view.sites.pyramids;
  const {body, top} = docked(view, places, "pyramids", names);
  const layouts = catalog?.sites?.pyramids?.[site.side]?.pyramids ?? [];
  const cell = site.pyramids.length > 1 ? 24 : 26;
  let x = 10;
  let tallest = 0;
  site.pyramids.forEach((pyramid) => {
    const layout = layouts.find((p) => p.name === lower(pyramid.name));
    const spaces = layout ? layout.spaces : Array.from({length: pyramid.spaces}, (_, i) => ({index: i + 1, level: 1, column: i + 1, row: 1, points: null}));
    const group = el("g", {"data-testid": `pyramid-${pyramid.name}`});
    const levels = [...new Set(spaces.map((s) => s.level))].sort();
    let lx = x;
    for (const level of levels) {
      const mine = spaces.filter((s) => s.level === level);
      const columns = Math.max(...mine.map((s) => s.column));
      group.append(el("text", {x: lx, y: top - 4, class: "tiny muted"}, `L${level}`));
      for (const space of mine) {
        const cx = lx + (space.column - 1) * cell;
        const cy = top + (space.row - 1) * cell;
        const stone = pyramid.stones[space.index - 1];
        group.append(el("rect", {x: cx, y: cy, width: cell - 2, height: cell - 2, rx: 2, class: "slot"}));
        if (stone !== undefined && stone !== null) {
          group.append(piece(stoneStyle(view, stone), cx + cell / 2 - 1, cy + cell / 2 - 1, cell * 0.34,
            `stone of ${seatName(view, names, stone)}`));
        } else {
          group.append(el("text", {x: cx + cell / 2 - 1, y: cy + cell / 2 + 3, "text-anchor": "middle", class: "tiny muted"},
            `${space.points ?? ""}${space.bonus ? "★" : ""}`));
          if (space.bonus) group.append(title(`${space.points} points + bonus: ${space.bonus}`));
        }
        tallest = Math.max(tallest, (space.row) * cell);
      }
      lx += columns * cell + 6;
    }
    if (site.pyramids.length > 1) {
      const rows = Math.max(...spaces.map((s) => s.row));
      group.append(el("text", {x, y: top + rows * cell + 10, class: "tiny"}, lower(pyramid.name)));
    }
    const found = places.find((a) => a.type === "choose_pyramid" && lower(a.pyramid) === lower(pyramid.name));
    if (found.length) places.bind(group, found[0]);
    body.append(group);
    x = lx + 8;
  });
  let height = top + tallest + (site.pyramids.length > 1 ? 36 : 20);
  body.append(el("text", {x: 10, y: height - 4, class: "small"}, `Overflow: ${site.overflow.length}`));
  site.overflow.slice(0, 14).forEach((stone, i) => body.append(piece(stoneStyle(view, stone), 90 + i * 15, height - 8, 6)));
  height += 8;
  return panel(`Pyramids (side ${site.side})`, height, body, {"data-testid": "site-pyramids"});
}

function templePanel(view, catalog, places, names) {
  const site = view.sites.temple;
  const {body, top} = docked(view, places, "temple", names);
  const cell = Math.min(50, (PW - 20) / site.width);
  const columns = catalog?.sites?.temple?.[site.side]?.columns ?? [];
  for (let c = 0; c < site.width; c += 1) {
    const x = 10 + c * cell;
    const height = Math.floor((site.stones.length - c - 1) / site.width) + 1;
    const group = el("g", {"data-testid": `temple-column-${c + 1}`});
    group.append(el("rect", {x, y: top, width: cell - 4, height: cell - 4, rx: 4, class: "slot"}));
    const top_ = site.visible[c];
    if (top_ !== null && top_ !== undefined) {
      group.append(piece(stoneStyle(view, top_), x + cell / 2 - 2, top + cell / 2 - 2, cell * 0.3,
        `top stone: ${seatName(view, names, top_)}`));
    }
    group.append(el("text", {x: x + cell / 2 - 2, y: top + cell + 10, "text-anchor": "middle", class: "tiny muted"},
      height > 0 ? `${height} high` : "empty"));
    const bonus = columns.find((b) => b.column === c + 1);
    if (bonus) group.append(title(`column ${c + 1} bonus: ${bonus.text}`));
    body.append(group);
  }
  return panel(`Temple (side ${site.side})`, top + cell + 20, body, {"data-testid": "site-temple"});
}

function burialPanel(view, places, names) {
  const site = view.sites.burialChamber;
  const {body, top} = docked(view, places, "burial_chamber", names);
  const rows = 3;
  const columns = Math.max(8, Math.ceil(site.stones.length / rows));
  const cell = Math.min(24, (PW - 20) / columns);
  for (let c = 0; c < columns; c += 1) {
    for (let r = 0; r < rows; r += 1) {
      const x = 10 + c * cell;
      const y = top + r * cell;
      body.append(el("rect", {x, y, width: cell - 2, height: cell - 2, rx: 2, class: "slot"}));
      const stone = site.stones[c * rows + r];
      if (stone !== undefined && stone !== null) {
        body.append(piece(stoneStyle(view, stone), x + cell / 2 - 1, y + cell / 2 - 1, cell * 0.34,
          `stone of ${seatName(view, names, stone)}`));
      }
    }
  }
  return panel(`Burial chamber (side ${site.side})`, top + rows * cell + 12, body, {"data-testid": "site-burial_chamber"});
}

function obelisksPanel(view, places, names) {
  const site = view.sites.obelisks;
  const {body, top} = docked(view, places, "obelisks", names);
  let height = top;
  if (site.heights) {
    const most = Math.max(4, ...site.heights);
    const barH = 80;
    site.heights.forEach((value, seat) => {
      const x = 16 + seat * 70;
      const h = (value / most) * barH;
      body.append(el("g", {"data-testid": `obelisk-${seat}`},
        el("rect", {x, y: top + barH - h, width: 26, height: Math.max(h, 1), class: "obelisk"}),
        piece(stoneStyle(view, seat), x + 13, top + barH + 14, 8, seatName(view, names, seat)),
        el("text", {x: x + 34, y: top + barH, class: "small"}, String(value)),
        title(`${seatName(view, names, seat)}: obelisk of ${value}`)));
    });
    height = top + barH + 30;
  } else {
    const rows = [["singles", "singles"], ["towers", "towers"], ["beside", "beside"], ["towerPoints", "pts"]];
    view.players.forEach((player, i) => {
      const seat = player.seat;
      const y = top + 8 + i * 22;
      body.append(piece(stoneStyle(view, seat), 18, y - 4, 8, seatName(view, names, seat)));
      const text = rows.map(([key, label]) => `${label} ${(site[key] || [])[seat] ?? 0}`).join(" · ");
      body.append(el("text", {x: 32, y, class: "small", "data-testid": `obelisk-${seat}`}, text));
    });
    height = top + 12 + view.players.length * 22;
  }
  return panel(`Obelisks (side ${site.side})`, height, body, {"data-testid": "site-obelisks"});
}

function statusPanel(view, catalog, names) {
  const body = el("g", {});
  const lines = [];
  const card = view.roundCards && view.roundCards.length ? view.roundCards[view.roundCards.length - 1] : null;
  lines.push(`Round ${view.round} of ${view.rounds}${card ? ` · round card ${card.id} (ships ${card.ships.join(", ")})` : ""}`);
  lines.push(`Market draw pile ${view.drawPileCount} · discards ${view.discardPile.length} · round cards left ${view.roundStackCount}`);
  lines.push(`Sides: ${SITES.map((s) => `${SITE_NAMES[s]} ${view.options.sides[CAMEL[s]]}`).join(", ")}`);
  if (view.options.wrathOfThePharaoh) lines.push("Wrath of the Pharaoh: −5 without a stone on every site");
  if (view.pending && !view.gameOver) {
    const who = names && names[view.pending.owner] ? names[view.pending.owner] : `seat ${view.pending.owner + 1}`;
    const kind = lower(view.pending.kind);
    lines.push(kind === "turn" ? `${who} is to play` : `${who} must decide: ${kind.replace(/_/g, " ")}`);
  }
  let y = 40;
  for (const line of lines) {
    for (const part of wrap(line, 48, 3)) {
      body.append(el("text", {x: 10, y, class: "small"}, part));
      y += 15;
    }
  }
  const steps = FINAL_STEPS.filter(([key]) => view.finalScoring && view.finalScoring[key]);
  if (steps.length) {
    y += 6;
    body.append(el("text", {x: 10, y, class: "name"}, "Final scoring"));
    y += 16;
    for (const [key, label] of steps) {
      const points = view.finalScoring[key].map((p, seat) => `${stoneStyle(view, seat).letter} ${p}`).join("  ");
      body.append(el("text", {x: 10, y, class: "small"}, `${label}: ${points}`));
      y += 15;
    }
  }
  if (view.outcome) {
    y += 6;
    const winners = view.outcome.winners.map((s) => (names && names[s]) || `seat ${s + 1}`).join(" and ");
    body.append(el("text", {x: 10, y, class: "name", "data-testid": "winners"}, `Game over: ${winners} won`));
    y += 10;
  }
  return panel(view.gameOver ? "Game over" : "The round", y + 12, body, {"data-testid": "status"});
}

function legend() {
  const body = el("g", {});
  Object.values(STONE_STYLES).forEach((style, i) => {
    const x = 18 + i * 72;
    body.append(piece(style, x, 40, 10, style.name), el("text", {x: x + 15, y: 45, class: "small"}, style.name));
  });
  return panel("Stones: colour, shape and letter", 60, body, {"data-testid": "legend"});
}

export function drawBoard(container, {view, catalog, legalActions, seat, onAction, names}) {
  const places = new Places(legalActions, onAction || (() => {}));
  const viewer = seat ?? view.viewer ?? null;
  // flow the panels into as many columns as the container's width takes, never drawn smaller
  // than its units (the board's smallest text is 12 units: 12 px at least)
  const available = contentWidth(container);
  const columns = Math.max(1, Math.min(3, Math.floor((available - GAP) / (PW + GAP))));
  const coarse = typeof window !== "undefined" && window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  TOUCH = columns === 1 || Boolean(coarse);
  const panels = [];
  for (const player of view.players) panels.push(playerPanel(view, catalog, player.seat, names, viewer));
  panels.push(seaPanel(view, places, names));
  panels.push(marketPanel(view, catalog, places, names));
  panels.push(pyramidsPanel(view, catalog, places, names));
  panels.push(templePanel(view, catalog, places, names));
  panels.push(burialPanel(view, places, names));
  panels.push(obelisksPanel(view, places, names));
  panels.push(statusPanel(view, catalog, names));
  panels.push(legend());
  const heights = Array(columns).fill(GAP);
  // one column (a phone): the panels nearly edge to edge, the drawing as large as it may be
  const margin = columns === 1 ? 2 : GAP;
  const width = columns * PW + (columns - 1) * GAP + 2 * margin;
  const svg = el("svg", {viewBox: `0 0 ${width} 100`, class: "board imhotep", role: "group",
    "aria-label": "Imhotep board", "data-testid": "board-svg", "data-columns": columns});
  svg.append(title(`Imhotep, round ${view.round} of ${view.rounds}`));
  if (columns === 1) {
    panels.forEach((p) => {
      p.node.setAttribute("transform", `translate(${margin} ${heights[0]})`);
      heights[0] += p.height + GAP;
      svg.append(p.node);
    });
  } else {
    // players across the top row, then the rest into the shortest column
    const players = panels.slice(0, view.players.length);
    const rest = panels.slice(view.players.length);
    players.forEach((p, i) => {
      const column = i % columns;
      p.node.setAttribute("transform", `translate(${GAP + column * (PW + GAP)} ${heights[column]})`);
      heights[column] += p.height + GAP;
      svg.append(p.node);
    });
    for (const p of rest) {
      const column = heights.indexOf(Math.min(...heights));
      p.node.setAttribute("transform", `translate(${GAP + column * (PW + GAP)} ${heights[column]})`);
      heights[column] += p.height + GAP;
      svg.append(p.node);
    }
  }
  const total = Math.max(...heights);
  svg.setAttribute("viewBox", `0 0 ${width} ${total}`);
  svg.setAttribute("width", "100%");
  svg.style.maxWidth = `${width * 1.25}px`;
  container.replaceChildren(svg);
  return places.unplaced();
}

// -- the live region -------------------------------------------------------------------------------

const siteWords = (site) => `the ${(SITE_NAMES[lower(site)] || String(site ?? "").replace(/_/g, " ")).toLowerCase()}`;
const cardWords = (id) => String(id ?? "").toLowerCase().replace(/_/g, " ");
const placeWords = (place) => (place ? `ship ${place.ship}, slot ${place.slot}` : "a slot");

// What a seat's event did, in a few words (null: the page words it from its type).
export function describeEvent(event) {
  const d = event.data || {};
  switch (event.type) {
    case "stones_taken": return `took ${d.count} stone${d.count === 1 ? "" : "s"} from the quarry`;
    case "stone_placed": return `placed a stone on ${placeWords(d)}`;
    case "ship_sailed": return `sailed ship ${d.ship} to ${siteWords(d.site)}`;
    case "lever_played": return `played the Lever: ship ${d.ship} to ${siteWords(d.site)}`;
    case "hammer_played": return `played the Hammer: took ${d.stones} stones, placed one on ${placeWords(d)}`;
    case "sail_played": return `played the Sail: a stone on ${placeWords(d)}, then sailed to ${siteWords(d.site)}`;
    case "chisel_played": return `played the Chisel: stones on ${placeWords(d.first)} and ${placeWords(d.second)}`;
    case "turn_passed": return "passed";
    case "card_taken": return `took the card ${cardWords(d.card)}`;
    case "card_kept": return `kept the card ${cardWords(d.card)}`;
    case "pair_taken": return "took the face-down pair of cards";
    case "bonus_stone_placed": return `placed a bonus stone on ${placeWords(d)}`;
    case "unload_ordered": return `chose the unloading order of ship ${d.ship}`;
    case "bonus_declined": return "declined the bonus";
    case "pyramid_chosen": return `chose the ${cardWords(d.pyramid)} pyramid`;
    case "red_card_played": return "played a red card";
    default: return null;
  }
}

// -- the lobby ------------------------------------------------------------------------------------

export const START_PLAYER = true;

// The options of a new table of `seats` seats: each site's side, the Wrath of the Pharaoh and
// the seats' colours (sent only when they differ from the default order).
export function optionControls(h, {seats}) {
  const nodes = [];
  const sides = {};
  for (const key of SITES) {
    const id = `side-${key}`;
    sides[key] = h("select", {id, "data-testid": id},
      h("option", {value: "A"}, "side A"), h("option", {value: "B"}, "side B"));
    nodes.push(h("div", {class: "row"}, h("label", {for: id}, SITE_NAMES[key]), sides[key]));
  }
  const wrath = h("input", {id: "opt-wrath", type: "checkbox", "data-testid": "opt-wrath"});
  nodes.push(h("div", {class: "row check"}, wrath,
    h("label", {for: "opt-wrath"}, "Wrath of the Pharaoh (−5 without a stone on every site)")));
  const colours = Array.from({length: seats}, (_, i) => {
    const id = `opt-colour-${i}`;
    return h("select", {id, "data-testid": id, "aria-label": `colour of seat ${i + 1}`},
      COLOURS.map((c, j) => h("option", {value: c, selected: i === j}, c)));
  });
  nodes.push(h("div", {class: "row"}, h("span", {}, "Colours"), colours));
  return {
    nodes,
    read() {
      const out = {};
      out.sides = Object.fromEntries(SITES.map((key) => [key, sides[key].value]));
      out.wrath_of_the_pharaoh = wrath.checked;
      const chosen = colours.map((select) => select.value);
      if (chosen.some((c, i) => c !== COLOURS[i])) out.colours = chosen;
      return out;
    },
  };
}

// A table's options in one line ("all sides A · Wrath of the Pharaoh").
export function describeOptions(options) {
  const parts = [];
  const sides = options.sides || {};
  const values = SITES.map((key) => sides[key] || "A");
  if (values.every((v) => v === values[0])) parts.push(`all sides ${values[0]}`);
  else parts.push(SITES.map((key, i) => `${SITE_NAMES[key]} ${values[i]}`).join(", "));
  if (options.wrath_of_the_pharaoh) parts.push("Wrath of the Pharaoh");
  if (Array.isArray(options.colours) && options.colours.some((c, i) => c !== COLOURS[i])) {
    parts.push(`colours ${options.colours.join("/")}`);
  }
  return parts.join(" · ");
}
