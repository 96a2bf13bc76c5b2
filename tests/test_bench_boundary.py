"""The benchmark is a tool beside the simulator, not part of the daemon (docs/performance.md).

`tablectl run` must never load hw_sim (DESIGN.md, import rule): building the CLI's parser, which
defines `tablectl bench`'s arguments too, imports nothing of hw_sim; the bench imports nothing of
the controller, which it measures as a child process.
"""

from __future__ import annotations

import subprocess
import sys


def _imported(*code_or_args: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-X", "importtime", *code_or_args], capture_output=True, text=True,
                          timeout=60)
    return {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}


def test_tablectl_run_imports_no_hw_sim() -> None:
    modules = _imported("-m", "controller.cli", "run", "--help")
    assert "controller.table.config" in modules   # the CLI ran (as __main__) and loaded what run needs
    assert not [m for m in modules if m.split(".")[0] == "hw_sim"]


def test_the_bench_imports_nothing_of_the_controller() -> None:
    modules = _imported("-c", "import hw_sim.bench.harness, hw_sim.bench.sim_worker, hw_sim.bench.__main__")
    assert "hw_sim.bench.harness" in modules
    assert not [m for m in modules if m.split(".")[0] == "controller"]


def test_the_cli_names_the_bench_phases_the_harness_runs() -> None:
    """`tablectl bench --only` lists the phases without importing the harness (above): the two lists
    are one list written twice, so they must stay the same, in the same order."""
    from controller.cli import BENCH_PHASES
    from hw_sim.bench.harness import PHASES

    assert BENCH_PHASES == PHASES
