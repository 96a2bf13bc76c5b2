"""The pit board over HTTP: the page, its JSON, and a server-sent event stream of the live picture.

Routes (``serve`` starts them on a thread of their own):

- ``/``: every table as a tile; ``/table/<id>``: one table, its round history and scoreboard.
  One static page (``static/board.html`` with ``board.js`` and ``board.css``: plain files, no
  build step, nothing from a CDN) that draws itself from the stream.
- ``/api/tables``, ``/api/table/<id>``: the picture's JSON (controller.pit.board.picture).
- ``/events``, ``/events?table=<id>``: ``text/event-stream``: ``event: snapshot`` first (the
  tiles, or the table's page), then ``event: patch`` per change, and a ``: keep-alive`` comment
  when nothing changed for a while (so proxies and the browser know the stream lives). A browser
  that falls too far behind is dropped (controller.pit.board.feed) and reconnects by itself; its
  ``Last-Event-ID`` lets it go on where it was, or its fresh snapshot says why it was redrawn.
- ``/login`` (a form) and ``/logout``, when there is a login; ``/api/me``: who is logged in, their
  role and the session's CSRF token.
- ``POST /api/ack``, ``/api/void``, ``/api/resume``: a supervisor's acknowledgement, void or resume
  (controller.pit.board.actions), sent through the pit service.
- Disputes, from the archive (controller.pit.board.disputes): ``/rounds/<id>`` (a table's rounds of
  any date, and the round finder) and ``/round/<id>/<n>`` (one round: every event in order, its
  gaps), drawn by the page from ``/api/archive/<id>/rounds?before=N``, ``/api/archive/<id>/at?t=ISO``
  and ``/api/archive/<id>/round/<n>`` (``?download=1``: the JSON export); ``/print/<id>/<n>``, the
  round as a printable page. Answered on the pool, never on the loop's thread.

**Where it listens, and who may log in.** The board binds to 127.0.0.1 unless told otherwise. Any
other address needs a login: ``users_file`` (a person per line with a role,
controller.pit.board.users: what a void or an acknowledgement needs, since it must be someone's) or
a shared ``password_file`` (controller.pit.board.auth: it sees, it acts on nothing). Then every
page, the JSON and the stream need a session (controller.pit.board.sessions): a random cookie
(HttpOnly, SameSite=Strict, ``Secure`` when a trusted proxy says the browser came over TLS). Every
request that changes something carries the session's CSRF token and, when it has one, an
``Origin`` of this board. Logins are slowed per account and per address, with a way in for a
known browser (controller.pit.board.throttle). No password is ever logged: request lines are
logged without their query, the form's body never. The board is plain HTTP: on a network the pit
does not trust, put it behind a TLS proxy (docs/pit-board.md).

**One thread for every connection.** The board runs in the pit service's process, beside the
archive. A thread per connection (``ThreadingHTTPServer``, before) let a crowd of browsers, or
browsers that stopped reading, take the process's CPU and GIL from the archive (issue 26). Now
one loop (controller.pit.board.loop, standard library ``selectors``) holds every connection, and
this module only answers requests: :class:`Handler` is http.server's request handler, run on the
bytes of a request the loop has read, writing its answer into memory for the loop to send. A
stream's answer is its head and snapshot; its patches come from the feed, encoded once for all.

Everything a table published is shown as text (``textContent``, never markup), and the page's
Content-Security-Policy allows no inline script, so a prompt that says ``<script>`` reads as that.
"""

from __future__ import annotations

import contextlib
import html
import io
import ipaddress
import json
import logging
import math
import re
import socket
import time
from datetime import datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from controller.pit.board import actions
from controller.pit.board.actions import PitLink, Refusal
from controller.pit.board.auth import Busy, Password, PasswordError
from controller.pit.board.disputes import ArchiveReader, ArchiveUnavailable
from controller.pit.board.feed import Client
from controller.pit.board.loop import (
    BACKLOG,
    MAX_BODY,
    MAX_CONNECTIONS,
    RETRY_AFTER,
    Answer,
    HttpLoop,
    room_for,
)
from controller.pit.board.picture import Picture
from controller.pit.board.sessions import SESSION, Session, Sessions
from controller.pit.board.throttle import DEVICE_DAYS, Throttle, client_address
from controller.pit.board.users import ACTIONS, ROLES, Users, UsersError
from controller.shared.schemas import TABLE_ID

