"""Every GraphQL document the web client sends, byte for byte, read from its own files.

The client writes its documents once, as the exported template strings of
``static/queries.js``; a ``${NAME}`` inside one is that other export's text, as the browser
interpolates it. ``${VIEW}`` is the game's part of a document, its board module's: the client
fills it in for the game's board (``kinds.js`` ``withBoard``: the typed view through the
board's ``VIEW`` fragment, appended to the document, or the JSON ``state`` for a board without
one), so such a document is sent once per board module the server ships, as filled in for it.

Two readers need exactly those texts: ``tests/web/test_queries.py`` validates each against
``schema.graphql``, and the trusted documents (``service.api.graphql.trusted``) are keyed by
the SHA-256 of each text, so a text that differs by one byte from what ``gql()`` sends is of no
use. The files are read, not run: a document built at run time, or a literal with an escape or
an interpolation this module does not reproduce, is refused (``ClientSourceError``) rather than
read wrongly.

The board modules are the registry's (``domain.registry.GameModule.web_board``), which this
layer does not import: callers pass each game's own board module (``sent(own_boards)``); the
generic board (``GENERIC_BOARD``) is always among them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from service.api.web import GENERIC_BOARD, STATIC

#: an exported document of queries.js: its name and the text between the backticks
EXPORT = re.compile(r"export const (\w+) = `(.*?)`;", re.S)
PLACEHOLDER = re.compile(r"\$\{(\w+)\}")
#: the board's part of a document (queries.js ``VIEW``, the placeholder itself)
BOARD_PART = "${VIEW}"
BOARD_PART_EXPORT = 'export const VIEW = "${VIEW}";'
#: a board module's typed-view fragment ("" for none) and its name
BOARD_VIEW = re.compile(r"^export const VIEW = (`|\")(.*?)\1;", re.S | re.M)
BOARD_VIEW_NAME = re.compile(r'^export const VIEW_NAME = (?:"(\w+)"|null);', re.M)
#: what withBoard puts in place of ``${VIEW}`` (kinds.js holds the same two texts)
TYPED_PART = "view {{ __typename ...{name} }}"
STATE_PART = "view { __typename } state"
#: a document that holds an operation (the client's documents begin with it; one that begins
#: with a fragment is a part of others, never sent by itself)
OPERATION = re.compile(r"\s*(query|mutation|subscription)\b")


class ClientSourceError(Exception):
    """The client's files hold a document this module cannot read exactly as the browser does."""


def documents(source: str | None = None) -> dict[str, str]:
    """Each export of queries.js (``source``: its text) with its ``${...}`` interpolated
    (``${VIEW}`` kept), by export name."""
    if source is None:
        source = (STATIC / "queries.js").read_text(encoding="utf-8")
    raw = dict(EXPORT.findall(source))
    if not raw:
        raise ClientSourceError("queries.js exports no document")
    # nothing else in the file (comments and the placeholder aside): no document is built at
    # run time
    if source.count(BOARD_PART_EXPORT) != 1:
        raise ClientSourceError("queries.js must export VIEW once, as the placeholder itself")
    code = re.sub(r"^\s*//.*$", "", EXPORT.sub("", source), flags=re.M)
    if "`" in code or code.replace(BOARD_PART_EXPORT, "").strip():
        raise ClientSourceError("queries.js holds code besides its exported documents")
    for name, text in raw.items():
        if "\\" in text:  # an escape: the browser's text is not the file's
            raise ClientSourceError(f"queries.js {name}: no escapes in a document")

    def expand(name: str, seen: tuple[str, ...] = ()) -> str:
        if name in seen:
            raise ClientSourceError(f"queries.js {name} includes itself")
        if name not in raw:
            raise ClientSourceError(f"queries.js {seen[-1]} interpolates {name}, no document")

        def inner(match: re.Match[str]) -> str:
            if match.group(1) == "VIEW":
                return BOARD_PART
            return expand(match.group(1), (*seen, name))

        return PLACEHOLDER.sub(inner, raw[name])

    return {name: expand(name) for name in raw}


def boards(own_boards: Mapping[str, Path]) -> dict[str, tuple[str, str | None]]:
    """Every board module the server ships by name (each game's own, ``own_boards``: kind ->
    path, and the generic one as ``generic``): its ``VIEW`` fragment ("" for none) and
    ``VIEW_NAME``."""
    paths = {**own_boards, "generic": GENERIC_BOARD}
    found = {}
    for board, path in paths.items():
        source = path.read_text(encoding="utf-8")
        views = BOARD_VIEW.findall(source)
        names = BOARD_VIEW_NAME.findall(source)
        if len(views) != 1 or len(names) != 1:
            raise ClientSourceError(f"board {board}: one VIEW and one VIEW_NAME")
        view = views[0][1]
        if "\\" in view or "${" in view:  # the browser's text would not be the file's
            raise ClientSourceError(f"board {board}: no escape or interpolation in VIEW")
        found[board] = (view, names[0] or None)
    return found


def with_board(document: str, view: str, name: str | None) -> str:
    """``document`` as kinds.js ``withBoard`` fills it in for a board of ``view``/``name``."""
    if not view:
        return document.replace(BOARD_PART, STATE_PART)
    return document.replace(BOARD_PART, TYPED_PART.format(name=name)) + "\n" + view


def filled(own_boards: Mapping[str, Path]) -> dict[str, str]:
    """Each document as the client sends it: one holding the board's part once per board
    (``NAME@board``), the others once (``NAME``)."""
    shipped = boards(own_boards)
    out = {}
    for name, text in documents().items():
        if BOARD_PART not in text:
            out[name] = text
            continue
        for board, (view, view_name) in shipped.items():
            out[f"{name}@{board}"] = with_board(text, view, view_name)
    return out


def sent(own_boards: Mapping[str, Path]) -> dict[str, str]:
    """What ``gql()`` and ``subscribe()`` are called with: the filled documents that hold an
    operation (a fragment alone, such as ``GAME_FIELDS``, is only a part of others)."""
    return {name: text for name, text in filled(own_boards).items() if OPERATION.match(text)}
