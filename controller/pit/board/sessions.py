"""The board's logins: who each browser is, until when, and the token its state-changing requests
must carry (issue 22).

A session is a random cookie (HttpOnly, SameSite=Strict) that names a person (a users-file login)
or the shared password's login, with the role that person had at the login. The session also holds
a random **CSRF token** the page reads from ``/api/me`` (same origin only: another site's page can
send a request with the board's cookie, but cannot read an answer) and sends back with every
request that changes something (an acknowledgement, a void, a resume, the logout): a request that
carries the cookie but not the token is some other site's doing, and is refused.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

SESSION = 12 * 3600.0
"""Seconds a login lasts: a shift."""
SESSIONS = 1000
"""Logins kept at most; the oldest goes first."""


@dataclass(frozen=True)
class Session:
    user: str | None
    """The person (a users-file name), or None for the shared password's login."""
    role: str
    csrf: str
    until: float

    def token_is(self, candidate: str | None) -> bool:
        """Whether ``candidate`` is this session's CSRF token (compared in constant time)."""
        return bool(candidate) and hmac.compare_digest(candidate.encode(), self.csrf.encode())


class Sessions:
    """The board's sessions, by cookie; thread-safe (the loop's thread and the pool's read them)."""

    def __init__(self, lifetime: float = SESSION, most: int = SESSIONS) -> None:
        self.lifetime = lifetime
        self.most = most
        self._by_cookie: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def login(self, user: str | None, role: str) -> str:
        """A new session; its cookie."""
        cookie = secrets.token_urlsafe(32)
        with self._lock:
            self._by_cookie[cookie] = Session(user, role, secrets.token_urlsafe(32), time.monotonic() + self.lifetime)
            while len(self._by_cookie) > self.most:
                self._by_cookie.popitem(last=False)
        return cookie

    def get(self, cookie: str | None) -> Session | None:
        if not cookie:
            return None
        with self._lock:
            session = self._by_cookie.get(cookie)
            if session is None:
                return None
            if session.until < time.monotonic():
                del self._by_cookie[cookie]
                return None
            return session

    def logout(self, cookie: str | None) -> None:
        with self._lock:
            self._by_cookie.pop(cookie or "", None)
