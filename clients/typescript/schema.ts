// Generated from schema.graphql by clients/typescript/generate.py: do not edit.
// Regenerate: .venv/bin/python clients/typescript/generate.py

/** Any JSON value (the GraphQL scalar ``JSON``). */
export type JSONValue =
  | string
  | number
  | boolean
  | null
  | JSONValue[]
  | { [key: string]: JSONValue };

/** An ISO 8601 date and time, as the GraphQL scalar ``DateTime`` is sent. */
export type DateTime = string;

export interface ActResult {
  __typename?: "ActResult";
  game: Game;
  events: Array<GameEvent>;
}

/** One parameter of an action. */
export interface ActionParameter {
  __typename?: "ActionParameter";
  /** Its key in the action object. */
  name: string;
  /** Its JSON type: "string", "integer", "boolean", "array" or "object". */
  type: string;
  /** What it means. */
  description: string;
  /** The closed set of values it takes; null when the set is open. */
  allowed: Array<JSONValue> | null;
  /** The least integer it takes, if any. */
  minimum: number | null;
  /** The greatest integer it takes, if any. */
  maximum: number | null;
  /** Its JSON Schema. */
  schema: JSONValue;
}

/** One action of a game kind, as `act` accepts it. */
export interface ActionSpec {
  __typename?: "ActionSpec";
  /** The action's `type`, e.g. "place_stone". */
  name: string;
  /** A short human label. */
  label: string;
  /** The rule it implements, e.g. "§6.2". */
  rule: string;
  /** Its parameters, every one required; no other key is accepted. */
  parameters: Array<ActionParameter>;
  /** The JSON Schema (draft 2020-12) of the action. */
  schema: JSONValue;
}

export interface AmunReAuction {
  __typename?: "AmunReAuction";
  cards: Array<AmunReAuctionCard>;
  /** Per seat: "new", "standing" or "outbid". */
  status: Array<string>;
  turn: number | null;
}

export interface AmunReAuctionCard {
  __typename?: "AmunReAuctionCard";
  province: string;
  standing: number | null;
  protected: boolean;
  blocked: number | null;
  scribes: Array<AmunReScribe>;
}

export interface AmunReCardCount {
  __typename?: "AmunReCardCount";
  card: string;
  count: number;
}

/** Who has committed (Offering or final sale), not what. */
export interface AmunReCommitments {
  __typename?: "AmunReCommitments";
  committed: Array<boolean>;
}

export interface AmunReFinal {
  __typename?: "AmunReFinal";
  gold: Array<number>;
  goldBonus: Array<number>;
  /** Afterlife only: tomb VP per seat. */
  tomb: Array<number> | null;
}

export interface AmunReGifts {
  __typename?: "AmunReGifts";
  order: Array<number>;
  turn: number | null;
  giftsLeft: number;
  gifts: Array<number>;
  /** Afterlife module only. */
  tombDiscardsMade: number | null;
  toPlace: AmunRePlacement | null;
}

export interface AmunReGreenCard {
  __typename?: "AmunReGreenCard";
  province: string;
  card: string;
}

export interface AmunReHarvest {
  __typename?: "AmunReHarvest";
  turn: number | null;
  green: Array<AmunReGreenCard>;
}

export interface AmunReMarket {
  __typename?: "AmunReMarket";
  turn: number | null;
  lastPurchase: string | null;
  cardsBought: number;
  toPlace: AmunRePlacement | null;
  /** Afterlife/statues/promo modules only. */
  ptahUsed: boolean | null;
  gloryPlayed: boolean | null;
  afterlifePlayed: boolean | null;
  thothDiscardDue: boolean | null;
}

export interface AmunReOffer {
  __typename?: "AmunReOffer";
  /** Either "gold" or "theft". */
  offer: string;
  gold: number;
}

export interface AmunReOfferingTile {
  __typename?: "AmunReOfferingTile";
  tile: number;
  goldPerFarmer: number;
  camel: boolean;
  templeVp: number;
}

export interface AmunReOptions {
  __typename?: "AmunReOptions";
  classicBankMajority: boolean;
  noFarmerPoints: boolean;
  afterlife: boolean;
  statues: boolean;
  pharaoh: boolean;
  promoFavours: boolean;
}

