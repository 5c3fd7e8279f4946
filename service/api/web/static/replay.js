// The replay viewer (issue #16) on /games/<id>?v=<version>: any game the viewer may see,
// scrubbed event by event (slider, step, play at a speed, jump to a round), the board drawn at
// each version as this viewer may see it (`replay` steps, fetched lazily page by page; once the
// game is over the server shows everything), the event list beside it with who did what, the
// log's verdict (`verifyLog`) with the hash chain's head, and the export of a finished game.
//
// The URL follows the version shown (`?v=57`, replaced, not pushed), so the address bar is
// always a shareable link to what is on screen. Keyboard: the arrow keys step (on the slider
// natively, elsewhere on the page too), Home/End go to the first/last event.

import {ApiError, gql} from "./api.js";
import {boardOf, kindOf, withBoard} from "./kinds.js";
import {focusLost, focusOn, seatNumber, showSkipToBoard} from "./a11y.js";
import {catalogOf, seatNames, seatTitles} from "./play.js";
import {REPLAY_EVENTS, REPLAY_GAME, REPLAY_STEPS} from "./queries.js";
import {h} from "./svg.js";

const PAGE = 25; // steps per `replay` request: each carries a whole view
const EVENTS_PAGE = 200; // the server's largest `events` page
const SPEEDS = [1, 2, 5, 10, 25, 50]; // events per second

const words = (id) => String(id ?? "").replace(/_/g, " ");

// A seat as the lobby and the game page name it: "Ann (seat 1)", "Bot 2 (mcts)" (a11y.js).
function seatLabel(game, seat) {
  return seatTitles(game)[seat] || `Seat ${seatNumber(seat)}`;
}

//: keys whose integer values (or lists of them) are seats: said by name, counted from 1
const SEAT_KEY = /^(seat|player|owner|winner|winners|by_seat|waiting|to_act|acting|next_start|start_player)$/;

// A short, readable account of an event's data: its plain values, a few of them (a seat by its
// name: `names`, seat -> "Ann (seat 1)").
function details(data, names = {}) {
  if (!data || typeof data !== "object") return "";
  const parts = [];
  const seat = (key, v) => (SEAT_KEY.test(key) && Number.isInteger(v) ? names[v] || `seat ${seatNumber(v)}` : words(v));
  for (const [key, value] of Object.entries(data)) {
    if (parts.length >= 4) break;
    if (value === null || value === undefined || value === false || (typeof value === "object" && !Array.isArray(value))) continue;
    if (Array.isArray(value)) {
      if (!value.length || value.length > 6 || value.some((v) => v !== null && typeof v === "object")) continue;
      parts.push(`${words(key)}: ${value.map((v) => seat(key, v)).join(", ")}`);
    } else {
      parts.push(value === true ? words(key) : `${words(key)}: ${seat(key, value)}`);
    }
  }
  return parts.join("; ");
}

async function loadEvents(gameId) {
  const events = [];
  let after = null;
  for (;;) {
    const data = await gql(REPLAY_EVENTS, {id: gameId, first: EVENTS_PAGE, after});
    if (!data.game) throw new ApiError("This game does not exist (or is not yours to see).", "NOT_FOUND");
    const page = data.game.events;
    events.push(...page.nodes);
    if (!page.pageInfo.hasNextPage || !page.nodes.length) return events;
    after = page.pageInfo.endCursor;
  }
}

function verdict(check, events) {
  const head = events.length ? events[events.length - 1].hash : null;
  const headNode = head
    ? h("code", {title: head, "data-testid": "chain-head", "data-hash": head}, `${head.slice(0, 16)}…`)
    : h("code", {}, "none");
  if (!check) return h("p", {"data-testid": "verify", class: "verify"}, "Log not checked. Hash chain head: ", headNode);
  if (check.ok) {
    // the server's signature of the head: its public key is at /api/v1/keys (papyrus verify)
    const signed = check.signedBy
      ? [" · signed by ", h("a", {href: "/api/v1/keys", "data-testid": "signed-by"}, h("code", {}, check.signedBy))]
      : [];
    return h("p", {"data-testid": "verify", class: "verify ok", "data-ok": "true"},
      h("span", {"aria-hidden": "true"}, "✔ "),
      `Log verified: ${check.checkedEvents} events, hash chain, seed and rules hold. Hash chain head: `, headNode,
      ...signed);
  }
  return h("p", {"data-testid": "verify", class: "verify bad", "data-ok": "false", role: "alert"},
    h("span", {"aria-hidden": "true"}, "✘ "),
    `Log check failed at event ${check.badVersion}: ${check.reason}. Hash chain head: `, headNode);
}

