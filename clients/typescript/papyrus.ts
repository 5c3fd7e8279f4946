// The Papyrus runtime SDK: one ES module for Node 20 and the browser, speaking only the public
// API (docs/API.md). This file is its source; `npm run build` compiles it with the pinned tsc
// into lib/ (the package's entry point) and copies the JavaScript to
// service/api/web/static/sdk/papyrus.js, where the server serves it to the web client
// (tests/test_typescript_sdk.py fails when either copy is not what this file compiles to).
//
//   const client = new PapyrusClient({url: "http://127.0.0.1:8000", WebSocket});
//   await client.register("ada");
//   const game = await client.createGame({kind: "IMHOTEP", seats: 2});
//   await client.joinGame(game.id); await client.addBot(game.id);
//   const finished = await client.play(game.id, (change) => change.legalActions[0]);
//
// - gql(document, variables): GraphQL over fetch; a failure is an ApiError whose `code` is an
//   ErrorCode of the contract (or NETWORK when the server cannot be reached).
// - subscribe(document, variables, handlers): graphql-transport-ws over one websocket for every
//   subscription of the client, reopened with back-off when it drops; `variables` may be a
//   function, called again on every (re)subscription, so a subscriber resumes where it was.
// - Trusted documents (docs/API.md): a document is sent by its id ("sha256:" and the hex
//   SHA-256 of its text) where the runtime can hash; a server that answers UNKNOWN_DOCUMENT
//   gets the text, now and from then on.
// - Helpers: register, createGame, joinGame, addBot, lobby, game, act (JSON or typed action),
//   gameChanged (resumes after a dropped socket from the last version it delivered), play,
//   replay, exportGame.
//
// Node 20 has fetch and crypto.subtle but no WebSocket: pass one (`ws` from npm) as the
// `WebSocket` option; a browser's own is used when none is given.

import type {
  ActionInput,
  ErrorCode,
  Game,
  GameChange,
  GameEvent,
  GameKind,
  GameStatus,
  GameSummary,
  JSONValue,
  Player,
} from "./schema.js";

export type * from "./schema.js";

/** Codes the client itself gives: the server could not be reached or answered no JSON. */
export type ClientErrorCode = "NETWORK" | "UNKNOWN";

/** A failure of the API, with its stable code (docs/API.md "Errors"). */
export class ApiError extends Error {
  readonly code: ErrorCode | ClientErrorCode;
  readonly requestId: string | null;
  /** For ILLEGAL_ACTION: the rule the action broke. */
  readonly rule: string | null;
  /** For RATE_LIMITED: the seconds to wait. */
  readonly retryAfter: number | null;

  constructor(
    message: string,
    code?: string | null,
    requestId?: string | null,
    extensions: { rule?: unknown; retryAfter?: unknown } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = (code || "UNKNOWN") as ErrorCode | ClientErrorCode;
    this.requestId = requestId || null;
    this.rule = typeof extensions.rule === "string" ? extensions.rule : null;
    this.retryAfter = typeof extensions.retryAfter === "number" ? extensions.retryAfter : null;
  }
}

/**
 * A GraphQL document's text that carries the types of its answer and variables, so that
 * `gql(document, variables)` checks the variables and types the data.
 */
export type TypedDocument<TData, TVariables> = string & {
  readonly __papyrusDocument?: { data: TData; variables: TVariables };
};

/** Variables of no operation: none. */
export type NoVariables = Record<string, never>;

/** `text` as a typed document (the text is unchanged: only the compiler sees the types). */
export function typed<TData, TVariables = NoVariables>(text: string): TypedDocument<TData, TVariables> {
  return text as TypedDocument<TData, TVariables>;
}

type DataOf<D> = D extends TypedDocument<infer R, unknown> ? R : Record<string, unknown>;
type VariablesOf<D> = D extends TypedDocument<unknown, infer V> ? V : Record<string, unknown>;