/** Pharaoh module. */
export interface AmunRePharaoh {
  __typename?: "AmunRePharaoh";
  province: string | null;
}

/** Pieces bought or won that must be placed now. */
export interface AmunRePlacement {
  __typename?: "AmunRePlacement";
  kind: string;
  count: number;
}

export interface AmunRePlayer {
  __typename?: "AmunRePlayer";
  seat: number;
  vp: number;
  /** Number of Favour cards in hand (JSON key `cards`; renamed so that one query can select `players { cards }` of ImhotepState and this next to each other). */
  cardCount: number;
  provinces: Array<string>;
  scribesFree: number;
  theftCard: boolean;
  /** Only for the viewer himself, at the end, or in the full view. */
  gold: number | null;
  /** Full view only. */
  hand: Array<AmunReCardCount> | null;
  /** Statues module only. */
  statueCards: Array<string> | null;
  /** Pharaoh module only. */
  pharaohTokens: number | null;
  /** Afterlife: collection size. */
  tombTiles: number | null;
  /** Afterlife: rows base first, a tile type or null per position. */
  tomb: Array<Array<string | null>> | null;
  /** Afterlife, full view only. */
  collection: Array<AmunReTileCount> | null;
}

/** A province revealed at least once: printed facts and board state. */
export interface AmunReProvince {
  __typename?: "AmunReProvince";
  /** Province id, e.g. "abu" (the same in every game). */
  id: string;
  name: string;
  bank: string;
  region: string;
  river: string;
  fields: number;
  cardLimit: number;
  temples: number;
  mine: number;
  caravan: number;
  bonus: AmunReProvinceBonus;
  owner: number | null;
  farmers: number;
  stones: number;
  pyramids: number;
  upForAuction: boolean;
}

export interface AmunReProvinceBonus {
  __typename?: "AmunReProvinceBonus";
  stones: number;
  gold: number;
  favourCards: number;
}

export interface AmunReRevealedOffer {
  __typename?: "AmunReRevealedOffer";
  seat: number;
  /** Either "gold" or "theft". */
  offer: string;
  gold: number;
}

/** One player's kingdom scoring breakdown (R13.8). */
export interface AmunReScoringLine {
  __typename?: "AmunReScoringLine";
  seat: number;
  pyramids: number;
  weakest: number;
  farmers: number;
  temples: number;
  west: number;
  east: number;
  schemes: number;
  total: number;
  schemesScored: Array<string>;
}

export interface AmunReScribe {
  __typename?: "AmunReScribe";
  seat: number;
  value: number;
  standing: boolean;
}

/** Full view only (after the game). */
export interface AmunReSecret {
  __typename?: "AmunReSecret";
  drawPile: Array<string>;
  provinceDeck: Array<string>;
  statueDeck: Array<string> | null;
  tombStack: Array<string> | null;
}

/** An Amun-Re game as the caller may see it (typed `Game.state`). */
export interface AmunReState {
  __typename?: "AmunReState";
  game: string;
  viewer: number | null;
  round: number;
  kingdom: number;
  phase: string;
  startPlayer: number;
  toAct: Array<number>;
  decision: string | null;
  options: AmunReOptions;
  bidTrack: Array<number>;
  offeringTile: AmunReOfferingTile | null;
  provinces: Array<AmunReProvince>;
  auction: AmunReAuction | null;
  market: AmunReMarket | null;
  offering: AmunReCommitments | null;
  lastOffering: Array<AmunReRevealedOffer> | null;
  gifts: AmunReGifts | null;
  harvest: AmunReHarvest | null;
  finalSale: AmunReCommitments | null;
  players: Array<AmunRePlayer>;
  you: AmunReYou | null;
  discardPile: Array<string>;
  drawPile: number;
  provinceDeck: number;
  lastScoring: Array<AmunReScoringLine> | null;
  final: AmunReFinal | null;
  winners: Array<number>;
  ranks: Array<number>;
  secret: AmunReSecret | null;
  statues: AmunReStatues | null;
  pharaoh: AmunRePharaoh | null;
  /** Afterlife only: tiles left. */
  tombStack: number | null;
  /** Afterlife only, oldest first. */
  tombDiscard: Array<string> | null;
}

export interface AmunReStatueHolder {
  __typename?: "AmunReStatueHolder";
  statue: string;
  seat: number | null;
}

