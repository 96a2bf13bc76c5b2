"""The card-reading shoe's driver: one ``CardDrawn`` per card, in draw order.

Wire protocol: docs/protocols.md. Besides cards the shoe reports the
cut card (``CutCard``), an empty shoe (``ShoeEmpty``) and its faults
(``misread``, ``double_card``, ``jam``, ``door_open``). A card code that
names no card is a ``DeviceFault("unknown_card")`` whose detail never
repeats the bytes: the card may be one dealt face down.
"""

from __future__ import annotations

from drivers import messages
from drivers.serial_driver import SerialDeviceDriver


class ShoeDriver(SerialDeviceDriver):
    """Controller side of a shoe line. See :class:`SerialDeviceDriver`."""

    PARSER = staticmethod(messages.parse_shoe)
