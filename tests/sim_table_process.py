"""One :class:`sim_table.SimTable` in a process of its own, for tests that need several tables.

gpiozero's mock pin factory is one per process and every simulated table wires its buttons and
lights to the same mock pins, so two SimTables in one process would reset and press each other's
pins. Here each further table gets its own process (and its own pins); the test talks to it only
through the broker, as the pit does, and reads its journal (``DIR/journal.db``) as another
process would.

    python tests/sim_table_process.py --port PORT [--game GAME] [--id TABLE] --seed N --dir DIR [--fault SPEC ...]

Without ``--game`` it is the example baccarat table (``bac-sim-01``), as SimTable makes it;
``--id`` gives the table another id (several of one game on one broker). Tests start it through
:class:`TableProcess` (the ``table_process`` fixture of tests/e2e/conftest.py uses it too).

It prints ``ready <table id>`` once the table is started. On its standard input, a line
``deal N`` waits until the table has journaled N events more (whether the broker is there or not,
with ``--offline-dealer``) and prints ``dealt <its last seq>`` (``stuck`` if it did not within a
minute); ``pause`` stops the dealer (the table stays up: it answers the pit's replays) and prints
``paused``. It stops the table and exits when its standard input closes (the test's end, or the
test process's death).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve()


class TableProcess:
    """A simulated table in a process of its own, dealing on the broker at ``port`` once made."""

    def __init__(self, port: int, folder: Path, *, game: str | None = None, seed: int = 1,
                 table_id: str | None = None, offline_dealer: bool = False, pace: float | None = None,
                 first_seq: int | None = None) -> None:
        """``offline_dealer``: the dealer deals on while the broker is away (it follows the table's
        own events, not only what comes back through the broker)."""
        argv = [sys.executable, str(HERE), "--port", str(port), "--seed", str(seed), "--dir", str(folder)]
        argv += ["--offline-dealer"] if offline_dealer else []
        argv += ["--game", game] if game else []
        argv += ["--id", table_id] if table_id else []
        argv += ["--pace", str(pace)] if pace is not None else []
        argv += ["--first-seq", str(first_seq)] if first_seq is not None else []
        self.journal = folder / "journal.db"
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self._line()   # pytest-timeout bounds a table that never starts
        assert line.startswith("ready "), f"the {table_id or game} table did not start (exit {self.proc.poll()})"
        self.id = line.split()[1]

    def _line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline()

    def _tell(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def pause(self) -> None:
        """The dealer stops; the table stays up (its journal stops growing, replays are answered)."""
        self._tell("pause")
        assert self._line().strip() == "paused", f"the {self.id} table did not pause (exit {self.proc.poll()})"

    @staticmethod
    def deal(tables: list[TableProcess], n: int) -> None:
        """Until each of ``tables`` has journaled ``n`` events more (they deal at once, not in turn)."""
        for table in tables:
            table._tell(f"deal {n}")
        for table in tables:
            line = table._line().strip()
            assert line.startswith("dealt "), f"the {table.id} table did not deal {n} events more: {line!r}"

    def stop(self) -> None:
        """Tell the table to stop (its standard input closes); :meth:`close` waits for it."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()

    def close(self) -> None:
        """Stop the table and wait for its process."""
        self.stop()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def main() -> int:
    sys.path.insert(0, str(HERE.parent))
    from sim_table import SimTable  # found on the path just added

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--game")
    parser.add_argument("--id")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--fault", action="append", default=[])
    parser.add_argument("--pace", type=float, help="seconds the dealer takes per action (default: flat out)")
    parser.add_argument("--first-seq", type=int, help="the journal numbers from this seq (a table that has been "
                                                          "dealing for long; needs --id)")
    parser.add_argument("--offline-dealer", action="store_true",
                        help="the dealer follows the table's own events too: it deals on while the broker is away")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    broker = SimpleNamespace(host="127.0.0.1", port=args.port)
    if args.first_seq is not None:
        from controller.table.journal import Journal

        journal = Journal(args.dir / "journal.db", args.id)
        journal.number_from(args.first_seq)
        journal.close()
    table = SimTable(broker, args.dir, seed=args.seed, game=args.game, table_id=args.id,
                     rig={"faults": args.fault, **({"pace": args.pace} if args.pace is not None else {})})
    if args.offline_dealer:
        table.controller.table.listeners.append(lambda event: table.dealer.on_event(event.envelope()))
    journaled = threading.Condition()
    last = [0]

    def count(event) -> None:  # on the table's thread, once per event journaled
        with journaled:
            last[0] = event.seq
            journaled.notify_all()
    table.controller.table.listeners.append(count)
    table.start()
    print(f"ready {table.cfg.table.id}", flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if words == ["pause"]:
                table.dealer.paused.set()
                print("paused", flush=True)
            elif len(words) == 2 and words[0] == "deal" and words[1].isdigit():
                with journaled:
                    target = last[0] + int(words[1])
                    done = journaled.wait_for(lambda target=target: last[0] >= target, 60)
                    print(f"dealt {last[0]}" if done else "stuck", flush=True)
    finally:
        table.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
