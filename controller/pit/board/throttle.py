"""The login's brakes (issue 27.3): guesses slowed per account as well as per address, and a way
in for the right password during a guessing flood on that very account.

Before, wrong passwords were counted per address only. Behind the TLS proxy docs/pit-board.md
recommends, every browser is the proxy's address: two threads guessing locked every real login
out (38 of 38 got 429); from 200 addresses, 44 guesses a second were hashed and a real user got in
1 time in 36. Now:

- **Per account and address**: five wrong passwords in a row, then a wait between guesses (¼ s,
  doubling, at most 5 s): a person who mistypes waits little.
- **Per address**, any account: twenty, then the same wait: one address spraying many names.
- **Per account**, any address: past ten wrong passwords (forgotten after 15 quiet minutes) the
  account is *under a flood*, and guesses at it are hashed at most one a second, whoever sends them:
  200 addresses get no more than one.
- **A way in**: a browser that has logged in to an account before holds a *device cookie* for it
  (HMAC-signed by this process, 90 days, sent only to ``/login``). Its guesses skip the three
  brakes above and have a hashing slot of their own (controller.pit.board.auth ``reserved``), so
  the right password from a known browser gets in however hard the account is being guessed at;
  five wrong passwords in a row with a cookie and that cookie is trusted no more (until a login
  with it succeeds). A first login from an unknown browser during a flood waits its turn among
  the guesses. The signing key is made at start: a restart forgets the devices, and each person's
  next login makes theirs known again.

The address is the connection's, or, from a proxy named with ``--trusted-proxy``, the last
address the proxy added to ``X-Forwarded-For`` (what the proxy itself saw; an address a client
wrote there is never believed).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

FREE_FAILURES = 5
"""Wrong passwords in a row for one account from one address before it waits between guesses."""
ADDRESS_FREE = 20
"""Wrong passwords in a row from one address, any account, before it waits between guesses."""
ACCOUNT_FREE = 10
"""Wrong passwords for one account, any address, before it is under a flood."""
ACCOUNT_INTERVAL = 1.0
"""Seconds between two guesses hashed for an account under a flood (from browsers it does not know)."""
ACCOUNT_QUIET = 900.0
"""Seconds without a wrong password after which an account's count starts again."""
BACKOFF_MAX = 5.0
"""The longest wait (seconds) between one address's guesses: a person who mistyped should not wait long."""
DEVICE_DAYS = 90
DEVICE_FAILURES = 5
"""Wrong passwords in a row with a device cookie before it is trusted no more."""
KEPT = 10_000
"""Accounts, addresses, pairs and devices remembered at most each; the oldest go first."""
DEVICE_COOKIE = "pitdev-"
"""The device cookies' name, before the account's: ``pitdev-ann``."""


@dataclass
class _Count:
    failures: int = 0
    until: float = 0.0
    last: float = 0.0


