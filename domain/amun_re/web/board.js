// Amun-Re's board for the web client (issue #16), served as /app/boards/amun_re.js
// (GameModule.web_board): everything the client needs of Amun-Re, the client itself naming no
// game.
//
// drawBoard draws it as SVG from the typed view (VIEW below) and the static catalog
// (`catalog(kind: AMUN_RE)`): the Nile with its provinces on both banks (lower and upper Egypt),
// the bid track with the province cards up for auction, the Offering, the hands, gold, the tomb
// (Afterlife), statues and Pharaoh, and the VP of every seat.
//
// Only what the view holds is drawn: another seat's gold, hand and Offering amount are not in
// the viewer's view (the server's allow-list, domain/amun_re/view.py), so they cannot leak here;
// the Offering shows others only as "committed" (R11.1). Ids are compared lowercased, so the
// board reads the typed view's enum values (UPPER_SNAKE) and the catalog's ids (lower) alike.
//
// VIEW, VIEW_NAME: the typed-view fragment the game page and the replay ask for, and its name.
// describeEvent(event) -> what a seat's event did, in a few words, for the game page's live region.
// optionControls(h, {seats}) -> {nodes, read()}: the lobby's controls for a new table's options
//   (the variants and Expanded Pack modules) and the options they say; START_PLAYER: the game
//   takes `start_player`; describeOptions(options): a table's options in one line.

import {SEAT_STYLES, clickable, contentWidth, el, lower as lc, piece, title} from "../svg.js";

// `discards` is an alias: a selection over the GameView union cannot hold the same response key
// with two types, and another game's view may have a `discardPile` of another type.
export const VIEW_NAME = "AmunReView";
export const VIEW = `
fragment AmunReView on AmunReState {
  game viewer round kingdom phase startPlayer toAct decision
  options { classicBankMajority noFarmerPoints afterlife statues pharaoh promoFavours }
  bidTrack
  offeringTile { tile goldPerFarmer camel templeVp }
  provinces {
    id name bank region river fields cardLimit temples mine caravan
    bonus { stones gold favourCards }
    owner farmers stones pyramids upForAuction
  }
  auction { cards { province standing protected blocked scribes { seat value standing } } status turn }
  market {
    turn lastPurchase cardsBought toPlace { kind count }
    ptahUsed gloryPlayed afterlifePlayed thothDiscardDue
  }
  offering { committed }
  lastOffering { seat offer gold }
  gifts { order turn giftsLeft gifts tombDiscardsMade toPlace { kind count } }
  harvest { turn green { province card } }
  finalSale { committed }
  players {
    seat vp handCount provinces scribesFree theftCard gold hand
    statueCards pharaohTokens collectionCount tomb collection { tile count }
  }
  you {
    seat gold markedForSale { card count } adjustment
    offer { offer gold } collection { tile count }
  }
  discards: discardPile drawPileCount provinceDeckCount
  lastScoring { seat pyramids weakest farmers temples west east schemes total schemesScored }
  final { gold goldBonus tomb }
  winners ranks
  statues { onBoard { statue province } holders { statue seat } deckCount }
  pharaoh { province }
  tombStackCount tombDiscard
}`;

const INK = "#1f1f1f";
const MUTED = "#5b5b5b";
const PAPER = "#fbf6e9";
const SAND = "#efe2bf";
const NILE = "#6fa8dc";
const GOLD = "#b8860b";
// Favour card colours (catalog `favourCards[].colour`), each with its phase's initial too.
const CARD_FILLS = {red: "#f4c7c3", purple: "#dccbe8", blue: "#c9dcf2", green: "#cfe8cf", yellow: "#f7edb0"};
const PHASE_NAMES = {
  setup: "Setup", auction: "Auction", resolution: "Auction results", market: "Market",
  offering: "Offering", gifts: "Gifts", harvest: "Harvest", final_sale: "Final sale", over: "Game over",
};
// Short chip texts for actions placed on a province or a card; the full label is the title.
const SHORT = {
  place_farmer: "+farmer", place_stone: "+stone", take_farmer: "+farmer", take_stone: "+stone",
  play_architect: "Architect", play_extra_farmer: "Extra farmer", play_exceptional_harvest: "Exc. harvest",
  play_fixed_income: "Fixed income", use_horus: "Horus", sell: "sell", sell_for_payment: "pay",
  mark_for_sale: "mark", thoth_discard: "discard",
};

const words = (id) => String(id ?? "").toLowerCase().replace(/_/g, " ");
const seatStyle = (seat) => SEAT_STYLES[seat % SEAT_STYLES.length];
// seats numbered from 1 where a person reads them (`seat` values stay 0-based)
const seatName = (seat, names) => (names && names[seat] ? names[seat] : `Seat ${seat + 1}`);

function text(x, y, content, attrs = {}) {
  return el("text", {x, y, "font-size": 13, fill: INK, ...attrs}, content);
}

// Sizes of the board: on a touch screen or a narrow one (a phone) every place to tap is at least
// TAP units, and the drawing is never shown smaller than its units (set by drawBoard); the
// smallest text is 12 units.
let TOUCH = false;
const TAP = 44;
const chipHeight = (small) => (TOUCH ? TAP : small);

