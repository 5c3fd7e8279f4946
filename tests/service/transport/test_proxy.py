"""Client addresses behind a proxy (issue #20, "Addresses you can trust"): the address that
rate limits, the websocket admission and the log lines count per client is the rightmost
``X-Forwarded-For`` entry not written by the client, so whatever a client writes in its own
``X-Forwarded-For`` (or ``X-Real-IP``, ``Forwarded``) changes nothing.

The end-to-end tests run a real ``papyrus serve`` behind Debian's nginx configured from
``deploy/nginx.conf`` (``tests/proxy.py``), nginx connecting from ``127.0.0.2`` and the clients
from ``127.0.0.3`` (an attacker) and ``127.0.0.4`` (its victim): loopback addresses of their
own, as the proxy and the players have on a real network. The server believes only the proxy,
as ``deploy/compose.yaml``'s replicas do, or every peer (``*``, for one hop).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
import yaml

from service.api.forwarded import ForwardedClient, Proxies, host_and_port
from tests.client import Client
from tests.proxy import Nginx
from tests.serving import ServeProcess

ROOT = Path(__file__).resolve().parents[3]
PROXY, ATTACKER, VICTIM = "127.0.0.2", "127.0.0.3", "127.0.0.4"
REGISTER = "mutation($n: String!) { registerPlayer(name: $n) { token } }"
ME = "{ me { name } }"
WINDOW = 3600  # one window for the whole test (see ``inside_one_window``)


def inside_one_window() -> None:
    """The rate limits count in fixed windows aligned on Unix time: start a test with room."""
    left = WINDOW - time.time() % WINDOW
    if left < 60:
        time.sleep(left + 0.1)


def spoofing(address: str) -> dict[str, str]:
    """Every header a client might write to pass for ``address``."""
    return {"X-Forwarded-For": address, "X-Real-IP": address, "Forwarded": f"for={address}"}


def from_address(base_url: str, address: str, token: str | None = None) -> Client:
    """A client whose connections come from ``address`` (a loopback address of its own)."""
    client = Client(base_url, token)
    client.http.close()
    client.http = httpx.Client(
        base_url=base_url, timeout=90, transport=httpx.HTTPTransport(local_address=address)
    )
    return client


def post(client: Client, query: str, variables: Any = None, **headers: str) -> httpx.Response:
    return client.http.post(
        "/graphql",
        json={"query": query, "variables": variables or {}},
        headers={**client.headers(), **headers},
    )


def logged_client(served: ServeProcess, request_id: str) -> str:
    """The client address of the request's log line (``--log-format json``)."""
    marker = f'"request_id": "{request_id}"'
    log = served.wait_for_log(lambda text: marker in text, seconds=30)
    lines = [json.loads(line) for line in log.splitlines() if marker in line]
    assert lines, f"no log line for {request_id}:\n{log[-3000:]}"
    return str(lines[0]["client"])


class Stack:
    """A ``papyrus serve`` process and nginx in front of it."""

    def __init__(self, served: ServeProcess, proxy: Nginx, trusted: str) -> None:
        self.served, self.proxy, self.trusted = served, proxy, trusted


