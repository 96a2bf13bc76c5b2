"""Simulated devices by kind: the simulator builds a table's devices from its config's kinds.

The same kind names as drivers.kinds; each maps to the simulated device
that speaks that kind's wire protocol, and to the prompts (``expect``) the
simulated dealer answers with it. A prompt names no device: the dealer
finds the device whose kind does that job (a card prompt -> the card
reader), so it needs no copy of any game's rules.
"""

from __future__ import annotations

from hw_sim.devices import SimDevice, SimHandShuffler, SimShoe, SimShuffler

SIM_KINDS: dict[str, type[SimDevice]] = {
    "card_shoe": SimShoe,
    "shuffler": SimShuffler,
    "hand_shuffler": SimHandShuffler,
}

DOES: dict[str, tuple[str, ...]] = {
    "card": ("card_shoe",),
    "hand": ("hand_shuffler",),
    "deck_check": ("shuffler", "hand_shuffler"),
    "new_deck": ("shuffler", "hand_shuffler"),
    "shuffle": ("shuffler", "hand_shuffler"),
}
"""Prompt ``expect`` -> the kinds of device that carry it out."""


def device_for(expect: str | None, devices: dict[str, SimDevice], kinds: dict[str, str]) -> SimDevice | None:
    """The table's device that carries out ``expect``, or None (a button press, nothing physical)."""
    wanted = DOES.get(expect or "", ())
    return next((devices[name] for name, kind in kinds.items() if kind in wanted and name in devices), None)
