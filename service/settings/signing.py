"""The settings of the keys that sign finished games' records (``service.app.signing``): the
active private key from a file or from the environment, and the retired keys still published.

``Settings`` inherits them; they are declared, read and listed in ``--help`` like the others.
Without a key, the embedded SQLite default generates one on first start, next to the database
file (``service.app.keyfiles``); a PostgreSQL server without one signs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.settings.reading import KEYS, SERVE, are_words, setting, text, words

COMMANDS = (SERVE, KEYS)


def readable(load: Callable[[str], Any]) -> Callable[[str], None]:
    """A check that the file (or text) holds a key ``load`` reads ("" : none)."""

    def check(value: str) -> None:
        if value:
            load(value)

    return check


def check_private_file(path: str) -> None:
    from service.app.keyfiles import private_key_file

    readable(private_key_file)(path)


def check_private_text(value: str) -> None:
    from service.app.keyfiles import private_key

    try:
        readable(private_key)(value)
    except ValueError as problem:  # never shows the value: it is a secret
        raise ValueError(f"not a signing key: {problem}") from None


def check_public_files(paths: tuple[str, ...]) -> None:
    from service.app.keyfiles import public_key_file

    are_words(paths)
    for path in paths:
        public_key_file(path)


def secret(raw: str) -> str:
    """The key's text as given (a PEM keeps its lines)."""
    return raw.strip()


@dataclass(frozen=True, kw_only=True)
class SigningSettings:
    signing_key_file: str = setting(
        "",
        env="PAPYRUS_SIGNING_KEY_FILE",
        flag="--signing-key",
        help="the Ed25519 private key that signs finished games' records (exports carry the "
        "signature, GET /api/v1/keys publishes the public key): a PKCS#8 PEM file "
        "(openssl genpkey -algorithm ed25519, or papyrus keys --generate FILE); unset: "
        "PAPYRUS_SIGNING_KEY, else on SQLite a key generated on first start next to the "
        "database file (<database>.signing-key.pem, mode 0600), else nothing is signed",
        parse=text,
        check=check_private_file,
        commands=COMMANDS,
        shown="unset",
        metavar="FILE",
    )
    signing_key: str = setting(
        "",
        env="PAPYRUS_SIGNING_KEY",
        flag="--signing-key-text",
        help="the signing key itself, PEM or the base64 of its 32-byte seed, when there is no "
        "--signing-key file (give it in the variable: a command line is visible to every "
        "user of the machine)",
        parse=secret,
        check=check_private_text,
        commands=COMMANDS,
        shown="unset",
        metavar="KEY",
    )
    retired_keys: tuple[str, ...] = setting(
        (),
        env="PAPYRUS_RETIRED_KEYS",
        flag="--retired-keys",
        help="comma-separated files of older signing keys (private or public, PEM or base64): "
        "published as retired, so that the records they signed still verify after a rotation",
        parse=words,
        check=check_public_files,
        commands=COMMANDS,
        shown="none",
        metavar="FILES",
    )
