"""The table's devices as its loop keeps them: each device's status, its events handed to the round
machine, the dice cups' counts, and whether every device has answered this process yet.

Device events reach the machine through one method, ``device_input(role, kind, data)``: the kind
is the event class's name in snake case (``CardDrawn`` -> ``card_drawn``) and the data its fields,
so a new device class needs no change here. What a fault means for the round is the machine's to
decide, by the device's role (games.round.lifecycle); every status change is also a ``device``
event. Buttons and line errors are the table's own: a press goes to the machine through the
table (the outbox cap may refuse a deal), and a line error count waits while a face-down card is
out (controller.table.secrecy).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from controller.table.config import Config
from controller.table.dice_stats import DiceStats
from controller.table.publisher import Publisher
from drivers.dice_report import DEFAULT_DICE
from drivers.events import (
    ButtonPressed,
    CardCount,
    DeviceEvent,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    DiceRead,
    FramesDropped,
)
from games.round import Refused

if TYPE_CHECKING:
    from controller.table.loop import Table

log = logging.getLogger(__name__)


@cache
def input_of(event_type: type) -> tuple[str, tuple[str, ...]]:
    """A device event class as a machine input: its kind (``CardDrawn`` -> ``card_drawn``)
    and the fields it carries besides the device's name. Worked out once per class."""
    kind = re.sub(r"(?<!^)(?=[A-Z])", "_", event_type.__name__).lower()
    return kind, tuple(f.name for f in dataclasses.fields(event_type) if f.name != "device")


class Devices:
    """The devices of one table (``table.devices`` in its config, and the drivers it runs)."""

    def __init__(self, table: Table, config: Config, drivers: Mapping[str, Any]) -> None:
        self.table = table
        self.drivers = drivers
        self.status: dict[str, str] = {name: "unknown" for name in {*config.devices, *drivers}}
        cups = {name: dev.settings.get("dice", DEFAULT_DICE) for name, dev in config.devices.items()
                if dev.kind == "dice_cup"}
        self.dice = DiceStats(cups) if cups else None  # dice integrity: counts journaled, published retained
        self.dice_owed = False   # the retained dice topic changed since it was last handed to paho
        self._autostart = False  # table.autostart, until every device has said hello
        self._autostart_logged = False

    def handle(self, event: DeviceEvent) -> None:
        """One device event: a button press, a line error count, or (after a ``device`` event for a
        status change) an input of the round machine."""
        table = self.table
        machine = table.machine
        assert machine is not None
        if self.dice is not None:
            self._count_dice(event)
        mark = table.pending_mark()
        match event:
            case ButtonPressed(button=button, seat=seat):
                table.press(button, seat)
                return
            case FramesDropped(device=device, counts=counts):
                for data in table.line_errors.dropped(device, counts):  # held while a face-down card is out
                    table.emit("line_errors", data)
                return
            case DeviceFault(device=device, code=code, detail=detail):
                self._status(device, "fault", code, detail)
            case DeviceOnline(device=device, info=info):
                self._status(device, "online", None, info)
            case DeviceOffline(device=device, reason=reason):
                # A silent device (heartbeat lost) is its own fault, with its own alarm;
                # a port error or a port that cannot be opened is plain ``offline``.
                code = "heartbeat_lost" if reason == "heartbeat_lost" else None
                self._status(device, "offline", code, reason)
            case CardCount(device=device, count=count):
                log.info("%s counted %d cards", device, count)
        kind, fields = input_of(type(event))
        machine.device_input(event.device, kind, {f: getattr(event, f) for f in fields})
        if self.dice is not None and isinstance(event, DiceRead) and "dice" in table.emitted_since(mark):
            self._count_throw(event.device, event.values)

    def _status(self, device: str, status: str, code: str | None, detail: str) -> None:
        self.status[device] = status
        self.table.emit("device", {"device": device, "status": status, "code": code, "detail": detail})

    # -- the dice cups ------------------------------------------------------------------

    def _count_throw(self, device: str, values: tuple[int, ...]) -> None:
        """Dice integrity (controller.table.dice_stats): a reading counts when the round took it as
        the throw it asked for (its ``dice`` event came of this reading), so each physical throw the
        round used counts once; a die whose counts reject fairness is a ``dice_bias`` warning."""
        assert self.dice is not None
        for bias in self.dice.read(device, values):
            self.table.alarm("dice_bias", "warning", bias.message, bias.action)

    def _count_dice(self, event: DeviceEvent) -> None:
        """A cup's hello: another serial than the one counted is another cup, whose counts start afresh."""
        assert self.dice is not None
        alarm = self.table.alarm
        match event:
            case DeviceOnline(device=device, serial=serial):
                discarded = self.dice.online(device, serial)
                if discarded:
                    alarm("dice_counts_reset", "warning",
                          f"the {device} says serial {serial}: another cup than the one counted; the "
                          f"{discarded} throws counted are set aside and its counts start afresh",
                          "nothing to do: a new cup's dice are counted from its first throw")

    def load_dice(self, saved: object) -> None:
        """The counts the journal kept before a restart; what could not be taken up is a warning."""
        if self.dice is not None:
            for problem in self.dice.load(saved):
                self.table.alarm("dice_counts_reset", "warning", problem,
                                 "nothing to do: the cup's throws are counted again from now")

    def dice_to_save(self) -> dict | None:
        """The counts, when a throw changed them: journaled with the throw's events."""
        return self.dice.save() if self.dice is not None and self.dice.changed else None

    def reset_dice(self, cup: str) -> dict[str, Any]:
        """``cmd/dice_reset``: new dice in a cup, so its counts start afresh (and its die may raise
        ``dice_bias`` again). Refused, naming the cups, for a cup the table does not have."""
        if self.dice is None:
            raise Refused("this table has no dice cup")
        try:
            discarded = self.dice.reset(cup)
        except KeyError as exc:
            raise Refused(exc.args[0]) from None
        log.info("dice counts of %s reset by the pit (%d throws set aside)", cup, discarded)
        return {"cup": cup, "discarded": discarded}

    def publish_dice(self, publisher: Publisher, table_id: str) -> None:
        """The retained dice topic (docs/schemas/dice.json): newest only, like the state."""
        if self.dice is not None:
            self.dice_owed = False
            publisher.publish_dice({"table": table_id, "ts": time.time(), **self.dice.payload()})

    # -- in step with this process ------------------------------------------------------

    def unsynced(self) -> list[str]:
        """Devices that have not said hello to this process yet (``synced`` of
        drivers.serial_driver). Until they have, a frame a device queued for a
        controller process that is gone may still come; the dealer must not be
        asked for anything before it has (docs/internals.md, "Store and forward")."""
        return sorted(name for name, driver in self.drivers.items() if not getattr(driver, "synced", True))

    def arm_autostart(self, on: bool) -> None:
        self._autostart = on

    def autostart_due(self) -> bool:
        """``table.autostart``: true once, when every device is in sync (the table then opens)."""
        if not self._autostart:
            return False
        waiting = self.unsynced()
        if waiting:
            if not self._autostart_logged:
                self._autostart_logged = True
                log.info("autostart: waiting for %s to answer", ", ".join(waiting))
            return False
        self._autostart = False
        return True