// `content` cut into lines of at most `width` units at `size` units (an estimate of the glyphs'
// width, on the wide side), at most `most` lines; between its facts (" · ") when it has any, else
// between words.
function lines(content, width, size = 12, most = 4) {
  const per = Math.max(8, Math.floor(width / (size * 0.57)));
  const sep = String(content).includes(" · ") ? " · " : " ";
  const out = [];
  let line = "";
  for (const word of String(content).split(sep)) {
    if (line && (line + sep + word).length > per) {
      out.push(line);
      line = word;
    } else {
      line = line ? `${line}${sep}${word}` : word;
    }
  }
  if (line) out.push(line);
  return out.slice(0, most);
}

// Text over as many lines as it takes: one <text> with a <tspan> per line; its height.
function textLines(x, y, content, width, attrs = {}, step = 16) {
  const size = Number(attrs["font-size"] ?? 13);
  const parts = lines(content, width, size, attrs.most ?? 4);
  const {most, ...rest} = attrs;
  const node = text(x, y, parts[0] ?? "", rest);
  parts.slice(1).forEach((part, i) => node.append(el("tspan", {x, y: y + (i + 1) * step}, part)));
  return {node, height: parts.length * step};
}

function token(seat, cx, cy, r, names) {
  return piece(seatStyle(seat), cx, cy, r, `${seatName(seat, names)} (${seatStyle(seat).name})`);
}

// A clickable chip for legalActions[index]; its label is the title and the accessible name.
function chip(x, y, w, h, caption, index, entry, onAction, attrs = {}) {
  const group = el("g", {"data-action": index, "data-testid": `action-${index}`, class: "chip", ...attrs},
    title(entry.label),
    el("rect", {x, y, width: w, height: h, rx: 4, fill: "#fff", stroke: "#1a5fb4", "stroke-width": 1.5}),
    text(x + w / 2, y + h / 2 + 4, caption, {"text-anchor": "middle", "font-size": 12, fill: "#1a5fb4", "font-weight": 700}));
  return clickable(group, entry.label, () => onAction(entry.action));
}

// Where each legal action goes: on a province, an auction card's bid space, a hand card, the
// Offering; or nowhere (the page lists those).
function placeActions(legalActions) {
  const places = {province: new Map(), bid: new Map(), card: new Map(), offering: [], rest: []};
  const push = (map, key, item) => map.set(key, [...(map.get(key) || []), item]);
  legalActions.forEach((entry, index) => {
    const action = entry.action || {};
    const type = action.type || entry.type;
    const item = {entry, index, type};
    if (type === "bid" && !action.bribe && !action.protection) push(places.bid, lc(action.province), item);
    else if (type === "commit_gold" || type === "commit_theft") places.offering.push(item);
    else if (action.province !== undefined && type !== "bid") push(places.province, lc(action.province), item);
    else if (action.card !== undefined) push(places.card, lc(action.card), item);
    else places.rest.push(entry);
  });
  return places;
}

// Rows of the map: north (lower Egypt, the delta) at the top, each bank ordered along the river,
// the upper rows aligned at the bottom so that facing provinces sit side by side.
function mapRows(catalog) {
  const rows = new Map();
  for (const bank of ["west", "east"]) {
    const mine = catalog.provinces.filter((p) => p.bank === bank);
    const lower = mine.filter((p) => p.region === "lower").sort((a, b) => b.bankOrder - a.bankOrder);
    const upper = mine.filter((p) => p.region !== "lower").sort((a, b) => b.bankOrder - a.bankOrder);
    lower.forEach((p, i) => rows.set(p.id, {row: i, bank}));
    upper.forEach((p, i) => rows.set(p.id, {row: 8 - upper.length + i, bank}));
  }
  return rows;
}

