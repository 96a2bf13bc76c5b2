"""A hand-forming shuffler's driver: a shuffler that also delivers whole hands.

Three Card Poker may be dealt from a shuffler that forms each hand of three
and delivers it as one (california-card-room-games, Three Card Poker, "Type of
card deck used", 1). Wire protocol: docs/protocols.md (the ``D`` message);
each delivered hand is one ``HandDelivered`` event, whose cards are dealt
face down and never leave the controller before the rules reveal them.
"""

from __future__ import annotations

from drivers import messages
from drivers.shuffler import ShufflerDriver


class HandShufflerDriver(ShufflerDriver):
    """Controller side of a hand-forming shuffler line: deck checks, shuffles and hands."""

    PARSER = staticmethod(messages.parse_hand_shuffler)
