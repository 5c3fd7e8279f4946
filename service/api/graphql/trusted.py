"""Trusted documents (issue #22: "make the hot documents cheap"; docs/API.md "Trusted
documents"): the fixed set of GraphQL documents this server's own clients send, each known by
its id, ``"sha256:"`` and the hex SHA-256 of its UTF-8 text.

The web client and the Python SDK send the same few documents over and over. A client may name
one by its id (``documentId``) instead of sending its text (``query``): the HTTP view and the
websocket handlers look the text up here (``document``) and run it exactly as if it had been
sent, every limit and check included. Any other document still runs as text; an id this server
does not know is answered ``UNKNOWN_DOCUMENT``, and the clients then send the text. Because the
set is fixed and known ahead, work that depends only on a document's text can be done once per
trusted document (``is_trusted``: a set lookup, cheap enough for every request).

The set is the committed manifest ``trusted_documents.json`` (id -> text, sorted, stable
formatting), read once, when first asked. It is generated, never edited: ``python -m
service.api.graphql.trusted`` writes it from its sources, ``--check`` fails if it drifted
(``tests/service/transport/test_trusted_documents.py`` checks too). The sources:

* the web client: every document ``gql()`` and ``subscribe()`` are called with, byte for byte
  (``service.api.web.documents.sent``), a document holding the board's part once per board
  module the server ships;
* the Python SDK: ``DOCUMENTS`` of ``clients/python/papyrus_client.py`` (loaded by its path: it
  is a standalone file, not a package of the server);
* the TypeScript/JavaScript SDK: its documents as sent (``sentDocuments()``) of its compiled module
  ``clients/typescript/lib/papyrus.js`` (read by Node.js).

An operator may trust more (``--trusted-documents FILE``: another manifest of the same form, as
persisted-document tools write them for third-party clients): ``add``.

Only the generator reads the sources; the server reads the manifest alone. The web client's
reader belongs to the web package, which this layer does not import (tests/test_layers.py): the
generator imports it by name when it runs, as it loads the SDK's file.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

from domain import registry

#: the committed manifest: id -> text
MANIFEST = Path(__file__).with_name("trusted_documents.json")
#: the Python SDK, whose ``DOCUMENTS`` are trusted
SDK = Path(__file__).resolve().parents[3] / "clients" / "python" / "papyrus_client.py"
#: the TypeScript/JavaScript SDK's compiled module, whose ``DOCUMENTS`` are trusted
TYPESCRIPT_SDK = SDK.parents[1] / "typescript" / "lib" / "papyrus.js"
#: the command that writes the manifest (named in the drift messages)
COMMAND = "python -m service.api.graphql.trusted"


def document_id(text: str) -> str:
    """The id of a document: ``"sha256:"`` and the hex SHA-256 of its UTF-8 text."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def manifest() -> dict[str, str]:
    """The trusted documents by id, as the committed manifest holds them (read once)."""
    loaded = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return {str(key): str(text) for key, text in loaded.items()}


@cache
def texts() -> frozenset[str]:
    """The trusted documents' texts."""
    return frozenset(manifest().values())


#: the operator's own trusted documents (``--trusted-documents``), by id
added: dict[str, str] = {}
_added_texts: frozenset[str] = frozenset()


def add(path: str) -> int:
    """Trust the documents of the manifest at ``path`` too (``--trusted-documents``; its ids
    checked by the settings); how many there are."""
    global _added_texts
    loaded = json.loads(Path(path).read_text(encoding="utf-8"))
    for key, text in loaded.items():
        if key != document_id(text):  # pragma: no cover - the setting's check refuses it first
            raise ValueError(f"{path}: {key} is not the id of its document")
        added[key] = text
    _added_texts = frozenset(added.values())
    return len(loaded)


def document(document_id: str) -> str | None:
    """The trusted text of ``document_id``; ``None`` for an id this server does not know."""
    return manifest().get(document_id) or added.get(document_id)


def is_trusted(text: str) -> bool:
    """Whether ``text`` is, exactly, one of the trusted documents."""
    return text in texts() or text in _added_texts


# -- the generator ----------------------------------------------------------------------------


def web_documents() -> dict[str, str]:
    """What the web client sends (``service.api.web.documents.sent``), for every board module
    the server ships."""
    reader = importlib.import_module("service.api.web.documents")
    own = {game.kind: game.web_board for game in registry.games() if game.web_board}
    return dict(reader.sent(own))


def sdk_documents() -> dict[str, str]:
    """The Python SDK's ``DOCUMENTS``, its file loaded by path."""
    spec = importlib.util.spec_from_file_location("papyrus_client_documents", SDK)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(SDK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # where its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return dict(module.DOCUMENTS)


def typescript_documents() -> dict[str, str]:
    """The TypeScript/JavaScript SDK's documents as it sends them (``sentDocuments()`` of its
    compiled module, read by Node.js: the module imports nothing, so it runs as it is)."""
    script = (
        f"import({json.dumps(TYPESCRIPT_SDK.as_uri())})"
        ".then((m) => process.stdout.write(JSON.stringify(m.sentDocuments())))"
    )
    try:
        done = subprocess.run(
            ["node", "--input-type=module", "-e", script],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    except FileNotFoundError:
        raise SystemExit("Node.js reads the TypeScript SDK's documents: none found") from None
    return {str(k): str(v) for k, v in json.loads(done.stdout).items()}


def sources() -> dict[str, str]:
    """Every trusted document's text by where it comes from (``web:NAME``, ``sdk:NAME``,
    ``ts:NAME``)."""
    found = {f"web:{name}": text for name, text in web_documents().items()}
    found.update({f"sdk:{name}": text for name, text in sdk_documents().items()})
    found.update({f"ts:{name}": text for name, text in typescript_documents().items()})
    return found


def render(documents: dict[str, str]) -> str:
    """The manifest's text for these documents (by any name): id -> text, sorted by id."""
    by_id = {document_id(text): text for text in documents.values()}
    return json.dumps(by_id, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def generated() -> str:
    """The manifest as its sources make it today."""
    return render(sources())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND, description="Write the trusted documents' manifest from its sources."
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail if the manifest drifted"
    )
    args = parser.parse_args(argv)
    text = generated()
    if args.check:
        current = MANIFEST.read_text(encoding="utf-8") if MANIFEST.exists() else ""
        if current != text:
            print(f"{MANIFEST.name} is out of date: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    MANIFEST.write_text(text, encoding="utf-8")
    print(f"{MANIFEST}: {len(json.loads(text))} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