function provinceBox(p, state, geometry, ctx) {
  const {x, y, w, h} = geometry;
  const {names, places, onAction, pharaoh, statues} = ctx;
  const group = el("g", {"data-testid": `province-${p.id}`, "data-province": p.id, class: "province"});
  if (!state) {
    group.append(title(`${p.name}: not revealed yet`),
      el("rect", {x, y, width: w, height: h, rx: 6, fill: "#e6e1d6", stroke: "#b9b2a3", "stroke-dasharray": "4 3"}),
      text(x + 8, y + 18, p.name, {fill: "#8a8478", "font-weight": 700}),
      text(x + 8, y + 36, "not revealed", {fill: "#8a8478", "font-size": 12}));
    return group;
  }
  const owner = state.owner;
  const auction = state.upForAuction;
  const summary = [
    `${p.name} (${p.region} ${p.bank} bank, ${p.river})`,
    owner === null || owner === undefined ? "no owner" : `owner ${seatName(owner, names)}`,
    `${state.pyramids} pyramid(s), ${state.stones} loose stone(s)`,
    `farmers ${state.farmers}/${p.fields}`, `temples ${p.temples}`, `mine ${p.mine} gold`,
    `caravan ${p.caravan} gold`, `card limit ${p.cardLimit}`,
    `bonus: ${p.bonus.stones} stone(s), ${p.bonus.gold} gold, ${p.bonus.favourCards ?? p.bonus.favour_cards} card(s)`,
  ];
  if (auction) summary.push("up for auction");
  group.append(title(summary.join("; ")),
    el("rect", {x, y, width: w, height: h, rx: 6, fill: PAPER, stroke: auction ? GOLD : "#9c8b63",
      "stroke-width": auction ? 3 : 1.2}),
    text(x + 8, y + 17, p.name, {"font-weight": 700, "font-size": 14}));
  if (owner !== null && owner !== undefined) {
    group.append(el("g", {"data-testid": `owner-${p.id}`, "data-owner": owner}, token(owner, x + w - 14, y + 13, 9, names)));
  }
  // pieces: pyramids (triangles), loose stones (squares), farmers on fields (filled / free)
  let cx = x + 10;
  const py = y + 45;
  for (let i = 0; i < state.pyramids; i += 1, cx += 15) {
    group.append(el("polygon", {points: `${cx},${py + 6} ${cx + 12},${py + 6} ${cx + 6},${py - 7}`, fill: "#d9b25f", stroke: "#7a5a12"}));
  }
  for (let i = 0; i < state.stones; i += 1, cx += 10) {
    group.append(el("rect", {x: cx, y: py - 2, width: 8, height: 8, fill: "#c9c0ad", stroke: "#6d6352"}));
  }
  if (state.pyramids || state.stones) cx += 8;
  for (let i = 0; i < p.fields; i += 1, cx += 11) {
    group.append(el("circle", {cx: cx + 4, cy: py + 2, r: 4.5, fill: i < state.farmers ? "#2e7d32" : "none", stroke: "#2e7d32"}));
  }
  for (let i = 0; i < p.temples; i += 1, cx += 16) {
    // a temple: a roof on two columns
    group.append(el("g", {class: "temple"},
      el("polygon", {points: `${cx},${py - 2} ${cx + 13},${py - 2} ${cx + 6.5},${py - 8}`, fill: "#8d6e63"}),
      el("rect", {x: cx + 2, y: py - 2, width: 3, height: 9, fill: "#8d6e63"}),
      el("rect", {x: cx + 8, y: py - 2, width: 3, height: 9, fill: "#8d6e63"})));
  }
  const bonus = [];
  if (p.bonus.stones) bonus.push(`${p.bonus.stones}st`);
  if (p.bonus.gold) bonus.push(`${p.bonus.gold}g`);
  const cards = p.bonus.favourCards ?? p.bonus.favour_cards;
  if (cards) bonus.push(`${cards}c`);
  const facts = [`mine ${p.mine}`, `caravan ${p.caravan}`, `limit ${p.cardLimit}`];
  if (bonus.length) facts.push(`bonus ${bonus.join(" ")}`);
  group.append(textLines(x + 8, y + 67, facts.join(" · "), w - 16, {"font-size": 12, fill: MUTED, most: 3}, 15).node);
  const badges = [];
  if (pharaoh && lc(pharaoh) === p.id) badges.push("Pharaoh");
  for (const placed of statues) if (lc(placed.province) === p.id) badges.push(words(placed.statue));
  if (auction) badges.push("for auction");
  if (badges.length) {
    group.append(text(x + w - 8, y + 32, badges.join(", "), {"text-anchor": "end", "font-size": 12, fill: GOLD, "font-style": "italic"}));
  }
  // the actions placed on this province
  const mine = places.province.get(p.id) || [];
  let chipX = x + w - 6;
  const chipH = chipHeight(20);
  for (const {entry, index, type} of mine.slice().reverse()) {
    const caption = SHORT[type] || words(type);
    const cw = Math.max(TOUCH ? TAP : 40, caption.length * 7.2 + 12);
    chipX -= cw;
    group.append(chip(chipX, y + h - chipH - 4, cw, chipH, caption, index, entry, onAction));
    chipX -= 4;
  }
  return group;
}

function nile(view, catalog, ctx, layout) {
  const {mapX, mapW, top} = layout;
  // a row: the name, the pieces, two lines of facts, and the chips of the viewer's actions on a
  // province when it has any
  const chips = ctx.places.province.size ? chipHeight(20) + 6 : 0;
  const rowH = (mapW < 440 ? 112 : 96) + chips; // narrow provinces: three lines of facts
  const gap = 16;
  const nileW = mapW < 500 ? 30 : 56;
  const boxW = (mapW - nileW - 16) / 2;
  const rows = mapRows(catalog);
  const seen = new Map((view.provinces || []).map((p) => [lc(p.id), p]));
  const height = 8 * rowH + gap + 24;
  const group = el("g", {"data-testid": "nile", class: "nile"},
    title("The Nile: west bank on the left, east bank on the right, the delta (lower Egypt) at the top"),
    el("rect", {x: mapX, y: top, width: mapW, height, rx: 8, fill: SAND}),
    el("rect", {x: mapX + boxW + 8, y: top + 20, width: nileW, height: height - 24, fill: NILE, rx: 12}),
    text(mapX + 8, top + 15, "West bank", {"font-size": 12, fill: MUTED, "font-weight": 700}),
    text(mapX + mapW - 8, top + 15, "East bank", {"font-size": 12, fill: MUTED, "font-weight": 700, "text-anchor": "end"}),
    text(mapX + mapW / 2, top + 15, "Nile", {"font-size": 12, fill: "#1d4f80", "font-weight": 700, "text-anchor": "middle"}));
  const rowY = (row) => top + 22 + row * rowH + (row >= 4 ? gap : 0);
  const label = (caption, cy) => text(0, 0, caption, {"text-anchor": "middle", "font-size": 12, fill: "#fff", "font-weight": 700,
    "letter-spacing": 1, transform: `translate(${mapX + mapW / 2 + 4} ${cy}) rotate(-90)`});
  group.append(
    label("LOWER EGYPT (delta)", rowY(0) + 2 * rowH),
    el("line", {x1: mapX + 4, x2: mapX + mapW - 4, y1: rowY(4) - gap / 2 - 2, y2: rowY(4) - gap / 2 - 2, stroke: "#9c8b63", "stroke-dasharray": "6 4"}),
    label("UPPER EGYPT", rowY(4) + 2 * rowH));
  for (const p of catalog.provinces) {
    const place = rows.get(p.id);
    const x = place.bank === "west" ? mapX + 4 : mapX + boxW + nileW + 12;
    group.append(provinceBox(p, seen.get(p.id), {x, y: rowY(place.row), w: boxW, h: rowH - 6}, ctx));
  }
  return {node: group, height};
}

