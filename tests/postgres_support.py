"""A real PostgreSQL for the pit archive's tests (issue 10), started by the tests themselves.

One server per test session (``initdb`` takes a second or two), one fresh database per test
(``CREATE DATABASE`` takes tens of milliseconds), so a test may kill the pit service, stop the
server (:meth:`PostgresServer.stop` / :meth:`PostgresServer.start`) or fill its database without
disturbing another. The server listens on 127.0.0.1 on a free port with ``fsync`` off (the tests
prove what the archive stores, not the disk) and trusts local connections. Commits stay
synchronous: a test that crashes the server (``stop("immediate")``) must find every commit the
archive was told of, as on a production server; with ``fsync`` off the WAL still reaches the
operating system's cache, which a crash of PostgreSQL alone does not lose.

PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the ``postgres``
user Debian's package creates, in a data directory it owns under /tmp (pytest's own temporary
directories are root's, mode 700).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _bin_dir() -> Path | None:
    """Debian keeps the server's programs out of PATH, under /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                      key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return versions[-1].parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A throwaway PostgreSQL cluster: ``url(dbname)`` is a libpq URL for psycopg."""

    def __init__(self) -> None:
        bin_dir = _bin_dir()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed: bash .ci/setup installs it (apt-get install postgresql)")
        self.bin = bin_dir
        self.run_as: pwd.struct_passwd | None = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        self.root = Path(tempfile.mkdtemp(prefix="tablectl-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = "postgres" if self.run_as else pwd.getpwuid(os.geteuid()).pw_name
        if self.run_as:
            os.chown(self.root, self.run_as.pw_uid, self.run_as.pw_gid)
        self._names = itertools.count(1)
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust",
                   "--no-sync", "-E", "UTF8", "--locale", "C"])
        self.start()

    def _run(self, argv: list[str], check: bool = True) -> subprocess.CompletedProcess:
        kw = {}
        if self.run_as:
            uid, gid = self.run_as.pw_uid, self.run_as.pw_gid

            def demote() -> None:
                os.setgid(gid)
                os.setuid(uid)
            kw["preexec_fn"] = demote
        return subprocess.run(argv, check=check, capture_output=True, text=True, cwd=self.root, **kw)

    def start(self) -> None:
        """Start (or start again after :meth:`stop`) and wait until it accepts connections."""
        opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root} "
                "-c fsync=off -c full_page_writes=off -c max_connections=60")
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"),
                   "-w", "-t", "60", "start"])

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``immediate`` is a crash: no checkpoint)."""
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"], check=False)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (started at its first use)."""
    with postgres_server() as server:
        yield server


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """The URL of a fresh, empty database on the session's server."""
    if not postgres_is_up(postgres):
        postgres.start()
    return postgres.new_database()


def postgres_is_up(server: PostgresServer) -> bool:
    """True if the server accepts connections (a test may have stopped it)."""
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=1):
            return True
    except OSError:
        return False