export interface AmunReStatuePlacement {
  __typename?: "AmunReStatuePlacement";
  statue: string;
  province: string;
}

/** Statues module. */
export interface AmunReStatues {
  __typename?: "AmunReStatues";
  onBoard: Array<AmunReStatuePlacement>;
  holders: Array<AmunReStatueHolder>;
  deck: number;
}

export interface AmunReTileCount {
  __typename?: "AmunReTileCount";
  tile: string;
  count: number;
}

/** The viewer's own secrets (null for a spectator). */
export interface AmunReYou {
  __typename?: "AmunReYou";
  seat: number;
  gold: number;
  hand: Array<AmunReCardCount>;
  markedForSale: Array<AmunReCardCount>;
  adjustment: number;
  offer: AmunReOffer | null;
  /** Afterlife only. */
  collection: Array<AmunReTileCount> | null;
}

export interface CreateGameInput {
  kind: GameKind;
  seats: number;
  options?: JSONValue | null;
  /** Makes the game deterministic (the same seed and actions give the same events) and unranked; hidden until the game is over. Omit it for a ranked game. */
  seed?: string | null;
}

export interface ForkSource {
  __typename?: "ForkSource";
  gameId: string;
  version: number;
  /** The seats whose view the fork of an unfinished game was dealt from (what they could not see was re-dealt); null for the fork of a finished game, which replays it exactly. */
  seats: Array<number> | null;
}

export interface Game extends Node {
  __typename?: "Game";
  /** The game's id (its global `Node` id too). */
  id: string;
  kind: GameKind;
  status: GameStatus;
  options: JSONValue;
  /** Number of the last event of the log as the caller may see it: an event private to another seat is not part of it (every event is, once the game is over). */
  version: number;
  /** Undo is allowed at this table (false: ranked play). */
  undoAllowed: boolean;
  /** The secret seed, revealed once the game is over (else null). */
  seed: string | null;
  /** The secret salt of the seed's commitment (hex), revealed with the seed once the game is over (else null; null too for games older than salts). */
  seedSalt: string | null;
  /** Commitment to the secret seed: hex SHA-256(salt || seed), salt the 32 bytes of seedSalt (domain/randomness.py; unsalted for games older than salts). */
  seedCommitment: string;
  /** The game counts in ratings, profiles and statistics (false: see unrankedReason). */
  ranked: boolean;
  /** Why the game counts in no rating, profile or statistic: "the creator chose the seed", "a fork" or "an imported copy"; null for a ranked game. */
  unrankedReason: string | null;
  rulesVersion: string;
  createdAt: string;
  /** Time of the last event of the log as the caller may see it. */
  updatedAt: string;
  seats: Array<Seat>;
  /** The caller's seat; null for spectators. */
  mySeat: number | null;
  /** Who must act now. */
  activeSeats: Array<number>;
  /** The game state as the caller may see it. */
  state: JSONValue;
  /** The caller's view as typed GraphQL (the same information as `state`); null before the game starts. */
  view: GameView | null;
  /** Exactly the actions `act` accepts from the caller now. */
  legalActions: Array<JSONValue>;
  /** `legalActions` in the same order, each with a label and its type. */
  moves: Array<Move>;
  /** The public score track, by seat. */
  scores: Array<number>;
  result: GameResult | null;
  /** The audit log, as the caller may see it. */
  events: GameEventConnection;
  /** Whether the caller may take back its last action now, and why. */
  canUndo: UndoStatus;
  /** A pending request to take actions back. */
  undoRequest: UndoRequest | null;
  /** The game this sandbox was forked from. */
  forkedFrom: ForkSource | null;
  /** Replay: events after `after` with the state right after each, as the caller may see it (everything once the game is over). */
  replay: Array<ReplayStep>;
  /** Replay: the state right after event `version`; null, with a BAD_INPUT error on this field alone, for a version the game does not have. */
  stateAt: JSONValue | null;
  /** Replay: the typed view right after event `version` (the same information as `stateAt`); null before the game starts. */
  viewAt: GameView | null;
}

/** The arguments of `Game.events`. */
export interface GameEventsArgs {
  first?: number | null;
  after?: string | null;
}

/** The arguments of `Game.replay`. */
export interface GameReplayArgs {
  after: number;
  first?: number | null;
}

