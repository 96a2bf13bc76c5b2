"""The two programs stay in their rooms (issue 20; shared/DESIGN.md, "The shape").

``controller.table`` is the daemon under the table, ``controller.pit`` everything the pit runs,
``controller.shared`` the little both need (event schemas, how to reach the broker); the CLI at
the top (``controller/cli.py`` and its own helpers beside it) dispatches to them. Neither program
imports the other, the shared part imports neither, and no program imports the CLI. An installed
table has no psycopg (the pit's archive driver, the ``pit`` extra): every table command runs without it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONTROLLER = ROOT / "controller"
CLI = {"controller.cli", "controller.demo_end", "controller.odds_report"}

NEVER = {
    "controller.table": ("controller.pit", *CLI),
    "controller.pit": ("controller.table", *CLI),
    "controller.shared": ("controller.table", "controller.pit", *CLI),
}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (absolute, or relative resolved against its package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            found += [(node.lineno, f"{base}.{a.name}" if base else a.name) for a in node.names]
    return found


def _breaches() -> list[str]:
    out = []
    for path in sorted(CONTROLLER.rglob("*.py")):
        mod = _module(path)
        for room, never in NEVER.items():
            if mod != room and not mod.startswith(room + "."):
                continue
            for line, name in _imports(path):
                for bad in never:
                    if name == bad or name.startswith(bad + "."):
                        out.append(f"{path.relative_to(ROOT)}:{line}: {room} imports {name}")
    return out


def test_neither_program_imports_the_other_nor_the_cli():
    assert _breaches() == []


def test_the_check_sees_a_breach():
    """The check above can fail: a pit module that imports the table loop is reported."""
    bad = CONTROLLER / "pit" / "_boundary_probe.py"
    bad.write_text("from controller.table.loop import Table\n", encoding="utf-8")
    try:
        assert _breaches() == ["controller/pit/_boundary_probe.py:1: controller.pit imports controller.table.loop.Table"]
    finally:
        bad.unlink()


def test_every_package_of_the_controller_is_in_a_room():
    """A new module goes into one of the rooms, not beside the CLI."""
    top = sorted(p.name for p in CONTROLLER.glob("*.py"))
    assert top == ["__init__.py", "cli.py", "demo_end.py", "odds_report.py"]
    assert sorted(p.name for p in CONTROLLER.iterdir() if p.is_dir() and p.name != "__pycache__") == \
        ["data", "pit", "shared", "table"]


BLOCK_PSYCOPG = """
import importlib.abc, sys
class NoPsycopg(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "psycopg" or name.startswith("psycopg.") or name.startswith("psycopg_"):
            raise ModuleNotFoundError(f"No module named {name!r} (a table has no pit extra)")
        return None
sys.meta_path.insert(0, NoPsycopg())
from controller.cli import main
code = main(sys.argv[1:])
assert not [m for m in sys.modules if m.startswith("psycopg")]
sys.exit(code)
"""


@pytest.mark.parametrize("argv", [
    ["demo", "--rounds", "2", "--seed", "3"],
    ["demo", "--game", "hot_action", "--rounds", "1", "--seed", "3"],
    ["odds", "baccarat"],
    ["run", "--help"], ["sim", "--help"], ["prune", "--help"], ["journal", "check", "--help"],
])
def test_a_table_without_psycopg_runs_every_table_command(argv: list[str]):
    done = subprocess.run([sys.executable, "-c", BLOCK_PSYCOPG, *argv], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_pit_says_it_needs_psycopg_when_it_is_missing():
    done = subprocess.run([sys.executable, "-c", BLOCK_PSYCOPG, "report", "--db", "postgresql://x@127.0.0.1:1/x"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode != 0 and "psycopg" in done.stderr and "Traceback" not in done.stderr, done.stderr
