"""The conformance kit's check: ``papyrus conformance check DIR`` (``conformance/README.md``).

A kit is a directory with ``manifest.json`` and the exported games it lists (``vectors/``).
Each vector is re-derived here exactly as ``papyrus verify`` and ``importGame`` do: the
document parsed (``service.app.archive``), its log verified (``domain.audit.verify``: the hash
chain, the seed against its commitment, every event replayed through the rules), then its
header and result compared with what the log gives. The verdict (accept; or reject, with the
first version that does not hold and why) is compared with the manifest's ``expected``: the
verdict and the version must be the same; the reason is the reference wording, shown but not
compared (another implementation words its reasons its own way).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from domain import audit
from domain.registry import rules_for
from service.app import signing
from service.app.archive import header_problem, parse_document, parse_redacted
from service.app.errors import PapyrusError
from service.app.recording import replay_table
from service.app.signing import PublicKey

MANIFEST = "manifest.json"
VECTORS = "vectors"
#: the kit's public keys, as ``GET /api/v1/keys`` lists a server's: its signed vectors' key
KEYS = "keys.json"
ACCEPT, REJECT = "accept", "reject"


@dataclass(frozen=True, slots=True)
class Verdict:
    accepted: bool
    version: int | None = None
    """The first event that does not hold (``None``: the document as a whole)."""
    reason: str | None = None

    @property
    def line(self) -> str:
        """The verdict as ``papyrus verify`` prints a rejection."""
        if self.version is None:
            return str(self.reason)
        return f"event {self.version} does not hold: {self.reason}"

    def as_json(self) -> dict[str, Any]:
        if self.accepted:
            return {"verdict": ACCEPT}
        return {"verdict": REJECT, "version": self.version, "reason": self.reason}


def verdict(document: Any, keys: Mapping[str, PublicKey] | None = None) -> Verdict:
    """What a verifier concludes of one exported game (``papyrus verify``'s checks); ``keys``:
    the public keys its signature is checked against (None: not checked)."""
    try:
        entries = parse_document(document)
        redacted = parse_redacted(document, entries)
    except PapyrusError as failure:
        return Verdict(False, None, f"not an exported game: {failure}")
    found = verdict_of(document, entries, redacted)
    if not found.accepted:
        return found
    signed = signing.check(document, keys)  # a forged signature rejects the whole document
    return found if signed.ok else Verdict(False, None, signed.line)


def verdict_of(document: dict[str, Any], entries: list[Any], redacted: Any) -> Verdict:
    """The verdict on a parsed document (``papyrus verify`` reads and parses it itself, to say
    why a file is no exported game): its log re-derived, then its header against its log."""
    finding = audit.verify(entries, rules_for, frozenset(redacted))
    if not finding.ok:
        return Verdict(False, finding.version, finding.reason)
    return header_verdict(document, entries)


def header_verdict(document: dict[str, Any], entries: list[Any]) -> Verdict:
    """The document's own fields must say what its verified log says."""
    table = replay_table(entries)
    if table.outcome is None:
        return Verdict(False, len(entries), "the log ends before the game is over")
    problem = header_problem(document, table)
    return Verdict(True) if problem is None else Verdict(False, None, problem)


def dump(document: dict[str, Any]) -> str:
    """A vector's text: the header one member a line, then one event a line (diffable)."""
    lines = []
    for key, value in document.items():
        if key == "events" and isinstance(value, list):
            events = ",\n".join(f"  {canonical_line(e)}" for e in value)
            lines.append(f' "events": [\n{events}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {canonical_line(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def canonical_line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


@dataclass(frozen=True, slots=True)
class Outcome:
    name: str
    ok: bool
    line: str


def check(directory: Path) -> list[Outcome]:
    """Every vector of the manifest re-derived and compared with its expected verdict, and
    every file in ``vectors/`` that the manifest does not list (a mismatch)."""
    manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    keys = kit_keys(directory)
    outcomes = []
    listed: set[str] = set()
    for entry in manifest.get("vectors", []):
        listed.add(str(entry.get("file")))
        outcomes.append(check_vector(directory, entry, keys))
    for path in sorted((directory / VECTORS).glob("*.json")):
        name = f"{VECTORS}/{path.name}"
        if name not in listed:
            outcomes.append(Outcome(name, False, f"MISMATCH {name}: not in the manifest"))
    return outcomes


def kit_keys(directory: Path) -> dict[str, PublicKey] | None:
    """The kit's public keys (``keys.json``), None for a kit without one (signatures then
    unchecked); ValueError for a file that is not a list of keys."""
    path = directory / KEYS
    if not path.exists():
        return None
    return signing.keys_from_published(json.loads(path.read_text(encoding="utf-8")))


def check_vector(
    directory: Path, entry: dict[str, Any], keys: Mapping[str, PublicKey] | None = None
) -> Outcome:
    name = str(entry.get("name"))
    expected = entry.get("expected") or {}
    try:
        raw = (directory / str(entry.get("file"))).read_bytes()
    except OSError as failure:
        return Outcome(name, False, f"MISMATCH {name}: cannot read it ({failure})")
    if entry.get("sha256") not in (None, hashlib.sha256(raw).hexdigest()):
        return Outcome(name, False, f"MISMATCH {name}: the file is not the one the manifest lists")
    try:
        found = verdict(json.loads(raw.decode("utf-8")), keys)
    except (ValueError, RecursionError) as failure:
        found = Verdict(False, None, f"not JSON ({failure})")
    wanted_accept = expected.get("verdict") == ACCEPT
    same = found.accepted == wanted_accept and (
        found.accepted or found.version == expected.get("version")
    )
    said = describe(found.as_json())
    if not same:
        return Outcome(name, False, f"MISMATCH {name}: expected {describe(expected)}, got {said}")
    note = ""
    if not found.accepted and expected.get("reason") not in (None, found.reason):
        note = f" (the manifest words it: {expected.get('reason')})"
    return Outcome(name, True, f"ok {name}: {said}{note}")


def describe(verdict_: dict[str, Any]) -> str:
    if verdict_.get("verdict") == ACCEPT:
        return "accepted"
    where = verdict_.get("version")
    at = f"at event {where}" if where is not None else "as a document"
    return f"rejected {at}: {verdict_.get('reason')}"


def report(directory: str, out: TextIO) -> int:
    """``papyrus conformance check DIR``: one line per vector and a summary; 0 when every
    vector gave its expected verdict, 1 on any mismatch, 2 for a directory without a kit."""
    path = Path(directory)
    try:
        outcomes = check(path)
    except (OSError, ValueError) as failure:
        print(f"error: {path / MANIFEST} cannot be read ({failure})", file=out)
        return 2
    for outcome in outcomes:
        print(outcome.line, file=out)
    bad = sum(not o.ok for o in outcomes)
    print(
        f"{len(outcomes)} vectors: {len(outcomes) - bad} as expected, {bad} mismatched",
        file=out,
    )
    return 1 if bad or not outcomes else 0