function panel(x, y, w, caption, testid) {
  const group = el("g", {"data-testid": testid, class: "panel"});
  group.append(text(x, y + 14, caption, {"font-weight": 700, "font-size": 14}));
  return group;
}

function header(view, layout, names) {
  const phase = PHASE_NAMES[lc(view.phase)] || words(view.phase);
  const kingdom = view.kingdom === 2 ? "New Kingdom" : view.kingdom === 1 ? "Old Kingdom" : "";
  const parts = [view.round ? `Round ${view.round} of 6` : "Before round 1", kingdom, phase];
  const acting = (view.toAct || []).map((s) => seatName(s, names)).join(", ");
  const second = [acting ? `To act: ${acting}` : "Nobody to act"];
  if (view.decision) second.push(`deciding: ${words(view.decision)}`);
  const first = textLines(layout.mapX, 20, parts.filter(Boolean).join(" · "), layout.mapW,
    {"font-weight": 700, "font-size": 15, "data-testid": "phase", most: 2}, 19);
  const group = el("g", {"data-testid": "header"}, first.node);
  const shown = textLines(layout.mapX, 20 + first.height, second.join(" · "), layout.mapW,
    {"font-size": 12, fill: MUTED, "data-testid": "to-act", most: 2});
  group.append(shown.node);
  return {node: group, height: 4 + first.height + shown.height};
}

function auctionPanel(view, catalog, ctx, x, y, w) {
  const group = panel(x, y, w, "Bid track · auction", "auction");
  let cy = y + 24;
  const track = view.bidTrack?.length ? view.bidTrack : catalog.bidTrack;
  const cards = view.auction?.cards || [];
  const provinceName = (id) => catalog.provinces.find((p) => p.id === lc(id))?.name || words(id);
  if (!cards.length) {
    group.append(text(x, cy + 12, view.auction ? "No province cards" : "No auction now", {fill: MUTED, "font-size": 12}));
    return {node: group, height: 44};
  }
  // the bid spaces: one row, or rows of spaces as wide as a finger on a touch screen
  const perRow = TOUCH ? Math.max(1, Math.min(track.length, Math.floor((w + 4) / (TAP + 4)))) : track.length;
  const cellW = TOUCH ? Math.min(TAP + 4, (w + 4) / perRow) : Math.min(36, (w - 4) / track.length);
  const cellH = TOUCH ? TAP : 26;
  const trackRows = Math.ceil(track.length / perRow);
  for (const card of cards) {
    const id = lc(card.province);
    const notes = [];
    if (card.standing !== null && card.standing !== undefined) notes.push(`standing: ${seatName(card.standing, ctx.names)}`);
    if (card.protected) notes.push("protected");
    if (card.blocked !== null && card.blocked !== undefined) notes.push(`${card.blocked} blocked`);
    const heading = textLines(x, cy + 12, `${provinceName(id)}${notes.length ? ` — ${notes.join(", ")}` : ""}`, w,
      {"font-size": 12, "font-weight": 600}, 15);
    const row = el("g", {"data-testid": `auction-${id}`}, heading.node);
    const top = cy + heading.height + 2;
    const bids = new Map((ctx.places.bid.get(id) || []).map((item) => [item.entry.action.value, item]));
    track.forEach((value, i) => {
      const cx = x + (i % perRow) * cellW;
      const cellY = top + Math.floor(i / perRow) * (cellH + 4);
      const scribes = (card.scribes || []).filter((s) => s.value === value);
      const bid = bids.get(value);
      if (bid) {
        row.append(chip(cx + 1, cellY, cellW - 3, cellH, String(value), bid.index, bid.entry, ctx.onAction));
        return;
      }
      const blocked = card.blocked === value;
      row.append(el("rect", {x: cx + 1, y: cellY, width: cellW - 3, height: cellH, rx: 3,
        fill: blocked ? "#d6d6d6" : "#f5efe0", stroke: "#b3a27a"}));
      if (scribes.length) {
        scribes.forEach((s, k) => row.append(token(s.seat, cx + cellW / 2 - 1 + k * 4, cellY + cellH / 2, 9, ctx.names)));
      } else {
        row.append(text(cx + cellW / 2 - 1, cellY + cellH / 2 + 4, blocked ? "✕" : String(value), {"text-anchor": "middle", "font-size": 12, fill: MUTED}));
      }
      if (scribes.length) row.lastChild.prepend(title(`${scribes.map((s) => seatName(s.seat, ctx.names)).join(", ")}: ${value}${scribes.some((s) => s.standing) ? " (standing)" : ""}`));
    });
    group.append(row);
    cy = top + trackRows * (cellH + 4) + 6;
  }
  const status = view.auction?.status || [];
  if (status.length) {
    const line = status.map((s, seat) => `${seatName(seat, ctx.names)}: ${words(s)}`).join(" · ");
    const shown = textLines(x, cy + 12, line, w, {"font-size": 12, fill: MUTED, "data-testid": "auction-status"});
    group.append(shown.node);
    cy += shown.height + 2;
  }
  return {node: group, height: cy - y + 4};
}

