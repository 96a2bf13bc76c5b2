"""One :class:`sim_table.SimTable` in a process of its own, for tests that need several tables.

gpiozero's mock pin factory is one per process and every simulated table wires its buttons and
lights to the same mock pins, so two SimTables in one process would reset and press each other's
pins. Here each further table gets its own process (and its own pins); the test talks to it only
through the broker, as the pit does.

    python tests/sim_table_process.py --port PORT [--game GAME] [--id TABLE] --seed N --dir DIR [--fault SPEC ...]

Without ``--game`` it is the example baccarat table (``bac-sim-01``), as SimTable makes it;
``--id`` gives the table another id (several of one game on one broker). Tests start it through
the ``table_process`` fixture (tests/e2e/conftest.py).

It prints ``ready <table id>`` once the table is started, and stops the table and exits when its
standard input closes (the test's end, or the test process's death).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sim_table import SimTable  # found on the path just added


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--game")
    parser.add_argument("--id")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--fault", action="append", default=[])
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    broker = SimpleNamespace(host="127.0.0.1", port=args.port)
    table = SimTable(broker, args.dir, seed=args.seed, game=args.game, table_id=args.id,
                     rig={"faults": args.fault}).start()
    print(f"ready {table.cfg.table.id}", flush=True)
    try:
        sys.stdin.read()
    finally:
        table.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
