// Every GraphQL document the web client sends (tests/web/test_queries.py validates each one
// against the committed schema.graphql). Fragments are interpolated with ${...}.

export const IMHOTEP_VIEW = `
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

// Amun-Re's typed view (its board, boards/amunre.js, reads these fields). `discards` is an alias:
// Imhotep's `discardPile` has another type, and one selection over the GameView union cannot
// hold the same response key with two types.
export const AMUNRE_VIEW = `
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
  view { __typename ...ImhotepView ...AmunReView }
}
${IMHOTEP_VIEW}
${AMUNRE_VIEW}`;

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
    event { version type seat bySeat automatic undone }
  }
}`;

// The replay viewer (replay.js): the game's facts and the verdict of its log, the event list
// page by page, and the typed view right after each event, fetched lazily page by page.
export const REPLAY_GAME = `
query ReplayGame($id: ID!) {
  game(id: $id) {
    id kind status version options rulesVersion seed seedCommitment mySeat scores
    seats { seat isBot strategy player { id name } }
    result { scores winners ranks }
  }
  verifyLog(gameId: $id) { ok checkedEvents badVersion reason }
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
      view { __typename ...ImhotepView ...AmunReView }
    }
  }
}
${IMHOTEP_VIEW}
${AMUNRE_VIEW}`;
