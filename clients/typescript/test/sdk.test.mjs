// The SDK in Node 20 against a live server (tests/test_typescript_sdk.py starts it and runs
// `node --test` with PAPYRUS_URL set; PAPYRUS_EXPORTS is a folder for the exported games, which
// the Python test then checks with `papyrus verify`). The websocket is the `ws` package: Node 20
// has none of its own.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import WebSocket from "ws";

import { ApiError, PapyrusClient, sentDocuments } from "papyrus-client";

const URL = process.env.PAPYRUS_URL;
const EXPORTS = process.env.PAPYRUS_EXPORTS;
assert.ok(URL, "PAPYRUS_URL: the server to test against");

// the web client's GAME_KINDS (service/api/web/static/queries.js), exactly: a trusted document
const GAME_KINDS = `
query GameKinds {
  gameKinds { kind name summary minSeats maxSeats rulesVersion boardModule hasOwnBoard }
}`;

// every socket a client opens, so that a test can drop one as a network would
class Tracked extends WebSocket {
  static all = [];
  constructor(url, protocol) {
    super(url, protocol);
    Tracked.all.push(this);
  }
}

// a fetch that records the operation names sent as text (the proof that nothing polls; the
// SDK's own documents are not in the server's manifest, so each goes as text after its id)
// the SDK's documents by their ids (the server trusts them: they are sent by id alone)
const BY_ID = new Map(
  Object.values(sentDocuments()).map((text) => [
    "sha256:" + createHash("sha256").update(text, "utf8").digest("hex"),
    text,
  ]),
);

function recordingFetch(into) {
  return async (url, init) => {
    const body = JSON.parse(init.body);
    const text = body.query || BY_ID.get(body.documentId) || "";
    const name = /^(?:query|mutation)\s+(\w+)/.exec(text);
    if (name) into.push(name[1]);
    return fetch(url, init);
  };
}

function client(extra = {}) {
  return new PapyrusClient({ url: URL, WebSocket: Tracked, retryMs: { first: 100, max: 400 }, ...extra });
}

// a seeded choice, so that a failure can be replayed
function chooser(seed) {
  let state = seed;
  return (items) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return items[state % items.length];
  };
}

test("the SDK plays a whole game on gameChanged with no poll, and its export is written", async () => {
  const sent = [];
  const ada = client({ fetch: recordingFetch(sent) });
  const session = await ada.register("ada-sdk");
  assert.equal(typeof session.token, "string");
  assert.equal(ada.token, session.token);
  assert.deepEqual(await ada.me(), session.player);

  const created = await ada.createGame({ kind: "IMHOTEP", seats: 2 });
  assert.equal(created.status, "OPEN");
  await ada.joinGame(created.id);
  const started = await ada.addBot(created.id, { strategy: "random" });
  assert.equal(started.status, "ACTIVE");
  const lobby = await ada.lobby({ kind: "IMHOTEP", status: "ACTIVE" });
  assert.ok(lobby.games.some((g) => g.id === created.id), "the lobby lists the table");

  sent.length = 0;
  const pick = chooser(7);
  let typedSent = 0;
  let changes = 0;
  const finished = await ada.play(
    created.id,
    (change) => {
      // a typed action where one is simple to write: get_stones has no parameters
      if (change.legalActions.some((a) => a.type === "get_stones") && typedSent < 3) {
        typedSent += 1;
        return { typedAction: { imhotepGetStones: true } };
      }
      return { action: pick(change.legalActions) };
    },
    { onChange: () => (changes += 1) },
  );
  ada.close();
  assert.equal(finished.status, "FINISHED");
  assert.equal(finished.result.scores.length, 2);
  assert.ok(typedSent > 0, "a typed action was sent");
  assert.ok(changes > 10, `changes were pushed (${changes})`);
  // while playing, the only requests were the actions and the final read: no poll
  const others = sent.filter((name) => name !== "Act");
  assert.deepEqual(others, ["Game"], `requests besides Act: ${others}`);

  const replay = await ada.replay(created.id, 40);
  assert.equal(replay.length, finished.version, "the replay has every event");
  assert.deepEqual(
    replay.map((step) => step.event.version),
    Array.from({ length: finished.version }, (_, i) => i + 1),
  );
  const exported = await ada.exportGame(created.id);
  if (EXPORTS) writeFileSync(join(EXPORTS, "imhotep.json"), JSON.stringify(exported));
});