/** What a WebSocket implementation must offer: the browser's, or `ws` from npm in Node. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type WebSocketConstructor = new (url: string, protocol: string) => WebSocketLike;

export interface ClientOptions {
  /** The server, e.g. "https://papyrus.example"; "" (the default): the page's own origin. */
  url?: string;
  /** The websocket URL of /graphql; by default from `url` (or the page's location). */
  websocketUrl?: string;
  /** The bearer token, or a function read at every request (the web client keeps it in storage). */
  token?: string | null | (() => string | null);
  /** A WebSocket implementation; the global one when not given (Node 20 has none). */
  WebSocket?: WebSocketConstructor;
  /** A fetch implementation; the global one when not given. */
  fetch?: typeof fetch;
  /** Send documents by id where the runtime can hash them (default true). */
  documentIds?: boolean;
  /** The first and the longest wait before the websocket is opened again, in ms. */
  retryMs?: { first: number; max: number };
  /**
   * Called when the server refuses the token sent with a request (UNAUTHENTICATED): the error it
   * returns, if any, is thrown instead (the web client signs out there).
   */
  onUnauthenticated?: (error: ApiError) => ApiError | void;
}

export interface SubscriptionHandlers<TData> {
  next: (data: TData) => void;
  error?: (error: ApiError) => void;
  complete?: () => void;
  /** The socket dropped: it is being opened again, and the subscription started again. */
  reconnecting?: () => void;
}

interface Active {
  query: string;
  variables: unknown | (() => unknown);
  handlers: SubscriptionHandlers<unknown>;
  byId?: boolean;
}

const OPEN = 1; // WebSocket.OPEN, the same in every implementation

const hex = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

interface GraphQLError {
  message: string;
  extensions?: { code?: string; requestId?: string; rule?: unknown; retryAfter?: unknown };
}

function apiError(first: GraphQLError, requestId: string | null = null): ApiError {
  const extensions = first.extensions || {};
  return new ApiError(first.message, extensions.code, requestId || extensions.requestId, extensions);
}

/** The documents of the helpers (each also usable with gql/subscribe). */
export const DOCUMENTS = {
  register: typed<{ registerPlayer: { token: string; player: Pick<Player, "id" | "name"> } }, { name: string }>(
    "mutation Register($name: String!) { registerPlayer(name: $name) { token player { id name } } }",
  ),
  me: typed<{ me: Pick<Player, "id" | "name"> | null }>("query Me { me { id name } }"),
  createGame: typed<
    { createGame: GameHead },
    { input: { kind: GameKind; seats: number; options?: JSONValue; seed?: string } }
  >(`mutation CreateGame($input: CreateGameInput!) { createGame(input: $input) { ...Head } }`),
  joinGame: typed<{ joinGame: GameHead }, { gameId: string; seat?: number | null }>(
    "mutation JoinGame($gameId: ID!, $seat: Int) { joinGame(gameId: $gameId, seat: $seat) { ...Head } }",
  ),
  addBot: typed<{ addBot: GameHead }, { gameId: string; seat?: number | null; strategy?: string | null }>(
    "mutation AddBot($gameId: ID!, $seat: Int, $strategy: String) { addBot(gameId: $gameId, seat: $seat, strategy: $strategy) { ...Head } }",
  ),
  game: typed<{ game: GameWithMoves | null }, { id: string; minVersion?: number | null }>(
    "query Game($id: ID!, $minVersion: Int) { game(id: $id, minVersion: $minVersion) { ...Head moves { type label action typedAction } } }",
  ),
  lobby: typed<
    { games: { edges: Array<{ node: GameHead }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } },
    { kind?: GameKind | null; status?: GameStatus | null; first?: number | null; after?: string | null }
  >(
    "query Games($kind: GameKind, $status: GameStatus, $first: Int, $after: String) { games(kind: $kind, status: $status, first: $first, after: $after) { edges { node { ...Head } } pageInfo { hasNextPage endCursor } } }",
  ),
  act: typed<
    { act: { game: GameHead; events: Array<EventHead> } },
    {
      gameId: string;
      action?: JSONValue | null;
      typedAction?: ActionInput | null;
      expectedVersion?: number | null;
      idempotencyKey?: string | null;
    }
  >(
    "mutation Act($gameId: ID!, $action: JSON, $typedAction: ActionInput, $expectedVersion: Int, $idempotencyKey: String) { act(gameId: $gameId, action: $action, typedAction: $typedAction, expectedVersion: $expectedVersion, idempotencyKey: $idempotencyKey) { game { ...Head } events { ...Event } } }",
  ),
  gameChanged: typed<{ gameChanged: Change }, { gameId: string; afterVersion?: number | null }>(
    "subscription GameChanged($gameId: ID!, $afterVersion: Int) { gameChanged(gameId: $gameId, afterVersion: $afterVersion) { version status activeSeats state legalActions event { ...Event } } }",
  ),
  lobbyChanged: typed<{ lobbyChanged: Pick<GameSummary, "gameId" | "kind" | "status"> }, { kind?: GameKind | null }>(
    "subscription LobbyChanged($kind: GameKind) { lobbyChanged(kind: $kind) { gameId kind status } }",
  ),
  replay: typed<
    { game: { replay: Array<{ event: EventHead; state: JSONValue }> } | null },
    { id: string; after: number; first?: number | null }
  >(
    "query Replay($id: ID!, $after: Int!, $first: Int) { game(id: $id) { replay(after: $after, first: $first) { event { ...Event } state } } }",
  ),
  exportGame: typed<{ exportGame: JSONValue }, { gameId: string }>(
    "query Export($gameId: ID!) { exportGame(gameId: $gameId) }",
  ),
};