@pytest.fixture(scope="module", params=[PROXY, "*"], ids=["only-the-proxy", "every-peer"])
def stack(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    """One server and its proxy for the module's tests (each counts against addresses of its
    own, or in a way that leaves the others' counts alone)."""
    trusted = str(request.param)
    sqlite_url = f"sqlite:///{tmp_path_factory.mktemp('proxy') / 'papyrus.sqlite'}"
    options = [
        ("--forwarded-allow-ips", trusted),
        ("--log-format", "json"),
        ("--rate-window", str(WINDOW)),
        ("--rate-registrations-per-address", "3"),
        ("--rate-failed-authentications-per-address", "3"),
        ("--max-websockets-per-client", "2"),
    ]
    bare = {"PATH": os.environ.get("PATH", "")}  # no PAPYRUS_* or FORWARDED_ALLOW_IPS of ours
    served = ServeProcess(
        sqlite_url,
        *[word for option in options for word in option],
        ready="/healthz",
        log_level="info",
        environment=bare,
    )
    try:
        with Nginx([f"127.0.0.1:{served.port}"], bind=PROXY) as proxy:
            yield Stack(served, proxy, trusted)
    finally:
        served.stop()


def test_registrations_count_against_the_real_address_whatever_the_client_forwards(
    stack: Stack,
) -> None:
    """320 of 320 registrations from one address passed under the shipped compose file, each
    naming another address in X-Forwarded-For: now the fourth one of three allowed is refused
    whatever it names, and the log shows the address nginx saw."""
    inside_one_window()
    attacker = from_address(stack.proxy.url, ATTACKER)
    for number in range(3):
        spoofed = f"198.51.100.{number + 1}"
        answer = post(attacker, REGISTER, {"n": f"Spoof {number}"}, **spoofing(spoofed))
        assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
    refused = post(
        attacker,
        REGISTER,
        {"n": "One too many"},
        **spoofing("198.51.100.9"),
        **{"X-Request-Id": "spoof-4"},
    )
    error = refused.json()["errors"][0]
    assert refused.status_code == 429 and error["extensions"]["code"] == "RATE_LIMITED"
    assert "registrations from this address" in error["message"]
    assert logged_client(stack.served, "spoof-4") == ATTACKER

    # the victim's address, which the attacker named, has used none of its own registrations
    victim = from_address(stack.proxy.url, VICTIM)
    answer = post(victim, REGISTER, {"n": "Victim"}, **{"X-Request-Id": "victim-1"})
    assert answer.status_code == 200 and answer.json()["data"]["registerPlayer"]["token"]
    assert logged_client(stack.served, "victim-1") == VICTIM


def test_bad_tokens_sent_in_a_victims_name_count_against_the_sender(stack: Stack) -> None:
    """A victim's valid token was locked out by bad tokens sent in its name: now the bad
    tokens count against the address that sent them, and the victim is untouched."""
    inside_one_window()
    victim = from_address(stack.proxy.url, VICTIM)
    token = post(victim, REGISTER, {"n": "Victim"}).json()["data"]["registerPlayer"]["token"]
    victim.token = token
    attacker = from_address(stack.proxy.url, ATTACKER, token="x" * 43)
    for _ in range(3):
        answer = post(attacker, ME, **spoofing(VICTIM))
        assert answer.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    locked = post(attacker, ME, **spoofing(VICTIM))
    assert locked.status_code == 429
    assert locked.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"

    assert post(victim, ME).json() == {"data": {"me": {"name": "Victim"}}}
    mistaken = from_address(stack.proxy.url, VICTIM, token="y" * 43)
    answer = post(mistaken, ME)  # the victim's own first bad token: not throttled
    assert answer.status_code == 200
    assert answer.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


async def test_websockets_are_admitted_per_real_address(stack: Stack) -> None:
    """At most two websockets per address here: a third from the attacker is refused in its
    handshake whatever it forwards, while the victim's first is accepted."""
    inside_one_window()
    url = stack.proxy.ws_url

    async def open_socket(address: str, spoofed: str) -> Any:
        return await websockets.connect(
            url,
            subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
            additional_headers=spoofing(spoofed),
            local_addr=(address, 0),
        )

    first = await open_socket(ATTACKER, "198.51.100.1")
    second = await open_socket(ATTACKER, "198.51.100.2")
    try:
        with pytest.raises(websockets.InvalidStatus) as refused:
            await open_socket(ATTACKER, "198.51.100.3")
        assert refused.value.response.status_code == 429
        victims = await open_socket(VICTIM, ATTACKER)
        await victims.send(json.dumps({"type": "connection_init"}))
        ack = json.loads(await asyncio.wait_for(victims.recv(), 30))
        assert ack["type"] == "connection_ack"
        await victims.close()
    finally:
        await first.close()
        await second.close()


def test_a_client_reaching_the_server_directly_is_believed_only_under_star(stack: Stack) -> None:
    """Past the proxy, straight to the server's port from 127.0.0.1: with only the proxy
    trusted, the forwarded address is ignored; ``*`` believes any peer for the one entry it
    adds, which is why it is only for a server that nothing but its proxy can reach."""
    response = httpx.get(
        f"{stack.served.url}/healthz",
        headers={**spoofing("198.51.100.77"), "X-Request-Id": "direct-1"},
    )
    assert response.status_code == 200
    expected = "198.51.100.77" if stack.trusted == "*" else "127.0.0.1"
    assert logged_client(stack.served, "direct-1") == expected


# -- the rule itself ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trusted", "peer", "forwarded_for", "client"),
    [
        # the peer is not a proxy: its own address, whatever it forwards
        (["10.0.0.1"], "203.0.113.5", "198.51.100.1", None),
        # one proxy: the entry it added, not the ones the client wrote before it
        (["10.0.0.1"], "10.0.0.1", "198.51.100.1, 203.0.113.5", ("203.0.113.5", 0)),
        # two proxies of a network: past both, the first address that is not a proxy
        (["10.0.0.0/8"], "10.0.0.1", "6.6.6.6, 203.0.113.5, 10.0.0.2", ("203.0.113.5", 0)),
        # every entry a proxy: the leftmost, as far as the chain of trust reaches
        (["10.0.0.0/8"], "10.0.0.1", "10.0.0.3, 10.0.0.2", ("10.0.0.3", 0)),
        # * believes the peer for its one entry, never the entries before it
        (["*"], "172.30.80.10", "198.51.100.1, 203.0.113.5", ("203.0.113.5", 0)),
        (["*"], "172.30.80.10", "10.0.0.9", ("10.0.0.9", 0)),
        # what a trusted proxy forwarded that is not an address ends the walk there
        (["10.0.0.0/8"], "10.0.0.1", "203.0.113.5, unknown, 10.0.0.2", ("10.0.0.2", 0)),
        (["10.0.0.1"], "10.0.0.1", "garbage", None),
        # ports and IPv6, as proxies write them
        (["10.0.0.1"], "10.0.0.1", "203.0.113.5:4711", ("203.0.113.5", 4711)),
        (["::1"], "::1", "[2001:db8::7]:4711", ("2001:db8::7", 4711)),
        (["::1"], "::1", "2001:DB8::7", ("2001:db8::7", 0)),
    ],
)
def test_the_client_is_the_rightmost_entry_no_trusted_proxy_wrote(
    trusted: list[str], peer: str, forwarded_for: str, client: tuple[str, int] | None
) -> None:
    assert Proxies(trusted).client(peer, forwarded_for) == client


