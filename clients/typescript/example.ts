// A push-driven bot on the runtime SDK (papyrus.ts): it registers, opens an Imhotep table
// against a server bot, plays every turn on gameChanged (no poll) and prints the result.
//
//   npm ci && npx tsc -p tsconfig.example.json   # compiles this file and the SDK to build/
//   node build/example.js http://127.0.0.1:8000 [name]
//
// Each move is chosen from the change's legal actions; moves that take no parameters are sent
// typed (`{typedAction: {imhotepGetStones: true}}`), the others as their JSON action: both forms
// of `act`. The test suite compiles and runs it against a live server.
import WebSocket from "ws";

import { ApiError, PapyrusClient, type ActionChoice, type Change, type WebSocketConstructor } from "./papyrus.js";

const [url = "http://127.0.0.1:8000", name = `ts-bot-${process.pid}`] = process.argv.slice(2);

/** A legal action of the change, chosen at random: typed where it has no parameters. */
function choose(change: Change): ActionChoice {
  const legal = change.legalActions;
  const action = legal[Math.floor(Math.random() * legal.length)];
  if (action === undefined) throw new Error("choose is called only when there is a legal action");
  const type = typeof action === "object" && action !== null && !Array.isArray(action) ? action["type"] : null;
  if (type === "get_stones") return { typedAction: { imhotepGetStones: true } };
  return { action };
}

async function main(): Promise<number> {
  const client = new PapyrusClient({ url, WebSocket: WebSocket as unknown as WebSocketConstructor });
  try {
    const { player } = await client.register(name);
    const table = await client.createGame({ kind: "IMHOTEP", seats: 2 });
    await client.joinGame(table.id);
    await client.addBot(table.id, { strategy: "greedy" });
    let changes = 0;
    const game = await client.play(table.id, choose, { onChange: () => (changes += 1) });
    const scores = game.result?.scores ?? [];
    const mine = game.mySeat ?? 0;
    console.log(`${player.name} played game ${game.id}: ${game.status} after ${changes} changes`);
    console.log(`scores ${scores.join(" / ")}; you were seat ${mine + 1}`);
    return game.status === "FINISHED" ? 0 : 1;
  } catch (failure) {
    if (failure instanceof ApiError) console.error(`refused: ${failure.code}: ${failure.message}`);
    else console.error(failure);
    return 2;
  } finally {
    client.close();
  }
}

process.exitCode = await main();
