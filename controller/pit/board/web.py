"""The pit board over HTTP: the page, its JSON, and a server-sent event stream of the live picture.

Routes (``serve`` starts them on a thread of their own):

- ``/``: every table as a tile; ``/table/<id>``: one table, its round history and scoreboard.
  One static page (``static/board.html`` with ``board.js`` and ``board.css``: plain files, no
  build step, nothing from a CDN) that draws itself from the stream.
- ``/api/tables``, ``/api/table/<id>``: the picture's JSON (controller.pit.board.picture).
- ``/events``, ``/events?table=<id>``: ``text/event-stream``: ``event: snapshot`` first (the
  tiles, or the table's page), then ``event: patch`` per change, and a ``: keep-alive`` comment
  when nothing changed for a while (so proxies and the browser know the stream lives). A browser
  that falls too far behind is dropped (controller.pit.board.feed) and reconnects by itself.
- ``/login`` (a form) and ``/logout``, when there is a password.

**Where it listens, and the password.** The board binds to 127.0.0.1 unless told otherwise. Any
other address needs ``password_file`` (controller.pit.board.auth): :func:`serve` refuses to start
without one. Then every page, the JSON and the stream need a session: the login form checks the
password (scrypt, constant-time compare) and sets a random session cookie (HttpOnly,
SameSite=Strict). The password is never logged: request lines are logged without their query,
the form's body never. The board is plain HTTP: on a network the pit does not trust, put it behind
a TLS proxy (docs/pit-board.md).

**Why the standard library.** ``http.server.ThreadingHTTPServer`` serves a handful of browsers per
pit (a thread each, most of them waiting on their stream), which is the load; a framework would
add a dependency and an event loop for nothing the board needs.

Everything a table published is shown as text (``textContent``, never markup), and the page's
Content-Security-Policy allows no inline script, so a prompt that says ``<script>`` reads as that.
"""

from __future__ import annotations

import html
import ipaddress
import json
import logging
import math
import re
import secrets
import socket
import threading
import time
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from controller.pit.board.auth import Busy, Password, PasswordError
from controller.pit.board.feed import Client, Dropped
from controller.pit.board.picture import Picture
from controller.shared.schemas import TABLE_ID

log = logging.getLogger(__name__)

