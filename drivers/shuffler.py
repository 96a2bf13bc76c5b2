"""The shuffler's driver: deck checks, shuffles, counts, status, faults.

Wire protocol: docs/protocols.md. Requests are queued and
return at once; the answers arrive on the inbox as ``DeckVerified``,
``ShuffleComplete``, ``CardCount`` and ``DeviceOnline``. A deck check's
card order is in the event only for the controller's own check; it must
never be published (DESIGN.md).
"""

from __future__ import annotations

from drivers import messages
from drivers.serial_driver import SerialDeviceDriver


class ShufflerDriver(SerialDeviceDriver):
    """Controller side of a shuffler line. See :class:`SerialDeviceDriver`."""

    PARSER = staticmethod(messages.parse_shuffler)

    def request_deck_check(self) -> None:
        """Read every card in the hopper; answered by ``DeckVerified``."""
        self._link.send(*messages.request(messages.DECK_CHECK))

    def request_shuffle(self) -> None:
        """Shuffle the hopper; answered by ``ShuffleComplete``."""
        self._link.send(*messages.request(messages.SHUFFLED))

    def request_count(self) -> None:
        """Count the cards in the shuffler; answered by ``CardCount``."""
        self._link.send(*messages.request(messages.COUNT))
