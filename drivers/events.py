"""Typed device events: what drivers put on the table's inbox.

They are plain frozen dataclasses so the table loop can dispatch on type and
tests can compare them. Every event names the device it came from (the
device's name in the table config: ``shoe``, ``shuffler``, ``buttons``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.cards import Card


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    device: str


@dataclass(frozen=True, slots=True)
class CardDrawn(DeviceEvent):
    card: Card
    read: int | None = None
    """The shoe's own count of this read since it started, when it sends one."""


@dataclass(frozen=True, slots=True)
class CutCard(DeviceEvent):
    """The shoe's reader passed the cut card: last round of this shoe."""


@dataclass(frozen=True, slots=True)
class ShoeEmpty(DeviceEvent):
    pass


@dataclass(frozen=True, slots=True)
class ShuffleComplete(DeviceEvent):
    count: int


@dataclass(frozen=True, slots=True)
class DeckVerified(DeviceEvent):
    """The shuffler's deck check: every card it read, in an order that is
    never published (DESIGN.md, "What must never leave the controller")."""

    cards: tuple[Card, ...]
    unreadable: int = 0


@dataclass(frozen=True, slots=True)
class HandDelivered(DeviceEvent):
    """A hand-forming shuffler delivered one hand: its cards, face down -- they are in the
    event only for the controller's own checks until the rules turn them face up."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardCount(DeviceEvent):
    count: int


@dataclass(frozen=True, slots=True)
class ButtonPressed(DeviceEvent):
    """A dealer's button, or a player's seat button (``seat`` set)."""

    button: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class CupShaken(DeviceEvent):
    """The dice cup's shake ended with the cup closed: a reading may follow (docs/protocols.md,
    "Dice cup"). A round takes a reading only after a shake, so a cup opened without one (the
    same dice read again) cannot pass as a new throw."""


@dataclass(frozen=True, slots=True)
class DiceRead(DeviceEvent):
    """The cup was opened and read: one value per die, die 1 first (each die has its own slot
    in the report, so a die keeps its number from shake to shake). The values are as the cup
    sent them: the round checks their count and range (1..6) and raises its own alarm."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CupClosed(DeviceEvent):
    """The cup was put back over the dice: the end of a shake's cycle."""


@dataclass(frozen=True, slots=True)
class DeviceFault(DeviceEvent):
    """A fault the device reports or the driver detects.

    ``code`` is one of a fixed vocabulary (docs/protocols.md): ``jam``,
    ``door_open``, ``unreadable``, ``count_wrong``, ``misread``,
    ``double_card``, ``unknown_card``, ``heartbeat_lost``, ``nak``,
    ``bad_message``; the dice cup's ``die_unreadable``, ``die_on_edge``,
    ``lifted_early`` (the cup's own), ``stall``, ``bad_report``,
    ``reports_lost``, ``duplicate_report``, ``stale_report``, ``restarted``,
    ``self_test``, ``wrong_dice`` (the driver's). ``detail`` is operator text
    that never carries a card's identity unless the card is face up by then.
    """

    code: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class FramesDropped(DeviceEvent):
    """The codec threw bytes away: counts by reason since the last report."""

    counts: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DeviceOnline(DeviceEvent):
    info: str = ""
    reads: int | None = None
    """A card reader's count of the cards it has read since it started (its hello)."""
    serial: str | None = None
    """The device's serial number, where it has one (a USB dice cup): another serial in the
    same role is another device (the dice statistics start afresh for it)."""


@dataclass(frozen=True, slots=True)
class ReadsAccounted(DeviceEvent):
    """Every card the reader says it has read (its hello's count) has arrived: after a dropout
    the controller can prove nothing was lost, and a faulted round may resume."""

    count: int = 0


@dataclass(frozen=True, slots=True)
class DeviceOffline(DeviceEvent):
    reason: str = ""
