"""``python -m hw_sim.bench worker ROLE ...``: one of the benchmark's child processes.

The benchmark itself is `tablectl bench` (its arguments are the CLI's);
this entry point only starts the workers it spawns.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from hw_sim.bench.workers import ROLES, add_worker_arguments


def worker_main(argv: list[str] | None = None) -> int:
    from hw_sim.bench.pit_workers import ROLES as PIT_ROLES
    from hw_sim.bench.pit_workers import add_pit_worker_arguments
    from hw_sim.bench.sim_worker import run_sim_worker

    roles: dict[str, Callable[[argparse.Namespace], int]] = {**ROLES, **PIT_ROLES, "sim": run_sim_worker}
    p = argparse.ArgumentParser(prog="python -m hw_sim.bench worker")
    p.add_argument("role", choices=sorted(roles))
    add_worker_arguments(p)
    add_pit_worker_arguments(p)
    p.add_argument("--config", type=Path)
    p.add_argument("--pace", type=float, default=0.0)
    p.add_argument("--cards", type=int, default=0)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    return roles[args.role](args)


if __name__ == "__main__":
    if sys.argv[1:2] != ["worker"]:
        print("usage: python -m hw_sim.bench worker ROLE ... (the benchmark itself is `tablectl bench`)",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(worker_main(sys.argv[2:]))
