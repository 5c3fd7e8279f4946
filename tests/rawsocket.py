"""A websocket client over a bare TCP socket, for the tests of clients a library would never
be: one that stops reading (and so never answers a ping), one that sends frames of any shape.

Only what those tests need: the opening handshake, masked text frames, and reading frames
back (a close frame's code). The socket's receive buffer is made small so that a client that
does not read fills the server's send buffer quickly, as a slow or hostile client would.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any
from urllib.parse import urlparse

#: bytes the kernel may buffer for a client that does not read (the server's side fills next)
SMALL_BUFFER = 4096


class RawSocket:
    """A graphql-transport-ws connection on a bare socket."""

    def __init__(self, ws_url: str, *, protocol: str = "graphql-transport-ws") -> None:
        parts = urlparse(ws_url)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
        self.sock.settimeout(30)
        self.sock.connect((parts.hostname, parts.port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Sec-WebSocket-Protocol: {protocol}\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError(f"closed during the handshake: {head!r}")
            head += chunk
        status = head.split(b" ", 2)[1]
        if status != b"101":
            raise ConnectionError(f"handshake refused: {head!r}")
        self.pending = b""

    def send_text(self, text: str) -> None:
        self.send_frame(0x1, text.encode())

    def send_json(self, value: Any) -> None:
        self.send_text(json.dumps(value))

    def send_frame(self, opcode: int, payload: bytes) -> None:
        """One final frame, masked as a client's must be."""
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, count: int) -> bytes:
        while len(self.pending) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.pending += chunk
        data, self.pending = self.pending[:count], self.pending[count:]
        return data

    def read_frame(self) -> tuple[int, bytes]:
        """The next frame from the server (unmasked): its opcode and payload."""
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read(8))
        return first & 0x0F, self._read(length)

    def read_message(self) -> dict[str, Any]:
        """The next text message, answering pings on the way (``ConnectionError`` on a close,
        with its code)."""
        while True:
            opcode, payload = self.read_frame()
            if opcode == 0x9:  # ping
                self.send_frame(0xA, payload)
            elif opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise Closed(code, payload[2:].decode(errors="replace"))
            elif opcode == 0x1:
                return dict(json.loads(payload))

    def close_code(self) -> int | None:
        """Read until the server's close frame (answering pings): its code."""
        try:
            while True:
                self.read_message()
        except Closed as closed:
            return closed.code

    def init(self, payload: dict[str, Any] | None = None) -> None:
        """``connection_init``, and its ``connection_ack`` read."""
        self.send_json({"type": "connection_init", **({"payload": payload} if payload else {})})
        ack = self.read_message()
        assert ack["type"] == "connection_ack", ack

    def close(self) -> None:
        self.sock.close()


class Closed(ConnectionError):
    """The server sent a close frame."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"closed with {code}: {reason}")
        self.code = code
        self.reason = reason
