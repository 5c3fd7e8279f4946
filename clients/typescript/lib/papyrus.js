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
/** A failure of the API, with its stable code (docs/API.md "Errors"). */
export class ApiError extends Error {
    code;
    requestId;
    /** For ILLEGAL_ACTION: the rule the action broke. */
    rule;
    /** For RATE_LIMITED: the seconds to wait. */
    retryAfter;
    constructor(message, code, requestId, extensions = {}) {
        super(message);
        this.name = "ApiError";
        this.code = (code || "UNKNOWN");
        this.requestId = requestId || null;
        this.rule = typeof extensions.rule === "string" ? extensions.rule : null;
        this.retryAfter = typeof extensions.retryAfter === "number" ? extensions.retryAfter : null;
    }
}
/** `text` as a typed document (the text is unchanged: only the compiler sees the types). */
export function typed(text) {
    return text;
}
const OPEN = 1; // WebSocket.OPEN, the same in every implementation
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
function apiError(first, requestId = null) {
    const extensions = first.extensions || {};
    return new ApiError(first.message, extensions.code, requestId || extensions.requestId, extensions);
}
/** The documents of the helpers (each also usable with gql/subscribe). */
export const DOCUMENTS = {
    register: typed("mutation Register($name: String!) { registerPlayer(name: $name) { token player { id name } } }"),
    me: typed("query Me { me { id name } }"),
    createGame: typed(`mutation CreateGame($input: CreateGameInput!) { createGame(input: $input) { ...Head } }`),
    joinGame: typed("mutation JoinGame($gameId: ID!, $seat: Int) { joinGame(gameId: $gameId, seat: $seat) { ...Head } }"),
    addBot: typed("mutation AddBot($gameId: ID!, $seat: Int, $strategy: String) { addBot(gameId: $gameId, seat: $seat, strategy: $strategy) { ...Head } }"),
    game: typed("query Game($id: ID!, $minVersion: Int) { game(id: $id, minVersion: $minVersion) { ...Head moves { type label action typedAction } } }"),
    lobby: typed("query Games($kind: GameKind, $status: GameStatus, $first: Int, $after: String) { games(kind: $kind, status: $status, first: $first, after: $after) { edges { node { ...Head } } pageInfo { hasNextPage endCursor } } }"),
    act: typed("mutation Act($gameId: ID!, $action: JSON, $typedAction: ActionInput, $expectedVersion: Int, $idempotencyKey: String) { act(gameId: $gameId, action: $action, typedAction: $typedAction, expectedVersion: $expectedVersion, idempotencyKey: $idempotencyKey) { game { ...Head } events { ...Event } } }"),
    gameChanged: typed("subscription GameChanged($gameId: ID!, $afterVersion: Int) { gameChanged(gameId: $gameId, afterVersion: $afterVersion) { version status activeSeats state legalActions event { ...Event } } }"),
    lobbyChanged: typed("subscription LobbyChanged($kind: GameKind) { lobbyChanged(kind: $kind) { gameId kind status } }"),
    replay: typed("query Replay($id: ID!, $after: Int!, $first: Int) { game(id: $id) { replay(after: $after, first: $first) { event { ...Event } state } } }"),
    exportGame: typed("query Export($gameId: ID!) { exportGame(gameId: $gameId) }"),
};
const FRAGMENTS = {
    Head: "fragment Head on Game { id kind status version mySeat activeSeats legalActions state result { scores winners } seats { seat isBot player { id name } } }",
    Event: "fragment Event on GameEvent { version seat type data undone }",
};
// a helper's document with the fragments it spreads appended (the text sent, hashed once)
const complete = new Map();
function withFragments(text) {
    let full = complete.get(text);
    if (full === undefined) {
        full = text;
        for (const [name, fragment] of Object.entries(FRAGMENTS)) {
            if (text.includes(`...${name}`))
                full += ` ${fragment}`;
        }
        complete.set(text, full);
    }
    return full;
}
/** Every document this SDK sends, as it sends it (its fragments appended): the texts a
 * server trusts by their ids (the server's trusted-documents manifest is made from these). */