def test_addresses_are_parsed_strictly() -> None:
    assert host_and_port("203.0.113.5:99999") is None
    assert host_and_port("[2001:db8::7]x") is None
    assert host_and_port("") is None
    assert host_and_port("example.com") is None


async def test_the_middleware_sets_client_and_scheme_only_for_a_trusted_peer() -> None:
    seen: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope)

    middleware = ForwardedClient(app, proxies=Proxies(["10.0.0.1"]))
    headers = [
        (b"x-forwarded-for", b"6.6.6.6"),
        (b"x-forwarded-for", b"203.0.113.5"),  # a second header line: joined after the first
        (b"x-forwarded-proto", b"https"),
    ]
    for peer, kind in (("10.0.0.1", "http"), ("10.0.0.1", "websocket"), ("6.6.6.6", "http")):
        scope = {"type": kind, "client": (peer, 5000), "scheme": "http", "headers": headers}
        await middleware(scope, None, None)
    trusted_http, trusted_ws, untrusted = seen
    assert (trusted_http["client"], trusted_http["scheme"]) == (("203.0.113.5", 0), "https")
    assert (trusted_ws["client"], trusted_ws["scheme"]) == (("203.0.113.5", 0), "wss")
    assert (untrusted["client"], untrusted["scheme"]) == (("6.6.6.6", 5000), "http")


# -- the shipped files --------------------------------------------------------------------------


def test_the_compose_replicas_believe_only_the_proxys_fixed_address() -> None:
    """deploy/compose.yaml: every replica believes X-Forwarded-For from exactly one address,
    the proxy's fixed one on a network the replicas share with it, outside the range docker
    hands out to other containers (``*`` let every client choose its address)."""
    import ipaddress

    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    proxy = services["proxy"]
    (network, settings), *more = proxy["networks"].items()
    assert not more, "the proxy sits on one network, shared with the replicas"
    address = ipaddress.ip_address(settings["ipv4_address"])
    (ipam,) = compose["networks"][network]["ipam"]["config"]
    assert address in ipaddress.ip_network(ipam["subnet"])
    assert address not in ipaddress.ip_network(ipam["ip_range"])  # never given to another
    replicas = [
        name
        for name, s in services.items()
        if s.get("command") is None and name.startswith("papyrus-")
    ]
    assert len(replicas) >= 2
    for name in replicas:
        service = services[name]
        assert service["environment"]["FORWARDED_ALLOW_IPS"] == str(address), name
        assert network in service["networks"], name
