// Keyboard and screen-reader help shared by the pages (issue #24), and who is who.
//
//   announce(text, {assertive})   says `text` in the page's live region (index.html: #announcements,
//                                 polite; #alerts, assertive: errors only). Each announcement is a
//                                 new paragraph, so the same words said twice are said twice.
//   focusOn(node)                 moves the keyboard focus to `node` (a heading or a status line
//                                 gets tabindex=-1 first), never leaving it on <body>.
//   keepFocus(root, redraw)       runs redraw(); a control of `root` that had the focus before has
//                                 it again after (found by its data-testid, else its name).
//   showSkipToBoard(on)           shows or hides the "Skip to the board" link (index.html).
//
// Seats are numbered as players count them, from 1 (the API's are 0-based); a bot is named by its
// seat and level, "Bot 2 (mcts)", the same in the lobby, on the board and in the replay:
//   seatNumber(seat), botName(seat, level), levelOf(summaryName), seatName({seat, isBot, strategy, name}),
//   seatTitle(...): a person with their seat ("Ann (seat 1)"), a bot by its name alone.

import {h} from "./svg.js";

export const seatNumber = (seat) => Number(seat) + 1;

export function botName(seat, level) {
  return `Bot ${seatNumber(seat)}${level ? ` (${level})` : ""}`;
}

// The level of a bot from the name the server gives it in summaries: "Bot (mcts)".
export function levelOf(name) {
  const match = /^Bot \(([^)]+)\)$/.exec(name || "");
  return match ? match[1] : null;
}

export function seatName({seat, isBot, strategy = null, name = null}) {
  if (isBot) return botName(seat, strategy || levelOf(name));
  return name || `Seat ${seatNumber(seat)}`;
}

// Every seat of a table summary, in order, as [seat, who]: a bot by its name, a person by
// theirs ("a player" if the summary has none), a free seat "free" (a summary may list only the
// seats taken: the total counts the free ones too). `me`: the player shown as "you".
export function seatEntries(summary, me = null) {
  const taken = new Map(summary.seats.filter((s) => s.isBot || s.playerId).map((s) => [s.seat, s]));
  const total = Math.max(summary.seats.length, taken.size + (summary.freeSeats || 0));
  return Array.from({length: total}, (_, seat) => {
    const who = taken.get(seat);
    const name = !who ? "free" : who.isBot ? seatName(who)
      : me && who.playerId === me ? "you" : who.name || "a player";
    return [seat, name, who];
  });
}

export function seatTitle(entry) {
  const name = seatName(entry);
  return entry.isBot || !entry.name ? name : `${name} (seat ${seatNumber(entry.seat)})`;
}

const CONTROLS = "a[href], button, input, select, textarea, summary, [tabindex]";
const KEEP = 6; // announcements kept in each region (older ones are removed, silently)

export function announce(text, {assertive = false} = {}) {
  if (!text) return;
  const region = document.getElementById(assertive ? "alerts" : "announcements");
  if (!region) return;
  region.append(h("p", {}, text));
  while (region.childElementCount > KEEP) region.firstElementChild.remove();
}

export function focusOn(node, {scroll = true} = {}) {
  if (!node || !node.isConnected) return false;
  if (!node.matches(CONTROLS)) node.setAttribute("tabindex", "-1");
  node.focus({preventScroll: !scroll});
  return document.activeElement === node;
}

// Whether the focus is lost: on <body> (or nowhere), or on a node no longer in the page.
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

function keyOf(node) {
  if (!node || node === document.body) return null;
  return {testid: node.dataset ? node.dataset.testid : null, label: node.getAttribute("aria-label"),
    text: node.tagName === "BUTTON" ? node.textContent : null};
}

const usable = (node) => node && node.matches(CONTROLS) && !node.disabled && node.getAttribute("tabindex") !== "-1";

function findKey(root, key) {
  if (!key) return null;
  const candidates = [];
  if (key.label) candidates.push(root.querySelector(`[aria-label="${CSS.escape(key.label)}"]`));
  if (key.testid) candidates.push(root.querySelector(`[data-testid="${CSS.escape(key.testid)}"]`));
  if (key.text) candidates.push([...root.querySelectorAll("button")].find((b) => b.textContent === key.text));
  return candidates.find(usable) || null;
}

// Runs redraw(); the control of `root` that had the focus has it again (or `fallback()`, a node
// to focus, when it is gone).
export function keepFocus(root, redraw, fallback = () => null) {
  const active = document.activeElement;
  const inside = active && active !== document.body && root.contains(active);
  const key = inside ? keyOf(active) : null;
  redraw();
  if (!inside || !focusLost()) return;
  const again = findKey(root, key);
  if (again && focusOn(again, {scroll: false})) return;
  focusOn(fallback(), {scroll: false});
}

export function showSkipToBoard(on) {
  const link = document.getElementById("skip-board");
  if (link) link.hidden = !on;
}

// The skip links move the focus themselves: following "#main" would change the URL's fragment
// (a popstate, which the router takes for a new page).
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a.skip");
  if (!link) return;
  const target = document.getElementById((link.getAttribute("href") || "").slice(1));
  if (!target) return;
  event.preventDefault();
  focusOn(target);
});