function offeringPanel(view, ctx, x, y, w) {
  const group = panel(x, y, w, "The Offering", "offering");
  let cy = y + 24;
  const tile = view.offeringTile;
  if (tile) {
    group.append(text(x, cy + 12, `Tile ${tile.tile}: ${tile.goldPerFarmer} gold/farmer, temples ${tile.templeVp} VP${tile.camel ? ", camel" : ""}`,
      {"font-size": 12, "data-testid": "offering-tile"}));
    cy += 18;
  }
  const committed = view.offering?.committed || view.finalSale?.committed || null;
  const revealed = view.lastOffering || null;
  const you = view.you;
  if (committed) {
    committed.forEach((done, seat) => {
      let state = done ? "committed" : "deciding";
      if (you && you.seat === seat && you.offer) {
        state = lc(you.offer.offer) === "theft" ? "you steal" : `you offer ${you.offer.gold} gold`;
      }
      group.append(el("g", {"data-testid": `offering-${seat}`, "data-committed": String(Boolean(done))},
        token(seat, x + 9, cy + 9, 8, ctx.names),
        text(x + 24, cy + 13, `${seatName(seat, ctx.names)}: ${state}`, {"font-size": 12})));
      cy += 20;
    });
    if (view.finalSale && !view.offering) group.append(text(x, cy + 10, "(final sale)", {"font-size": 12, fill: MUTED}));
  } else if (revealed) {
    group.append(text(x, cy + 12, "Revealed:", {"font-size": 12, fill: MUTED}));
    cy += 16;
    for (const offer of revealed) {
      const what = lc(offer.offer) === "theft" ? "stole" : `offered ${offer.gold} gold`;
      group.append(el("g", {"data-testid": `offering-${offer.seat}`},
        token(offer.seat, x + 9, cy + 9, 8, ctx.names),
        text(x + 24, cy + 13, `${seatName(offer.seat, ctx.names)}: ${what}`, {"font-size": 12})));
      cy += 20;
    }
  } else {
    group.append(text(x, cy + 12, "Not yet this round", {"font-size": 12, fill: MUTED}));
    cy += 18;
  }
  if (you && (you.adjustment || (you.markedForSale || []).length)) {
    const marked = (you.markedForSale || []).map((c) => (typeof c === "string" ? words(c) : `${words(c.card)}×${c.count}`));
    const bits = [];
    if (you.adjustment) bits.push(`adjustment ${you.adjustment > 0 ? "+" : ""}${you.adjustment}`);
    if (marked.length) bits.push(`marked for sale: ${marked.join(", ")}`);
    const mine = textLines(x, cy + 12, `Yours (private): ${bits.join("; ")}`, w, {"font-size": 12, fill: MUTED, "data-testid": "offering-private"});
    group.append(mine.node);
    cy += mine.height + 2;
  }
  const items = ctx.places.offering;
  if (items.length) {
    const size = TOUCH ? TAP : 34;
    const chipH = chipHeight(22);
    const per = Math.max(2, Math.floor((w + 4) / (size + 4)));
    let col = 0;
    let row = 0;
    items.forEach((item) => {
      const caption = item.type === "commit_theft" ? "steal" : String(item.entry.action.gold);
      const span = item.type === "commit_theft" ? 2 : 1;
      if (col + span > per) {
        col = 0;
        row += 1;
      }
      const cw = span * size + (span - 1) * 4;
      group.append(chip(x + col * (size + 4), cy + 4 + row * (chipH + 4), cw, chipH, caption, item.index, item.entry, ctx.onAction));
      col += span;
    });
    cy += 8 + (row + 1) * (chipH + 4);
  }
  return {node: group, height: cy - y + 6};
}

function phasePanel(view, ctx, x, y, w) {
  const rows = [];
  const names = ctx.names;
  const turn = (t) => (t === null || t === undefined ? "" : `${seatName(t, names)}'s turn`);
  if (view.market) {
    const m = view.market;
    rows.push(`Market: ${turn(m.turn)}${m.toPlace ? `, to place ${m.toPlace.count} ${words(m.toPlace.kind)}` : ""}`);
    if (m.lastPurchase) rows.push(`last purchase: ${words(m.lastPurchase)}, ${m.cardsBought} card(s) bought`);
  }
  if (view.gifts) {
    const g = view.gifts;
    rows.push(`Gifts: ${turn(g.turn)}, ${g.giftsLeft} left${g.toPlace ? `, to place ${g.toPlace.count} ${words(g.toPlace.kind)}` : ""}`);
    rows.push(`gift order: ${g.order.map((s) => seatName(s, names)).join(", ")}`);
  }
  if (view.harvest) {
    const hv = view.harvest;
    rows.push(`Harvest: ${turn(hv.turn)}`);
    for (const green of hv.green || []) rows.push(`${words(green.card)} in ${words(green.province)}`);
  }
  if (view.pharaoh) rows.push(`Pharaoh: ${view.pharaoh.province ? words(view.pharaoh.province) : "not placed"}`);
  if (view.statues) {
    const held = (view.statues.holders || []).filter((hd) => hd.seat !== null && hd.seat !== undefined);
    rows.push(`Statues: ${held.map((hd) => `${words(hd.statue)} (${seatName(hd.seat, names)})`).join(", ") || "none held"}`);
  }
  const piles = [`draw pile ${view.drawPileCount ?? view.drawPile}`, `province deck ${view.provinceDeckCount ?? view.provinceDeck}`,
    `discards ${(view.discards ?? view.discardPile ?? []).length}`];
  const tombStack = view.tombStackCount ?? view.tombStack;
  if (tombStack !== null && tombStack !== undefined) piles.push(`tomb stack ${tombStack}`);
  rows.push(piles.join(" · "));
  const group = el("g", {"data-testid": "phase-info"});
  let cy = y + 14;
  rows.forEach((line, i) => {
    const shown = textLines(x, cy, line, w, {"font-size": 12, fill: i === rows.length - 1 ? MUTED : INK});
    group.append(shown.node);
    cy += shown.height + 1;
  });
  return {node: group, height: cy - y - 8};
}

