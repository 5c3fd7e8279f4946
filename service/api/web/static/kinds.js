// The games this server plays, as `gameKinds` lists them (the client names no game itself), and
// each one's board module (`boardModule`, /app/boards/<kind>.js: the game's own board, or the
// generic one for a game without). A board module brings everything the client needs of its
// game: drawBoard, the typed-view fragment the game page and the replay ask for (VIEW and
// VIEW_NAME; none for the generic board, which draws the JSON `state`), and the lobby's
// optionControls, START_PLAYER and describeOptions.
//
//   gameKinds() -> [{kind, name, summary, minSeats, maxSeats, rulesVersion, boardModule, ...}]
//   kindOf(kind) -> the one of `kind` (null for a game this server does not play)
//   boardOf(kind) -> its board module
//   withBoard(document, board) -> a document of queries.js with its board's part filled in

import {ApiError, gql} from "./api.js";
import {GAME_KINDS, VIEW} from "./queries.js";

let kinds = null; // a promise of the list: asked once per page load
const boards = new Map(); // kind -> a promise of its board module

export function gameKinds() {
  if (!kinds) {
    const asked = gql(GAME_KINDS).then((data) => data.gameKinds);
    asked.catch(() => {
      if (kinds === asked) kinds = null; // asked again next time
    });
    kinds = asked;
  }
  return kinds;
}

export async function kindOf(kind) {
  return (await gameKinds()).find((known) => known.kind === kind) || null;
}

export function boardOf(kind) {
  if (!boards.has(kind)) {
    const loading = kindOf(kind).then((known) => {
      if (!known) throw new ApiError(`This server does not play ${kind}.`, "NOT_FOUND");
      return import(known.boardModule);
    });
    loading.catch(() => boards.delete(kind));
    boards.set(kind, loading);
  }
  return boards.get(kind);
}

// `document` with its `${VIEW}` (queries.js) filled in for `board`: the typed view through the
// board's fragment (appended to the document), or, for a board without one, the JSON `state`
// (with the view's `__typename`: null before the game starts, as for every board).
// tests/web/test_queries.py fills the documents in the same way to validate them.
export function withBoard(document, board) {
  const typed = Boolean(board.VIEW);
  const part = typed ? `view { __typename ...${board.VIEW_NAME} }` : "view { __typename } state";
  const filled = document.split(VIEW).join(part);
  return typed ? `${filled}\n${board.VIEW}` : filled;
}
