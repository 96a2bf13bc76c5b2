"""The pit board's password: read from a file, kept only as a scrypt hash, checked in constant time.

The board binds to localhost unless told otherwise; on any other address it asks for a password
(controller.pit.board.web). ``--password-file FILE`` holds either

- the password itself, on the file's first line (mode 600, owned by the service's user); the
  board hashes it with a fresh salt as it starts and keeps only the hash; or
- a line ``scrypt$N$r$p$SALT$HASH`` (base64 salt and hash) that ``python -m controller.pit.board.auth``
  prints for a password it asks for, so that the file on disk holds no password at all.

The password is never logged, never echoed in an error, and never compared byte by byte: a
candidate is hashed with the same salt and the hashes compared with :func:`hmac.compare_digest`.
scrypt (hashlib, OpenSSL's) costs some 50 ms a guess, which is the brute-force brake.

That cost is also memory (16 MiB a guess) and CPU: guesses are hashed :data:`HASHING` at a time in
the whole process, and one that finds every slot taken is refused at once (:class:`Busy`), never
queued, so a crowd of guesses cannot exhaust a Pi's memory or starve the pit service's threads.
"""

from __future__ import annotations

import base64
import binascii
import getpass
import hashlib
import hmac
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

N, R, P = 2**14, 8, 1
"""scrypt's cost parameters (the interactive-login strength of its paper: 16 MiB, ~50 ms)."""
LENGTH = 32
MAX_PASSWORD = 1024
"""Characters a password (or a guess) may have: a guess longer than this is refused unhashed."""
HASHING = 2
"""Guesses hashed at once in this process: two is a person and a retry; more is an attack."""
RESERVED = 1
"""Slots kept for the guesses of browsers known to the account (controller.pit.board.throttle:
their device cookie), so a flood of guesses that takes every other slot does not keep them out."""
_slots = threading.BoundedSemaphore(HASHING)
_reserved = threading.BoundedSemaphore(RESERVED)


class Busy(Exception):
    """Every hashing slot is taken: the guess was not checked; ask again shortly (HTTP 429)."""


class PasswordError(ValueError):
    """A password file that cannot be used; the message names the file and why, never its content."""


@dataclass(frozen=True)
class Password:
    """A password's scrypt hash and its salt and cost: all the board keeps of it."""

    salt: bytes
    digest: bytes
    n: int = N
    r: int = R
    p: int = P

    @classmethod
    def of(cls, password: str) -> Password:
        if not password:
            raise PasswordError("the password is empty")
        if len(password) > MAX_PASSWORD:
            raise PasswordError(f"the password is longer than {MAX_PASSWORD} characters")
        salt = os.urandom(16)
        return cls(salt, _scrypt(password, salt, N, R, P))

    @classmethod
    def parse(cls, line: str) -> Password:
        """A ``scrypt$N$r$p$SALT$HASH`` line."""
        parts = line.split("$")
        if len(parts) != 6 or parts[0] != "scrypt":
            raise PasswordError("not a scrypt$N$r$p$SALT$HASH line")
        try:
            n, r, p = (int(x) for x in parts[1:4])
            salt, digest = base64.b64decode(parts[4], validate=True), base64.b64decode(parts[5], validate=True)
        except (ValueError, binascii.Error):
            raise PasswordError("a scrypt line's N, r and p must be numbers and its salt and hash base64") from None
        if n < 2 or n & (n - 1) or n > 2**20 or not 1 <= r <= 32 or not 1 <= p <= 16 or len(salt) < 8 \
                or len(digest) < 16:
            raise PasswordError("a scrypt line with parameters out of range (N a power of 2 up to 2^20, r 1-32, "
                                "p 1-16, a salt of 8 bytes or more, a hash of 16 or more)")
        return cls(salt, digest, n, r, p)

    @classmethod
    def from_file(cls, path: Path) -> Password:
        """The password (or its hash line) on the first line of ``path``."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise PasswordError(f"--password-file {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise PasswordError(f"--password-file {path}: not UTF-8 text") from None
        line = text.split("\n", 1)[0].rstrip("\r")
        try:
            return cls.parse(line) if line.startswith("scrypt$") else cls.of(line)
        except PasswordError as exc:
            raise PasswordError(f"--password-file {path}: {exc}") from None

    def line(self) -> str:
        b64 = base64.b64encode
        return f"scrypt${self.n}${self.r}${self.p}${b64(self.salt).decode()}${b64(self.digest).decode()}"

    def check(self, candidate: str, *, reserved: bool = False) -> bool:
        """True when ``candidate`` is the password; constant time in what it compares.

        :class:`Busy` when :data:`HASHING` guesses are being hashed already (``reserved``: a guess
        from a browser the account knows, which may also take one of the :data:`RESERVED` slots)."""
        if not candidate or len(candidate) > MAX_PASSWORD:
            return False
        slot = _reserved if reserved and _reserved.acquire(blocking=False) else _slots
        if slot is _slots and not _slots.acquire(blocking=False):
            raise Busy   # never wait: a waiting guess still holds its thread and its connection
        try:
            return hmac.compare_digest(_scrypt(candidate, self.salt, self.n, self.r, self.p, len(self.digest)),
                                       self.digest)
        finally:
            slot.release()


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, length: int = LENGTH) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=length,
                          maxmem=256 * n * r + 1024 * 1024)


def main() -> int:
    """``python -m controller.pit.board.auth``: a hash line for a password typed twice, for the file."""
    try:
        first = getpass.getpass("pit board password: ")
        again = getpass.getpass("again: ")
    except (EOFError, KeyboardInterrupt):
        print("\nno password given; nothing written", file=sys.stderr)
        return 1
    if again != first:
        print("the two passwords differ; nothing written", file=sys.stderr)
        return 1
    try:
        print(Password.of(first).line())
    except PasswordError as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