/** The fields of a game the helpers read. */
export type GameHead = Pick<
  Game,
  "id" | "kind" | "status" | "version" | "mySeat" | "activeSeats" | "legalActions" | "state" | "result"
> & { seats: Array<{ seat: number; isBot: boolean; player: Pick<Player, "id" | "name"> | null }> };

/** One of the caller's legal actions, in both forms `act` takes, with a label to show. */
export interface LegalMove {
  type: string;
  label: string;
  /** The action as JSON: send it as `{action}`. */
  action: JSONValue;
  /** The same action typed: send it as `{typedAction}`. */
  typedAction: ActionInput;
}

/** A game with the caller's legal moves. */
export type GameWithMoves = GameHead & { moves: LegalMove[] };

/** The fields of an event the helpers read. */
export type EventHead = Pick<GameEvent, "version" | "seat" | "type" | "data" | "undone">;

/** One change of a game, as gameChanged delivers it to the helpers. */
export type Change = Pick<GameChange, "version" | "status" | "activeSeats" | "state" | "legalActions"> & {
  event: EventHead;
};

const FRAGMENTS: Record<string, string> = {
  Head: "fragment Head on Game { id kind status version mySeat activeSeats legalActions state result { scores winners } seats { seat isBot player { id name } } }",
  Event: "fragment Event on GameEvent { version seat type data undone }",
};

// a helper's document with the fragments it spreads appended (the text sent, hashed once)
const complete = new Map<string, string>();
function withFragments<D extends string>(text: D): D {
  let full = complete.get(text);
  if (full === undefined) {
    full = text;
    for (const [name, fragment] of Object.entries(FRAGMENTS)) {
      if (text.includes(`...${name}`)) full += ` ${fragment}`;
    }
    complete.set(text, full);
  }
  return full as D;
}

/** Every document this SDK sends, as it sends it (its fragments appended): the texts a
 * server trusts by their ids (the server's trusted-documents manifest is made from these). */
export function sentDocuments(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(DOCUMENTS).map(([name, text]) => [name, withFragments(text as string)]),
  );
}

/** What `act` sends: a JSON action (one of legalActions) or a typed one (ActionInput). */
export type ActionChoice = { action: JSONValue } | { typedAction: ActionInput };

export interface ActOptions {
  expectedVersion?: number;
  idempotencyKey?: string;
}

export interface GameChangedOptions {
  /** Deliver the changes after this version (0: from the start); resumed from the last delivered. */
  afterVersion?: number;
  error?: (error: ApiError) => void;
  reconnecting?: () => void;
}

/** A client of one Papyrus server, for one player (or a spectator without a token). */
export class PapyrusClient {
  private readonly base: string;
  private readonly options: ClientOptions;
  private ownToken: string | null;
  private readonly ids = new Map<string, Promise<string | null>>(); // text -> its id (null: text)
  private readonly asText = new Set<string>(); // texts the server does not trust
  private readonly socket: Socket;

  constructor(options: ClientOptions = {}) {
    this.options = options;
    this.base = (options.url || "").replace(/\/+$/, "");
    this.ownToken = typeof options.token === "string" ? options.token : null;
    this.socket = new Socket(this, options.retryMs || { first: 500, max: 10000 });
  }

