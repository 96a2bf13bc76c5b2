"""What a table does when it starts again: the journal's own notices, the round a restart cut
short, and the round machine's saved state.

A restart in the middle of a round (power loss) cannot continue that round: the shoe's ledger is
gone and the machine starts ``closed``. The journal's ``meta`` remembers the last state, and the
table journals a ``void`` of that round (``by: "controller"``) before anything else. What the
machine saved (a player-dealer rotation, a poker table's seats and button) goes back to it, with
the state the last process journaled; what that means is the game's rule.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from controller.table.journal import Event, Journal, Pending

log = logging.getLogger(__name__)

ROUND_IN_PROGRESS = frozenset({"betting", "dealing", "fault"})
"""States in which a restart leaves a round that must be voided, for a journal written before
``meta`` kept ``round_open``."""

Tell = Callable[[list[Event]], None]


def alarm_data(code: str, severity: str, message: str, action: str) -> dict[str, object]:
    """An ``alarm`` event's data for an alarm of the controller's own (no card involved)."""
    return {"code": code, "severity": severity, "message": message, "card": None,
            "expected": None, "missing": [], "extra": [], "action": action}


def journal_notices(journal: Journal, tell: Tell) -> None:
    """At start, before anything else is journaled: a journal started anew by `tablectl journal
    new` (its first start) and ``meta`` values that were damaged and ignored."""
    notes: list[Pending] = []
    restarted = journal.meta("restarted")
    if isinstance(restarted, dict) and journal.empty:
        old, last = restarted.get("from"), restarted.get("last_seq")
        numbering = (f"seq goes on from {journal.next_seq}" if isinstance(last, int)
                     and journal.next_seq == last + 1 else f"seq starts again at {journal.next_seq}")
        message = (f"the journal was started anew by tablectl journal new at {restarted.get('at')}: "
                   f"{numbering}; events up to seq {last if isinstance(last, int) else 'unknown'} are in the old "
                   f"journal, kept at {old}, and can no longer be replayed")
        log.warning("%s", message)
        notes.append(Pending("alarm", None, alarm_data(
            "journal_restarted", "critical", message,
            "pit: a subscriber that de-duplicates by seq must start this table's count afresh if seq starts "
            "again; archive the old journal from the controller (docs/operations.md, 'A damaged journal')"),
            time.time()))
    if journal.damaged_meta:
        damaged = journal.damaged_meta
        message = (f"the journal's meta value{'s' if len(damaged) > 1 else ''} "
                   f"{', '.join(sorted(damaged))} could not be read and "
                   f"{'were' if len(damaged) > 1 else 'was'} ignored: "
                   + "; ".join(f"{k}: {why}" for k, why in sorted(damaged.items())))
        log.warning("%s", message)
        notes.append(Pending("alarm", None, alarm_data(
            "journal_meta_damaged", "warning", message[:500],
            "what it kept starts afresh (the player-dealer rotation: check who banked the last rounds); "
            "the table writes a good value in its place"), time.time()))
    if notes:
        tell(journal.append_many(notes))


def void_interrupted_round(journal: Journal, tell: Tell) -> None:
    """A round the last process left open is voided first thing, by the controller."""
    state, rnd = journal.meta("state"), journal.meta("round")
    round_open = journal.meta("round_open")
    if round_open is None:  # a journal from before round_open was kept
        round_open = state in ROUND_IN_PROGRESS
    if round_open and rnd is not None:
        reason = f"the controller restarted during round {rnd} (state {state})"
        log.warning("%s: voiding it", reason)
        tell(journal.append_many(
            [Pending("void", rnd, {"round": rnd, "reason": reason, "by": "controller"}, time.time())],
            meta={"state": "closed", "round": None, "round_open": False}))


def first_round(journal: Journal) -> int:
    """The number the next round gets: after the last one journaled, or the old journal's last
    (`tablectl journal new` keeps it)."""
    restarted = journal.meta("restarted")
    before = restarted.get("last_round") if isinstance(restarted, dict) else None
    return max(journal.last_round() or 0, before if isinstance(before, int) else 0) + 1


def saved_machine(journal: Journal) -> dict | None:
    """What the machine saved before a restart (its ``save()``), if anything."""
    saved = journal.meta("machine")
    if saved is None and journal.meta("player_dealer") is not None:
        saved = {"player_dealer": journal.meta("player_dealer")}  # a journal from before "machine"
    return saved if isinstance(saved, dict) else None
