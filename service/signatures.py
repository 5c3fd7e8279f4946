"""The signing keys on the command line (``service.cli``): ``papyrus keys`` prints the server's
public keys (as ``GET /api/v1/keys`` answers) or generates a new key file, and ``papyrus
verify`` takes the keys an export's signature is checked against (``--keys FILE``, ``--key``,
``--keys-url URL``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.app.signing import Keyring, PublicKey, keys_from_published
from service.settings.reading import KEYS

if TYPE_CHECKING:
    from service.settings import Settings


def add_keys_command(commands: Any) -> argparse.ArgumentParser:
    """``papyrus keys``: its parser, with the settings it takes."""
    from service.settings import Settings

    keys = commands.add_parser(
        "keys",
        help="print the public keys that sign exported games, or generate a new key file",
        description="Print the server's signing keys as GET /api/v1/keys answers them (the "
        "same settings as papyrus serve: --signing-key, PAPYRUS_SIGNING_KEY, --retired-keys, "
        "--database-url for the key generated next to a SQLite database), or with --generate "
        "FILE write a new private key (mode 0600) to rotate to.",
    )
    keys.add_argument(
        "--generate",
        metavar="FILE",
        help="write a new Ed25519 private key (PKCS#8 PEM, mode 0600) to FILE, which must not "
        "exist, and print its id and public key",
    )
    Settings.add_arguments(keys, KEYS)
    return keys


def add_verify_options(check: argparse.ArgumentParser) -> None:
    """The keys ``papyrus verify`` checks a signature against (none: it is not checked)."""
    check.add_argument(
        "--keys",
        metavar="FILE",
        dest="keys_file",
        help="a file holding what GET /api/v1/keys answers (papyrus keys prints it)",
    )
    check.add_argument(
        "--key",
        action="append",
        metavar="KEY",
        help="a public key: its base64 (publicKey in GET /api/v1/keys) or a PEM file; repeat "
        "for several",
    )
    check.add_argument(
        "--keys-url", metavar="URL", help="fetch the keys from a server: .../api/v1/keys"
    )


def given_keys(args: argparse.Namespace) -> dict[str, PublicKey] | None:
    """The keys the options name (None: no key option given); ValueError says what is wrong."""
    from service.app.keyfiles import public_key, public_key_file

    if args.keys_file is None and not args.key and args.keys_url is None:
        return None
    keys: dict[str, PublicKey] = {}
    if args.keys_file is not None:
        keys.update(keys_from_published(read_json(args.keys_file)))
    for given in args.key or ():
        raw = public_key_file(given) if Path(given).is_file() else public_key(given)
        key = PublicKey.of(raw, "given")
        keys[key.key_id] = key
    if args.keys_url is not None:
        keys.update(keys_from_published(fetch_json(args.keys_url)))
    return keys


def read_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as unreadable:
        raise ValueError(f"{path}: cannot be read ({unreadable.strerror or unreadable})") from None
    except ValueError:
        raise ValueError(f"{path}: is not JSON") from None


def fetch_json(url: str) -> Any:
    import urllib.error
    import urllib.request

    if not url.startswith(("http://", "https://")):
        raise ValueError(f"{url}: not an http:// or https:// URL")
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # http(s) only: checked above
            return json.loads(answer.read(1 << 20))
    except (urllib.error.URLError, OSError) as failure:
        raise ValueError(f"{url}: cannot be fetched ({failure})") from None
    except ValueError:
        raise ValueError(f"{url}: did not answer JSON") from None


def keys_or_exit(args: argparse.Namespace | None) -> dict[str, PublicKey] | None:
    """``given_keys``; keys that cannot be read are a usage error (exit status 2)."""
    try:
        return given_keys(args) if args is not None else None
    except ValueError as problem:
        print(f"error: no keys to check the signature with: {problem}", file=sys.stderr)
        raise SystemExit(2) from None


def server_keyring(settings: Settings, generate: bool = True) -> Keyring:
    """The keys that sign finished games (``service.app.keyfiles``): the configured key, else
    on a SQLite file the one kept next to it (generated on first start when ``generate``)."""
    from service.app.keyfiles import keyring

    database = settings.database
    return keyring(
        settings.signing_key_file,
        settings.signing_key,
        settings.retired_keys,
        None if database.is_postgres else database.sqlite_path,
        generate=generate,
    )


def print_keys(
    args: argparse.Namespace, parser: argparse.ArgumentParser, environ: Mapping[str, str] | None
) -> int:
    """``papyrus keys``: the published keys (the settings from ``args``, else ``environ``), or
    ``--generate FILE``."""
    from service.app import keyfiles
    from service.settings import Settings

    if args.generate:
        path = Path(args.generate)
        if path.exists():
            print(f"error: {path} exists; give a new file", file=sys.stderr)
            return 2
        key = keyfiles.write_new(path)
        published = Keyring(key).published()["keys"][0]
        print(json.dumps({**published, "file": str(path)}, indent=2))
        return 0
    settings = Settings.from_arguments(args, parser, KEYS, environ)
    try:
        keys = server_keyring(settings, generate=False)
    except ValueError as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    print(json.dumps(keys.published(), indent=2))
    return 0
