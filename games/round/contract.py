"""The round-machine contract: what every game's machine takes and gives.

The controller's table loop talks to any game's machine through these
names only (docs/internals.md, "Round machine"): pit commands (``open``,
``close``, ``void``, ``resume``, which raise :class:`Refused` when out of
place), device input through one method (``device_input(role, kind,
data)``), presses through one method (``press(button, seat)``, which
returns a :class:`Verdict`), the retained snapshot with its light picture,
and ``save``/``restore`` for everything that must outlive a restart. No
rule of a game lives in the controller.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.cards import Card

Emit = Callable[[str, dict], None]

STATES: tuple[str, ...] = (
    "closed", "deck_check", "shuffle", "load_shoe", "ready", "betting", "dealing", "result", "fault", "voided",
)

ROUND_STATES: frozenset[str] = frozenset({"betting", "dealing", "result"})
"""States in which a round has a number and can be voided from ``fault``."""

VOID_BY: tuple[str, ...] = ("dealer", "pit", "controller")
"""Who may void or resume a round; the pit's may name its user, ``pit:<user>`` (:func:`void_by_ok`)."""

PIT_USER = re.compile(r"^pit:[a-z][a-z0-9_.-]{0,31}$")


def void_by_ok(by: str) -> bool:
    """``by`` of a void or a resume: one of :data:`VOID_BY`, or ``pit:<user>``, a named pit user
    (the board's supervisor: docs/schemas/defs.json ``void_by``)."""
    return by in VOID_BY or bool(PIT_USER.match(by))

LIGHT_GROUPS: tuple[str, ...] = ("action", "player_dealer", "dealer_button", "small_blind", "big_blind", "turn")
"""Seat-light groups a game may declare: where the action button is, who holds the
player-dealer position, the poker room's dealer button and blinds, whose turn it is
(a seat whose play/fold or change/stand decision is awaited). One light per seat per
group; the config maps ``[gpio.seat_lights.<group>]`` seat numbers to pins."""


class Refused(Exception):
    """A pit command (open, close, void, resume) that is out of place in the current state.

    The controller turns it into an error reply; the machine is unchanged.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class Verdict:
    """The machine's answer to a press: the table replies with it (``cmd/button``)
    instead of looking through what the machine emitted."""

    accepted: bool
    reason: str | None = None


@dataclass(frozen=True)
class DeviceRole:
    """What a game needs one device for, and what its faults mean for a round.

    ``kinds`` are the device kinds (``[devices.NAME] kind``) that can fill the
    role; ``needed_in`` the machine states in which the round waits on the
    device (a link fault there faults the round or repeats the step);
    ``reads_cards`` marks the role whose reads put cards on the layout, so that
    a card it lost unseen (a misread, two cards at once) makes the round
    void-only. The device-fault policy is by role, never by device name.
    """

    kinds: tuple[str, ...]
    needed_in: frozenset[str] = frozenset()
    reads_cards: bool = False
    prepares_deck: bool = False
    """Deck checks and shuffles come from this role (a fault there repeats the step)."""
    reads_dice: bool = False
    """The dice cup: while a shake is due (games.round.steps.DiceDue) its faults and its link
    going down repeat the shake (nothing on the layout depends on a shake that was not read)."""
    required: bool = True


@dataclass
class Fault:
    """Why the round is in ``fault`` and where it goes back to on resume."""

    origin: str
    code: str
    message: str
    cards: list[Card] = field(default_factory=list)
    no_resume: str | None = None
    """Why the round can only be voided (a card left the shoe unseen), or None."""
    resume_note: str | None = None
    """What resuming does, when it is not burning cards (a device link came back)."""
    held: list[Card] = field(default_factory=list)
    """Cards the reading role delivered after its link came back, read while the round was
    dealing: they are on the layout, so they are dealt when the round resumes."""
    unproven: str | None = None
    """The card-reading role whose link went down: until it has shown that every card it read
    arrived (``reads_accounted``), the round cannot resume."""


def empty_lights(groups: tuple[str, ...] = ()) -> dict[str, Any]:
    """The light picture with nothing lit: every light off at shutdown."""
    return {"seats": {g: [] for g in groups}, "buttons_lit": [], "seat_buttons_lit": {}}