log = logging.getLogger(__name__)

"""A table id (docs/schemas/defs.json ``table_id``)."""
PAGES = re.compile(rf"/(?:table/{TABLE_ID.pattern}|rounds/{TABLE_ID.pattern}|round/{TABLE_ID.pattern}/[1-9][0-9]{{0,9}})?",
                   re.ASCII)
"""The board's pages (one static page, board.html, that draws each), and so the pages a login may go
on to (``fullmatch`` only: ``$`` would let a trailing newline by)."""
ARCHIVE = re.compile(rf"/api/archive/({TABLE_ID.pattern})/(rounds|at|round/([1-9][0-9]{{0,9}}))", re.ASCII)
PRINT = re.compile(rf"/print/({TABLE_ID.pattern})/([1-9][0-9]{{0,9}})", re.ASCII)
KEEPALIVE = 15.0
"""Seconds of quiet after which a stream gets a keep-alive comment."""
COOKIE = "pitboard"
SHARED = "_shared"
"""The throttle's account for the shared password (no user's name: those start with a letter)."""
ROUTES = {"/api/ack": "acknowledge", "/api/void": "void", "/api/resume": "resume"}
"""The state-changing routes besides the login's, and the action each needs (users.ACTIONS)."""
HTML = "text/html; charset=utf-8"
STATIC = {"board.html": HTML, "board.css": "text/css; charset=utf-8", "board.js": "text/javascript; charset=utf-8",
          "print.css": "text/css; charset=utf-8"}
"""The files under ``static/`` served as they are (``login.html`` is a template: ``/login``)."""
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",   # the board's own page names itself (Origin); no other site learns a URL
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
          *, users_file: Path | str | None = None, link: PitLink | None = None, trusted_proxies: tuple = (),
          read_db: str | None = None, keepalive: float = KEEPALIVE, max_connections: int = MAX_CONNECTIONS
          ) -> BoardServer:
    """Start the board on ``host:port`` (port 0: any free one, see :attr:`BoardServer.port`) on a
    thread of its own; :class:`BoardError` with a one-line reason when it cannot. ``link``: the pit
    service that sends the users' acknowledgements and commands (without it they are refused);
    ``read_db``: the archive the board finds rounds in (without it, disputes are answered 503)."""
    password = users = None
    if password_file is not None and users_file is not None:
        raise BoardError("give --users-file (a login per person) or --password-file (one shared password), not both")
    if password_file is not None:
        try:
            password = Password.from_file(Path(password_file))
        except PasswordError as exc:
            raise BoardError(str(exc)) from None
    elif users_file is not None:
        try:
            users = Users.load(Path(users_file))
        except UsersError as exc:
            raise BoardError(str(exc)) from None
        if not users.users:
            raise BoardError(f"--users-file {users_file}: no user in it yet (tablectl pit user add NAME --role ROLE "
                             f"--users-file {users_file})")
    elif not is_loopback(host):
        raise BoardError(f"the board would listen on {host}, beyond this machine, without a login: give "
                         f"--users-file FILE or --password-file FILE (docs/pit-board.md), or listen on 127.0.0.1")
    try:
        server = BoardServer((host, port), picture, password, keepalive, max_connections=max_connections,
                             users=users, link=link, trusted_proxies=tuple(trusted_proxies),
                             archive=ArchiveReader(read_db) if read_db else None)
    except OSError as exc:
        raise BoardError(f"cannot serve the board on {host}:{port}: {exc.strerror or exc}") from None
    server.start()
    log.info("pit board on http://%s:%d/%s", host, server.port,
             f" ({len(users.users)} users)" if users else " (password required)" if password else "")
    return server


