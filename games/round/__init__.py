"""The round machine every game is built on: a lifecycle core and the parts a game picks.

- :mod:`games.round.contract`: what the table and a machine exchange (Refused, Verdict, DeviceRole ...).
- :mod:`games.round.lifecycle`: states, pit commands, deck integrity, faults and voids; composed of
  :mod:`games.round.devices` (device input by role), :mod:`games.round.presses` (buttons, with
  verdicts) and :mod:`games.round.prompts` (the prompt, the lights, the snapshot).
- :mod:`games.round.rotation`: the player-dealer rotation's rules (California card-room games), pure.
- :mod:`games.round.player_dealer`: the part a player-dealer game's machine picks to carry them out.
- :mod:`games.round.shoe_play`: a shoe dealt over many rounds, with a cut card.
- :mod:`games.round.no_deck`: a game played without cards (no deck check, no shuffle).

A game's machine is ``class MyRound(<parts>, RoundMachine)``; docs/internals.md,
"Adding a game", lists what it declares and implements.
"""

from games.round.contract import (
    LIGHT_GROUPS,
    ROUND_STATES,
    STATES,
    VOID_BY,
    DeviceRole,
    Emit,
    Fault,
    Refused,
    Verdict,
)
from games.round.devices import CARD_LOST, DEVICE_FIXES, LINK_FAULTS
from games.round.lifecycle import CARDS_IN_PLAY, RoundMachine
from games.round.no_deck import NoDeck
from games.round.player_dealer import PlayerDealer
from games.round.rotation import MAX_CONSECUTIVE, PlayerDealerRotation
from games.round.shoe_play import ShoePlay

SHOE_IN_PLAY = CARDS_IN_PLAY

__all__ = [
    "CARDS_IN_PLAY", "CARD_LOST", "DEVICE_FIXES", "LIGHT_GROUPS", "LINK_FAULTS", "MAX_CONSECUTIVE",
    "ROUND_STATES", "SHOE_IN_PLAY", "STATES", "VOID_BY", "DeviceRole", "Emit", "Fault", "NoDeck", "PlayerDealer",
    "PlayerDealerRotation", "Refused", "RoundMachine", "ShoePlay", "Verdict",
]
