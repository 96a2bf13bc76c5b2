"""The glance on a terminal: the board redrawn in place, alarms loud.

Each table's line is its pit-board tile (controller.pit.board.picture) in columns: the same open alarms,
the same hands per hour and the same last result a browser on the board shows, only drawn for a
terminal. One thread draws; it wakes when the glance changes (a message came) and, with nothing
coming, every :data:`REFRESH` seconds so the clock moves on. A burst of messages is
one redraw, not one each: the thread draws what is there when it wakes, at most every
:data:`FRAME` seconds. On a terminal the frame
is written over the last one (cursor home, each line cleared to its end), without clearing the
screen first, so it does not flicker; every line is cut to the terminal's width so none wraps.

An alarming table's line starts with ``!!`` and, where the terminal takes colour (a tty, TERM not
``dumb``, NO_COLOR unset), is white on red; an offline table's is yellow. The marker carries the
alarm without colour too (a screen reader, a pipe, a monochrome console).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from controller.pit.board.picture import floor_order
from controller.pit.columns import columns, printable
from controller.pit.watch.glance import Glance

REFRESH = 30.0
"""Seconds between redraws when no message comes: the header's clock says the frame is current."""

FRAME = 0.1
"""Seconds at least between two frames: no eye reads more than ten a second, and a simulated
floor's hundreds of events a second would otherwise keep a core busy redrawing. Messages are
taken in as they come meanwhile; only the drawing waits."""

ALARM = "\x1b[1;37;41m"
OFFLINE = "\x1b[33m"
RESET = "\x1b[0m"
HOME, CLEAR_LINE, CLEAR_BELOW, CLEAR_SCREEN = "\x1b[H", "\x1b[K", "\x1b[J", "\x1b[2J"

HEADERS = ("", "table", "game", "online", "state", "round", "hands/h", "alarms", "devices", "last result")
NUMERIC = frozenset({"round", "hands/h", "alarms"})
ATTENTION = frozenset({"critical", "fault", "warning"})
"""A tile's condition levels that mark its line ``!!`` (controller.pit.board.picture ``condition``)."""


def takes_colour(stream: TextIO) -> bool:
    return stream.isatty() and os.environ.get("TERM", "") not in ("", "dumb") and "NO_COLOR" not in os.environ


def hands(tile: dict[str, Any]) -> str:
    """The tile's pace as the board writes it (40.0 is ``40``, 61.54 was rounded to ``61.5``);
    ``-`` before a table has two results to take a pace from."""
    pace = tile.get("hands_per_hour")
    if pace is None:
        return "-"
    return str(int(pace)) if pace == int(pace) else f"{pace:.1f}"


def devices(tile: dict[str, Any]) -> str:
    """The devices that are not online or reported a fault not yet behind the table, or ``ok``;
    empty before the table has said (the board's "Devices: not known"). From the tile, as the
    board shows them: the two never disagree (issue 22)."""
    down = [f"{name} {status}" for name, status in tile.get("devices", {}).items() if status != "online"]
    down += [f"{name} {code}" for name, code in tile.get("device_faults", {}).items()]
    return ", ".join(down) if down else "ok" if tile.get("devices") else ""


def attention(tile: dict[str, Any]) -> bool:
    return tile["condition"]["level"] in ATTENTION


def board_lines(title: str, tiles: list[dict[str, Any]], notices: list[str], now: float) -> list[tuple[str, str]]:
    """The frame as (line, how to show it: ``alarm``, ``offline`` or empty), from the board's
    tiles (controller.pit.board.picture ``Picture.tiles``), in the board's floor order: the
    tables that need attention first, worst and oldest first."""
    tiles = floor_order(tiles)
    needing = sum(1 for t in tiles if attention(t))
    head = (f"{title}  |  {len(tiles)} table{'s' if len(tiles) != 1 else ''}, "
            f"{needing} need{'s' if needing == 1 else ''} attention  |  "
            f"{time.strftime('%H:%M:%S', time.localtime(now))}")
    rows = [["!!" if attention(t) else "", t["table"], t["game"] or "?",
             "online" if t["online"] else "OFFLINE" if t["online"] is False else "?",
             t["state"] or "?", t["round"] or "", hands(t), len(t["alarms"]) or "",
             devices(t), t["results"][0]["summary"] if t["results"] else ""] for t in tiles]
    lines = columns(HEADERS, rows, NUMERIC)
    out = [(head, ""), (lines[0], "")]
    for t, line in zip(tiles, lines[1:], strict=True):
        out.append((line, "alarm" if attention(t) else "offline" if t["online"] is False else ""))
        problems = [p for p in t["condition"]["problems"] if p["level"] in ATTENTION]
        if problems:   # what is wrong, in the board's words: the worst first
            out.append((f"     {problems[0]['what']}", "alarm"))
        if t.get("integrity"):   # the board's small mark: its table page has the figures
            out.append((f"     integrity flagged: {', '.join(t['integrity'])}", "alarm"))
    if not tiles:
        out.append(("(no table has published yet)", ""))
    if notices:
        out += [("", ""), ("recent:", ""), *((f"  {n}", "") for n in notices)]
    return out


class Screen:
    """Draws ``glance`` on ``stream`` from a thread of its own until :meth:`close`."""

    def __init__(self, glance: Glance, stream: TextIO, title: str, *, tty: bool | None = None,
                 colour: bool | None = None, width: Callable[[], int] | None = None,
                 refresh: float = REFRESH, frame: float = FRAME) -> None:
        self.glance = glance
        self.stream = stream
        self.title = title
        self.tty = stream.isatty() if tty is None else tty
        self.colour = takes_colour(stream) if colour is None else colour
        self.width = width or (self._terminal_width if self.tty else (lambda: 0))
        self.refresh = refresh
        self.frame = frame
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="watch-screen", daemon=True)
        self._first = True

    def start(self) -> Screen:
        self._thread.start()
        return self

    def changed(self) -> None:
        """Something changed: draw soon (never blocks: the caller is the network thread)."""
        self._wake.set()

    def close(self) -> None:
        """Stop the thread, then draw the last frame."""
        self._closed = True
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(10)
        self._draw()

    def _run(self) -> None:
        while True:
            self._wake.wait(self.refresh)
            if self._closed:
                return
            self._wake.clear()
            self._draw()
            self._stop.wait(self.frame)

    def _draw(self) -> None:
        lines = board_lines(self.title, self.glance.tables(), self.glance.notices(), time.time())
        width = self.width()
        parts = []
        for text, how in lines:
            text = printable(text)
            if width:
                text = text[:width - 1]
            if self.colour and how:
                text = f"{ALARM if how == 'alarm' else OFFLINE}{text}{RESET}"
            parts.append(text + (CLEAR_LINE if self.tty else ""))
        if self.tty:
            frame = (CLEAR_SCREEN if self._first else "") + HOME + "\n".join(parts) + "\n" + CLEAR_BELOW
        else:
            frame = "\n" + "\n".join(parts) + "\n"
        self._first = False
        try:
            self.stream.write(frame)
            self.stream.flush()
        except (OSError, ValueError):
            pass  # the terminal went away: the watch ends on its own signal

    def _terminal_width(self) -> int:
        try:
            return os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError):
            return shutil.get_terminal_size().columns