  /** The bearer token sent, or null (a spectator). */
  get token(): string | null {
    const given = this.options.token;
    return typeof given === "function" ? given() : this.ownToken;
  }

  /** Use `token` from now on (null: a spectator); the websocket is opened again with it. */
  setToken(token: string | null): void {
    if (typeof this.options.token !== "function") this.ownToken = token;
    this.socket.restart();
  }

  /** The websocket URL of /graphql. */
  websocketUrl(): string {
    if (this.options.websocketUrl) return this.options.websocketUrl;
    if (this.base) return `${this.base.replace(/^http/, "ws")}/graphql`;
    const place = (globalThis as { location?: { protocol: string; host: string } }).location;
    if (!place) throw new Error("PapyrusClient needs a url outside a browser page");
    return `${place.protocol === "https:" ? "wss" : "ws"}://${place.host}/graphql`;
  }

  /** The WebSocket implementation: the option's, or the runtime's own. */
  webSocketClass(): WebSocketConstructor {
    const chosen = this.options.WebSocket || (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!chosen) throw new Error("no WebSocket here: pass one as the WebSocket option (e.g. the ws package)");
    return chosen;
  }

  /** The id of `text` ("sha256:<hex>"), or null where it is to be sent as text. */
  documentId(text: string): Promise<string | null> {
    const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
    if (this.options.documentIds === false || this.asText.has(text) || !subtle) return Promise.resolve(null);
    let id = this.ids.get(text);
    if (id === undefined) {
      id = subtle.digest("SHA-256", new TextEncoder().encode(text)).then(
        (hash) => `sha256:${hex(hash)}`,
        () => null, // no hash, no id: the text goes
      );
      this.ids.set(text, id);
    }
    return id;
  }

  /** The server does not trust `text`: send it as text from now on. */
  untrusted(text: string): void {
    this.asText.add(text);
  }

  /** One GraphQL query or mutation over HTTP: its data, or an ApiError. */
  async gql<D extends string>(document: D, variables?: VariablesOf<D>): Promise<DataOf<D>> {
    const query: string = document;
    const named = await this.documentId(query);
    if (!named) return (await this.post({ query, variables: variables || {} })) as DataOf<D>;
    try {
      return (await this.post({ documentId: named, variables: variables || {} })) as DataOf<D>;
    } catch (failure) {
      if (!(failure instanceof ApiError) || failure.code !== "UNKNOWN_DOCUMENT") throw failure;
      this.untrusted(query); // a server that does not trust it: the text, now and from now on
      return (await this.post({ query, variables: variables || {} })) as DataOf<D>;
    }
  }

  private async post(operation: Record<string, unknown>): Promise<unknown> {
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
    const bearer = this.token;
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    const fetcher = this.options.fetch || globalThis.fetch;
    let response: Response;
    try {
      response = await fetcher(`${this.base}/graphql`, { method: "POST", headers, body: JSON.stringify(operation) });
    } catch (failure) {
      throw new ApiError(`The server cannot be reached (${(failure as Error).message}).`, "NETWORK");
    }
    const requestId = response.headers.get("X-Request-Id");
    let body: { data?: unknown; errors?: GraphQLError[] };
    try {
      body = await response.json();
    } catch {
      throw new ApiError(`The server answered ${response.status} without JSON.`, "INTERNAL", requestId);
    }
    const first = body.errors && body.errors[0];
    if (first) {
      const error = apiError(first, requestId);
      if (error.code === "UNAUTHENTICATED" && bearer && this.options.onUnauthenticated) {
        throw this.options.onUnauthenticated(error) || error;
      }
      throw error;
    }
    return body.data;
  }

  /**
   * Start a subscription on the client's one websocket; `variables` may be a function, called
   * again whenever the subscription is started again (after a dropped socket). Returns the
   * function that ends it.
   */
  subscribe<D extends string>(
    document: D,
    variables: VariablesOf<D> | (() => VariablesOf<D>),
    handlers: SubscriptionHandlers<DataOf<D>>,
  ): () => void {
    const id = this.socket.add({ query: document, variables, handlers: handlers as SubscriptionHandlers<unknown> });
    return () => this.socket.remove(id);
  }

