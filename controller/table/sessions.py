"""The table's MQTT sessions: what a (re)connect owes the pit, and two controllers of one table.

On every session (and on ``cmd/rebirth``) the table publishes its birth (Sparkplug's birth
number, the next seq, its devices), its retained state, dice and integrity, and the whole backlog, in seq
order (controller.table.outbox). The retained status the broker held before the session says who
published as this table last: a second controller of one table (two Pis, two journals, one id)
would publish other events under the same seqs, so the younger of the two stops.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from controller.table.instance_lock import AnotherController

if TYPE_CHECKING:
    from controller.table.loop import Table

log = logging.getLogger(__name__)


class Sessions:
    """One table's sessions with the broker (the table thread only)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.count = 0                 # MQTT sessions this process has had
        self._others: set[str] = set()  # journals of other controllers of this table already raised

    def connected(self, prior: dict | None) -> None:
        """A (re)connect. The table's retained status as the broker held it before this session
        (``prior``) says who published as this table last. A status from another journal is no
        proof at the first connect (a replaced Pi, a new journal: docs/operations.md); but once
        this process has had a session, it means another controller published as this table
        meanwhile -- with one client id, the two take each other's session over at every
        reconnect, and each sees the other's birth here."""
        table = self.table
        foreign = isinstance(prior, dict) and prior.get("journal") not in (None, table.publisher.journal_id)
        log.info("MQTT session %d of this process; the table's status before it: %s", self.count + 1,
                 "none" if not isinstance(prior, dict) else
                 f"journal {str(prior.get('journal'))[:64]}, birth {str(prior.get('birth'))[:20]}, "
                 f"online {prior.get('online') is True}")
        if foreign and self.count:
            self.another_controller(prior)  # type: ignore[arg-type]
            if isinstance(table.error, AnotherController):
                return
        elif foreign and prior.get("online"):  # type: ignore[union-attr]
            log.warning("the broker's retained status of table %s was published by another journal (%s, birth %s): "
                        "if another controller runs as this table, the younger of the two will stop",
                        table.config.table.id, prior.get("journal"), prior.get("birth"))  # type: ignore[union-attr]
        self.count += 1
        table.outbox.online = True
        self.rebirth()

    def another_controller(self, other: dict) -> None:
        """Another controller publishes as this table (issue 13, defect 5): its seqs would repeat
        ours with other payloads. The younger process (``started``; the journal id breaks a tie)
        stops without a word on the broker (its offline status would be about the other); the
        older raises a critical alarm once per other journal and publishes its birth again."""
        table = self.table
        config = table.config
        mine = (table.publisher.started, str(table.publisher.journal_id))
        started = other.get("started")
        theirs = (started if isinstance(started, (int, float)) and not isinstance(started, bool) else 0.0,
                  str(other.get("journal")))
        if theirs < mine:
            table.error = AnotherController(
                f"another controller publishes as table {config.table.id} on {config.mqtt.host}:"
                f"{config.mqtt.port} (journal {theirs[1]}, birth {other.get('birth')}, running since before "
                f"this one): this one stops so that no seq goes out twice; run each table on one Pi only")
            return
        if theirs[1] in self._others:
            return
        self._others.add(theirs[1])
        table.alarm("another_controller", "critical",
                    f"another controller published as table {config.table.id} (journal {theirs[1][:64]}, "
                    f"birth {str(other.get('birth'))[:20]}): events under its seqs are not this table's; it stops "
                    "itself as the younger of the two",
                    "find the second Pi or process configured as this table and stop it; check the pit's events "
                    "for seqs seen twice")
        if table.outbox.online:
            self.rebirth()

    def rebirth(self) -> dict[str, Any]:
        """Birth, state, dice, integrity and the backlog: on every (re)connect and on ``cmd/rebirth``."""
        table = self.table
        if table.outbox.online:
            table.publisher.publish_birth(table.journal.next_seq, table.devices.status)
            if table.machine is not None:
                table.outbox.publish_state_now(*table.state_of(table.machine.snapshot()))
            table.devices.publish_dice(table.publisher, table.config.table.id)
            table.integrity.publish(table.publisher, table.config.table.id)
            table.outbox.resend_all()
        return {"birth": table.publisher.birth, "undelivered": table.journal.undelivered_count}
