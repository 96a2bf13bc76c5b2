"""The pit board's people: a login per person with a role, so every action is someone's (issue 22).

A void sent from the board is recorded on the table as ``by: pit:<user>`` and an acknowledgement
names who made it: one shared password could say only "the pit". The users file holds a line per
person, ``NAME ROLE scrypt$N$r$p$SALT$HASH`` -- the password kept only as its scrypt hash
(:mod:`controller.pit.board.auth`), never in clear -- and is managed with ``tablectl pit user``
(add, password, role, remove, list), which writes it atomically (a temporary file, then rename)
with mode 600.

Roles, each with what the one below may do:

- ``viewer``: sees the board, the tables' pages and rounds, exports a round;
- ``supervisor``: also acknowledges alarms (with a note and an assignee) and voids or resumes a
  round from the board;
- ``admin``: also everything a later board feature reserves for the pit's administrators. Users
  are managed on the pit server's command line, not from the board.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from controller.pit.board.auth import Password, PasswordError

ROLES: tuple[str, ...] = ("viewer", "supervisor", "admin")
"""From the least to the most allowed; a role may do what the ones before it may."""

NAME = re.compile(r"^[a-z][a-z0-9_.-]{0,31}$")
"""A user's name, as the tables record it (``pit:<user>``: docs/schemas/defs.json ``pit_user``)."""

ACTIONS: dict[str, str] = {"view": "viewer", "export": "viewer", "acknowledge": "supervisor",
                           "void": "supervisor", "resume": "supervisor"}
"""What each board action needs at least."""


class UsersError(ValueError):
    """A users file or a change that cannot be used; the message names the file or the user and
    why, never a password."""


@dataclass(frozen=True)
class User:
    name: str
    role: str
    password: Password

    def may(self, action: str) -> bool:
        """Whether this user's role allows ``action`` (one of :data:`ACTIONS`)."""
        return ROLES.index(self.role) >= ROLES.index(ACTIONS[action])

    def line(self) -> str:
        return f"{self.name} {self.role} {self.password.line()}"


def check_name(name: str) -> str:
    if not NAME.match(name):
        raise UsersError("a user's name is lower case letters, digits, _ . and -, at most 32, starting with a "
                         "letter")
    return name


def check_role(role: str) -> str:
    if role not in ROLES:
        raise UsersError(f"a role is one of {', '.join(ROLES)}")
    return role


class Users:
    """The users of one board, read from (and written to) its users file."""

    def __init__(self, path: Path, users: dict[str, User] | None = None) -> None:
        self.path = Path(path)
        self.users = dict(users or {})

    @classmethod
    def load(cls, path: Path, *, missing_ok: bool = False) -> Users:
        """Every line ``NAME ROLE HASH``; blank lines and ``#`` comments are skipped. A line that
        cannot be read is refused with its number and why (never its content: it holds a hash)."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            if missing_ok:
                return cls(path)
            raise UsersError(f"--users-file {path}: no such file (tablectl pit user add makes it)") from None
        except OSError as exc:
            raise UsersError(f"--users-file {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise UsersError(f"--users-file {path}: not UTF-8 text") from None
        users: dict[str, User] = {}
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            try:
                if len(parts) != 3:
                    raise UsersError("a line is NAME ROLE scrypt$N$r$p$SALT$HASH")
                name, role = check_name(parts[0]), check_role(parts[1])
                if name in users:
                    raise UsersError(f"user {name} is on an earlier line too")
                users[name] = User(name, role, Password.parse(parts[2]))
            except (UsersError, PasswordError) as exc:
                raise UsersError(f"--users-file {path}, line {number}: {exc}") from None
        return cls(path, users)

    def get(self, name: str) -> User | None:
        return self.users.get(name)

    def check(self, name: str, password: str, *, reserved: bool = False) -> User | None:
        """The user when ``password`` is theirs, else None (an unknown name costs a hash too, so a
        guess cannot tell which names exist by the time it takes). :class:`auth.Busy` passes up;
        ``reserved``: a browser the account knows (auth ``Password.check``)."""
        user = self.users.get(name)
        if user is None:
            _DECOY.check(password, reserved=reserved)
            return None
        return user if user.password.check(password, reserved=reserved) else None

    def add(self, name: str, role: str, password: str) -> User:
        check_name(name)
        if name in self.users:
            raise UsersError(f"user {name} exists: tablectl pit user password or role changes it")
        user = User(name, check_role(role), Password.of(password))
        self.users[name] = user
        return user

    def set_password(self, name: str, password: str) -> None:
        user = self._existing(name)
        self.users[name] = User(user.name, user.role, Password.of(password))

    def set_role(self, name: str, role: str) -> None:
        user = self._existing(name)
        self.users[name] = User(user.name, check_role(role), user.password)

    def remove(self, name: str) -> None:
        self._existing(name)
        del self.users[name]

    def _existing(self, name: str) -> User:
        user = self.users.get(name)
        if user is None:
            raise UsersError(f"no user {name} in {self.path}")
        return user

    def save(self) -> None:
        """Atomically, mode 600: a board reading the file meanwhile sees the old one or the new."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = "# tablectl pit board users: NAME ROLE PASSWORD-HASH (tablectl pit user ...)\n" + "".join(
            f"{u.line()}\n" for u in sorted(self.users.values(), key=lambda u: u.name))
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                os.fchmod(f.fileno(), 0o600)
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


_DECOY = Password(b"\0" * 16, b"\0" * 32)
"""A hash no password matches: an unknown user's guess is hashed against it."""