  // A helper's document, with the fragments it spreads, as gql and subscribe send it.
  private helper<D extends string>(text: D, variables?: VariablesOf<D>): Promise<DataOf<D>> {
    const document = withFragments(text);
    return this.gql(document, variables);
  }

  private listen<D extends string>(
    text: D,
    variables: VariablesOf<D> | (() => VariablesOf<D>),
    handlers: SubscriptionHandlers<DataOf<D>>,
  ): () => void {
    const document = withFragments(text);
    return this.subscribe(document, variables, handlers);
  }

  /** Close the websocket (subscriptions end); the client can still be used. */
  close(): void {
    this.socket.closeAll();
  }

  /** @internal the socket in use, for tests that drop it */
  get currentSocket(): WebSocketLike | null {
    return this.socket.ws;
  }

  // ---- lobby -------------------------------------------------------------------------------

  /** Register a player; its token is used from then on. */
  async register(name: string): Promise<{ token: string; player: Pick<Player, "id" | "name"> }> {
    const data = await this.helper(DOCUMENTS.register, { name });
    this.setToken(data.registerPlayer.token);
    return data.registerPlayer;
  }

  async me(): Promise<Pick<Player, "id" | "name"> | null> {
    return (await this.helper(DOCUMENTS.me)).me;
  }

  async createGame(input: { kind: GameKind; seats: number; options?: JSONValue; seed?: string }): Promise<GameHead> {
    return (await this.helper(DOCUMENTS.createGame, { input })).createGame;
  }

  async joinGame(gameId: string, seat?: number): Promise<GameHead> {
    return (await this.helper(DOCUMENTS.joinGame, { gameId, seat: seat ?? null })).joinGame;
  }

  async addBot(gameId: string, options: { seat?: number; strategy?: string } = {}): Promise<GameHead> {
    const variables = { gameId, seat: options.seat ?? null, strategy: options.strategy ?? null };
    return (await this.helper(DOCUMENTS.addBot, variables)).addBot;
  }

  /** One page of tables, newest first (`after`: the previous page's endCursor). */
  async lobby(
    filter: { kind?: GameKind; status?: GameStatus; first?: number; after?: string } = {},
  ): Promise<{ games: GameHead[]; endCursor: string | null; hasNextPage: boolean }> {
    const variables = {
      kind: filter.kind ?? null,
      status: filter.status ?? null,
      first: filter.first ?? null,
      after: filter.after ?? null,
    };
    const page = (await this.helper(DOCUMENTS.lobby, variables)).games;
    return { games: page.edges.map((e) => e.node), ...page.pageInfo };
  }

  /** Tables as they are created, seated, started, finished or abandoned. */
  lobbyChanged(
    kind: GameKind | null,
    next: (summary: Pick<GameSummary, "gameId" | "kind" | "status">) => void,
    error?: (error: ApiError) => void,
  ): () => void {
    return this.listen(DOCUMENTS.lobbyChanged, { kind }, { next: (d) => next(d.lobbyChanged), ...(error ? { error } : {}) });
  }

  // ---- play --------------------------------------------------------------------------------

  /** The game as the caller may see it, with the caller's moves (null: no such game). */
  async game(id: string, minVersion?: number): Promise<GameWithMoves | null> {
    return (await this.helper(DOCUMENTS.game, { id, minVersion: minVersion ?? null })).game;
  }

  /** One action for the caller's seat: `{action}` (JSON) or `{typedAction}` (ActionInput). */
  async act(
    gameId: string,
    choice: ActionChoice,
    options: ActOptions = {},
  ): Promise<{ game: GameHead; events: EventHead[] }> {
    const variables = {
      gameId,
      action: "action" in choice ? choice.action : null,
      typedAction: "typedAction" in choice ? choice.typedAction : null,
      expectedVersion: options.expectedVersion ?? null,
      idempotencyKey: options.idempotencyKey ?? null,
    };
    return (await this.helper(DOCUMENTS.act, variables)).act;
  }