/** The arguments of `Game.stateAt`. */
export interface GameStateAtArgs {
  version: number;
}

/** The arguments of `Game.viewAt`. */
export interface GameViewAtArgs {
  version: number;
}

/** A game right after one event, as the caller may see it (`gameChanged`). */
export interface GameChange {
  __typename?: "GameChange";
  /** Number of the event in the caller's log (as `Game.version` right after it). */
  version: number;
  /** The game's status right after the event. */
  status: GameStatus;
  /** Who must act right after the event. */
  activeSeats: Array<number>;
  /** The caller's typed view right after the event (the same information as `state`); null before the game starts. */
  view: GameView | null;
  /** The caller's view right after the event. */
  state: JSONValue;
  /** Exactly the actions `act` accepts from the caller right after the event. */
  legalActions: Array<JSONValue>;
  /** The event, as the caller may see it. */
  event: GameEvent;
}

export interface GameConnection {
  __typename?: "GameConnection";
  edges: Array<GameEdge>;
  nodes: Array<Game>;
  pageInfo: PageInfo;
}

export interface GameEdge {
  __typename?: "GameEdge";
  cursor: string;
  node: Game;
}

export interface GameEvent {
  __typename?: "GameEvent";
  version: number;
  at: string;
  seat: number | null;
  type: string;
  data: JSONValue;
  /** True for a step nobody chose (the only legal option, applied at once). */
  automatic: boolean;
  /** The seat whose action recorded this event (null for table steps). */
  bySeat: number | null;
  /** Taken back by a later undo. */
  undone: boolean;
  /** SHA-256 sealing this event to the one before (see verifyLog). */
  hash: string;
}

export interface GameEventConnection {
  __typename?: "GameEventConnection";
  edges: Array<GameEventEdge>;
  nodes: Array<GameEvent>;
  pageInfo: PageInfo;
  totalCount: number;
}

export interface GameEventEdge {
  __typename?: "GameEventEdge";
  cursor: string;
  node: GameEvent;
}

export type GameKind = "IMHOTEP" | "AMUN_RE";

/** Every value of `GameKind`. */
export const GameKindValues: readonly GameKind[] = ["IMHOTEP", "AMUN_RE"];

export interface GameResult {
  __typename?: "GameResult";
  scores: Array<number>;
  winners: Array<number>;
  ranks: Array<number>;
}

export interface GameStatistics {
  __typename?: "GameStatistics";
  kind: GameKind;
  /** Finished games counted. */
  games: number;
  /** Points by scoring source. */
  sources: Array<ScoreSource>;
}

export type GameStatus = "OPEN" | "ACTIVE" | "FINISHED" | "ABANDONED";

/** Every value of `GameStatus`. */
export const GameStatusValues: readonly GameStatus[] = ["OPEN", "ACTIVE", "FINISHED", "ABANDONED"];

export interface GameSummary {
  __typename?: "GameSummary";
  gameId: string;
  kind: GameKind;
  status: GameStatus;
  options: JSONValue;
  seats: Array<SummarySeat>;
  freeSeats: number;
  /** Whose turn it is. */
  activeSeats: Array<number>;
  scores: Array<number>;
  winners: Array<number> | null;
  /** The game version this summary reflects: the number of the last event a spectator sees (a spectator's `Game.version`). */
  version: number;
  createdAt: string;
  lastActivity: string;
  forkedFrom: string | null;
  /** The game counts in ratings, profiles and statistics. */
  ranked: boolean;
  /** Why it does not: "the creator chose the seed", "a fork" or "an imported copy"; null for a ranked game. */
  unrankedReason: string | null;
}

export interface GameSummaryConnection {
  __typename?: "GameSummaryConnection";
  edges: Array<GameSummaryEdge>;
  nodes: Array<GameSummary>;
  pageInfo: PageInfo;
}

export interface GameSummaryEdge {
  __typename?: "GameSummaryEdge";
  cursor: string;
  node: GameSummary;
}

export type GameView = ImhotepState | AmunReState;

export interface ImhotepBurialChamber {
  __typename?: "ImhotepBurialChamber";
  side: string;
  stones: Array<number>;
}