export function sentDocuments() {
    return Object.fromEntries(Object.entries(DOCUMENTS).map(([name, text]) => [name, withFragments(text)]));
}
/** A client of one Papyrus server, for one player (or a spectator without a token). */
export class PapyrusClient {
    base;
    options;
    ownToken;
    ids = new Map(); // text -> its id (null: text)
    asText = new Set(); // texts the server does not trust
    socket;
    constructor(options = {}) {
        this.options = options;
        this.base = (options.url || "").replace(/\/+$/, "");
        this.ownToken = typeof options.token === "string" ? options.token : null;
        this.socket = new Socket(this, options.retryMs || { first: 500, max: 10000 });
    }
    /** The bearer token sent, or null (a spectator). */
    get token() {
        const given = this.options.token;
        return typeof given === "function" ? given() : this.ownToken;
    }
    /** Use `token` from now on (null: a spectator); the websocket is opened again with it. */
    setToken(token) {
        if (typeof this.options.token !== "function")
            this.ownToken = token;
        this.socket.restart();
    }
    /** The websocket URL of /graphql. */
    websocketUrl() {
        if (this.options.websocketUrl)
            return this.options.websocketUrl;
        if (this.base)
            return `${this.base.replace(/^http/, "ws")}/graphql`;
        const place = globalThis.location;
        if (!place)
            throw new Error("PapyrusClient needs a url outside a browser page");
        return `${place.protocol === "https:" ? "wss" : "ws"}://${place.host}/graphql`;
    }
    /** The WebSocket implementation: the option's, or the runtime's own. */
    webSocketClass() {
        const chosen = this.options.WebSocket || globalThis.WebSocket;
        if (!chosen)
            throw new Error("no WebSocket here: pass one as the WebSocket option (e.g. the ws package)");
        return chosen;
    }
    /** The id of `text` ("sha256:<hex>"), or null where it is to be sent as text. */
    documentId(text) {
        const subtle = globalThis.crypto?.subtle;
        if (this.options.documentIds === false || this.asText.has(text) || !subtle)
            return Promise.resolve(null);
        let id = this.ids.get(text);
        if (id === undefined) {
            id = subtle.digest("SHA-256", new TextEncoder().encode(text)).then((hash) => `sha256:${hex(hash)}`, () => null);
            this.ids.set(text, id);
        }
        return id;
    }
    /** The server does not trust `text`: send it as text from now on. */
    untrusted(text) {
        this.asText.add(text);
    }
    /** One GraphQL query or mutation over HTTP: its data, or an ApiError. */
    async gql(document, variables) {
        const query = document;
        const named = await this.documentId(query);
        if (!named)
            return (await this.post({ query, variables: variables || {} }));
        try {
            return (await this.post({ documentId: named, variables: variables || {} }));
        }
        catch (failure) {
            if (!(failure instanceof ApiError) || failure.code !== "UNKNOWN_DOCUMENT")
                throw failure;
            this.untrusted(query); // a server that does not trust it: the text, now and from now on
            return (await this.post({ query, variables: variables || {} }));
        }
    }
    async post(operation) {
        const headers = { "Content-Type": "application/json", Accept: "application/json" };
        const bearer = this.token;
        if (bearer)
            headers.Authorization = `Bearer ${bearer}`;
        const fetcher = this.options.fetch || globalThis.fetch;
        let response;
        try {
            response = await fetcher(`${this.base}/graphql`, { method: "POST", headers, body: JSON.stringify(operation) });
        }
        catch (failure) {
            throw new ApiError(`The server cannot be reached (${failure.message}).`, "NETWORK");
        }
        const requestId = response.headers.get("X-Request-Id");
        let body;
        try {
            body = await response.json();
        }
        catch {
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
    subscribe(document, variables, handlers) {
        const id = this.socket.add({ query: document, variables, handlers: handlers });
        return () => this.socket.remove(id);
    }
    // A helper's document, with the fragments it spreads, as gql and subscribe send it.
    helper(text, variables) {
        const document = withFragments(text);
        return this.gql(document, variables);
    }
    listen(text, variables, handlers) {
        const document = withFragments(text);
        return this.subscribe(document, variables, handlers);
    }
    /** Close the websocket (subscriptions end); the client can still be used. */
    close() {
        this.socket.closeAll();
    }
    /** @internal the socket in use, for tests that drop it */
    get currentSocket() {
        return this.socket.ws;
    }
    // ---- lobby -------------------------------------------------------------------------------
    /** Register a player; its token is used from then on. */
    async register(name) {
        const data = await this.helper(DOCUMENTS.register, { name });
        this.setToken(data.registerPlayer.token);
        return data.registerPlayer;
    }
    async me() {
        return (await this.helper(DOCUMENTS.me)).me;
    }
    async createGame(input) {
        return (await this.helper(DOCUMENTS.createGame, { input })).createGame;
    }
    async joinGame(gameId, seat) {
        return (await this.helper(DOCUMENTS.joinGame, { gameId, seat: seat ?? null })).joinGame;
    }
    async addBot(gameId, options = {}) {
        const variables = { gameId, seat: options.seat ?? null, strategy: options.strategy ?? null };
        return (await this.helper(DOCUMENTS.addBot, variables)).addBot;
    }
    /** One page of tables, newest first (`after`: the previous page's endCursor). */
    async lobby(filter = {}) {
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
    lobbyChanged(kind, next, error) {
        return this.listen(DOCUMENTS.lobbyChanged, { kind }, { next: (d) => next(d.lobbyChanged), ...(error ? { error } : {}) });
    }
    // ---- play --------------------------------------------------------------------------------
    /** The game as the caller may see it, with the caller's moves (null: no such game). */
    async game(id, minVersion) {
        return (await this.helper(DOCUMENTS.game, { id, minVersion: minVersion ?? null })).game;
    }
    /** One action for the caller's seat: `{action}` (JSON) or `{typedAction}` (ActionInput). */
    async act(gameId, choice, options = {}) {
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
    gameChanged(gameId, next, options = {}) {
        let last = options.afterVersion ?? 0;
        return this.listen(DOCUMENTS.gameChanged, () => ({ gameId, afterVersion: last }), {
            next: (data) => {
                if (data.gameChanged.version <= last)
                    return; // already delivered
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
    play(gameId, choose, options = {}) {
        return new Promise((resolve, reject) => {
            let latest = null;
            let actedOn = -1;
            let busy = false;
            let done = false;
            const finish = (failure) => {
                if (done)
                    return;
                done = true;
                stop();
                if (failure)
                    reject(failure);
                else
                    this.game(gameId).then((game) => (game ? resolve(game) : reject(new ApiError("The game is gone.", "NOT_FOUND"))), reject);
            };
            const step = async () => {
                if (busy || done || !latest)
                    return;
                const change = latest;
                if (change.status === "FINISHED" || change.status === "ABANDONED")
                    return finish(null);
                if (!change.legalActions.length || change.version <= actedOn)
                    return;
                busy = true;
                actedOn = change.version;
                try {
                    await this.act(gameId, await choose(change), { expectedVersion: change.version });
                }
                catch (failure) {
                    const code = failure instanceof ApiError ? failure.code : null;
                    if (code !== "CONFLICT" && code !== "NOT_YOUR_TURN" && code !== "GAME_NOT_ACTIVE") {
                        busy = false;
                        return finish(failure instanceof ApiError ? failure : new ApiError(String(failure), "UNKNOWN"));
                    }
                }
                busy = false;
                void step(); // a change that came while acting
            };
            const stop = this.gameChanged(gameId, (change) => {
                latest = change;
                if (options.onChange)
                    options.onChange(change);
                void step();
            }, { error: (error) => finish(error), ...(options.reconnecting ? { reconnecting: options.reconnecting } : {}) });
        });
    }
    // ---- replay ------------------------------------------------------------------------------
    /** Every event of a game with the state right after it (as the caller may see them). */
    async replay(gameId, pageSize = 100) {
        const steps = [];
        let after = 0;
        for (;;) {
            const data = await this.helper(DOCUMENTS.replay, { id: gameId, after, first: pageSize });
            if (!data.game)
                throw new ApiError("No such game.", "NOT_FOUND");
            const page = data.game.replay;
            steps.push(...page);
            const lastStep = page[page.length - 1];
            if (page.length < pageSize || !lastStep)
                return steps;
            after = lastStep.event.version;
        }
    }
    /** A finished game as one JSON document (`papyrus verify FILE` checks it offline). */
    async exportGame(gameId) {
        return (await this.helper(DOCUMENTS.exportGame, { gameId })).exportGame;
    }
}
/** One websocket for every subscription of a client, reopened (with back-off) when it drops. */
class Socket {
    ws = null;
    acked = false;
    next = 1;
    active = new Map();
    retry;
    timer;
    client;
    retryMs;
    constructor(client, retryMs) {
        this.client = client;
        this.retryMs = retryMs;
        this.retry = retryMs.first;
    }
    open() {
        if (this.ws || !this.active.size)
            return;
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
        ws.onerror = () => { }; // a close follows
    }
    send(message) {
        if (this.ws && this.acked && this.ws.readyState === OPEN)
            this.ws.send(JSON.stringify(message));
    }
    start(id) {
        const sub = this.active.get(id);
        if (!sub)
            return;
        const ws = this.ws;
        void this.client.documentId(sub.query).then((named) => {
            // the id is computed asynchronously: the subscription may have ended, or the socket been
            // replaced (the new one starts every subscription again), in the meantime
            if (this.active.get(id) !== sub || this.ws !== ws)
                return;
            const variables = typeof sub.variables === "function" ? sub.variables() : sub.variables;
            sub.byId = Boolean(named);
            const payload = named ? { documentId: named, variables } : { query: sub.query, variables };
            this.send({ id, type: "subscribe", payload });
        });
    }
    receive(ws, message) {
        if (ws !== this.ws)
            return;
        let data;
        try {
            data = JSON.parse(typeof message.data === "string" ? message.data : String(message.data));
        }
        catch {
            return;
        }
        const id = data.id ?? "";
        const sub = this.active.get(id);
        switch (data.type) {
            case "connection_ack":
                this.acked = true;
                this.retry = this.retryMs.first;
                for (const key of this.active.keys())
                    this.start(key);
                break;
            case "ping":
                ws.send(JSON.stringify({ type: "pong" }));
                break;
            case "next": {
                if (!sub)
                    break;
                const payload = (data.payload || {});
                const first = payload.errors && payload.errors[0];
                if (first) {
                    if (sub.handlers.error)
                        sub.handlers.error(apiError(first));
                }
                else {
                    sub.handlers.next(payload.data);
                }
                break;
            }
            case "error": {
                if (!sub)
                    break;
                const errors = data.payload;
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
                if (sub.handlers.error)
                    sub.handlers.error(error);
                break;
            }
            case "complete":
                if (sub) {
                    this.active.delete(id);
                    if (sub.handlers.complete)
                        sub.handlers.complete();
                }
                break;
            default:
                break;
        }
    }
    closed(ws, event) {
        if (ws !== this.ws)
            return;
        this.ws = null;
        this.acked = false;
        if (!this.active.size)
            return;
        if (event.code === 4403 || event.code === 4401) {
            // the server refused who we are: tell every subscriber, do not hammer it
            const subs = [...this.active.values()];
            this.active.clear();
            for (const sub of subs) {
                if (sub.handlers.error)
                    sub.handlers.error(new ApiError(event.reason || "The websocket was refused.", "UNAUTHENTICATED"));
            }
            return;
        }
        for (const sub of this.active.values()) {
            if (sub.handlers.reconnecting)
                sub.handlers.reconnecting();
        }
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.open(), this.retry);
        this.retry = Math.min(this.retry * 2, this.retryMs.max);
    }
    add(sub) {
        const id = String(this.next++);
        this.active.set(id, sub);
        if (this.ws && this.acked)
            this.start(id);
        else
            this.open();
        return id;
    }
    remove(id) {
        if (!this.active.has(id))
            return;
        this.active.delete(id);
        this.send({ id, type: "complete" });
        if (!this.active.size && this.ws) {
            const ws = this.ws;
            this.ws = null;
            ws.close(1000);
        }
    }
    restart() {
        if (this.ws) {
            const ws = this.ws;
            this.ws = null;
            ws.close(1000);
        }
        if (this.active.size)
            this.open();
    }
    closeAll() {
        clearTimeout(this.timer);
        this.active.clear();
        if (this.ws) {
            const ws = this.ws;
            this.ws = null;
            ws.close(1000);
        }
    }
}
