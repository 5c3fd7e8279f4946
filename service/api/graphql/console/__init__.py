"""GraphiQL served by Papyrus itself: no CDN, so it works offline (docs/API.md "Transport").

The browser files of pinned npm packages (React, ReactDOM, GraphiQL, whose UMD build bundles the
``graphql-ws`` client) are committed under ``static/`` beside each package's LICENSE; they come
from ``package.json`` / ``package-lock.json`` here through ``scripts/graphiql_assets.sh``. Running
the server needs neither npm nor the internet.

``page(assets, own)`` is the HTML of the console, loading those files from ``assets`` (the URL
path the files are served under) and its own start script and stylesheet (``page/``, kept apart
from the npm files, which the script replaces) from ``own``: no inline script or style, for the
page's Content-Security-Policy (``service.api.security_headers``). Queries and mutations go
over HTTP POST to ``/graphql``; subscriptions go over the websocket (``graphql-transport-ws``
on ``/graphql``), with the Headers pane sent as the ``connection_init`` payload.
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path

from graphql import GraphQLError, OperationType, get_operation_ast, parse

from domain import registry
from service.api.graphql.actioninput import GENERATION

STATIC = Path(__file__).parent / "static"
#: the page's own files (its start script and stylesheet), apart from the pinned npm files
PAGE_FILES = Path(__file__).parent / "page"

# past this many tokens the check gives up and leaves the document to the schema's own limits
SUBSCRIPTION_CHECK_TOKENS = 20_000

# the files the page loads, relative to the assets folder
SCRIPTS = (
    "react/react.production.min.js",
    "react-dom/react-dom.production.min.js",
    "graphiql/graphiql.min.js",
)
STYLES = ("graphiql/graphiql.min.css",)

_EXAMPLES = """\
# Papyrus: a first game, step by step.
# Run one operation at a time: the play button
# (or Ctrl-Enter) asks which one.
#
# 1. RegisterPlayer, and copy the token it returns
#    (it is shown only once).
# 2. Put the token in the Headers pane (below):
#      {"Authorization": "Bearer <token>"}
#    Every later operation runs as that player; the
#    subscription too (the Headers pane is sent when
#    its websocket opens).
# 3. CreateGame; put the id it returns in the
#    Variables pane as "gameId".
# 4. JoinGame takes a seat, AddBot seats a bot: the
#    game starts when every seat is taken.
# 5. Game lists your seat's moves when activeSeats
#    holds mySeat (run it again until it does: the bot
#    plays right after each of your moves). Copy a
#    move's action into the Variables pane as "action"
#    and run Act; or copy a move's typedAction as
#    "typedAction" and run ActTyped: the same action
#    typed (e.g. {"@TYPED@": true},
#    @TYPED_LABEL@).
#    Run GameEvents in a second tab (+) to watch every
#    event arrive live.
# 6. Replay: the state right after event "version"
#    (@START@: the game's start; the events before it
#    seat the players at the empty table).

mutation RegisterPlayer($name: String!) {
  registerPlayer(name: $name) {
    player { id name }
    token
  }
}

mutation CreateGame {
  createGame(input: {kind: @KIND@, seats: @SEATS@}) {
    id
    status
    seats { seat isBot player { name } }
  }
}

mutation JoinGame($gameId: ID!) {
  joinGame(gameId: $gameId) {
    id
    status
    mySeat
  }
}

mutation AddBot($gameId: ID!) {
  addBot(gameId: $gameId) {
    id
    status
    seats { seat isBot player { name } }
  }
}

query Game($gameId: ID!) {
  game(id: $gameId) {
    status
    version
    mySeat
    activeSeats
    moves { label action typedAction }
  }
}

mutation Act($gameId: ID!, $action: JSON!) {
  act(gameId: $gameId, action: $action) {
    game { version status activeSeats }
    events { version seat type data }
  }
}

# the same action typed: one member of ActionInput per game
# kind and action, its parameters as enums and numbers
# (actionCatalog(kind: @KIND@) lists them, with labels)
mutation ActTyped($gameId: ID!, $typedAction: ActionInput!) {
  act(gameId: $gameId, typedAction: $typedAction) {
    game { version status activeSeats }
    events { version seat type data }
  }
}

# runs over the websocket (graphql-transport-ws on /graphql), never over HTTP POST
subscription GameEvents($gameId: ID!) {
  gameEvents(gameId: $gameId, afterVersion: 0) {
    version
    seat
    type
    data
  }
}

