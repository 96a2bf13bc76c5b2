"""Bet'Win's round, as the controller sequences it (betwin.txt).

1. ``betting``: initial wagers; ``deal`` closes them.
2. ``dealing``, by steps (games.round.steps):
   a. one card face up to each seat, starting on the dealer's left and going clockwise
      (rule 3.1: seat 1 first);
   b. the dealer's "Waiting" card, face up (rule 3.1);
   c. the change phase (rule 3.2): each seat in turn presses ``change`` or ``stand`` on its seat
      buttons (``turn`` light on that seat); a change is allowed once per round per seat, and
      only in this phase -- any other press is refused with the rule;
   d. the changed cards, one to each seat that changed, left to right (rule 3.2: "the dealer
      changes players' cards from left to right");
   e. the re-bet (rule 3.3): the dealer presses ``deal`` for "re-bet completed" -- amounts are
      the dealer's to police, the controller sees no chips;
   f. the dealer's "Adjoining" card, face up (rule 3.4).
3. ``result``: the win zone and every seat's outcome (rule 2, rule 3.5; games.betwin.rules).

Six decks are dealt from a shoe over many rounds (games.round.shoe_play): the dealer loads the
shoe and places a cut card; the shuffle follows the round in which it came out.

Every card is dealt face up, so nothing is secret but the undealt order; a changed card goes
face down to the re-bet box and then to the used-card shoe (rule 3.2): it takes no further part
and is published when it was dealt, as it was seen then.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.cards import Card
from games.round import DeviceRole, Emit, RoundMachine, ShoePlay
from games.round.steps import CardDue, DecisionDue, PressDue, Step, Steps
from games.wagers import WagerResult

ROLES: dict[str, DeviceRole] = {
    "shoe": DeviceRole(kinds=("card_shoe",), needed_in=frozenset({"dealing"}), reads_cards=True),
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle"}),
                           prepares_deck=True),
}
"""GAMES.md: a reading shoe (six decks of 44); the shuffler checks the decks and shuffles them."""

REBET = PressDue("deal", "press", "Re-bet (rule 3.3): seated players may add up to their initial wager; "
                                 "press deal when the re-bets are complete.")


class BetWinRound(Steps, ShoePlay, RoundMachine):
    """The Bet'Win round machine (API: docs/internals.md)."""

    game = "betwin"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "shuffle_ack")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = ("change", "stand")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("turn",)
    ROLES = ROLES

    def __init__(self, options: Any, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.first: dict[int, Card] = {}
        self.choices: dict[int, str] = {}
        self.changed: dict[int, Card] = {}
        self.waiting: Card | None = None
        self.rebet_done = False
        self.adjoining: Card | None = None
        self.results: dict[int, list[WagerResult]] | None = None
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)

    def _clear_layout(self) -> None:
        self.first, self.choices, self.changed = {}, {}, {}
        self.waiting = self.adjoining = None
        self.rebet_done = False
        self.results = None

    def _card_of(self, seat: int) -> Card:
        return self.changed.get(seat, self.first[seat])

    # --- the steps ----------------------------------------------------------------------------

    def _round_cards_most(self) -> int:
        """A card to each seat and the Waiting card (rule 3.1), a changed card to each seat at most
        once (rule 3.2), the Adjoining card (rule 3.4)."""
        return 2 * self.seats + 2

    def _next_step(self) -> Step | None:
        seats = range(1, self.seats + 1)
        for seat in seats:
            if seat not in self.first:
                return CardDue("seat", 1, "up", seat=seat, why="one card to each seat, rule 3.1")
        if self.waiting is None:
            return CardDue("waiting", 1, "up", why="the dealer's Waiting card, rule 3.1")
        for seat in seats:
            if seat not in self.choices:
                return DecisionDue(seat, self.SEAT_BUTTONS, "rule 3.2: a change once per round")
        for seat in seats:
            if self.choices[seat] == "change" and seat not in self.changed:
                return CardDue("seat", 2, "up", seat=seat, why="the changed card, left to right, rule 3.2")
        if not self.rebet_done:
            return REBET
        if self.adjoining is None:
            return CardDue("adjoining", 1, "up", why="the dealer's Adjoining card, rule 3.4")
        return None

    def _place(self, due: CardDue, card: Card) -> None:
        if due.hand == "seat":
            assert due.seat is not None
            (self.first if due.position == 1 else self.changed)[due.seat] = card
        elif due.hand == "waiting":
            self.waiting = card
        else:
            self.adjoining = card

    def _decide(self, seat: int, choice: str) -> None:
        self.choices[seat] = choice

    def _pressed(self, due: PressDue) -> None:
        self.rebet_done = True

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        if self.state == "dealing" and seat in self.choices:
            return (f"seat {seat} has already chosen {self.choices[seat]} this round: a change is allowed once "
                    "per round (rule 3.2)")
        if self.state == "dealing" and self.waiting is not None and all(
                s in self.choices for s in range(1, self.seats + 1)):
            return "the change phase is over (rule 3.2)"
        if self.state != "dealing" or self.waiting is None:
            return f"no change phase now: it follows the dealer's Waiting card (rule 3.2; state {self.state})"
        return super()._seat_refusal(name, seat)

    # --- result ------------------------------------------------------------------------------

    def _entered_result(self) -> None:
        assert self.waiting is not None and self.adjoining is not None
        cards = {seat: self._card_of(seat) for seat in range(1, self.seats + 1)}
        self.results = self.options.settle(cards, self.waiting, self.adjoining)
        self._emit("result", self._result_data())

    def _result_data(self) -> dict | None:
        if self.results is None or self.waiting is None or self.adjoining is None:
            return None
        return {"waiting": self.waiting.code, "adjoining": self.adjoining.code,
                "zone": self.options.zone_text(self.waiting, self.adjoining),
                "seats": {str(s): {"card": self._card_of(s).code, "changed": s in self.changed,
                                   "wagers": [w.to_dict() for w in ws]}
                          for s, ws in sorted(self.results.items())}}

    def _snapshot_game(self) -> dict:
        return {"seats_cards": {str(s): self._card_of(s).code for s in sorted(self.first)},
                "waiting": self.waiting.code if self.waiting else None,
                "adjoining": self.adjoining.code if self.adjoining else None,
                "result": self._result_data()}