class Throttle:
    """Thread-safe (logins are checked on the board's pool)."""

    def __init__(self, key: bytes | None = None, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self._key = key or secrets.token_bytes(32)
        self._clock, self._wall = clock, wall
        self._lock = threading.Lock()
        self._pairs: OrderedDict[tuple[str, str], _Count] = OrderedDict()
        self._addresses: OrderedDict[str, _Count] = OrderedDict()
        self._accounts: OrderedDict[str, _Count] = OrderedDict()
        self._devices: OrderedDict[str, _Count] = OrderedDict()

    # -- device cookies --------------------------------------------------------------

    def device_cookie(self, account: str) -> tuple[str, str]:
        """The device cookie (name, value) a browser is given when it logs in to ``account``."""
        expiry = int(self._wall()) + DEVICE_DAYS * 86400
        return DEVICE_COOKIE + account, f"{expiry}.{self._mac(account, expiry)}"

    def device(self, account: str, cookies: Mapping[str, str]) -> str | None:
        """The browser's device cookie for ``account`` when it is one this process signed, not
        expired and not given up on (too many wrong passwords with it); else None."""
        value = cookies.get(DEVICE_COOKIE + account)
        if not value or len(value) > 100:
            return None
        expiry, _, mac = value.partition(".")
        if not expiry.isdigit() or int(expiry) < self._wall():
            return None
        if not hmac.compare_digest(mac.encode(), self._mac(account, int(expiry)).encode()):
            return None
        with self._lock:
            count = self._devices.get(value)
            if count is not None and count.failures >= DEVICE_FAILURES:
                return None
        return value

    def _mac(self, account: str, expiry: int) -> str:
        return hmac.new(self._key, f"{account}\0{expiry}".encode(), hashlib.sha256).hexdigest()[:32]

    # -- the brakes ------------------------------------------------------------------

    def admit(self, account: str, address: str, device: str | None) -> float:
        """0 when this guess may be hashed now (an account under a flood then takes its one guess
        of the second), else the seconds to wait before asking again."""
        now = self._clock()
        if device is not None:
            return 0.0
        with self._lock:
            wait = max(self._left(self._pairs.get((account, address)), now),
                       self._left(self._addresses.get(address), now))
            count = self._accounts.get(account)
            if count is not None and now - count.last > ACCOUNT_QUIET:
                count.failures = 0
            if count is not None and count.failures >= ACCOUNT_FREE:
                wait = max(wait, count.until - now)
                if wait <= 0:
                    count.until = now + ACCOUNT_INTERVAL   # this guess is the second's one
            return max(0.0, wait)

    def failed(self, account: str, address: str, device: str | None) -> None:
        now = self._clock()
        with self._lock:
            if device is not None:
                self._bump(self._devices, device, now, DEVICE_FAILURES, backoff=False)
                return
            self._bump(self._pairs, (account, address), now, FREE_FAILURES)
            self._bump(self._addresses, address, now, ADDRESS_FREE)
            self._bump(self._accounts, account, now, ACCOUNT_FREE, backoff=False)

    def succeeded(self, account: str, address: str, device: str | None) -> None:
        with self._lock:
            self._pairs.pop((account, address), None)
            self._addresses.pop(address, None)
            if device is not None:
                self._devices.pop(device, None)

    def flooded(self, account: str) -> bool:
        """Whether ``account`` is under a flood of wrong passwords now."""
        with self._lock:
            count = self._accounts.get(account)
            return count is not None and count.failures >= ACCOUNT_FREE and \
                self._clock() - count.last <= ACCOUNT_QUIET

    @staticmethod
    def _left(count: _Count | None, now: float) -> float:
        return 0.0 if count is None else count.until - now

    def _bump(self, kept: OrderedDict, key: object, now: float, free: int, backoff: bool = True) -> None:
        count = kept.pop(key, None) or _Count()
        count.failures += 1
        count.last = now
        if backoff and count.failures >= free:
            count.until = now + min(BACKOFF_MAX, 0.25 * 2 ** (count.failures - free))
        kept[key] = count
        while len(kept) > KEPT:
            kept.popitem(last=False)


def client_address(peer: str, forwarded_for: str | None, forwarded_proto: str | None,
                   trusted: Iterable[ipaddress.IPv4Address | ipaddress.IPv6Address | ipaddress.IPv4Network
                                     | ipaddress.IPv6Network]) -> tuple[str, bool]:
    """The address a login is counted under, and whether the browser reached the board over TLS
    (only a trusted proxy can say so: the board itself speaks plain HTTP). From a trusted proxy,
    the last ``X-Forwarded-For`` entry (the one the proxy added); from anyone else, the peer."""
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer, False
    if not any(ip in t if isinstance(t, ipaddress.IPv4Network | ipaddress.IPv6Network) else ip == t for t in trusted):
        return peer, False
    https = (forwarded_proto or "").strip().lower() == "https"
    last = (forwarded_for or "").split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(last)), https
    except ValueError:
        return peer, https


def parse_trusted(text: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address | ipaddress.IPv4Network
                                     | ipaddress.IPv6Network]:
    """``--trusted-proxy``: addresses or networks, comma-separated; ValueError naming the bad one."""
    out: list = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False) if "/" in part else ipaddress.ip_address(part))
        except ValueError:
            raise ValueError(f"{part!r} is not an IP address or network") from None
    return out
