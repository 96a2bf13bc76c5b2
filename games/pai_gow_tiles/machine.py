"""Pai Gow Tiles' round, as the controller sequences it (california-card-room-games.txt, "Pai Gow
Tiles", Rules of Play). No cards: the table opens without a deck check or a shuffle
(games.round.no_deck); the tiles are shuffled and stacked by the house dealer by hand and no
device reads them.

1. ``betting``: "All players post wagers ... before the dice cup is opened"; the fees are taken
   "prior to the start of any play" (Collection Fees: the prompt says how much). ``deal`` = no
   more bets. The player-dealer position starts at seat 1 and is "offered in a continuous and
   systematic manner counterclockwise every two hands" (games.round.rotation, ``ROTATION``).
2. ``dealing``, by steps:
   - the player-dealer shakes the cup of three dice (``dice`` prompt with the seat); the total,
     counted counterclockwise from the banker as 1 (so 9 and 17 are the banker), places the action
     button and the first tiles (games.pai_gow_tiles.rules.placement): an ``action_button``
     event, the ``action`` light on that seat;
   - the house dealer deals four tiles to each position from the first tiles counterclockwise,
     the players set their hands, then the player-dealer, and the hands are compared: the dealer
     presses ``deal`` when every hand is compared (a ``press`` prompt). While this phase is open
     the pit may settle a dispute with ``cmd/dispute`` (the player-dealer's hand and each
     disputed seat's four tiles, as set or to be set the house way): the reply rules on each
     seat at once, and the round's result carries it.
3. ``result``: the shake, the placement and the order of the deal, and each disputed seat's
   hand and outcome (win, lose or push) against the player-dealer's; ``deal`` settles the round.

Out of the rules: dice when none are due (``unexpected_dice``), a reading that is not three dice
of 1 to 6 (``dice_count``, ``dice_value``: the shake is repeated), a hand that is not four tiles
of the set or is set against the sheet (the command is refused with the reason), a third
consecutive hand for the player-dealer (the rotation never deals it: the offer goes round and
the game is broken, ``game_broken``, when nobody takes it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.pai_gow_tiles.options import PaiGowTilesOptions
from games.pai_gow_tiles.rules import (
    DICE,
    DIRECTION,
    EnteredHand,
    HandRefused,
    Placement,
    placement,
    read_hand,
    settle,
)
from games.pai_gow_tiles.tiles import over_the_set
from games.round import DeviceRole, Emit, NoDeck, PlayerDealer, Refused, RoundMachine
from games.round.steps import DiceDue, PressDue, Step, Steps

ROLES: dict[str, DeviceRole] = {
    "cup": DeviceRole(kinds=("dice_cup",), needed_in=frozenset({"dealing"}), reads_dice=True),
}
"""The dice cup (three dice) and nothing else: no shuffler, no card reader."""


class PaiGowTilesRound(Steps, PlayerDealer, NoDeck, RoundMachine):
    """One table of Pai Gow Tiles: eight positions, a player-dealer, a dice cup."""

    game = "pai_gow_tiles"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "pass")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("action", "player_dealer")
    ROLES = ROLES
    ROTATION = DIRECTION

    def __init__(self, options: PaiGowTilesOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.dice: tuple[int, ...] | None = None
        self.placed: Placement | None = None
        self.compared = False
        self.banker_hand: EnteredHand | None = None
        self.disputed: dict[int, EnteredHand] = {}
        self.outcome: dict[str, Any] | None = None
        super().__init__(emit=emit, seats=options.seats, player_dealer_seat=options.first_player_dealer_seat,
                         first_round=first_round)

    @property
    def banker(self) -> int:
        return self.rotation.seat

    def _clear_layout(self) -> None:
        self.dice, self.placed, self.compared = None, None, False
        self.banker_hand, self.disputed, self.outcome = None, {}, None

    # --- the steps ------------------------------------------------------------------------------

    def _next_step(self) -> Step | None:
        if self.dice is None:
            return DiceDue(DICE, self.banker, "the player-dealer's shake places the action button and the "
                                              "first tiles, counted counterclockwise from the banker as 1, 9, 17")
        if not self.compared:
            assert self.placed is not None
            order = ", ".join(str(s) for s in self.placed.deal_order)
            return PressDue("deal", "press",
                            f"Deal four tiles to each position from seat {self.placed.first_tiles} counterclockwise "
                            f"({order}); the action is at seat {self.placed.action}. The players set their hands, "
                            f"then the player-dealer (seat {self.banker}); compare, then press deal. A disputed "
                            f"hand: the pit enters the tiles (cmd/dispute).")
        return None

    def _shaken(self, due: DiceDue, values: tuple[int, ...]) -> None:
        """Rules of Play: the total places the action button and the first tiles."""
        self.dice = values
        self.placed = placement(sum(values), self.banker, self.seats)
        self.action_seat = self.placed.action
        self._emit("action_button", {"seat": self.placed.action, "count": self.placed.total,
                                     "first_tiles_seat": self.placed.first_tiles, "banker_seat": self.banker})

    def _dice_data(self, due: DiceDue, values: tuple[int, ...]) -> dict[str, Any]:
        found = placement(sum(values), self.banker, self.seats)
        return {"reaches": found.reaches, "first_tiles_seat": found.first_tiles, "action_seat": found.action}

    def _pressed(self, due: PressDue) -> None:
        self.compared = True

    def _prompt_for_state(self) -> dict:
        prompt = super()._prompt_for_state()
        if self.state == "betting" and prompt.get("expect") == "bets":
            prompt["text"] = f"{prompt['text']} Before the shake, {self.options.fees_text}."
        return prompt

    # --- the dispute ----------------------------------------------------------------------------

    def _command_dispute(self, args: Mapping[str, Any]) -> dict:
        """``cmd/dispute``: the tiles of the player-dealer's hand and of each disputed seat's, as
        set at the table or to be set the house way; the ruling, seat by seat. Refused, with the
        reason, outside the phase where hands are set and compared, for a seat that is not a
        player's, and for any hand the sheet does not allow (games.pai_gow_tiles.rules.read_hand),
        or tiles the set cannot hold together. A later dispute in the same round may add seats,
        or enter a seat again (the dealer corrects a mistake); the player-dealer's hand is needed
        once."""
        if self.state != "dealing" or self.compared:
            raise Refused(f"a dispute is settled while the hands are set and compared, after the shake and before "
                          f"the result (state {self.state}{', hands compared' if self.compared else ''})")
        if self.dice is None:
            raise Refused("the player-dealer has not shaken the dice cup: no tiles are dealt yet (Rules of Play)")
        wild = self.options.gee_joon_wild
        seats_in = args.get("seats")
        if not isinstance(seats_in, Mapping) or not seats_in:
            raise Refused("a dispute names at least one seat and its hand: {\"seats\": {\"3\": {...}}}")
        banker_hand = self.banker_hand
        if args.get("player_dealer") is not None:
            try:
                banker_hand = read_hand(args["player_dealer"], gee_joon_wild=wild)
            except HandRefused as exc:
                raise Refused(f"the player-dealer's hand (seat {self.banker}): {exc}") from None
        if banker_hand is None:
            raise Refused(f"the player-dealer's hand (seat {self.banker}) is needed to settle a dispute: all bets "
                          "are against the player/dealer (Rules of Play)")
        entered = dict(self.disputed)
        for key, entry in seats_in.items():
            seat = _seat_number(key, self.seats)
            if seat is None:
                raise Refused(f"seats: a key is not one of seats 1..{self.seats}")
            if seat == self.banker:
                raise Refused(f"seat {seat} holds the player-dealer position: its hand is the player_dealer's")
            try:
                entered[seat] = read_hand(entry, gee_joon_wild=wild)
            except HandRefused as exc:
                raise Refused(f"seat {seat}: {exc}") from None
        why = over_the_set([banker_hand.tiles, *(h.tiles for h in entered.values())])
        if why is not None:
            raise Refused(f"these hands cannot all be on the table: {why}")
        self.banker_hand, self.disputed = banker_hand, entered
        # The prompt is not published again: a prompt is a request, and the same request twice
        # is acted on twice (a second ``deal`` would settle the round unseen). The state topic's
        # ``disputed_seats`` and the command's reply say what was entered.
        return self._ruling()

    def _ruling(self) -> dict[str, Any]:
        assert self.banker_hand is not None
        return {"player_dealer": self.banker, "player_dealer_hand": self.banker_hand.to_dict(),
                "seats": settle(self.banker_hand, self.disputed)}

    # --- result ---------------------------------------------------------------------------------

    def _entered_result(self) -> None:
        assert self.dice is not None and self.placed is not None
        ruling = self._ruling() if self.banker_hand is not None else {
            "player_dealer": self.banker, "player_dealer_hand": None, "seats": {}}
        self.outcome = {"values": list(self.dice), "total": sum(self.dice), **self.placed.to_dict(), **ruling}
        self._emit("result", self.outcome)

    def _snapshot_game(self) -> dict:
        placed = self.placed.to_dict() if self.placed is not None else None
        return {"dice": None if self.dice is None else list(self.dice), "placement": placed,
                "disputed_seats": sorted(self.disputed), "result": self.outcome}


def _seat_number(key: Any, seats: int) -> int | None:
    text = str(key)
    if not text.isdigit() or len(text) > 2:
        return None
    seat = int(text)
    return seat if 1 <= seat <= seats else None
