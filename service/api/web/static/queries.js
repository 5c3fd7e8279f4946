// Every GraphQL document the web client sends (tests/web/test_queries.py validates each one
// against the committed schema.graphql). Fragments are interpolated with ${...}.
//
// The game's own part of a document is its board's: `${VIEW}` below stays in the text as it is
// (VIEW is that very placeholder), and kinds.js's withBoard(document, board) fills it in with
// the board module's typed-view fragment (`view { __typename ...<VIEW_NAME> }`, its VIEW
// appended) or, for a board without one (the generic board), the JSON `state`. The test
// validates each such document once per board module the server ships.
export const VIEW = "${VIEW}";

// The games this server plays (kinds.js): names, seat ranges, each one's board module.
export const GAME_KINDS = `
query GameKinds {
  gameKinds { kind name summary minSeats maxSeats rulesVersion boardModule hasOwnBoard }
}`;

// What the game page needs before it knows the game's board: its kind and status.
export const GAME_HEAD = `
query GameHead($id: ID!) { game(id: $id) { id kind status } }`;

export const GAME_FIELDS = `
fragment GameFields on Game {
  id kind status version options undoAllowed ranked unrankedReason rulesVersion
  mySeat activeSeats scores
  seats { seat isBot strategy player { id name } }
  result { scores winners ranks }
  moves { type label action }
  canUndo { allowed immediate toVersion reason }
  undoRequest { version seat toVersion waiting }
  clock { mode moveMs bankMs incrementMs onExpiry bot now deadline
    seats { seat remainingMs deadline running takenOver timedOut thinkingMs turns } }
  ${VIEW}
}`;

export const REGISTER = `
mutation Register($name: String!) {
  registerPlayer(name: $name) { token player { id name } }
}`;

export const ME = `
query Me { me { id name } }`;

export const SUMMARY_FIELDS = `
fragment SummaryFields on GameSummary {
  gameId kind status options freeSeats activeSeats scores winners version createdAt
  lastActivity ranked unrankedReason
  seats { seat playerId name isBot }
}`;

export const LOBBY = `
query Lobby($first: Int) {
  lobby(first: $first) { nodes { ...SummaryFields } }
  running: gameSummaries(status: ACTIVE, first: 20) { nodes { ...SummaryFields } }
  timed: games(status: OPEN, first: 50) {
    nodes { id clock { mode moveMs bankMs incrementMs onExpiry bot } }
  }
}
${SUMMARY_FIELDS}`;

export const MY_GAMES = `
query MyGames($player: ID!) {
  gameSummaries(player: $player, first: 20) { nodes { ...SummaryFields } }
}
${SUMMARY_FIELDS}`;

export const LOBBY_CHANGED = `
subscription LobbyChanged { lobbyChanged { gameId status version } }`;

export const CREATE_GAME = `
mutation CreateGame($input: CreateGameInput!) {
  createGame(input: $input) { id kind status seats { seat } }
}`;

export const JOIN_GAME = `
mutation JoinGame($gameId: ID!, $seat: Int) {
  joinGame(gameId: $gameId, seat: $seat) { id status mySeat }
}`;

export const ADD_BOT = `
mutation AddBot($gameId: ID!, $seat: Int, $strategy: String) {
  addBot(gameId: $gameId, seat: $seat, strategy: $strategy) { id status mySeat }
}`;

export const RECLAIM_SEAT = `
mutation ReclaimSeat($gameId: ID!) {
  reclaimSeat(gameId: $gameId) { id version }
}`;

export const GAME = `
query Game($id: ID!) { game(id: $id) { ...GameFields } }
${GAME_FIELDS}`;

export const CATALOG = `
query Catalog($kind: GameKind!) { catalog(kind: $kind) }`;

export const ACT = `
mutation Act($gameId: ID!, $action: JSON!, $expectedVersion: Int) {
  act(gameId: $gameId, action: $action, expectedVersion: $expectedVersion) {
    game { id version }
  }
}`;

export const REQUEST_UNDO = `
mutation RequestUndo($gameId: ID!) { requestUndo(gameId: $gameId) { id version } }`;

export const ANSWER_UNDO = `
mutation AnswerUndo($gameId: ID!, $accept: Boolean!) {
  answerUndo(gameId: $gameId, accept: $accept) { id version }
}`;

export const GAME_CHANGED = `
subscription GameChanged($gameId: ID!, $afterVersion: Int) {
  gameChanged(gameId: $gameId, afterVersion: $afterVersion) {
    version status activeSeats
    event { version type seat bySeat automatic undone data }
  }
}`;

// The replay viewer (replay.js): the game's facts and the verdict of its log, the event list
// page by page, and the board's part (`${VIEW}`) right after each event, fetched lazily page
// by page.
export const REPLAY_GAME = `
query ReplayGame($id: ID!) {
  game(id: $id) {
    id kind status version options rulesVersion seed seedCommitment mySeat scores
    seats { seat isBot strategy player { id name } }
    result { scores winners ranks }
  }
  verifyLog(gameId: $id) { ok checkedEvents badVersion reason signedBy }
}`;

export const REPLAY_EVENTS = `
query ReplayEvents($id: ID!, $first: Int, $after: String) {
  game(id: $id) {
    id version
    events(first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes { version at seat bySeat type data automatic undone hash }
    }
  }
}`;

export const REPLAY_STEPS = `
query ReplaySteps($id: ID!, $after: Int!, $first: Int) {
  game(id: $id) {
    id version
    replay(after: $after, first: $first) {
      event { version }
      ${VIEW}
    }
  }
}`;

// The leaderboard page (leaderboard.js): one game's ratings, best first.
export const LEADERBOARD = `
query Leaderboard($kind: GameKind!, $first: Int) {
  leaderboard(kind: $kind, first: $first) {
    totalCount
    nodes { rank playerId name rating games wins peak }
  }
}`;

// A player's profile (profile.js): the record, the ratings with their history, recent games.
export const PROFILE = `
query Profile($id: ID!) {
  player(id: $id) {
    playerId name gamesPlayed gamesWon averageScore averageThinkingMs
    byKind { kind gamesPlayed gamesWon averageScore }
    recentGames { gameId kind seat score rank won finishedAt }
  }
  playerRatings(player: $id) {
    kind rank rating games wins peak
    history { gameId rating at }
  }
}`;

// "My games" (mygames.js): the signed-in player's tables, open, running and over.
export const MY_TABLES = `
query MyTables($player: ID!, $first: Int) {
  open: gameSummaries(player: $player, status: OPEN, first: $first) { nodes { ...SummaryFields } }
  running: gameSummaries(player: $player, status: ACTIVE, first: $first) { nodes { ...SummaryFields } }
  finished: gameSummaries(player: $player, status: FINISHED, first: $first) { nodes { ...SummaryFields } }
  abandoned: gameSummaries(player: $player, status: ABANDONED, first: $first) { nodes { ...SummaryFields } }
}
${SUMMARY_FIELDS}`;