function handCards(player, you) {
  // `players[i].hand`: card ids (a card held twice listed twice) for the viewer's own seat and,
  // in the full view, for everyone; null for a hand the viewer may not see. ({card, count}
  // entries are read too.)
  const source = player.hand ?? (you && you.seat === player.seat ? you.hand : null);
  if (!source) return null;
  const counts = new Map();
  for (const item of source) {
    const id = typeof item === "string" ? lc(item) : lc(item.card);
    counts.set(id, (counts.get(id) || 0) + (typeof item === "string" ? 1 : item.count));
  }
  return counts;
}

function playersPanel(view, catalog, ctx, x, y, w) {
  const group = panel(x, y, w, "Players", "players");
  let cy = y + 26;
  const narrow = w < 640;
  const final = view.final;
  for (const player of view.players || []) {
    const seat = player.seat;
    const row = el("g", {"data-testid": `player-${seat}`});
    const isViewer = view.viewer === seat;
    const box = el("rect", {x, y: cy, width: w, height: 26, rx: 4, fill: isViewer ? "#fff4cc" : "#fff", stroke: "#d8ceb5"});
    row.append(box,
      token(seat, x + 13, cy + 13, 9, ctx.names),
      text(x + 28, cy + 17, `${seatName(seat, ctx.names)}${isViewer ? " (you)" : ""}`, {"font-weight": 600, "font-size": 12}));
    const gold = player.gold ?? (isViewer ? view.you?.gold : null);
    const cards = player.handCount ?? player.cardCount ?? player.cards;
    const facts = [
      gold === null || gold === undefined ? "gold ?" : `${gold} gold`,
      `${cards} card${cards === 1 ? "" : "s"}`,
      `${player.provinces.length} prov.`,
      `${player.scribesFree} scribe${player.scribesFree === 1 ? "" : "s"}`,
    ];
    if (player.theftCard) facts.push("theft card");
    if (player.pharaohTokens !== null && player.pharaohTokens !== undefined) facts.push(`${player.pharaohTokens} pharaoh`);
    const tiles = player.collectionCount ?? player.tombTiles;
    if (tiles !== null && tiles !== undefined) facts.push(`${tiles} tomb tiles`);
    if ((player.statueCards || []).length) facts.push(`statues: ${player.statueCards.map(words).join(", ")}`);
    if (final) facts.push(`+${final.goldBonus[seat]} gold bonus`);
    // beside the name on a wide board, under it on a narrow one: never under the VP
    const factsX = narrow ? x + 28 : x + 220;
    const factsW = narrow ? w - 36 : w - 220 - 80;
    const shown = textLines(factsX, cy + (narrow ? 37 : 17), facts.join(" · "), factsW, {"font-size": 12, fill: MUTED}, 16);
    row.append(el("g", {"data-testid": `gold-${seat}`}, shown.node));
    const height = narrow ? 24 + shown.height : Math.max(26, shown.height + 10);
    box.setAttribute("height", String(height));
    row.prepend(title(`${seatName(seat, ctx.names)}: ${player.vp} VP`));
    row.append(text(x + w - 8, cy + 18, `${player.vp} VP`,
      {"text-anchor": "end", "font-weight": 700, "font-size": 14, "data-testid": `score-${seat}`, "data-score": player.vp}));
    group.append(row);
    cy += height + 4;
  }
  if ((view.winners || []).length) {
    group.append(text(x, cy + 14, `Winner${view.winners.length > 1 ? "s" : ""}: ${view.winners.map((s) => seatName(s, ctx.names)).join(", ")}`,
      {"font-weight": 700, fill: GOLD, "data-testid": "winners"}));
    cy += 22;
  }
  return {node: group, height: cy - y};
}

