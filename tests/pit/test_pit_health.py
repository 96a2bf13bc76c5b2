"""The pit's own health on the floor (issue 21.4): each pit service says in its retained status
whether its database and broker are there, how long events wait for the archive, how many it
refused, and each table's gaps not filled (read from the archive, so every instance's); every
board shows every service's, a board-only one too (it archives nothing and knows no gap itself)."""

from __future__ import annotations

from pit_support import wait_picture

from controller.pit.board.picture import Picture


def tile(picture: Picture, table: str) -> dict | None:
    return next((t for t in picture.tiles()["tables"] if t["table"] == table), None)


def pit(picture: Picture, instance: str) -> dict | None:
    return next((p for p in picture.pits() if p["id"] == instance), None)


def test_a_board_only_service_shows_the_archives_gaps_and_refusals(broker, pit_factory, fake_table):
    fake = fake_table()
    fake.status(next_seq=1)
    fake.refuse = "the journal no longer holds seqs before 4 (pruned: tablectl prune); ask from 4"
    archiving = pit_factory(broker, client_id="pit-archive-1")
    board = pit_factory(broker, client_id="pit-board", db_url=None, group=None)
    picture = Picture()
    board.add_observer(picture)
    for seq in range(1, 7):
        fake.event(seq, publish=seq >= 4)
    fake.raw(f"{fake.base}/event/table", b"nonsense")
    gaps = wait_picture(picture, lambda: ((tile(picture, fake.table) or {}).get("gaps") or {}).get("unfillable")
                        and tile(picture, fake.table)["gaps"], "the table's lost seqs on its tile")
    assert gaps == {"unfillable": [1, 3]}
    seen = wait_picture(picture, lambda: (p := pit(picture, "pit-archive-1")) and p["rejected"] >= 1 and p,
                        "the archiving service's refusal")
    assert seen["online"] is True and seen["db"] == "up" and seen["archive"] and seen["held"] == 0
    own = pit(picture, "pit-board")
    assert own["archive"] is None and own["db"] is None and own["broker"] == "connected"
    assert archiving.counters()["rejected"] == 1


def test_the_board_says_when_its_broker_is_away_and_when_it_is_back(broker, pit_factory, fake_table):
    picture = Picture()
    service = pit_factory(broker, client_id="pit-board", db_url=None, group=None, start=False)
    service.add_observer(picture)
    service.start()
    wait_picture(picture, lambda: (p := pit(picture, "pit-board")) and p["broker"] == "connected", "connected")
    broker.stop()
    try:
        wait_picture(picture, lambda: pit(picture, "pit-board")["broker"] == "disconnected", "the broker away")
    finally:
        broker.start()
    wait_picture(picture, lambda: pit(picture, "pit-board")["broker"] == "connected", "the broker back")


def test_a_database_outage_shows_with_the_events_waiting_for_it(broker, postgres, pit_factory, fake_table):
    fake = fake_table()
    fake.status()
    picture = Picture()
    service = pit_factory(broker, client_id="pit-archive-1", start=False)
    service.add_observer(picture)
    service.start()
    fake.event(1)
    wait_picture(picture, lambda: (p := pit(picture, "pit-archive-1")) and p["db"] == "up", "the database up")
    postgres.stop()
    try:
        for seq in range(2, 6):
            fake.event(seq)
        down = wait_picture(picture, lambda: (p := pit(picture, "pit-archive-1")) and p["db"] == "down"
                            and p["held"] >= 1 and p, "the database down, with events waiting")
        assert down["held_since"] is not None
    finally:
        postgres.start()
    wait_picture(picture, lambda: (p := pit(picture, "pit-archive-1")) and p["db"] == "up" and p["held"] == 0,
                 "the database back, nothing waiting")


def test_a_board_shows_the_archiving_services_broker_risks(broker, pit_factory, tmp_path):
    """Issue 21.2: an archiving service's broker settings that lose events reach every board (a
    board-only one too), each line whole, at most ten."""
    archiving = pit_factory(broker, client_id="pit-archive-1", start=False)
    archiving.broker_risks = [f"broker config /etc/m.conf: setting {i}: loses events" for i in range(12)]
    archiving.start()
    board = pit_factory(broker, client_id="pit-board", db_url=None, group=None, start=False)
    picture = Picture()
    board.add_observer(picture)
    board.start()
    seen = wait_picture(picture, lambda: (p := pit(picture, "pit-archive-1")) and p["broker_risks"] and p,
                        "the archiving service's broker risks")
    assert seen["broker_risks"] == archiving.broker_risks[:10]
    assert pit(picture, "pit-board")["broker_risks"] == []