/** The ship (id) docked at each site, null when free. */
export interface ImhotepDocks {
  __typename?: "ImhotepDocks";
  market: number | null;
  pyramids: number | null;
  temple: number | null;
  burialChamber: number | null;
  obelisks: number | null;
}

/** Points per seat of each final scoring step done so far (§13). */
export interface ImhotepFinalScoring {
  __typename?: "ImhotepFinalScoring";
  burialChamber: Array<number> | null;
  obelisks: Array<number> | null;
  decorations: Array<number> | null;
  statues: Array<number> | null;
  blueCards: Array<number> | null;
  wrath: Array<number> | null;
}

/** Only in the full view (after the game). */
export interface ImhotepHidden {
  __typename?: "ImhotepHidden";
  drawPile: Array<string>;
  roundStack: Array<string>;
  removedRoundCard: string | null;
}

export interface ImhotepMarket {
  __typename?: "ImhotepMarket";
  side: string;
  faceUp: Array<string | null>;
  pairCount: number;
  /** The face-down pair: only to the player deciding market_keep, or after the game (full view); null otherwise. */
  pair: Array<string> | null;
}

/** Side A: heights (per seat). Side B: singles, towers, beside, tower_points. Fields of the other side are null. */
export interface ImhotepObelisks {
  __typename?: "ImhotepObelisks";
  side: string;
  heights: Array<number> | null;
  singles: Array<number> | null;
  towers: Array<number> | null;
  beside: Array<number> | null;
  towerPoints: Array<number> | null;
}

export interface ImhotepOptions {
  __typename?: "ImhotepOptions";
  sides: ImhotepSides;
  wrathOfThePharaoh: boolean;
}

export interface ImhotepOutcome {
  __typename?: "ImhotepOutcome";
  scores: Array<number>;
  ranks: Array<number>;
  winners: Array<number>;
}

export interface ImhotepPending {
  __typename?: "ImhotepPending";
  /** Either "turn" or the kind of the pending decision. */
  kind: string;
  owner: number;
  /** The legal actions (as for `act`), for the owner only (or after the game). */
  options: Array<JSONValue> | null;
}

export interface ImhotepPlayer {
  __typename?: "ImhotepPlayer";
  seat: number;
  colour: string;
  score: number;
  sled: number;
  quarry: number;
  /** Cards in front of the player (public). */
  cards: Array<string>;
}

export interface ImhotepPyramid {
  __typename?: "ImhotepPyramid";
  name: string;
  stones: Array<number>;
  spaces: number;
}

export interface ImhotepPyramidsSite {
  __typename?: "ImhotepPyramidsSite";
  side: string;
  pyramids: Array<ImhotepPyramid>;
  overflow: Array<number>;
}

export interface ImhotepRoundCard {
  __typename?: "ImhotepRoundCard";
  id: string;
  ships: Array<number>;
}

export interface ImhotepShip {
  __typename?: "ImhotepShip";
  /** Ship number 1-4 within this game (not global). */
  id: number;
  capacity: number;
  minimum: number;
  /** The seat owning each slot's stone. */
  slots: Array<number | null>;
  load: number;
  /** The site it sailed to, null while at sea. */
  site: string | null;
}

/** The side (A or B) of each of the five sites (§2). */
export interface ImhotepSides {
  __typename?: "ImhotepSides";
  market: string;
  pyramids: string;
  temple: string;
  burialChamber: string;
  obelisks: string;
}

export interface ImhotepSites {
  __typename?: "ImhotepSites";
  pyramids: ImhotepPyramidsSite;
  temple: ImhotepTemple;
  burialChamber: ImhotepBurialChamber;
  obelisks: ImhotepObelisks;
}

/** An Imhotep game as the caller may see it (typed `Game.state`). */
export interface ImhotepState {
  __typename?: "ImhotepState";
  game: string;
  round: number;
  rounds: number;
  viewer: number | null;
  currentPlayer: number;
  startPlayer: number;
  options: ImhotepOptions;
  players: Array<ImhotepPlayer>;
  ships: Array<ImhotepShip>;
  docks: ImhotepDocks;
  /** Never null for Imhotep; nullable like AmunReState.market so that one query can select `market` in both members of GameView. */
  market: ImhotepMarket | null;
  sites: ImhotepSites;
  discardPile: Array<string>;
  drawPileCount: number;
  roundStackCount: number;
  roundCards: Array<ImhotepRoundCard>;
  passes: number;
  pending: ImhotepPending | null;
  finalScoring: ImhotepFinalScoring;
  gameOver: boolean;
  outcome: ImhotepOutcome | null;
  hidden: ImhotepHidden | null;
}

