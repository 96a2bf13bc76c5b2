"""A throwaway PostgreSQL for the benchmark's pit part (hw_sim.bench.pit), as hw_sim.broker is its
throwaway broker: a cluster made with ``initdb`` in a temporary directory, listening on a free
loopback port, trusting local connections, removed when stopped.

The pit service archives into PostgreSQL, so measuring it needs one; a site's own server can be
given instead (``tablectl bench --only pit --db URL``). PostgreSQL refuses to run as root: then the
cluster runs as the ``postgres`` user Debian's package creates. Unlike the tests' server
(tests/postgres_support.py), this one keeps PostgreSQL's defaults for durability (``fsync`` on,
synchronous commits): the archive's commits cost here what they cost at a site.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from hw_sim.broker import free_port


def bin_dir() -> Path | None:
    """Debian keeps the server's programs out of PATH, under /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                      key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return versions[-1].parent if versions else None


class LocalPostgres:
    """``start()``, ``url(dbname)``, ``stop()``."""

    def __init__(self) -> None:
        found = bin_dir()
        if found is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql), and no --db was given")
        self.bin = found
        self.run_as = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        self.user = "postgres" if self.run_as else pwd.getpwuid(os.geteuid()).pw_name
        self.root: Path | None = None
        self.port = 0

    def start(self) -> LocalPostgres:
        self.root = Path(tempfile.mkdtemp(prefix="tablectl-bench-pg-"))
        if self.run_as:
            os.chown(self.root, self.run_as.pw_uid, self.run_as.pw_gid)
        self.port = free_port()
        data = self.root / "data"
        self._run([str(self.bin / "initdb"), "-D", str(data), "-U", self.user, "-A", "trust", "-E", "UTF8",
                   "--locale", "C"])
        opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root} "
                "-c max_connections=40")
        self._run([str(self.bin / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(self.root / "log"), "-w",
                   "-t", "60", "start"])
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def pid(self) -> int | None:
        """The postmaster's process id."""
        try:
            assert self.root is not None
            return int((self.root / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError, AssertionError):
            return None

    def stop(self) -> None:
        if self.root is None:
            return
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop"],
                  check=False)
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def _run(self, argv: list[str], check: bool = True) -> subprocess.CompletedProcess:
        kw = {}
        if self.run_as:
            uid, gid = self.run_as.pw_uid, self.run_as.pw_gid

            def demote() -> None:
                os.setgid(gid)
                os.setuid(uid)
            kw["preexec_fn"] = demote
        done = subprocess.run(argv, check=False, capture_output=True, text=True, cwd=self.root, **kw)
        if check and done.returncode != 0:
            raise RuntimeError(f"{Path(argv[0]).name} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        return done