"""A table id (docs/schemas/defs.json ``table_id``)."""
NEXT = re.compile(rf"/(?:table/{TABLE_ID.pattern})?", re.ASCII)
"""The pages a login may go on to (``fullmatch`` only: ``$`` would let a trailing newline by)."""
KEEPALIVE = 15.0
"""Seconds of quiet after which a stream gets a keep-alive comment."""
SESSION = 12 * 3600.0
"""Seconds a login lasts: a shift."""
SESSIONS = 1000
"""Logins kept at most; the oldest goes first."""
COOKIE = "pitboard"
FREE_FAILURES = 5
"""Wrong passwords in a row an address may send before it must wait between guesses."""
BACKOFF_MAX = 5.0
"""The longest wait (seconds) between one address's guesses: short, because behind a TLS proxy
every browser is the proxy's address, and a person who mistyped should not wait long."""
ADDRESSES = 1000
"""Addresses whose failures are remembered at most; the oldest goes first."""
MAX_BODY = 4096
HTML = "text/html; charset=utf-8"
STATIC = {"board.html": HTML, "board.css": "text/css; charset=utf-8", "board.js": "text/javascript; charset=utf-8"}
"""The files under ``static/`` served as they are (``login.html`` is a template: ``/login``)."""
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class BoardError(Exception):
    """The board cannot start; one line for the person who started it."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(picture: Picture, host: str = "127.0.0.1", port: int = 8080, password_file: Path | str | None = None,
          *, keepalive: float = KEEPALIVE) -> BoardServer:
    """Start the board on ``host:port`` (port 0: any free one, see :attr:`BoardServer.port`) on a
    thread of its own; :class:`BoardError` with a one-line reason when it cannot."""
    password = None
    if password_file is not None:
        try:
            password = Password.from_file(Path(password_file))
        except PasswordError as exc:
            raise BoardError(str(exc)) from None
    elif not is_loopback(host):
        raise BoardError(f"the board would listen on {host}, beyond this machine, without a password: give "
                         f"--password-file FILE (docs/pit-board.md), or listen on 127.0.0.1")
    try:
        server = BoardServer((host, port), picture, password, keepalive)
    except OSError as exc:
        raise BoardError(f"cannot serve the board on {host}:{port}: {exc.strerror or exc}") from None
    thread = threading.Thread(target=server.serve_forever, name="pit-board-http", daemon=True)
    thread.start()
    log.info("pit board on http://%s:%d/%s", host, server.port, " (password required)" if password else "")
    return server


class BoardServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128   # socketserver's 5 resets connections in a burst before it can answer 429
    allow_reuse_address = True   # a restart within TIME_WAIT; another listener on the port still fails

    def __init__(self, address: tuple[str, int], picture: Picture, password: Password | None,
                 keepalive: float) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.picture = picture
        self.password = password
        self.keepalive = keepalive
        self.sessions: OrderedDict[str, float] = OrderedDict()
        self.streams: set[Client] = set()
        self.lock = threading.Lock()
        self.logins_refused = 0
        self.logins_busy = 0
        self.failures: OrderedDict[str, tuple[int, float]] = OrderedDict()
        """Per address: wrong passwords in a row, and the monotonic time before which it may not guess."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request whose handling failed: one line, no traceback of what it carried on stderr."""
        log.exception("pit board: a request from %s failed", client_address[0])

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        host = self.server_address[0]
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def stop(self) -> None:
        """Stop listening and end every stream."""
        with self.lock:
            streams = list(self.streams)
        for client in streams:
            self.picture.unsubscribe(client)
        self.shutdown()
        self.server_close()

    # -- sessions ---------------------------------------------------------------------

    def login(self) -> str:
        token = secrets.token_urlsafe(32)
        with self.lock:
            self.sessions[token] = time.monotonic() + SESSION
            while len(self.sessions) > SESSIONS:
                self.sessions.popitem(last=False)
        return token

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self.lock:
            until = self.sessions.get(token)
            if until is None:
                return False
            if until < time.monotonic():
                del self.sessions[token]
                return False
            return True

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next guess is hashed (0: none)."""
        with self.lock:
            _, until = self.failures.get(address, (0, 0.0))
        return max(0.0, until - time.monotonic())

    def failed(self, address: str) -> None:
        """One more wrong password from ``address``: past :data:`FREE_FAILURES`, a doubling wait."""
        with self.lock:
            count = self.failures.pop(address, (0, 0.0))[0] + 1
            delay = 0.0 if count < FREE_FAILURES else min(BACKOFF_MAX, 0.25 * 2 ** (count - FREE_FAILURES))
            self.failures[address] = (count, time.monotonic() + delay)
            while len(self.failures) > ADDRESSES:
                self.failures.popitem(last=False)

    def succeeded(self, address: str) -> None:
        with self.lock:
            self.failures.pop(address, None)

    def logout(self, token: str | None) -> None:
        with self.lock:
            self.sessions.pop(token or "", None)


class Handler(BaseHTTPRequestHandler):
    server: BoardServer
    server_version = "tablectl-pit-board"
    sys_version = ""
    timeout = 60   # a request that does not arrive, or a browser that stops reading, frees its thread

    # -- routing --------------------------------------------------------------------------

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = url.path
        if path.startswith("/static/") and path[len("/static/"):] in STATIC:
            return self._static(path[len("/static/"):])
        if path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
        if path == "/login":
            if self.server.password is None:
                return self._redirect("/")
            return self._login(parse_qs(url.query).get("next", ["/"])[0])
        if not self._allowed(path, url.query):
            return None
        if path == "/" or (path.startswith("/table/") and TABLE_ID.fullmatch(path[len("/table/"):])):
            return self._static("board.html")
        if path == "/api/tables":
            return self._json(self.server.picture.tiles())
        if path.startswith("/api/table/") and TABLE_ID.fullmatch(path[len("/api/table/"):]):
            detail = self.server.picture.detail(path[len("/api/table/"):])
            return self._json(detail) if detail else self._json({"error": "no such table"}, HTTPStatus.NOT_FOUND)
        if path == "/events":
            table = parse_qs(url.query).get("table", [None])[0]
            if table is not None and not TABLE_ID.fullmatch(table):
                return self._json({"error": "table: not a table id"}, HTTPStatus.BAD_REQUEST)
            return self._stream(table)
        return self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a request line it cannot read, a method it does not know) as
        JSON, without echoing what the request carried."""
        self.close_connection = True
        try:
            status = HTTPStatus(code)
        except ValueError:
            status = HTTPStatus.BAD_REQUEST
        self._json({"error": status.phrase, "status": int(status)}, status)

    def do_HEAD(self) -> None:
        self._json({"error": "use GET"}, HTTPStatus.METHOD_NOT_ALLOWED)

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        if path == "/logout":
            self.server.logout(self._cookie())
            return self._redirect("/login" if self.server.password else "/", clear=True)
        if path != "/login" or self.server.password is None:
            return self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)
        form = self._form()
        if form is None:
            return None
        address = self.client_address[0]
        wait = self.server.wait(address)
        try:
            if wait > 0:
                raise Busy
            right = self.server.password.check(form.get("password", [""])[0])
        except Busy:
            # Not hashed: answered at once, logged at debug only (a flood of guesses is not a flood of lines).
            self.server.logins_busy += 1
            log.debug("pit board: login from %s not checked (busy, or waiting after wrong passwords)", address)
            return self._login(form.get("next", ["/"])[0], "Too many login attempts: try again in a moment.",
                               HTTPStatus.TOO_MANY_REQUESTS, retry_after=max(1, math.ceil(wait)))
        if right:
            self.server.succeeded(address)
            log.info("pit board: login from %s", address)
            return self._redirect(_local(form.get("next", ["/"])[0]), cookie=self.server.login())
        self.server.failed(address)
        self.server.logins_refused += 1
        log.warning("pit board: login refused from %s (wrong password)", self.client_address[0])
        return self._login(form.get("next", ["/"])[0], "Wrong password.", HTTPStatus.UNAUTHORIZED)

    # -- pieces ---------------------------------------------------------------------------

    def _allowed(self, path: str, query: str) -> bool:
        if self.server.password is None or self.server.valid(self._cookie()):
            return True
        if path.startswith(("/api/", "/events")):
            self._json({"error": "log in first (/login)"}, HTTPStatus.UNAUTHORIZED)
        else:
            self._redirect("/login?next=" + quote(path, safe="/"))
        return False

    def _cookie(self) -> str | None:
        for part in (self.headers.get("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                return value
        return None

    def _form(self) -> dict[str, list[str]] | None:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            self._json({"error": "a form needs its Content-Length"}, HTTPStatus.LENGTH_REQUIRED)
            return None
        if int(length) > MAX_BODY:
            self._json({"error": f"a form of more than {MAX_BODY} bytes"}, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return None
        try:
            return parse_qs(self.rfile.read(int(length)).decode("utf-8"), max_num_fields=10)
        except (UnicodeDecodeError, ValueError):
            self._json({"error": "not a form"}, HTTPStatus.BAD_REQUEST)
            return None

    def _login(self, after: str, message: str = "", status: HTTPStatus = HTTPStatus.OK, *,
               retry_after: int | None = None) -> None:
        """The login form, going to ``after`` (a path of this board) once logged in."""
        page = _read("login.html").decode()
        page = page.replace("{next}", html.escape(_local(after), quote=True)).replace("{message}", html.escape(message))
        extra = {} if retry_after is None else {"Retry-After": str(retry_after)}
        self._send(status, page.encode(), HTML, headers=extra)

    def _static(self, name: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, _read(name), STATIC[name], cache="no-cache")

    def _json(self, value: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _redirect(self, where: str, *, cookie: str | None = None, clear: bool = False) -> None:
        self.send_response(HTTPStatus.SEE_OTHER)
        self.send_header("Location", where)
        if cookie is not None:
            self.send_header("Set-Cookie", f"{COOKIE}={cookie}; Path=/; HttpOnly; SameSite=Strict; "
                                           f"Max-Age={int(SESSION)}")
        if clear:
            self.send_header("Set-Cookie", f"{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
        self.send_header("Content-Length", "0")
        self._security()
        self.end_headers()

    def _send(self, status: HTTPStatus, body: bytes, ctype: str, cache: str = "no-store",
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self._security()
        self.end_headers()
        self.wfile.write(body)

    def _security(self) -> None:
        for name, value in HEADERS.items():
            self.send_header(name, value)

    def _stream(self, table: str | None) -> None:
        """The snapshot, then each patch as it comes, until the browser goes or falls behind."""
        snapshot, client = self.server.picture.subscribe(table)
        with self.server.lock:
            self.server.streams.add(client)
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            self._security()
            self.end_headers()
            self.wfile.write(b"retry: 2000\n\nevent: snapshot\ndata: " + json.dumps(snapshot).encode() + b"\n\n")
            self.wfile.flush()
            while True:
                try:
                    items = client.take(self.server.keepalive)
                except Dropped:
                    if client.dropped:
                        self.wfile.write(b"event: dropped\ndata: {}\n\n")
                    break
                out = b"".join(b"event: patch\ndata: " + i.encode() + b"\n\n" for i in items) or b": keep-alive\n\n"
                self.wfile.write(out)
                self.wfile.flush()
        except OSError:
            pass   # the browser went away (closed tab, lost network, timeout): its stream ends
        finally:
            self.server.picture.unsubscribe(client)
            with self.server.lock:
                self.server.streams.discard(client)
            self.close_connection = True

    # -- logging: never a query string, never a body ----------------------------------------

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        path = getattr(self, "path", None)   # unset when the request line could not be read
        log.debug("pit board: %s %s %s %s", self.client_address[0], getattr(self, "command", None) or "-",
                  urlsplit(path).path[:200] if path else "-", code)

    def log_error(self, format: str, *args: Any) -> None:
        log.info("pit board: a bad request from %s", self.client_address[0])

    def log_message(self, format: str, *args: Any) -> None:
        pass   # everything worth logging goes through the two above, without what a request carried


def _read(name: str) -> bytes:
    return resources.files("controller.pit.board").joinpath("static", name).read_bytes()


def _local(target: str) -> str:
    """Where to go after the login: ``/`` or ``/table/<id>``, whole, else ``/``.

    ``next`` comes from the form, so an attacker writes it: an allow-list of the board's own pages
    (not a deny-list of tricks) keeps a CR/LF out of the 303's headers and a tab or backslash that a
    browser drops (``/\t/evil.example`` -> ``//evil.example``) out of its Location."""
    return target if NEXT.fullmatch(target) else "/"