class BoardServer:
    """The board's listening socket, its loop (controller.pit.board.loop), its sessions and the
    login's brakes."""

    def __init__(self, address: tuple[str, int], picture: Picture, password: Password | None,
                 keepalive: float, *, max_connections: int = MAX_CONNECTIONS, users: Users | None = None,
                 link: PitLink | None = None, trusted_proxies: tuple = (), archive: ArchiveReader | None = None
                 ) -> None:
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        try:
            # a restart within TIME_WAIT binds; another listener on the port still fails (Linux)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(address)
            listener.listen(BACKLOG)   # a burst of browsers waits in the backlog, not refused by the kernel
        except OSError:
            listener.close()
            raise
        self.server_address = listener.getsockname()[:2]
        self.picture = picture
        self.password = password
        self.users = users
        self.link = link
        self.archive = archive
        self.trusted_proxies = trusted_proxies
        self.keepalive = keepalive
        self.sessions = Sessions()
        self.throttle = Throttle()
        self.logins_refused = 0
        self.logins_busy = 0
        self.loop = HttpLoop(listener, self._handle, picture.unsubscribe, keepalive=keepalive,
                             max_connections=room_for(max_connections), busy=_busy(), mark=picture.feed.mark,
                             slow=_slow)

    def start(self) -> None:
        self.picture.feed.listeners.append(self.loop.wake)
        self.loop.start()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        host = self.server_address[0]
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def stop(self) -> None:
        """Stop listening and end every stream."""
        with contextlib.suppress(ValueError):
            self.picture.feed.listeners.remove(self.loop.wake)
        self.loop.stop()
        if self.archive is not None:
            self.archive.close_all()

    def _handle(self, raw: bytes, address: tuple) -> Answer:
        """One request's answer (on the loop's thread, or a form's thread)."""
        handler = Handler(raw, address, self)
        return Answer(handler.wfile.getvalue(), handler.stream)

    @property
    def login_needed(self) -> bool:
        return self.password is not None or self.users is not None