export interface ImhotepTemple {
  __typename?: "ImhotepTemple";
  side: string;
  width: number;
  stones: Array<number>;
  visible: Array<number | null>;
}

export interface KindRecord {
  __typename?: "KindRecord";
  kind: GameKind;
  gamesPlayed: number;
  gamesWon: number;
  averageScore: number;
}

export interface LogVerification {
  __typename?: "LogVerification";
  ok: boolean;
  checkedEvents: number;
  /** The first event that does not hold. */
  badVersion: number | null;
  reason: string | null;
}

/** A legal action with a label for a user interface. */
export interface Move {
  __typename?: "Move";
  /** The action, exactly as `act` accepts it. */
  action: JSONValue;
  /** A human label, e.g. "Place a stone on ship 2, slot 3". */
  label: string;
  /** The action's `type` (its `actionCatalog` name). */
  type: string;
}

export interface Mutation {
  __typename?: "Mutation";
  /** Open registration; the token is shown once. */
  registerPlayer: PlayerSession;
  /** A new token for the caller; the one sent with this request stops working at once, in every server process. Shown once, like the first. */
  rotateToken: PlayerSession;
  /** Revoke the token sent with this request, at once in every server process. A player has one token at a time and no password, so this signs the player out for good; to change a token and keep playing, use rotateToken. */
  logout: boolean;
  /** Delete the caller's account: the token stops working and the name is shown as 'Deleted player' everywhere (seats, events, summaries, profiles, leaderboards, exports); finished games stay and still verify. Refused (FORBIDDEN) while the caller holds a seat at a game that is not over: finish or abandon it first. */
  deleteAccount: boolean;
  /** A new open table; the creator is not seated automatically. */
  createGame: Game;
  /** Take a seat (the first free one if none is given). */
  joinGame: Game;
  /** A server-side bot takes a seat and plays when it must. */
  addBot: Game;
  /** Close a table without a result: its creator while it is open, a seated player once it runs. */
  abandonGame: Game;
  /** Take actions back to right after `toVersion` (default: your last action). Your own last actions go at once; across another seat's action every other human seat must accept (answerUndo). Never across a random draw or a reveal. */
  requestUndo: Game;
  /** Accept or refuse the pending undo request. */
  answerUndo: Game;
  /** Check an exported game by re-running the rules and store it as a new finished game; BAD_INPUT says exactly what does not hold. */
  importGame: Game;
  /** A new sandbox table that starts from a game as it was at `atVersion` (unranked, marked as a fork). Anybody may fork a finished game (its events are replayed). A game that is not finished may be forked only by one of its players: the fork starts from what that player's seats could see, everything hidden from them re-dealt from the fork's own seed, and seats the player at those seats; the other seats are open (players or bots). Once over, a fork reveals its whole log like any game, the forking player's hidden items at the fork included. */
  forkGame: Game;
  /** One action for the caller's seat. */
  act: ActResult;
}

/** The arguments of `Mutation.registerPlayer`. */
export interface MutationRegisterPlayerArgs {
  name: string;
}

/** The arguments of `Mutation.createGame`. */
export interface MutationCreateGameArgs {
  input: CreateGameInput;
}

/** The arguments of `Mutation.joinGame`. */
export interface MutationJoinGameArgs {
  /** A game's id. */
  gameId: string;
  seat?: number | null;
}

/** The arguments of `Mutation.addBot`. */
export interface MutationAddBotArgs {
  /** A game's id. */
  gameId: string;
  seat?: number | null;
  strategy?: string | null;
}

/** The arguments of `Mutation.abandonGame`. */
export interface MutationAbandonGameArgs {
  /** A game's id. */
  gameId: string;
  reason?: string | null;
}

/** The arguments of `Mutation.requestUndo`. */
export interface MutationRequestUndoArgs {
  /** A game's id. */
  gameId: string;
  toVersion?: number | null;
}

/** The arguments of `Mutation.answerUndo`. */
export interface MutationAnswerUndoArgs {
  /** A game's id. */
  gameId: string;
  accept: boolean;
}

