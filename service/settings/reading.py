"""How one setting is declared, parsed and checked (the machinery behind ``Settings``)."""

from __future__ import annotations

import argparse
import hashlib
import ipaddress
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from service.store.database import check_url

#: the commands that take settings: ``serve`` takes them all, ``projections`` those it uses
SERVE = "serve"
PROJECTIONS = "projections"
BOTH = (SERVE, PROJECTIONS)
#: ``papyrus keys``: the signing keys' settings and the database (where the generated key lives)
KEYS = "keys"


# -- parsing and checking one value ----------------------------------------------------------
# a parser turns the text of an option or a variable into a value, a check refuses a value;
# both raise ValueError with what is wrong (a parser's message is followed by the text, a
# check's message names the value itself: a database URL is shown with its password masked)


def text(raw: str) -> str:
    return raw.strip()


def nonempty(value: str) -> None:
    if not value:
        raise ValueError("must not be empty")


def integer(raw: str) -> int:
    try:
        return int(raw.strip())
    except ValueError:
        raise ValueError("invalid integer value") from None


def between(low: int, high: int | None = None) -> Callable[[int], None]:
    def check(value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"not an integer: {value!r}")
        if value < low or (high is not None and value > high):
            span = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise ValueError(f"must be {span}, not {value}")

    return check


def seconds(raw: str) -> float:
    """A duration in seconds, fractions allowed (``1.5``)."""
    try:
        value = float(raw.strip())
    except ValueError:
        raise ValueError("invalid number of seconds") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("invalid number of seconds")
    return value


def at_least_seconds(low: float) -> Callable[[float], None]:
    def check(value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"not a number of seconds: {value!r}")
        if not value >= low:
            raise ValueError(f"must be at least {low:g} seconds, not {value:g}")

    return check


def boolean(raw: str) -> bool:
    word = raw.strip().lower()
    if word in ("1", "yes", "true", "on"):
        return True
    if word in ("0", "no", "false", "off"):
        return False
    raise ValueError("not one of 1, 0, yes, no, true, false, on, off")


def is_bool(value: bool) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"not a boolean: {value!r}")


def words(raw: str) -> tuple[str, ...]:
    """Comma-separated values (spaces around them ignored)."""
    return tuple(w.strip() for w in raw.split(",") if w.strip())


def are_words(value: tuple[str, ...]) -> None:
    if not isinstance(value, tuple) or not all(isinstance(w, str) for w in value):
        raise ValueError(f"not a tuple of strings: {value!r}")


def proxies(raw: str) -> tuple[str, ...]:
    """Comma-separated addresses or networks; ``none`` is no proxy at all."""
    return () if raw.strip().lower() == "none" else words(raw)


def are_proxies(value: tuple[str, ...]) -> None:
    """Each an IP address, a network (``10.0.0.0/8``) or ``*`` (any peer)."""
    are_words(value)
    for item in value:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"not an IP address or network: {item!r}") from None


def lowercase(raw: str) -> str:
    return raw.strip().lower()


def one_of(choices: Sequence[str]) -> Callable[[str], None]:
    def check(value: str) -> None:
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, not {value!r}")

    return check


def database_url(value: str) -> None:
    nonempty(value)
    check_url(value)


def documents_manifest(value: str) -> None:
    """A manifest of trusted documents (``--trusted-documents``): a JSON object of texts by
    their ids, each id ``"sha256:"`` and the hex SHA-256 of its UTF-8 text ("" : none)."""
    if not value:
        return
    try:
        loaded = json.loads(Path(value).read_text(encoding="utf-8"))
    except OSError as unreadable:
        raise ValueError(f"{value}: cannot be read ({unreadable.strerror})") from None
    except ValueError:
        raise ValueError(f"{value}: is not JSON") from None
    if not isinstance(loaded, dict) or not all(isinstance(t, str) for t in loaded.values()):
        raise ValueError(f"{value}: must be a JSON object of document texts by their ids")
    for key, document in loaded.items():
        if key != "sha256:" + hashlib.sha256(document.encode("utf-8")).hexdigest():
            raise ValueError(
                f"{value}: {key[:24]} is not its document's id (sha256: and the hex SHA-256 "
                "of the document's UTF-8 text)"
            )


# -- the declarations ------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """How one setting is read: its variable, its option, what it means and how it parses."""

    env: str
    flag: str
    help: str
    parse: Callable[[str], Any]
    check: Callable[[Any], None]
    commands: tuple[str, ...]
    shown: str | None
    metavar: str | None


def setting(
    default: Any,
    *,
    env: str,
    flag: str,
    help: str,
    parse: Callable[[str], Any],
    check: Callable[[Any], None],
    commands: tuple[str, ...] = (SERVE,),
    shown: str | None = None,
    metavar: str | None = None,
) -> Any:
    """A field of ``Settings`` with its declaration (``shown``: the default as in --help)."""
    spec = Spec(env, flag, help, parse, check, commands, shown, metavar)
    return field(default=default, metadata={"setting": spec})


def read(spec: Spec, raw: str) -> Any:
    """The value of an option or a variable; ValueError says what is wrong with it."""
    try:
        value = spec.parse(raw)
    except ValueError as problem:
        raise ValueError(f"{problem}: {raw!r}") from None
    spec.check(value)
    return value


def for_argparse(spec: Spec) -> Callable[[str], Any]:
    """The spec's parse and check, failing the argparse way (``argument --port: ...``)."""

    def convert(raw: str) -> Any:
        try:
            return read(spec, raw)
        except ValueError as problem:
            raise argparse.ArgumentTypeError(str(problem)) from None

    convert.__name__ = spec.flag
    return convert


def usage_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    parser.error(message)