function handPanel(view, catalog, ctx, x, y, w) {
  const byId = new Map(catalog.favourCards.map((c) => [c.id, c]));
  const group = panel(x, y, w, view.you ? "Your hand" : "Hands", "hand");
  let cy = y + 22;
  const owners = view.you ? (view.players || []).filter((p) => p.seat === view.you.seat) : view.players || [];
  let shown = 0;
  for (const player of owners) {
    const counts = handCards(player, view.you);
    if (!counts) continue;
    shown += 1;
    if (!view.you) {
      group.append(text(x, cy + 12, seatName(player.seat, ctx.names), {"font-size": 12, "font-weight": 600}));
      cy += 16;
    }
    if (!counts.size) {
      group.append(text(x, cy + 12, "no cards", {"font-size": 12, fill: MUTED}));
      cy += 20;
      continue;
    }
    const cardW = w < 500 ? Math.max(140, (w - 6) / 2) : 150;
    const per = Math.max(1, Math.floor((w + 6) / (cardW + 6)));
    const chipH = chipHeight(20);
    // room under the cards for the chips of the viewer's own hand, when it has any
    const mineHere = view.you && view.you.seat === player.seat && [...counts.keys()].some((id) => ctx.places.card.has(id));
    const cardStep = mineHere ? 46 + 3 + chipH + 6 : 52;
    let i = 0;
    let rowsUsed = 0;
    for (const [id, count] of counts) {
      const info = byId.get(id) || {name: words(id), colour: "yellow", phase: "", effect: ""};
      const cx = x + (i % per) * (cardW + 6);
      const top = cy + Math.floor(i / per) * cardStep;
      rowsUsed = Math.floor(i / per) + 1;
      const card = el("g", {"data-testid": `card-${id}`, "data-count": count},
        title(`${info.name}${count > 1 ? ` ×${count}` : ""} (${info.colour}, ${info.phase}): ${info.effect}`),
        el("rect", {x: cx, y: top, width: cardW, height: 46, rx: 5, fill: CARD_FILLS[info.colour] || "#eee", stroke: "#6d6352"}),
        text(cx + 6, top + 16, info.name, {"font-size": 12, "font-weight": 700}),
        text(cx + 6, top + 34, `${info.colour[0].toUpperCase()} · ${words(info.phase).split(" ")[0]}${count > 1 ? ` · ×${count}` : ""}`,
          {"font-size": 12, fill: MUTED}));
      const items = view.you && view.you.seat === player.seat ? ctx.places.card.get(id) || [] : [];
      let chipX = cx;
      for (const {entry, index, type} of items) {
        const caption = SHORT[type] || words(type);
        const cwid = Math.max(TOUCH ? TAP : 34, caption.length * 7.2 + 12);
        card.append(chip(chipX, top + 49, cwid, chipH, caption, index, entry, ctx.onAction));
        chipX += cwid + 4;
      }
      group.append(card);
      i += 1;
    }
    cy += rowsUsed * cardStep + 4;
  }
  if (!shown) {
    const counts = (view.players || []).map((p) => `${seatName(p.seat, ctx.names)}: ${p.handCount ?? p.cardCount ?? p.cards}`);
    const shownCounts = textLines(x, cy + 12, `Cards in hand — ${counts.join(" · ")}`, w, {"font-size": 12, fill: MUTED});
    group.append(shownCounts.node);
    cy += shownCounts.height + 4;
  }
  return {node: group, height: cy - y};
}

function tombPanel(view, catalog, ctx, x, y, w) {
  const players = (view.players || []).filter((p) => p.tomb);
  if (!players.length) return null;
  const group = panel(x, y, w, "Tombs (Afterlife)", "tombs");
  const cell = 20;
  const each = 5 * cell + 24;
  const per = Math.max(1, Math.floor(w / each));
  let cy = y + 22;
  players.forEach((player, i) => {
    const ox = x + (i % per) * each;
    const oy = cy + Math.floor(i / per) * (5 * cell + 24);
    const tomb = el("g", {"data-testid": `tomb-${player.seat}`}, token(player.seat, ox + 8, oy + 8, 7, ctx.names));
    // rows base first: draw the base at the bottom, each row centred
    player.tomb.forEach((row, r) => {
      const ry = oy + 16 + (player.tomb.length - 1 - r) * cell;
      const rx = ox + ((5 - row.length) * cell) / 2;
      row.forEach((tile, c) => {
        tomb.append(el("rect", {x: rx + c * cell, y: ry, width: cell - 2, height: cell - 2, fill: tile ? "#d9b25f" : "#f5efe0", stroke: "#9c8b63"}));
        if (tile) tomb.append(text(rx + c * cell + (cell - 2) / 2, ry + 13, words(tile)[0].toUpperCase(), {"text-anchor": "middle", "font-size": 12}));
      });
    });
    group.append(tomb);
  });
  cy += Math.ceil(players.length / per) * (5 * cell + 24);
  const collection = view.you?.collection;
  if (collection && collection.length) {
    const tiles = textLines(x, cy + 12, `Your tiles (private): ${collection.map((t) => `${words(t.tile)}×${t.count}`).join(", ")}`, w, {"font-size": 12, fill: MUTED});
    group.append(tiles.node);
    cy += tiles.height + 2;
  }
  return {node: group, height: cy - y};
}

function scoringPanel(view, ctx, x, y, w) {
  const lines = view.lastScoring;
  if (!lines || !lines.length) return null;
  const group = panel(x, y, w, "Last kingdom scoring", "scoring");
  let cy = y + 22;
  for (const line of lines) {
    const parts = [`pyramids ${line.pyramids}`, `weakest ${line.weakest}`, `farmers ${line.farmers}`, `temples ${line.temples}`,
      `banks ${line.west + line.east}`, `schemes ${line.schemes}`];
    const shown = textLines(x + 22, cy + 12, `${seatName(line.seat, ctx.names)}: ${line.total} VP — ${parts.join(", ")}`, w - 22, {"font-size": 12});
    group.append(el("g", {"data-testid": `scoring-${line.seat}`}, token(line.seat, x + 8, cy + 8, 7, ctx.names), shown.node));
    cy += shown.height + 2;
  }
  return {node: group, height: cy - y + 4};
}