/** The arguments of `Mutation.importGame`. */
export interface MutationImportGameArgs {
  document: JSONValue;
}

/** The arguments of `Mutation.forkGame`. */
export interface MutationForkGameArgs {
  /** A game's id. */
  gameId: string;
  atVersion: number;
}

/** The arguments of `Mutation.act`. */
export interface MutationActArgs {
  /** A game's id. */
  gameId: string;
  action: JSONValue;
  expectedVersion?: number | null;
  idempotencyKey?: string | null;
  /** Which of the caller's seats acts (for a player holding several; FORBIDDEN if the caller does not hold it). Default: the seat that must act now. */
  seat?: number | null;
}

/** An object with a global id that `node(id:)` finds again (Relay); today every node is a `Game`. */
export interface Node {
  /** The object's global id. */
  id: string;
}

export interface PageInfo {
  __typename?: "PageInfo";
  hasNextPage: boolean;
  endCursor: string | null;
  /** Whether items come before this page (an `after` was given). */
  hasPreviousPage: boolean;
  /** The cursor of this page's first item (null when empty). */
  startCursor: string | null;
}

export interface Player {
  __typename?: "Player";
  id: string;
  name: string;
}

export interface PlayerProfile {
  __typename?: "PlayerProfile";
  playerId: string;
  name: string;
  gamesPlayed: number;
  gamesWon: number;
  averageScore: number;
  byKind: Array<KindRecord>;
  recentGames: Array<RecentGame>;
}

export interface PlayerSession {
  __typename?: "PlayerSession";
  player: Player;
  /** Shown once; the server keeps only its hash. */
  token: string;
}

export interface Query {
  __typename?: "Query";
  /** The caller; null for a spectator. */
  me: Player | null;
  /** Every action of a game kind: its parameters, label, rule and JSON Schema (the vocabulary of `legalActions` and `act`). */
  actionCatalog: Array<ActionSpec>;
  /** The static catalog a renderer needs to draw a game kind's board, for the current rules version (`rulesVersion`): Imhotep's sites on sides A and B with their spaces, points and bonuses, the market cards with texts and colours, the round cards and ships; Amun-Re's provinces, Favour cards with texts, Offering tiles, statues, tomb tiles and scoring tables. Values the rules spec marks as designed carry `"designed": true` and `"spec"` (the section). Every id the game's `state` refers to is found here. */
  catalog: JSONValue;
  /** The game as the caller may see it; null if there is none. */
  game: Game | null;
  /** The object with this global id (Relay), or null: every node is a `Game`. */
  node: Node | null;
  /** Games, newest first, with Relay cursor pagination. */
  games: GameConnection;
  /** Game summaries from the read model (public facts only), newest first; `player` finds the games a player sat at. */
  gameSummaries: GameSummaryConnection;
  /** Open tables with free seats, newest first. */
  lobby: GameSummaryConnection;
  /** A player's profile: games played and won, average score. */
  player: PlayerProfile | null;
  /** Ratings (multi-player Elo) of one game, best first. */
  leaderboard: RatingConnection;
  /** Points by scoring source over the finished games of a kind. */
  statistics: GameStatistics;
  /** How far each read model has applied the event store. */
  readModels: ReadModelStatus;
  /** Recompute the hash chain, check the seed against its commitment and replay every event through the rules; reports the first event that does not hold. */
  verifyLog: LogVerification;
  /** A finished game as one portable JSON document. */
  exportGame: JSONValue;
}

/** The arguments of `Query.actionCatalog`. */
export interface QueryActionCatalogArgs {
  kind: GameKind;
}

/** The arguments of `Query.catalog`. */
export interface QueryCatalogArgs {
  kind: GameKind;
}

/** The arguments of `Query.game`. */
export interface QueryGameArgs {
  /** A game's id. */
  id: string;
}

/** The arguments of `Query.node`. */
export interface QueryNodeArgs {
  id: string;
}

/** The arguments of `Query.games`. */
export interface QueryGamesArgs {
  kind?: GameKind | null;
  status?: GameStatus | null;
  first?: number | null;
  after?: string | null;
  player?: string | null;
}

/** The arguments of `Query.gameSummaries`. */
export interface QueryGameSummariesArgs {
  kind?: GameKind | null;
  status?: GameStatus | null;
  player?: string | null;
  first?: number | null;
  after?: string | null;
  minPosition?: number | null;
}

