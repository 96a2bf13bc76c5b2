"""The card-reading shoe's driver: one ``CardDrawn`` per card, in draw order.

Wire protocol: docs/protocols.md. Besides cards the shoe reports the
cut card (``CutCard``), an empty shoe (``ShoeEmpty``) and its faults
(``misread``, ``double_card``, ``jam``, ``door_open``). A card code that
names no card is a ``DeviceFault("unknown_card")`` whose detail never
repeats the bytes: the card may be one dealt face down.
"""

from __future__ import annotations

import queue

from drivers import messages
from drivers.serial_driver import SerialDeviceDriver


class ShoeDriver(SerialDeviceDriver):
    """Controller side of a shoe line. See :class:`SerialDeviceDriver`."""

    def __init__(
        self,
        name: str,
        url: str,
        inbox: queue.Queue,
        *,
        baudrate: int = 115200,
        heartbeat_timeout: float = 3.0,
        retransmit: float = 0.25,
    ) -> None:
        super().__init__(name, url, inbox, parser=messages.parse_shoe, baudrate=baudrate,
                         heartbeat_timeout=heartbeat_timeout, retransmit=retransmit)