query Replay($gameId: ID!, $version: Int!) {
  game(id: $gameId) {
    version
    stateAt(version: $version)
  }
}
"""



def _examples() -> str:
    """The walk-through, on the first registered game: its kind, its fewest seats, and an
    action of it that takes no parameter for the typed example."""
    game = registry.games()[0]
    members = [member for member in GENERATION.members if member.kind == game.kind]
    typed = next(member for member in members if not member.spec.params)
    text = _EXAMPLES
    for token, value in (
        ("@KIND@", game.kind.upper()),
        ("@SEATS@", str(game.rules.min_seats)),
        ("@GAME@", game.name),
        ("@TYPED@", typed.graphql),
        ("@TYPED_LABEL@", typed.spec.label[:1].lower() + typed.spec.label[1:]),
        ("@START@", str(start_version(game.rules.min_seats))),
    ):
        text = text.replace(token, value)
    return text


def start_version(seats: int) -> int:
    """The version of a table's ``game_started`` (``domain.table``): its creation, then one
    ``seat_taken`` per seat; the state right after it is the game's first."""
    return 1 + seats + 1


EXAMPLES = _examples()

VARIABLES = """\
{
  "name": "alice",
  "gameId": "the id createGame returned",
  "action": {"type": "copy a move's action here"},
  "typedAction": {"copyAMovesTypedActionHere": true},
  "version": @START@
}
""".replace("@START@", str(start_version(registry.games()[0].rules.min_seats)))

PAGE = """\
<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Papyrus GraphiQL</title>
    <link rel="icon" href="data:,">
{styles}
{scripts}
  </head>
  <body>
    <div id="graphiql" class="graphiql-container">Loading GraphiQL…</div>
    <script type="application/json" id="papyrus-console">{settings}</script>
    <script src="{own}/console.js"></script>
  </body>
</html>
"""


def _script_json_value(value: object) -> str:
    """JSON safe inside a <script> element (no "</script>" can end it early)."""
    return json.dumps(value).replace("<", "\\u003c")


def page(assets: str, own: str) -> str:
    """The console's HTML, loading the pinned files from the URL path ``assets`` and its own
    (``PAGE_FILES``: the start script and stylesheet) from ``own``. No inline script or style:
    the examples travel in a JSON data block, which the page's Content-Security-Policy lets
    through because it never runs."""
    base = html.escape(assets.rstrip("/"), quote=True)
    mine = html.escape(own.rstrip("/"), quote=True)
    stylesheets = [f"{base}/{name}" for name in STYLES] + [f"{mine}/console.css"]
    styles = "\n".join(f'    <link rel="stylesheet" href="{href}">' for href in stylesheets)
    scripts = "\n".join(f'    <script src="{base}/{name}"></script>' for name in SCRIPTS)
    settings = _script_json_value({"examples": EXAMPLES, "variables": VARIABLES})
    return PAGE.format(styles=styles, scripts=scripts, settings=settings, own=mine)


SUBSCRIPTION_OVER_HTTP = (
    "Subscriptions run over the websocket, not over HTTP: open a websocket to /graphql with "
    "the graphql-transport-ws protocol (GraphiQL does this for you)."
)


def subscription_over_http(query: object, operation_name: object) -> str | None:
    """The refusal for a document whose chosen operation is a subscription, else None.

    Documents that do not parse, or name no operation we can find, are left to the schema,
    which answers them with its own BAD_INPUT message. The answer depends on the text and the
    name only: clients send the same few documents over and over, each is parsed here once
    (``SUBSCRIPTION_CHECKS`` answers remembered, for documents of at most ``REMEMBERED_TEXT``
    characters: a client sending ever new long documents cannot fill the memory).
    """
    if not isinstance(query, str):
        return None
    name = operation_name if isinstance(operation_name, str) else None
    if len(query) > REMEMBERED_TEXT:
        return _subscription_check.__wrapped__(query, name)
    return _subscription_check(query, name)


#: how many (document, operation name) answers of ``subscription_over_http`` are remembered
SUBSCRIPTION_CHECKS = 512
#: the longest document whose answer is remembered (an action path document is ~150)
REMEMBERED_TEXT = 4_000


@functools.lru_cache(maxsize=SUBSCRIPTION_CHECKS)
def _subscription_check(query: str, name: str | None) -> str | None:
    try:
        document = parse(query, max_tokens=SUBSCRIPTION_CHECK_TOKENS)
    except GraphQLError:
        return None
    operation = get_operation_ast(document, name)
    if operation is not None and operation.operation == OperationType.SUBSCRIPTION:
        return SUBSCRIPTION_OVER_HTTP
    return None