  /**
   * Every change of a game after `afterVersion`, in order, each once: after a dropped socket
   * the subscription starts again after the last version delivered, so nothing is missed.
   */
  gameChanged(gameId: string, next: (change: Change) => void, options: GameChangedOptions = {}): () => void {
    let last = options.afterVersion ?? 0;
    return this.listen(DOCUMENTS.gameChanged, () => ({ gameId, afterVersion: last }), {
      next: (data) => {
        if (data.gameChanged.version <= last) return; // already delivered
        last = data.gameChanged.version;
        next(data.gameChanged);
      },
      ...(options.error ? { error: options.error } : {}),
      ...(options.reconnecting ? { reconnecting: options.reconnecting } : {}),
    });
  }

  /**
   * Play a game to its end on gameChanged, with no poll: whenever the caller must act, `choose`
   * returns one of the change's legalActions as `{action}`, or a `{typedAction}`; it is sent with the
   * change's version as expectedVersion (a CONFLICT or NOT_YOUR_TURN just waits for the next
   * change). Resolves with the game once it is FINISHED or ABANDONED.
   */
  play(
    gameId: string,
    choose: (change: Change) => ActionChoice | Promise<ActionChoice>,
    options: { reconnecting?: () => void; onChange?: (change: Change) => void } = {},
  ): Promise<GameWithMoves> {
    return new Promise((resolve, reject) => {
      let latest: Change | null = null;
      let actedOn = -1;
      let busy = false;
      let done = false;
      const finish = (failure: ApiError | null): void => {
        if (done) return;
        done = true;
        stop();
        if (failure) reject(failure);
        else this.game(gameId).then((game) => (game ? resolve(game) : reject(new ApiError("The game is gone.", "NOT_FOUND"))), reject);
      };
      const step = async (): Promise<void> => {
        if (busy || done || !latest) return;
        const change = latest;
        if (change.status === "FINISHED" || change.status === "ABANDONED") return finish(null);
        if (!change.legalActions.length || change.version <= actedOn) return;
        busy = true;
        actedOn = change.version;
        try {
          await this.act(gameId, await choose(change), { expectedVersion: change.version });
        } catch (failure) {
          const code = failure instanceof ApiError ? failure.code : null;
          if (code !== "CONFLICT" && code !== "NOT_YOUR_TURN" && code !== "GAME_NOT_ACTIVE") {
            busy = false;
            return finish(failure instanceof ApiError ? failure : new ApiError(String(failure), "UNKNOWN"));
          }
        }
        busy = false;
        void step(); // a change that came while acting
      };
      const stop = this.gameChanged(
        gameId,
        (change) => {
          latest = change;
          if (options.onChange) options.onChange(change);
          void step();
        },
        { error: (error) => finish(error), ...(options.reconnecting ? { reconnecting: options.reconnecting } : {}) },
      );
    });
  }

  // ---- replay ------------------------------------------------------------------------------

  /** Every event of a game with the state right after it (as the caller may see them). */
  async replay(gameId: string, pageSize = 100): Promise<Array<{ event: EventHead; state: JSONValue }>> {
    const steps: Array<{ event: EventHead; state: JSONValue }> = [];
    let after = 0;
    for (;;) {
      const data = await this.helper(DOCUMENTS.replay, { id: gameId, after, first: pageSize });
      if (!data.game) throw new ApiError("No such game.", "NOT_FOUND");
      const page = data.game.replay;
      steps.push(...page);
      const lastStep = page[page.length - 1];
      if (page.length < pageSize || !lastStep) return steps;
      after = lastStep.event.version;
    }
  }

  /** A finished game as one JSON document (`papyrus verify FILE` checks it offline). */
  async exportGame(gameId: string): Promise<JSONValue> {
    return (await this.helper(DOCUMENTS.exportGame, { gameId })).exportGame;
  }
}

/** One websocket for every subscription of a client, reopened (with back-off) when it drops. */
class Socket {
  ws: WebSocketLike | null = null;
  private acked = false;
  private next = 1;
  private readonly active = new Map<string, Active>();
  private retry: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly client: PapyrusClient;
  private readonly retryMs: { first: number; max: number };

  constructor(client: PapyrusClient, retryMs: { first: number; max: number }) {
    this.client = client;
    this.retryMs = retryMs;
    this.retry = retryMs.first;
  }