// The board: the map on the left (or on top on a narrow screen), panels beside (or below).
// `names`: {seat: name} (optional); the board says "Seat n" without it.
export function drawBoard(container, {view, catalog, legalActions = [], seat = null, onAction = () => {}, names = null}) {
  const width = contentWidth(container);
  // the map beside the panels from 880 units up, else above them; drawn as wide as the
  // container (its units are pixels: the 12-unit text is 12 px), not narrower than the layout
  const narrow = width < 880;
  const W = narrow ? Math.max(300, Math.floor(width)) : Math.floor(width);
  const coarse = typeof window !== "undefined" && window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  TOUCH = width < 640 || Boolean(coarse);
  const places = placeActions(legalActions || []);
  const ctx = {names, places, onAction, seat, pharaoh: view.pharaoh?.province, statues: view.statues?.onBoard || []};
  const layout = {narrow, mapX: 8, mapW: narrow ? W - 16 : 600, top: 48};
  // a group, not an image: an image's children (the moves' controls) would be hidden from
  // assistive technology
  const svg = el("svg", {viewBox: `0 0 ${W} 100`, width: "100%", role: "group", "aria-label": "Amun-Re board", class: "board amunre",
    "data-testid": "board", "data-game": "amun_re", "font-family": "system-ui, sans-serif"});
  svg.append(title(`Amun-Re, round ${view.round}, ${words(view.phase)}`));
  const head = header(view, layout, names);
  layout.top = head.height + 14;
  svg.append(head.node);
  const map = nile(view, catalog, ctx, layout);
  svg.append(map.node);
  const panelX = narrow ? 8 : layout.mapX + layout.mapW + 20;
  const panelW = narrow ? W - 16 : W - panelX - 8;
  let y = narrow ? layout.top + map.height + 14 : layout.top;
  const side = [
    auctionPanel(view, catalog, ctx, panelX, y, panelW),
  ];
  y += side[0].height + 8;
  for (const build of [offeringPanel, phasePanel]) {
    const part = build(view, ctx, panelX, y, panelW);
    side.push(part);
    y += part.height + 8;
  }
  for (const part of side) svg.append(part.node);
  let bottom = Math.max(y, layout.top + map.height + 14);
  const fullX = 8;
  const fullW = W - 16;
  for (const build of [playersPanel, handPanel, tombPanel, scoringPanel]) {
    const part = build === scoringPanel ? scoringPanel(view, ctx, fullX, bottom, fullW) : build(view, catalog, ctx, fullX, bottom, fullW);
    if (!part) continue;
    svg.append(part.node);
    bottom += part.height + 10;
  }
  svg.setAttribute("viewBox", `0 0 ${W} ${Math.ceil(bottom)}`);
  container.replaceChildren(svg);
  return places.rest;
}

// -- the live region -------------------------------------------------------------------------------

const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const province = (id) => words(id).replace(/(^|\s)\S/g, (letter) => letter.toUpperCase());
const inProvince = (d) => (d.province ? ` in ${province(d.province)}` : "");

// What a seat's event did, in a few words, for the game page's live region (null: the page
// words it from its type). Nothing secret: an Offering's amount or a card marked for sale is
// never said (another seat's view does not hold them either).
export function describeEvent(event) {
  const d = event.data || {};
  switch (event.type) {
    case "bid_placed": return `bid ${d.value} gold on ${province(d.province)}${d.bribe ? " (a bribe)" : ""}`;
    case "farmers_bought": return `bought ${count(d.count, "farmer")}`;
    case "stones_bought": return `bought ${count(d.count, "stone")}`;
    case "favour_cards_bought": return `bought ${count(d.count, "Favour card")}`;
    case "farmer_placed": return `placed a farmer${inProvince(d)}`;
    case "stone_placed": return `placed a stone${inProvince(d)}${d.pyramids_built ? `, a pyramid built` : ""}`;
    case "architect_played": return `played the Architect${inProvince(d)}`;
    case "extra_farmer_played": return `played the Extra farmer${inProvince(d)}`;
    case "card_sold": return `sold a card${d.card ? ` (${words(d.card)})` : ""}`;
    case "offering_committed": return "committed to the Offering";
    case "final_sale_committed": return "committed to the final sale";
    case "sale_marked": return "marked a card for sale";
    case "gift_taken": return `took a gift${d.gift ? ` (${words(d.gift)})` : ""}${inProvince(d)}`;
    case "green_card_played": return `played ${words(d.card)}${inProvince(d)}`;
    case "horus_used": return "used Horus";
    case "glory_played": return "played Glory";
    case "afterlife_played": return "played an Afterlife card";
    case "tomb_tiles_bought": return "bought tomb tiles";
    case "tomb_tile_placed": return "placed a tomb tile";
    default: return null;
  }
}

// -- the lobby ------------------------------------------------------------------------------------

export const START_PLAYER = true;
// the variants and Expanded Pack modules a table may play with (each an option, off by default)
const FLAGS = [
  ["classic_bank_majority", "Classic bank majority"],
  ["no_farmer_points", "No farmer points"],
  ["afterlife", "Afterlife module"],
  ["statues", "Statues module"],
  ["pharaoh", "Pharaoh module"],
  ["promo_favours", "Promo Favour cards"],
];

// The options of a new table: one checkbox per variant or module.
export function optionControls(h) {
  const boxes = {};
  const nodes = FLAGS.map(([key, label]) => {
    const id = `opt-${key}`;
    boxes[key] = h("input", {id, type: "checkbox", "data-testid": id});
    return h("div", {class: "row check"}, boxes[key], h("label", {for: id}, label));
  });
  return {nodes, read: () => Object.fromEntries(FLAGS.map(([key]) => [key, boxes[key].checked]))};
}

// A table's options in one line ("Afterlife module · Pharaoh module", "base game").
export function describeOptions(options) {
  const parts = FLAGS.filter(([key]) => options[key]).map(([, label]) => label);
  return parts.length ? parts.join(" · ") : "base game";
}