/** The arguments of `Query.lobby`. */
export interface QueryLobbyArgs {
  kind?: GameKind | null;
  options?: JSONValue | null;
  first?: number | null;
  after?: string | null;
  minPosition?: number | null;
}

/** The arguments of `Query.player`. */
export interface QueryPlayerArgs {
  id: string;
}

/** The arguments of `Query.leaderboard`. */
export interface QueryLeaderboardArgs {
  kind: GameKind;
  first?: number | null;
  after?: string | null;
}

/** The arguments of `Query.statistics`. */
export interface QueryStatisticsArgs {
  kind: GameKind;
}

/** The arguments of `Query.verifyLog`. */
export interface QueryVerifyLogArgs {
  /** A game's id. */
  gameId: string;
}

/** The arguments of `Query.exportGame`. */
export interface QueryExportGameArgs {
  /** A game's id. */
  gameId: string;
}

export interface Rating {
  __typename?: "Rating";
  rank: number;
  playerId: string;
  name: string;
  rating: number;
  games: number;
  wins: number;
  peak: number;
}

export interface RatingConnection {
  __typename?: "RatingConnection";
  edges: Array<RatingEdge>;
  nodes: Array<Rating>;
  pageInfo: PageInfo;
}

export interface RatingEdge {
  __typename?: "RatingEdge";
  cursor: string;
  node: Rating;
}

export interface ReadModelPosition {
  __typename?: "ReadModelPosition";
  name: string;
  /** Last notification of the store applied. */
  position: number;
}

export interface ReadModelStatus {
  __typename?: "ReadModelStatus";
  /** Last notification in the store. */
  storePosition: number;
  readModels: Array<ReadModelPosition>;
}

export interface RecentGame {
  __typename?: "RecentGame";
  gameId: string;
  kind: GameKind;
  seat: number;
  score: number;
  rank: number | null;
  won: boolean;
  finishedAt: string;
}

export interface ReplayStep {
  __typename?: "ReplayStep";
  event: GameEvent;
  /** The state right after the event. */
  state: JSONValue;
  /** The state right after the event as typed GraphQL (the same information as `state`); null before the game starts. */
  view: GameView | null;
}

export interface ScoreSource {
  __typename?: "ScoreSource";
  source: string;
  points: number;
  averagePerGame: number;
}

export interface Seat {
  __typename?: "Seat";
  seat: number;
  player: Player | null;
  isBot: boolean;
  strategy: string | null;
}

export interface Subscription {
  __typename?: "Subscription";
  /** Every event after `afterVersion` (catch-up; default: the current version), then live, as the caller may see it; completes after the game ends. */
  gameEvents: GameEvent;
  /** Like `gameEvents` (the same events, numbered alike), each with everything a client needs to redraw the game right after it, as the caller may see it: a client can keep its screen current from this subscription alone. */
  gameChanged: GameChange;
  /** Tables as they are created, seated, started, finished or abandoned (the summary after the change; a table left the lobby when it is no longer OPEN). */
  lobbyChanged: GameSummary;
}

/** The arguments of `Subscription.gameEvents`. */
export interface SubscriptionGameEventsArgs {
  /** A game's id. */
  gameId: string;
  afterVersion?: number | null;
}

/** The arguments of `Subscription.gameChanged`. */
export interface SubscriptionGameChangedArgs {
  /** A game's id. */
  gameId: string;
  afterVersion?: number | null;
}

/** The arguments of `Subscription.lobbyChanged`. */
export interface SubscriptionLobbyChangedArgs {
  kind?: GameKind | null;
}

export interface SummarySeat {
  __typename?: "SummarySeat";
  seat: number;
  playerId: string | null;
  name: string | null;
  isBot: boolean;
}

export interface UndoRequest {
  __typename?: "UndoRequest";
  version: number;
  seat: number;
  toVersion: number;
  /** Seats whose answer is still needed. */
  waiting: Array<number>;
}

export interface UndoStatus {
  __typename?: "UndoStatus";
  /** The caller may take its last action back. */
  allowed: boolean;
  /** Without asking the other seats. */
  immediate: boolean;
  toVersion: number | null;
  reason: string;
}
