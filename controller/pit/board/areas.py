"""Which pit area each table stands in, from a map the pit keeps (``tablectl pit --areas FILE``).

A floor supervisor looks after an area (a pit, a room, a row of tables), so the board orders and
filters its floor by area (issue 22). A table does not publish where it stands: its config says
which game it deals and on which broker, and moving a table across the room should not mean
touching its controller. So the map is the pit's, one TOML file read when the service starts::

    # table id (or a glob over table ids) = the area's name
    [areas]
    "bac-01" = "Pit 1"
    "bac-*" = "Pit 1"
    "poker-0[1-6]" = "Poker room"

A table's own id wins over a glob; among globs the first in the file that matches wins. A table
the map does not name has no area (the board shows "—" and lists it after the named areas).
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

NAME = 40
"""Characters an area's name may have (it is drawn on a small cell of the floor)."""
ENTRIES = 5000
"""Entries a map may hold: a site's tables with room to spare."""
_ID_OR_GLOB = re.compile(r"[A-Za-z0-9_*?\[\]!-]{1,64}")


class AreasError(ValueError):
    """A map that cannot be used; the message names the file and the entry, and why."""


@dataclass(frozen=True)
class Areas:
    """Table id -> area, with globs."""

    exact: dict[str, str] = field(default_factory=dict)
    globs: tuple[tuple[str, str], ...] = ()

    def of(self, table: str) -> str | None:
        area = self.exact.get(table)
        if area is not None:
            return area
        return next((a for pattern, a in self.globs if fnmatch.fnmatchcase(table, pattern)), None)

    @classmethod
    def parse(cls, text: str, where: str = "--areas") -> Areas:
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise AreasError(f"{where}: not TOML: {exc}") from None
        extra = set(raw) - {"areas"}
        if extra or not isinstance(raw.get("areas", {}), dict):
            raise AreasError(f"{where}: the file holds one table, [areas], of table id = \"area\" lines")
        entries = raw.get("areas", {})
        if len(entries) > ENTRIES:
            raise AreasError(f"{where}: more than {ENTRIES} entries")
        exact: dict[str, str] = {}
        globs: list[tuple[str, str]] = []
        for key, area in entries.items():
            if not _ID_OR_GLOB.fullmatch(key):
                raise AreasError(f"{where}: {key[:64]!r}: not a table id or a glob over table ids")
            if not isinstance(area, str) or not area.strip() or len(area) > NAME or not area.isprintable():
                raise AreasError(f"{where}: {key}: the area must be a name of 1 to {NAME} printable characters")
            if any(c in key for c in "*?["):
                globs.append((key, area.strip()))
            else:
                exact[key] = area.strip()
        return cls(exact, tuple(globs))

    @classmethod
    def load(cls, path: Path) -> Areas:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise AreasError(f"--areas {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise AreasError(f"--areas {path}: not UTF-8 text") from None
        return cls.parse(text, f"--areas {path}")