class Handler(BaseHTTPRequestHandler):
    """http.server's handler on a request the loop has read whole (``raw``): the answer is written
    to ``wfile`` (memory) for the loop to send; ``stream`` is set for an event stream."""

    server: BoardServer
    server_version = "tablectl-pit-board"
    sys_version = ""

    def __init__(self, raw: bytes, client_address: tuple, server: BoardServer) -> None:
        # Not BaseRequestHandler's __init__: there is no socket here, only the request's bytes.
        self.client_address = client_address
        self.server = server
        self.rfile = io.BytesIO(raw)
        self.wfile = io.BytesIO()
        self.stream: Client | None = None
        self.close_connection = True
        if raw:
            self.handle_one_request()
        else:   # the loop read more than a request's head may be without its end
            self.requestline, self.request_version, self.command = "", "HTTP/1.0", ""
            self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)

    # -- routing --------------------------------------------------------------------------

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = url.path
        if path.startswith("/static/") and path[len("/static/"):] in STATIC:
            return self._static(path[len("/static/"):])
        if path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
        if path == "/login":
            if not self.server.login_needed:
                return self._redirect("/")
            return self._login(parse_qs(url.query).get("next", ["/"])[0])
        if not self._allowed(path, url.query):
            return None
        if path == "/api/me":
            return self._me()
        if PAGES.fullmatch(path):
            return self._static("board.html")
        if path.startswith("/api/archive/") or path.startswith("/print/"):
            return self._archive(path, parse_qs(url.query))
        if path == "/api/tables":
            return self._json_text(self.server.picture.tiles_json())
        if path.startswith("/api/table/") and TABLE_ID.fullmatch(path[len("/api/table/"):]):
            detail = self.server.picture.detail_json(path[len("/api/table/"):])
            return self._json_text(detail) if detail else self._json({"error": "no such table"}, HTTPStatus.NOT_FOUND)
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
        if path not in ("/login", "/logout", *ROUTES) or (path == "/login" and not self.server.login_needed):
            return self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)
        if not self._same_origin():
            log.warning("pit board: a %s from %s refused: it came from another site's page", path,
                        self.client_address[0])
            return self._json({"error": "refused: this request did not come from the board's own page"},
                              HTTPStatus.FORBIDDEN)
        form = self._form()
        if form is None:
            return None
        if path == "/login":
            return self._log_in(form)
        session = self._session()
        if self.server.login_needed and session is None:
            return self._json({"error": "log in first (/login)"}, HTTPStatus.UNAUTHORIZED)
        token = self.headers.get("X-CSRF-Token") or form.get("csrf", [""])[0]
        if session is not None and not session.token_is(token):
            log.warning("pit board: a %s from %s refused: without the session's CSRF token", path,
                        self.client_address[0])
            return self._json({"error": "refused: the request did not carry this session's token (reload the "
                                        "page)"}, HTTPStatus.FORBIDDEN)
        if path == "/logout":
            self.server.sessions.logout(self._cookie())
            return self._redirect("/login" if self.server.login_needed else "/", clear=True)
        action = ROUTES[path]
        if session is None or session.user is None or not self._may(session, action):
            who = ("a board without logins" if session is None else "the shared login" if session.user is None
                   else f"{session.user} ({session.role})")
            return self._json({"error": f"refused: {who} may not {action} (a supervisor may)"}, HTTPStatus.FORBIDDEN)
        try:
            if action == "acknowledge":
                done = actions.acknowledge(self.server.picture, self.server.link, self.server.users, session.user, form)
            else:
                done = actions.command(self.server.picture, self.server.link, session.user, action, form)
        except Refusal as refusal:
            return self._json({"error": refusal.why}, refusal.status)
        return self._json(done)

    def _log_in(self, form: dict[str, list[str]]) -> None:
        """The login form: a person (users file) or the shared password, braked per account and per
        address with a way in for a known browser (controller.pit.board.throttle)."""
        server = self.server
        after = form.get("next", ["/"])[0]
        name = form.get("user", [""])[0].strip().lower()[:64] if server.users is not None else SHARED
        address, _ = self._origin_address()
        cookies = self._cookies()
        device = server.throttle.device(name, cookies) if name else None
        wait = server.throttle.admit(name, address, device) if name else 0.0
        try:
            if wait > 0:
                raise Busy
            if server.users is not None:
                user = server.users.check(name, form.get("password", [""])[0], reserved=device is not None) \
                    if name else None
                right, role = user is not None, user.role if user is not None else ""
            else:
                assert server.password is not None
                right, role = server.password.check(form.get("password", [""])[0], reserved=device is not None), \
                    "viewer"
        except Busy:
            # Not hashed: answered at once, logged at debug only (a flood of guesses is not a flood of lines).
            server.logins_busy += 1
            log.debug("pit board: login from %s not checked (busy, or waiting after wrong passwords)", address)
            return self._login(after, "Too many login attempts: try again in a moment.", HTTPStatus.TOO_MANY_REQUESTS,
                               retry_after=max(1, math.ceil(wait)), user=name if name != SHARED else "")
        if right:
            server.throttle.succeeded(name, address, device)
            log.info("pit board: login%s from %s", f" of {name}" if name != SHARED else "", address)
            cookie = server.sessions.login(name if name != SHARED else None, role)
            return self._redirect(_local(after), cookie=cookie, device=server.throttle.device_cookie(name))
        server.throttle.failed(name, address, device)
        server.logins_refused += 1
        log.warning("pit board: login refused from %s (wrong %s)", address,
                    "user or password" if server.users is not None else "password")
        return self._login(after, "Wrong user or password." if server.users is not None else "Wrong password.",
                           HTTPStatus.UNAUTHORIZED, user=name if name != SHARED else "")

    # -- pieces ---------------------------------------------------------------------------

    def _allowed(self, path: str, query: str) -> bool:
        if not self.server.login_needed or self._session() is not None:
            return True
        if path.startswith(("/api/", "/events")):
            self._json({"error": "log in first (/login)"}, HTTPStatus.UNAUTHORIZED)
        else:
            self._redirect("/login?next=" + quote(path, safe="/"))
        return False

    def _archive(self, path: str, query: dict[str, list[str]]) -> None:
        """A dispute's answer from the archive (on the pool: web ``_slow``)."""
        reader = self.server.archive
        found = ARCHIVE.fullmatch(path)
        printed = PRINT.fullmatch(path)
        if found is None and printed is None:
            return self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)
        if reader is None:
            return self._json({"error": "this board reads no archive (tablectl pit --db URL, or --read-db URL)"},
                              HTTPStatus.SERVICE_UNAVAILABLE)
        session = self._session()
        user = session.user if session is not None else None
        try:
            if printed is not None:
                table, number = printed.group(1), int(printed.group(2))
                page = reader.printable(table, number, user, "/static/print.css")
                if page is None:
                    return self._json({"error": f"no round {number} of table {table} in the archive"},
                                      HTTPStatus.NOT_FOUND)
                return self._send(HTTPStatus.OK, page.encode(), HTML)
            assert found is not None
            table, what = found.group(1), found.group(2)
            if what == "rounds":
                before = query.get("before", [""])[0]
                if before and (not before.isdigit() or len(before) > 10):
                    return self._json({"error": "before: must be a round number"}, HTTPStatus.BAD_REQUEST)
                return self._json(reader.history(table, int(before) if before else None))
            if what == "at":
                when = _when(query.get("t", [""])[0])
                if when is None:
                    return self._json({"error": "t: must be a date and time with its offset, such as "
                                                "2026-11-20T14:00:00+01:00"}, HTTPStatus.BAD_REQUEST)
                return self._json({"table": table, "at": when.isoformat(), "round": reader.round_at(table, when)})
            number = int(found.group(3))
            data = reader.round(table, number)
        except ArchiveUnavailable as exc:
            log.warning("pit board: %s", exc)
            return self._json({"error": str(exc)}, HTTPStatus.SERVICE_UNAVAILABLE)
        if data is None:
            return self._json({"error": f"no round {number} of table {table} in the archive"}, HTTPStatus.NOT_FOUND)
        data["exported"] = {"by": user, "at": time.time()}
        extra = {}
        if query.get("download") == ["1"]:
            extra["Content-Disposition"] = f'attachment; filename="{table}-round-{number}.json"'
        return self._send(HTTPStatus.OK, json.dumps(data, ensure_ascii=False, indent=1).encode(), "application/json",
                          headers=extra)

    def _session(self) -> Session | None:
        return self.server.sessions.get(self._cookie())

    def _may(self, session: Session, action: str) -> bool:
        return ROLES.index(session.role) >= ROLES.index(ACTIONS[action])

    def _me(self) -> None:
        """Who this browser is logged in as, what they may do, and the session's CSRF token: read by
        the board's own page (another site's page cannot read it: same origin only, no CORS)."""
        session = self._session()
        role = session.role if session is not None else "viewer"
        named = session is not None and session.user is not None
        self._json({"user": session.user if session else None, "role": role,
                    "csrf": session.csrf if session else None, "login": self.server.login_needed,
                    "may": {a: named and self._may(session, a) for a in ("acknowledge", "void", "resume")}})

    def _cookies(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for part in (self.headers.get("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name and name not in found:
                found[name] = value
        return found

    def _cookie(self) -> str | None:
        return self._cookies().get(COOKIE)

    def _origin_address(self) -> tuple[str, bool]:
        """The browser's address as the login's brakes count it, and whether it came over TLS."""
        return client_address(self.client_address[0], self.headers.get("X-Forwarded-For"),
                              self.headers.get("X-Forwarded-Proto"), self.server.trusted_proxies)

    def _same_origin(self) -> bool:
        """Whether a state-changing request may have come from this board's page. A browser says
        where a request comes from: ``Sec-Fetch-Site`` (``same-origin`` from the board's own page)
        and ``Origin``, which must then be this board's (the ``Host`` the browser asked for, or the
        one a trusted proxy forwards); ``null`` (an opaque origin: a sandboxed frame, a data: page)
        only counts when the browser said same-origin. A request with neither is no browser's
        cross-site request (and still needs the session's CSRF token)."""
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            return False
        origin = self.headers.get("Origin")
        if origin is None or (origin == "null" and site is not None):
            return True
        hosts = {(self.headers.get("Host") or "").lower()}
        if self._trusted_peer():
            hosts.add((self.headers.get("X-Forwarded-Host") or "").split(",")[0].strip().lower())
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc.lower() in hosts - {""}

    def _trusted_peer(self) -> bool:
        """Whether the connection is from a proxy named with --trusted-proxy."""
        return client_address(self.client_address[0], None, "https", self.server.trusted_proxies)[1]

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
               retry_after: int | None = None, user: str = "") -> None:
        """The login form, going to ``after`` (a path of this board) once logged in; with a users
        file it asks who, too."""
        page = _read("login.html").decode()
        who = (f'<label for="user">User</label>\n    <input id="user" name="user" autocomplete="username" required '
               f'autocapitalize="none" spellcheck="false" value="{html.escape(user, quote=True)}">'
               if self.server.users is not None else "")
        page = page.replace("{next}", html.escape(_local(after), quote=True)).replace("{message}", html.escape(message))
        page = page.replace("{user}", who)
        extra = {} if retry_after is None else {"Retry-After": str(retry_after)}
        self._send(status, page.encode(), HTML, headers=extra)

    def _static(self, name: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, _read(name), STATIC[name], cache="no-cache")

    def _json(self, value: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _json_text(self, text: str) -> None:
        self._send(HTTPStatus.OK, text.encode(), "application/json")

    def _redirect(self, where: str, *, cookie: str | None = None, clear: bool = False,
                  device: tuple[str, str] | None = None) -> None:
        self.send_response(HTTPStatus.SEE_OTHER)
        self.send_header("Location", where)
        # Secure when the browser came over TLS, as only a trusted proxy can say (the board speaks HTTP)
        secure = "; Secure" if self._origin_address()[1] else ""
        if cookie is not None:
            self.send_header("Set-Cookie", f"{COOKIE}={cookie}; Path=/; HttpOnly; SameSite=Strict; "
                                           f"Max-Age={int(SESSION)}{secure}")
        if device is not None:   # this browser is known to this account from now on (controller.pit.board.throttle)
            self.send_header("Set-Cookie", f"{device[0]}={device[1]}; Path=/login; HttpOnly; SameSite=Strict; "
                                           f"Max-Age={DEVICE_DAYS * 86400}{secure}")
        if clear:
            self.send_header("Set-Cookie", f"{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0{secure}")
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
        """The stream's head and its start (the snapshot, or nothing when a reconnecting browser
        goes on where it was); the loop then writes each patch as it comes, until the browser goes
        or falls behind."""
        start, client = self.server.picture.stream(table, self.headers.get("Last-Event-ID"))
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self._security()
        self.end_headers()
        self.wfile.write(b"retry: 2000\n\n" + start)
        self.stream = client

    # -- logging: never a query string, never a body ----------------------------------------

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        path = getattr(self, "path", None)   # unset when the request line could not be read
        log.debug("pit board: %s %s %s %s", self.client_address[0], getattr(self, "command", None) or "-",
                  urlsplit(path).path[:200] if path else "-", code)

    def log_error(self, format: str, *args: Any) -> None:
        log.info("pit board: a bad request from %s", self.client_address[0])

    def log_message(self, format: str, *args: Any) -> None:
        pass   # everything worth logging goes through the two above, without what a request carried


def _slow(raw: bytes) -> bool:
    """The requests answered on the loop's pool, not its thread: those that wait. A form (the login
    hashes with scrypt for ~50 ms; a void waits for the table's reply); a route that asks the
    archive belongs here too. Everything else is answered from memory (the picture, the static
    files) and must not block."""
    return raw.startswith((b"POST ", b"GET /api/archive/", b"GET /print/"))


def _busy() -> bytes:
    """The answer to a connection past the cap (written by the loop before it reads the request)."""
    body = json.dumps({"error": "the board is serving as many connections as it may: try again shortly",
                       "status": 503}).encode()
    head = [f"HTTP/1.0 503 {HTTPStatus.SERVICE_UNAVAILABLE.phrase}", f"Server: {Handler.server_version}",
            "Content-Type: application/json", f"Retry-After: {RETRY_AFTER}", f"Content-Length: {len(body)}",
            "Cache-Control: no-store", *(f"{k}: {v}" for k, v in HEADERS.items())]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _when(text: str) -> datetime | None:
    """A time a round is looked for at: ISO 8601 with its offset (the page sends UTC); one without an
    offset is refused, not guessed (which zone would it be?)."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return when if when.tzinfo is not None and 1970 <= when.year <= 9999 else None


def _read(name: str) -> bytes:
    return resources.files("controller.pit.board").joinpath("static", name).read_bytes()


def _local(target: str) -> str:
    """Where to go after the login: ``/`` or ``/table/<id>``, whole, else ``/``.

    ``next`` comes from the form, so an attacker writes it: an allow-list of the board's own pages
    (not a deny-list of tricks) keeps a CR/LF out of the 303's headers and a tab or backslash that a
    browser drops (``/\t/evil.example`` -> ``//evil.example``) out of its Location."""
    return target if PAGES.fullmatch(target) else "/"