  open(): void {
    if (this.ws || !this.active.size) return;
    const Implementation = this.client.webSocketClass();
    const ws = new Implementation(this.client.websocketUrl(), "graphql-transport-ws");
    this.ws = ws;
    this.acked = false;
    ws.onopen = () => {
      const bearer = this.client.token;
      ws.send(JSON.stringify({ type: "connection_init", payload: bearer ? { authorization: `Bearer ${bearer}` } : {} }));
    };
    ws.onmessage = (message) => this.receive(ws, message);
    ws.onclose = (event) => this.closed(ws, event);
    ws.onerror = () => {}; // a close follows
  }

  send(message: Record<string, unknown>): void {
    if (this.ws && this.acked && this.ws.readyState === OPEN) this.ws.send(JSON.stringify(message));
  }

  start(id: string): void {
    const sub = this.active.get(id);
    if (!sub) return;
    const ws = this.ws;
    void this.client.documentId(sub.query).then((named) => {
      // the id is computed asynchronously: the subscription may have ended, or the socket been
      // replaced (the new one starts every subscription again), in the meantime
      if (this.active.get(id) !== sub || this.ws !== ws) return;
      const variables = typeof sub.variables === "function" ? (sub.variables as () => unknown)() : sub.variables;
      sub.byId = Boolean(named);
      const payload = named ? { documentId: named, variables } : { query: sub.query, variables };
      this.send({ id, type: "subscribe", payload });
    });
  }

  receive(ws: WebSocketLike, message: { data: unknown }): void {
    if (ws !== this.ws) return;
    let data: { id?: string; type?: string; payload?: unknown };
    try {
      data = JSON.parse(typeof message.data === "string" ? message.data : String(message.data));
    } catch {
      return;
    }
    const id = data.id ?? "";
    const sub = this.active.get(id);
    switch (data.type) {
      case "connection_ack":
        this.acked = true;
        this.retry = this.retryMs.first;
        for (const key of this.active.keys()) this.start(key);
        break;
      case "ping":
        ws.send(JSON.stringify({ type: "pong" }));
        break;
      case "next": {
        if (!sub) break;
        const payload = (data.payload || {}) as { data?: unknown; errors?: GraphQLError[] };
        const first = payload.errors && payload.errors[0];
        if (first) {
          if (sub.handlers.error) sub.handlers.error(apiError(first));
        } else {
          sub.handlers.next(payload.data);
        }
        break;
      }
      case "error": {
        if (!sub) break;
        const errors = data.payload as GraphQLError[] | undefined;
        const first = (errors && errors[0]) || { message: "The subscription failed." };
        const error = apiError(first);
        if (error.code === "UNKNOWN_DOCUMENT" && sub.byId) {
          // a server that does not trust the document: subscribe again (the same operation id:
          // the server did not start it), with the text now and from now on
          this.client.untrusted(sub.query);
          this.start(id);
          break;
        }
        this.active.delete(id);
        if (sub.handlers.error) sub.handlers.error(error);
        break;
      }
      case "complete":
        if (sub) {
          this.active.delete(id);
          if (sub.handlers.complete) sub.handlers.complete();
        }
        break;
      default:
        break;
    }
  }

  closed(ws: WebSocketLike, event: { code: number; reason: string }): void {
    if (ws !== this.ws) return;
    this.ws = null;
    this.acked = false;
    if (!this.active.size) return;
    if (event.code === 4403 || event.code === 4401) {
      // the server refused who we are: tell every subscriber, do not hammer it
      const subs = [...this.active.values()];
      this.active.clear();
      for (const sub of subs) {
        if (sub.handlers.error) sub.handlers.error(new ApiError(event.reason || "The websocket was refused.", "UNAUTHENTICATED"));
      }
      return;
    }
    for (const sub of this.active.values()) {
      if (sub.handlers.reconnecting) sub.handlers.reconnecting();
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), this.retry);
    this.retry = Math.min(this.retry * 2, this.retryMs.max);
  }

  add(sub: Active): string {
    const id = String(this.next++);
    this.active.set(id, sub);
    if (this.ws && this.acked) this.start(id);
    else this.open();
    return id;
  }

  remove(id: string): void {
    if (!this.active.has(id)) return;
    this.active.delete(id);
    this.send({ id, type: "complete" });
    if (!this.active.size && this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
  }

  restart(): void {
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
    if (this.active.size) this.open();
  }

  closeAll(): void {
    clearTimeout(this.timer);
    this.active.clear();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
  }
}
