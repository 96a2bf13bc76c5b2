"""Simulated devices by kind: the simulator builds a table's devices from its config's kinds.

The same kind names as drivers.kinds; each maps to the simulated device
that speaks that kind's wire protocol, and to the prompts (``expect``) the
simulated dealer answers with it. A prompt names no device: the dealer
finds the device whose kind does that job (a card prompt -> the card
reader, a dice prompt -> the dice cup), so it needs no copy of any game's rules.

A serial device sits on a line (``url``: a pty or ``hwsim://``); a USB device
(``BUS = "usb"``, the dice cup) on the rig's simulated USB bus, which its
config names as the pyusb backend (``backend = "hwsim://..."``).
"""

from __future__ import annotations

from typing import Any

from hw_sim.devices import SimDevice, SimHandShuffler, SimShoe, SimShuffler
from hw_sim.dice_cup import PRODUCT_ID, VENDOR_ID, SimDiceCup

SIM_KINDS: dict[str, type[SimDevice] | type[SimDiceCup]] = {
    "card_shoe": SimShoe,
    "shuffler": SimShuffler,
    "hand_shuffler": SimHandShuffler,
    "dice_cup": SimDiceCup,
}

DOES: dict[str, tuple[str, ...]] = {
    "card": ("card_shoe",),
    "hand": ("hand_shuffler",),
    "deck_check": ("shuffler", "hand_shuffler"),
    "new_deck": ("shuffler", "hand_shuffler"),
    "shuffle": ("shuffler", "hand_shuffler"),
    "count": ("shuffler", "hand_shuffler"),
    "dice": ("dice_cup",),
}
"""Prompt ``expect`` -> the kinds of device that carry it out."""


def on_usb(kind: str) -> bool:
    """A device of this kind is found on the simulated USB bus, not on a serial line."""
    return getattr(SIM_KINDS.get(kind), "BUS", None) == "usb"


def sim_settings(kind: str, address: str) -> dict[str, Any]:
    """A simulated device's config settings besides its kind: where the controller finds it
    (a serial line's ``url``; for a USB device its ids and the bus as its ``backend``)."""
    if on_usb(kind):
        return {"vendor_id": VENDOR_ID, "product_id": PRODUCT_ID, "backend": address}
    return {"url": address}


def device_for(expect: str | None, devices: dict[str, SimDevice], kinds: dict[str, str]) -> SimDevice | None:
    """The table's device that carries out ``expect``, or None (a button press, nothing physical)."""
    wanted = DOES.get(expect or "", ())
    return next((devices[name] for name, kind in kinds.items() if kind in wanted and name in devices), None)