function resultLine(game) {
  if (!game.result) return null;
  const winners = new Set(game.result.winners);
  return h("p", {"data-testid": "result", class: "result"}, "Result: ",
    game.result.scores.map((score, seat) => h("span", {class: winners.has(seat) ? "winner" : "", "data-seat": seat},
      `${seatLabel(game, seat)} ${score}${winners.has(seat) ? " (winner)" : ""}`, seat < game.result.scores.length - 1 ? " · " : "")));
}

export async function showReplay(root, {gameId, version = null}) {
  const first = await gql(REPLAY_GAME, {id: gameId});
  const game = first.game;
  if (!game) throw new ApiError("This game does not exist (or is not yours to see).", "NOT_FOUND");
  const [catalog, board, known, events] = await Promise.all([
    catalogOf(game.kind),
    boardOf(game.kind),
    kindOf(game.kind),
    loadEvents(gameId),
  ]);
  const names = seatNames(game);
  const titles = seatTitles(game);
  const last = events.length ? events[events.length - 1].version : 0;
  const firstVersion = events.length ? events[0].version : 0;
  const steps = new Map(); // version -> {view, state}: the board's part (view null before the start)
  const pages = new Map(); // page -> promise of its steps
  let current = Math.min(Math.max(version ?? last, firstVersion), last);
  let drawn = -1;
  let playing = null;
  let alive = true;

  // the controls
  const slider = h("input", {type: "range", min: firstVersion, max: last, step: 1, value: current,
    "aria-label": "Event number", "data-testid": "replay-slider", class: "replay-slider"});
  const position = h("output", {"data-testid": "replay-version", "aria-live": "polite", class: "replay-version"});
  const button = (testid, label, text, onclick) => h("button", {type: "button", "data-testid": testid, "aria-label": label, title: label, onclick}, text);
  const playButton = button("replay-play", "Play", "▶ Play", () => (playing ? stop() : play()));
  const speed = h("select", {"data-testid": "replay-speed", "aria-label": "Speed"},
    SPEEDS.map((n) => h("option", {value: n, selected: n === 5}, `${n} event${n === 1 ? "" : "s"}/s`)));
  const rounds = events.filter((e) => e.type === "round_started");
  const roundPicker = h("select", {"data-testid": "replay-round", "aria-label": "Jump to a round",
    onchange: () => {
      if (roundPicker.value) show(Number(roundPicker.value));
      roundPicker.value = "";
    }},
  h("option", {value: ""}, "Jump to round…"),
  events.filter((e) => e.type === "game_started").map((e) => h("option", {value: e.version}, "Game start")),
  rounds.map((e, i) => h("option", {value: e.version, "data-round": e.data?.round ?? i + 1}, `Round ${e.data?.round ?? i + 1}`)),
  h("option", {value: last}, "The end"));
  const share = h("a", {"data-testid": "share-link", class: "share"}, "Link to this version");
  const boardBox = h("div", {class: "replay-board", "data-testid": "replay-board", "aria-live": "off",
    id: "board", tabindex: "-1", role: "region", "aria-label": "The board"});
  const note = h("p", {class: "replay-note", "data-testid": "replay-note"});
  const items = new Map();
  const list = h("ol", {class: "replay-events", "data-testid": "event-list", "aria-label": "Events"},
    events.map((event) => {
      const who = event.bySeat ?? event.seat;
      const item = h("li", {"data-version": event.version, class: event.undone ? "undone" : ""},
        h("button", {type: "button", class: "event", onclick: () => show(event.version)},
          h("span", {class: "event-number"}, `#${event.version}`), " ",
          h("span", {class: "event-who"}, who === null || who === undefined ? "table" : seatLabel(game, who)), " ",
          h("span", {class: "event-type"}, words(event.type)),
          event.automatic ? h("span", {class: "event-tag"}, " (automatic)") : null,
          event.undone ? h("span", {class: "event-tag"}, " (taken back)") : null,
          h("span", {class: "event-details"}, details(event.data, titles)),
          h("time", {datetime: event.at, class: "event-time"}, new Date(event.at).toLocaleTimeString())));
      items.set(event.version, item);
      return item;
    }));

  const live = game.status === "ACTIVE" || game.status === "OPEN";
  root.replaceChildren(h("section", {class: "replay", "data-testid": "replay", "data-game-id": game.id, "data-kind": game.kind},
    h("header", {class: "replay-head"},
      h("h1", {}, `Replay · ${known ? known.name : game.kind}`),
      h("p", {class: "replay-meta"}, `Game ${game.id} · ${words(game.status).toLowerCase()} · ${game.seats.length} seats · rules ${game.rulesVersion}`,
        game.mySeat === null || game.mySeat === undefined ? " · you watch as a spectator" : ` · you are ${seatLabel(game, game.mySeat)}`),
      resultLine(game),
      verdict(first.verifyLog, events),
      h("p", {class: "replay-links"},
        share, " · ",
        game.status === "FINISHED"
          ? h("a", {href: `/api/v1/games/${encodeURIComponent(game.id)}/export`, download: `papyrus-${game.id}.json`, "data-testid": "export-link"}, "Download the export (JSON)")
          : h("span", {"data-testid": "export-note"}, "The export is available once the game is over"),
        live ? [" · ", h("a", {href: `/games/${encodeURIComponent(game.id)}`, "data-link": true, "data-testid": "live-link"}, "Back to the live game")] : null)),
    h("div", {class: "replay-controls", role: "group", "aria-label": "Replay controls"},
      button("replay-first", "First event", "« First", () => show(firstVersion)),
      button("replay-back", "Back one event", "‹ Back", () => show(current - 1)),
      playButton,
      button("replay-forward", "Next event", "Next ›", () => show(current + 1)),
      button("replay-last", "Last event", "Last »", () => show(last)),
      speed, roundPicker, slider, position),
    h("div", {class: "replay-body"}, h("div", {class: "replay-main"}, note, boardBox), list)));

  function page(v) {
    const index = Math.floor((v - 1) / PAGE);
    if (!pages.has(index)) {
      const request = gql(withBoard(REPLAY_STEPS, board), {id: gameId, after: index * PAGE, first: PAGE}).then((data) => {
        for (const step of data.game.replay) steps.set(step.event.version, step);
      });
      request.catch(() => pages.delete(index));
      pages.set(index, request);
    }
    return pages.get(index);
  }

  function mark(v) {
    slider.value = String(v);
    position.textContent = `Event ${v} of ${last}`;
    position.dataset.version = String(v);
    const url = `/games/${encodeURIComponent(game.id)}?v=${v}`;
    if (window.location.pathname + window.location.search !== url) window.history.replaceState(null, "", url);
    share.href = url;
    share.title = `${window.location.origin}${url}`;
    const previous = list.querySelector("li.current");
    if (previous) {
      previous.classList.remove("current");
      previous.removeAttribute("aria-current");
    }
    const item = items.get(v);
    if (item) {
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
      const top = item.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  function draw(v) {
    const step = steps.get(v);
    const view = step ? step.view : null;
    const event = events.find((e) => e.version === v);
    note.textContent = event ? `After event #${v}: ${words(event.type)}` : `After event #${v}`;
    if (view === null || view === undefined) {
      boardBox.replaceChildren(h("p", {class: "replay-empty", "data-testid": "replay-empty"}, "The game has not started yet at this point (the table is being set up)."));
    } else {
      board.drawBoard(boardBox, {view, state: step.state, catalog, legalActions: [], seat: game.mySeat ?? null,
        onAction: () => {}, names});
    }
    drawn = v;
    boardBox.dataset.version = String(v);
  }

  async function show(v) {
    const target = Math.min(Math.max(Number(v), firstVersion), last);
    if (!Number.isFinite(target)) return;
    current = target;
    mark(target);
    try {
      await page(target);
      if (target % PAGE > PAGE - 6 && target + 1 <= last) page(target + 6).catch(() => {});
    } catch (failure) {
      note.textContent = `${failure.message}${failure.code ? ` (${failure.code})` : ""}`;
      note.setAttribute("role", "alert");
      return;
    }
    if (alive && current === target && drawn !== target) draw(target);
  }

  function stop() {
    if (playing) clearTimeout(playing);
    playing = null;
    playButton.textContent = "▶ Play";
    playButton.setAttribute("aria-label", "Play");
    playButton.setAttribute("aria-pressed", "false");
  }

  function play() {
    if (current >= last) show(firstVersion);
    playButton.textContent = "⏸ Pause";
    playButton.setAttribute("aria-label", "Pause");
    playButton.setAttribute("aria-pressed", "true");
    const tick = async () => {
      if (!alive || !playing) return;
      if (current >= last) {
        stop();
        return;
      }
      await show(current + 1);
      if (current >= last) stop();
      else if (playing) playing = setTimeout(tick, 1000 / Number(speed.value));
    };
    playing = setTimeout(tick, 0);
  }

  slider.addEventListener("input", () => show(Number(slider.value)));
  const keys = (event) => {
    const target = event.target;
    if (target === slider || target instanceof HTMLSelectElement || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    const moves = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: firstVersion, End: last};
    if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(moves[event.key]);
  };
  document.addEventListener("keydown", keys);

  await show(current);
  slider.focus({preventScroll: true});
  if (focusLost()) focusOn(slider, {scroll: false});
  showSkipToBoard(true);
  return () => {
    alive = false;
    showSkipToBoard(false);
    stop();
    document.removeEventListener("keydown", keys);
  };
}
