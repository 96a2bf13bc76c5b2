"""A floor (issue 21): a dozen simulated tables of mixed games, the dice-cup games among them, each a
process with its own journal, one archiving `tablectl pit`, a Mosquitto kept as a site keeps one
(sessions and retained messages on disk). In the middle the broker crashes and comes back while the
tables deal on, and the pit service is SIGKILLed and started again; at the end every table's journal
must equal the archive, seq by seq, no gap open, nothing refused, and the service must say it lacks
nothing. Kept to about a minute: a few hundred events a table.
"""

from __future__ import annotations

import json
import queue
import subprocess
import urllib.request
from pathlib import Path

import pytest
from archive_support import ARCHIVE_WAIT, TABLECTL, journal_rows
from mqtt_support import Subscriber
from sim_table_process import TableProcess
from test_pit_cli import _free_port
from test_pit_group_chaos import Group, Site, site_broker  # noqa: F401  (fixture)

GAMES = ("baccarat", "hot_action", "three_card_poker", "pai_gow_tiles", "no_bust", "double_hand", "holdem",
         "joker_seven", "stud", "betwin", "seven_card_thrill", "draw")
"""Twelve tables, three of them dealt with the dice cup (Hot Action, Pai Gow Tiles, Double-Hand)."""
LONG_RUN = 40_000
"""Where the late board's tables' journals number from: tens of thousands of events dealt, far past
what a service that never heard a table would believe of an event (MAX_AHEAD, 10,000)."""
PACE = 0.02
"""Seconds the simulated dealer takes per action: a floor far busier than a real one (a round in
about a second), yet twelve tables flat out on two cores would test the machine, not the pit."""


class Floor(Site):
    """The chaos site with the floor's tables: one of each game of GAMES, seeded."""

    def start(self, services: int, first_seq: int | None = None) -> Group:
        self.group = Group(self.broker, self.db_url, self.folder, services)
        for name in self.group.names:
            self.group.start(name)
        self.tables = [TableProcess(self.broker.port, self.folder / f"t{i}", game=game, seed=2100 + i,
                                    table_id=f"{game.replace('_', '-')}-{i:02d}", offline_dealer=True, pace=PACE,
                                    first_seq=first_seq)
                       for i, game in enumerate(GAMES, start=1)]
        return self.group


@pytest.fixture
def floor(site_broker, postgres, pg_url, archive_view, tmp_path: Path):  # noqa: F811
    made = Floor(site_broker, postgres, pg_url, archive_view, tmp_path)
    yield made
    made.close()


def test_a_floor_through_a_broker_crash_and_a_pit_kill_is_archived_exactly_once(floor: Floor) -> None:
    _crash_and_kill(floor)


def _crash_and_kill(floor: Floor, timeout: float = ARCHIVE_WAIT) -> str:
    group = floor.start(1)
    pit = group.names[0]
    assert {t.id.rsplit("-", 1)[0] for t in floor.tables} == {g.replace("_", "-") for g in GAMES}
    floor.deal(60)
    floor.broker.kill()          # the tables deal on, journaling what they cannot publish
    floor.deal(60)
    floor.broker.start()
    floor.deal(40)
    group.kill(pit)              # the archive's writer gone while the tables deal on
    floor.deal(60)
    group.start(pit)
    floor.deal(40)
    for table in floor.tables:
        table.pause()
    said = floor.compare(timeout).replace("of 2 tables", f"of {len(GAMES)} tables")
    print("\n" + said)
    return said


def test_a_board_started_after_the_floor_shows_every_table_and_refuses_nothing(floor: Floor) -> None:
    """Issue 21.3: a board-only `tablectl pit --http` (no archive, as docs/pit.md runs a board) started
    after the tables have dealt for long (their journals number from LONG_RUN) believes each table's retained status and state, its word for its
    last seq: every tile shows the table's state and last seq, and no real event is refused as
    implausible (before issue 19: every event of a long-running table was)."""
    floor.start(0, first_seq=LONG_RUN)   # no archive: a board alone, and tables long at work
    floor.deal(80)
    port = _free_port()
    log = floor.folder / "late-board.log"
    board = subprocess.Popen([*TABLECTL, "pit", "--broker", f"{floor.broker.host}:{floor.broker.port}", "--http",
                              f"127.0.0.1:{port}", "--client-id", "late-board", "--status-interval", "0.2"],
                             stdout=subprocess.PIPE, stderr=log.open("w"), text=True)
    try:
        assert board.stdout is not None and board.stdout.readline().startswith("tablectl pit: "), log.read_text()
        floor.deal(40)
        for table in floor.tables:
            table.pause()
        tiles: dict = {}
        tops: dict = {}
        sub = Subscriber(floor.broker.host, floor.broker.port, "casino/_pit/late-board/status")
        try:   # woken by the board's own status (every 0.2 s while anything moves), never a sleep
            while True:
                status = sub.get(ARCHIVE_WAIT).json()
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=10) as answer:
                    tiles = {t["table"]: t for t in json.load(answer)["tables"]}
                # the journals read afresh: a paused table still journals what was under way
                tops = {t.id: journal_rows(t.journal)[-1][0] for t in floor.tables}
                if all(tiles.get(t, {}).get("last_seq") == top for t, top in tops.items()):
                    break
        except queue.Empty:
            raise AssertionError(f"the late board's tiles never reached every journal's last seq: "
                                 f"{ {t: tiles.get(t, {}).get('last_seq') for t in tops} } vs {tops}") from None
        finally:
            sub.close()
        for table, tile in tiles.items():
            assert tile["online"] and tile["state"] and tile["round"], (table, tile["state"], tile["round"])
        assert status["counters"].get("rejected", 0) == 0, status["counters"]
    finally:
        board.kill()
        board.wait(10)
