// A small typed example over the generated types: read a game, play its first legal action.
// Compile check: npx tsc --noEmit (the test suite runs it). Run it with any TS runner and fetch.
import type {
  ActResult,
  Game,
  GameKind,
  GameStatus,
  JSONValue,
  MutationActArgs,
  MutationCreateGameArgs,
  QueryGameArgs,
} from "./schema";
import { GameKindValues } from "./schema";

interface GraphQLError {
  message: string;
  extensions?: { code?: string };
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: GraphQLError[];
}

export class PapyrusError extends Error {
  constructor(
    message: string,
    public readonly code: string | undefined,
  ) {
    super(message);
  }
}

export async function graphql<T>(
  url: string,
  query: string,
  variables: object,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as GraphQLResponse<T>;
  const first = body.errors?.[0];
  if (first !== undefined) throw new PapyrusError(first.message, first.extensions?.code);
  if (body.data == null) throw new PapyrusError("no data", undefined);
  return body.data;
}

type GameSummary = Pick<Game, "id" | "status" | "version" | "activeSeats" | "mySeat" | "legalActions" | "result">;

const GAME = `query($id: ID!) { game(id: $id) {
  id status version activeSeats mySeat legalActions result { scores winners } } }`;
const ACT = `mutation($gameId: ID!, $action: JSON!, $expectedVersion: Int, $idempotencyKey: String) {
  act(gameId: $gameId, action: $action, expectedVersion: $expectedVersion, idempotencyKey: $idempotencyKey) {
    game { id status version } events { version type seat data } } }`;
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { id status } }`;

export async function createGame(url: string, token: string, kind: GameKind, seats: number): Promise<string> {
  const args: MutationCreateGameArgs = { input: { kind, seats } };
  const data = await graphql<{ createGame: Pick<Game, "id" | "status"> }>(url, CREATE, args, token);
  return data.createGame.id;
}

/** Plays the first legal action whenever it is the caller's turn, until the game is over. */
export async function playToTheEnd(url: string, token: string, gameId: string): Promise<Game["result"]> {
  const finished: GameStatus[] = ["FINISHED", "ABANDONED"];
  for (;;) {
    const query: QueryGameArgs = { id: gameId };
    const { game } = await graphql<{ game: GameSummary | null }>(url, GAME, query, token);
    if (game === null) throw new PapyrusError(`no game ${gameId}`, "NOT_FOUND");
    if (finished.includes(game.status)) return game.result;
    const action: JSONValue | undefined = game.legalActions[0];
    if (action === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    const args: MutationActArgs = {
      gameId,
      action,
      expectedVersion: game.version,
      idempotencyKey: `${gameId}:${game.version}`,
    };
    try {
      const result = await graphql<{ act: Pick<ActResult, "events"> }>(url, ACT, args, token);
      console.log(`played ${JSON.stringify(action)}: ${result.act.events.length} events`);
    } catch (failure) {
      if (!(failure instanceof PapyrusError && failure.code === "CONFLICT")) throw failure;
    }
  }
}

export const kinds: readonly GameKind[] = GameKindValues;
