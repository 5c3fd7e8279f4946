import type { ActionInput, ErrorCode, Game, GameChange, GameEvent, GameKind, GameStatus, GameSummary, JSONValue, Player } from "./schema.js";
export type * from "./schema.js";
/** Codes the client itself gives: the server could not be reached or answered no JSON. */
export type ClientErrorCode = "NETWORK" | "UNKNOWN";
/** A failure of the API, with its stable code (docs/API.md "Errors"). */
export declare class ApiError extends Error {
    readonly code: ErrorCode | ClientErrorCode;
    readonly requestId: string | null;
    /** For ILLEGAL_ACTION: the rule the action broke. */
    readonly rule: string | null;
    /** For RATE_LIMITED: the seconds to wait. */
    readonly retryAfter: number | null;
    constructor(message: string, code?: string | null, requestId?: string | null, extensions?: {
        rule?: unknown;
        retryAfter?: unknown;
    });
}
/**
 * A GraphQL document's text that carries the types of its answer and variables, so that
 * `gql(document, variables)` checks the variables and types the data.
 */
export type TypedDocument<TData, TVariables> = string & {
    readonly __papyrusDocument?: {
        data: TData;
        variables: TVariables;
    };
};
/** Variables of no operation: none. */
export type NoVariables = Record<string, never>;
/** `text` as a typed document (the text is unchanged: only the compiler sees the types). */
export declare function typed<TData, TVariables = NoVariables>(text: string): TypedDocument<TData, TVariables>;
type DataOf<D> = D extends TypedDocument<infer R, unknown> ? R : Record<string, unknown>;
type VariablesOf<D> = D extends TypedDocument<unknown, infer V> ? V : Record<string, unknown>;
/** What a WebSocket implementation must offer: the browser's, or `ws` from npm in Node. */
export interface WebSocketLike {
    readonly readyState: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    onopen: ((event: unknown) => void) | null;
    onmessage: ((event: {
        data: unknown;
    }) => void) | null;
    onclose: ((event: {
        code: number;
        reason: string;
    }) => void) | null;
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
    retryMs?: {
        first: number;
        max: number;
    };
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
/** The documents of the helpers (each also usable with gql/subscribe). */
export declare const DOCUMENTS: {
    register: TypedDocument<{
        registerPlayer: {
            token: string;
            player: Pick<Player, "id" | "name">;
        };
    }, {
        name: string;
    }>;
    me: TypedDocument<{
        me: Pick<Player, "id" | "name"> | null;
    }, NoVariables>;
    createGame: TypedDocument<{
        createGame: GameHead;
    }, {
        input: {
            kind: GameKind;
            seats: number;
            options?: JSONValue;
            seed?: string;
        };
    }>;
    joinGame: TypedDocument<{
        joinGame: GameHead;
    }, {
        gameId: string;
        seat?: number | null;
    }>;
    addBot: TypedDocument<{
        addBot: GameHead;
    }, {
        gameId: string;
        seat?: number | null;
        strategy?: string | null;
    }>;
    game: TypedDocument<{
        game: GameWithMoves | null;
    }, {
        id: string;
        minVersion?: number | null;
    }>;
    lobby: TypedDocument<{
        games: {
            edges: Array<{
                node: GameHead;
            }>;
            pageInfo: {
                hasNextPage: boolean;
                endCursor: string | null;
            };
        };
    }, {
        kind?: GameKind | null;
        status?: GameStatus | null;
        first?: number | null;
        after?: string | null;
    }>;
    act: TypedDocument<{
        act: {
            game: GameHead;
            events: Array<EventHead>;
        };
    }, {
        gameId: string;
        action?: JSONValue | null;
        typedAction?: ActionInput | null;
        expectedVersion?: number | null;
        idempotencyKey?: string | null;
    }>;
    gameChanged: TypedDocument<{
        gameChanged: Change;
    }, {
        gameId: string;
        afterVersion?: number | null;
    }>;
    lobbyChanged: TypedDocument<{
        lobbyChanged: Pick<GameSummary, "gameId" | "kind" | "status">;
    }, {
        kind?: GameKind | null;
    }>;
    replay: TypedDocument<{
        game: {
            replay: Array<{
                event: EventHead;
                state: JSONValue;
            }>;
        } | null;
    }, {
        id: string;
        after: number;
        first?: number | null;
    }>;
    exportGame: TypedDocument<{
        exportGame: JSONValue;
    }, {
        gameId: string;
    }>;
};
/** The fields of a game the helpers read. */
export type GameHead = Pick<Game, "id" | "kind" | "status" | "version" | "mySeat" | "activeSeats" | "legalActions" | "state" | "result"> & {
    seats: Array<{
        seat: number;
        isBot: boolean;
        player: Pick<Player, "id" | "name"> | null;
    }>;
};
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
export type GameWithMoves = GameHead & {
    moves: LegalMove[];
};
/** The fields of an event the helpers read. */
export type EventHead = Pick<GameEvent, "version" | "seat" | "type" | "data" | "undone">;
/** One change of a game, as gameChanged delivers it to the helpers. */
export type Change = Pick<GameChange, "version" | "status" | "activeSeats" | "state" | "legalActions"> & {
    event: EventHead;
};
/** Every document this SDK sends, as it sends it (its fragments appended): the texts a
 * server trusts by their ids (the server's trusted-documents manifest is made from these). */
export declare function sentDocuments(): Record<string, string>;
/** What `act` sends: a JSON action (one of legalActions) or a typed one (ActionInput). */
export type ActionChoice = {
    action: JSONValue;
} | {
    typedAction: ActionInput;
};
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
export declare class PapyrusClient {
    private readonly base;
    private readonly options;
    private ownToken;
    private readonly ids;
    private readonly asText;
    private readonly socket;
    constructor(options?: ClientOptions);
    /** The bearer token sent, or null (a spectator). */
    get token(): string | null;
    /** Use `token` from now on (null: a spectator); the websocket is opened again with it. */
    setToken(token: string | null): void;
    /** The websocket URL of /graphql. */
    websocketUrl(): string;
    /** The WebSocket implementation: the option's, or the runtime's own. */
    webSocketClass(): WebSocketConstructor;
    /** The id of `text` ("sha256:<hex>"), or null where it is to be sent as text. */
    documentId(text: string): Promise<string | null>;
    /** The server does not trust `text`: send it as text from now on. */
    untrusted(text: string): void;
    /** One GraphQL query or mutation over HTTP: its data, or an ApiError. */
    gql<D extends string>(document: D, variables?: VariablesOf<D>): Promise<DataOf<D>>;
    private post;
    /**
     * Start a subscription on the client's one websocket; `variables` may be a function, called
     * again whenever the subscription is started again (after a dropped socket). Returns the
     * function that ends it.
     */
    subscribe<D extends string>(document: D, variables: VariablesOf<D> | (() => VariablesOf<D>), handlers: SubscriptionHandlers<DataOf<D>>): () => void;
    private helper;
    private listen;
    /** Close the websocket (subscriptions end); the client can still be used. */
    close(): void;
    /** @internal the socket in use, for tests that drop it */
    get currentSocket(): WebSocketLike | null;
    /** Register a player; its token is used from then on. */
    register(name: string): Promise<{
        token: string;
        player: Pick<Player, "id" | "name">;
    }>;
    me(): Promise<Pick<Player, "id" | "name"> | null>;
    createGame(input: {
        kind: GameKind;
        seats: number;
        options?: JSONValue;
        seed?: string;
    }): Promise<GameHead>;
    joinGame(gameId: string, seat?: number): Promise<GameHead>;
    addBot(gameId: string, options?: {
        seat?: number;
        strategy?: string;
    }): Promise<GameHead>;
    /** One page of tables, newest first (`after`: the previous page's endCursor). */
    lobby(filter?: {
        kind?: GameKind;
        status?: GameStatus;
        first?: number;
        after?: string;
    }): Promise<{
        games: GameHead[];
        endCursor: string | null;
        hasNextPage: boolean;
    }>;
    /** Tables as they are created, seated, started, finished or abandoned. */
    lobbyChanged(kind: GameKind | null, next: (summary: Pick<GameSummary, "gameId" | "kind" | "status">) => void, error?: (error: ApiError) => void): () => void;
    /** The game as the caller may see it, with the caller's moves (null: no such game). */
    game(id: string, minVersion?: number): Promise<GameWithMoves | null>;
    /** One action for the caller's seat: `{action}` (JSON) or `{typedAction}` (ActionInput). */
    act(gameId: string, choice: ActionChoice, options?: ActOptions): Promise<{
        game: GameHead;
        events: EventHead[];
    }>;
    /**
     * Every change of a game after `afterVersion`, in order, each once: after a dropped socket
     * the subscription starts again after the last version delivered, so nothing is missed.
     */
    gameChanged(gameId: string, next: (change: Change) => void, options?: GameChangedOptions): () => void;
    /**
     * Play a game to its end on gameChanged, with no poll: whenever the caller must act, `choose`
     * returns one of the change's legalActions as `{action}`, or a `{typedAction}`; it is sent with the
     * change's version as expectedVersion (a CONFLICT or NOT_YOUR_TURN just waits for the next
     * change). Resolves with the game once it is FINISHED or ABANDONED.
     */
    play(gameId: string, choose: (change: Change) => ActionChoice | Promise<ActionChoice>, options?: {
        reconnecting?: () => void;
        onChange?: (change: Change) => void;
    }): Promise<GameWithMoves>;
    /** Every event of a game with the state right after it (as the caller may see them). */
    replay(gameId: string, pageSize?: number): Promise<Array<{
        event: EventHead;
        state: JSONValue;
    }>>;
    /** A finished game as one JSON document (`papyrus verify FILE` checks it offline). */
    exportGame(gameId: string): Promise<JSONValue>;
}