test("a dropped socket is resumed with nothing missed", async () => {
  const bob = client();
  const eve = client();
  await bob.register("bob-sdk");
  await eve.register("eve-sdk");
  const game = await bob.createGame({ kind: "IMHOTEP", seats: 2 });
  await bob.joinGame(game.id);
  await eve.joinGame(game.id);

  // a spectator watches twice: one subscription on a socket that is dropped, one on a socket
  // that is not; both must deliver the same versions, each once, in order
  const watcher = client();
  const steady = client();
  const dropped = [];
  const kept = [];
  let reconnects = 0;
  const stopped = new Promise((resolve) => {
    watcher.gameChanged(
      game.id,
      (change) => {
        dropped.push(change.version);
        if (change.status === "FINISHED") resolve();
      },
      { reconnecting: () => (reconnects += 1) },
    );
  });
  const steadyDone = new Promise((resolve) => {
    steady.gameChanged(game.id, (change) => {
      kept.push(change.version);
      if (change.status === "FINISHED") resolve();
    });
  });

  const pick = chooser(11);
  let playerReconnects = 0;
  let bobChanges = 0;
  const drop = (who) => {
    const socket = who.currentSocket;
    if (socket) socket.terminate(); // the TCP connection is cut: no close handshake
  };
  const playing = [
    bob.play(
      game.id,
      (change) => {
        bobChanges += 1;
        // cut the spectator's socket now and then, and the player's own once
        if (bobChanges % 7 === 3) drop(watcher);
        if (bobChanges === 5) drop(bob);
        return { action: pick(change.legalActions) };
      },
      { reconnecting: () => (playerReconnects += 1) },
    ),
    eve.play(game.id, (change) => ({ action: pick(change.legalActions) })),
  ];
  const [bobEnd, eveEnd] = await Promise.all(playing);
  await Promise.all([stopped, steadyDone]);
  for (const c of [bob, eve, watcher, steady]) c.close();

  assert.equal(bobEnd.status, "FINISHED");
  assert.equal(eveEnd.status, "FINISHED");
  assert.ok(reconnects >= 1, "the spectator's socket was dropped");
  assert.ok(playerReconnects >= 1, "the player's socket was dropped");
  assert.deepEqual(dropped, kept, "the dropped subscription delivered exactly what the steady one did");
  for (let i = 1; i < dropped.length; i += 1) assert.ok(dropped[i] > dropped[i - 1]);
});

test("failures are ApiErrors with the contract's codes", async () => {
  const spectator = client();
  await assert.rejects(
    () => spectator.act("no-such-game", { action: { type: "get_stones" } }),
    (error) => error instanceof ApiError && error.code === "UNAUTHENTICATED" && error.message.length > 0,
  );
  const ann = client();
  await ann.register("ann-sdk");
  const game = await ann.createGame({ kind: "IMHOTEP", seats: 2 });
  await assert.rejects(
    () => ann.act(game.id, { action: { type: "get_stones" } }),
    (error) => error instanceof ApiError && ["FORBIDDEN", "GAME_NOT_ACTIVE"].includes(error.code),
  );
  await assert.rejects(
    () => ann.createGame({ kind: "IMHOTEP", seats: 9 }),
    (error) => error instanceof ApiError && error.code === "BAD_INPUT" && typeof error.requestId === "string",
  );
  const nowhere = new PapyrusClient({ url: "http://127.0.0.1:9", WebSocket: Tracked });
  await assert.rejects(() => nowhere.me(), (error) => error instanceof ApiError && error.code === "NETWORK");
});

test("documents go by id: a trusted one runs by id, an unknown one falls back to its text once", async () => {
  const sent = [];
  const viewer = client({
    fetch: async (url, init) => {
      const body = JSON.parse(init.body);
      sent.push(body.documentId ? "id" : "text");
      return fetch(url, init);
    },
  });
  const { games } = await viewer.lobby({ first: 1 });
  assert.ok(Array.isArray(games));
  // the SDK's own documents are in the server's manifest: by id alone
  assert.deepEqual(sent, ["id"]);
  // a document the server does not know: the id, UNKNOWN_DOCUMENT, the text; then text only
  sent.length = 0;
  const unknown = "query SdkUnknown { gameKinds { kind } }";
  assert.ok((await viewer.gql(unknown)).gameKinds.length >= 1);
  assert.deepEqual(sent, ["id", "text"]);
  await viewer.gql(unknown);
  assert.deepEqual(sent, ["id", "text", "text"], "the document stays text for this server");
  // a document of the web client is trusted: it runs by its id alone
  sent.length = 0;
  const data = await viewer.gql(GAME_KINDS);
  assert.ok(data.gameKinds.length >= 1);
  assert.deepEqual(sent, ["id"]);
});

test("a move's typedAction is exactly what act takes as typedAction", async () => {
  const kim = client();
  const lee = client();
  await kim.register("kim-sdk");
  await lee.register("lee-sdk");
  const created = await kim.createGame({ kind: "AMUN_RE", seats: 3 });
  await kim.joinGame(created.id);
  await lee.joinGame(created.id);
  await kim.addBot(created.id);
  const pick = chooser(5);
  let typedPlays = 0;
  // a few typed moves each, read from game.moves (their typed form) and sent as typedAction
  for (let round = 0; round < 12; round += 1) {
    for (const player of [kim, lee]) {
      const game = await player.game(created.id);
      if (game.status !== "ACTIVE" || !game.moves.length) continue;
      const move = pick(game.moves);
      assert.equal(Object.keys(move.typedAction).length, 1, "one member of ActionInput");
      try {
        const done = await player.act(created.id, { typedAction: move.typedAction }, { expectedVersion: game.version });
        assert.ok(done.events.some((e) => e.seat === game.mySeat), JSON.stringify(done.events));
        typedPlays += 1;
      } catch (failure) {
        // the bot moved in between: read again
        assert.ok(failure instanceof ApiError && ["CONFLICT", "NOT_YOUR_TURN"].includes(failure.code), String(failure));
      }
    }
  }
  assert.ok(typedPlays >= 4, `typed moves played: ${typedPlays}`);
  for (const c of [kim, lee]) c.close();
});
