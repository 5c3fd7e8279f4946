// Must compile (tsconfig.json includes it; tests/test_typescript_sdk.py runs tsc): the ways a
// client writes a typed action and uses the SDK's typed documents and errors.
import type { ActionInput, ErrorCode } from "../schema";
import { ApiError, DOCUMENTS, PapyrusClient, typed } from "../papyrus";

export const noParameters: ActionInput = { imhotepGetStones: true };
export const withParameters: ActionInput = { imhotepPlaceStone: { ship: 2, slot: 3 } };
export const anotherGame: ActionInput = {
  amunReBid: { province: "ABU", value: 3, bribe: false, protection: false },
};

export function codeOf(error: unknown): ErrorCode | "NETWORK" | "UNKNOWN" | null {
  return error instanceof ApiError ? error.code : null;
}

export async function typedDocuments(client: PapyrusClient): Promise<string> {
  // the answer's type comes from the document
  const data = await client.gql(DOCUMENTS.me);
  const own = typed<{ gameKinds: Array<{ kind: string }> }>("query Kinds { gameKinds { kind } }");
  const kinds = await client.gql(own);
  await client.act("game-id", { typedAction: withParameters }, { expectedVersion: 3 });
  return `${data.me?.name ?? "nobody"} ${kinds.gameKinds.length}`;
}
