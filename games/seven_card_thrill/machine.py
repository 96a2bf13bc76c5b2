"""7 Card Thrill's round, as the controller sequences it (seven-card-thrill.txt).

1. ``betting``: each seat's primary wager (poker, pair of kings or better, 3 of a kind or
   better, full house or better) and the special bet; ``deal`` closes them.
2. ``dealing``, by steps: seven cards to each seat and to the dealer, one at a time around the
   table (seat 1 first, the dealer last), every card face down except the dealer's first, its
   "top card", which is exposed (sheet: "exposing the top card only"). Choice: the sheet does not
   say whether the cards go round one at a time or in stacks of seven; a reading shoe deals one
   at a time, and either way each hand gets seven cards.
3. The discards: the players place two discards each and the dealer discards two. The wagers are
   settled on each hand's **best five of its seven** (sheet: "The player's best five card poker
   hand out of seven cards is compared to the dealer's five card poker hand"), so the controller
   needs no report of which two were discarded: the dealer presses ``deal`` once the discards
   are placed (a ``press`` prompt).
4. ``result``: every hand is revealed (``reveal`` with its seven cards) and every wager of every
   seat settled (games.seven_card_thrill.rules).

An eighth card to a hand cannot be placed: after the last card the next step is the discards,
so any card then is an ``unexpected_card`` alarm ("... but two discards ... first") and the round
goes to ``fault``. Until the reveal, a seat's cards and the dealer's six face-down cards appear in
no event, state or log.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.cards import Card
from games.round import DeviceRole, Emit, RoundMachine
from games.round.steps import CardDue, PressDue, Step, Steps

CARDS = 7

ROLES: dict[str, DeviceRole] = {
    "shoe": DeviceRole(kinds=("card_shoe",), needed_in=frozenset({"dealing"}), reads_cards=True),
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle"}),
                           prepares_deck=True),
}
"""GAMES.md: a shuffler (53 cards checked and shuffled for every round) and a reading shoe."""

DISCARDS = PressDue("deal", "press", "Two discards from each seat and from the dealer; press deal when they are "
                                     "placed: every hand is then revealed and settled on its best five")


class SevenCardThrillRound(Steps, RoundMachine):
    """The 7 Card Thrill round machine (API: docs/internals.md)."""

    game = "seven_card_thrill"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ()
    ROLES = ROLES

    def __init__(self, options: Any, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.hands: dict[int, list[Card]] = {}
        self.dealer: list[Card] = []
        self.discarded = False
        self.outcome: dict[str, Any] | None = None
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)
        self._clear_layout()

    def _clear_layout(self) -> None:
        self.hands = {s: [] for s in range(1, self.seats + 1)}
        self.dealer = []
        self.discarded = False
        self.outcome = None

    def _next_step(self) -> Step | None:
        for position in range(1, CARDS + 1):
            for seat in range(1, self.seats + 1):
                if len(self.hands[seat]) < position:
                    return CardDue("seat", position, "down", seat=seat, why="seven cards to each hand")
            if len(self.dealer) < position:
                face = "up" if position == 1 else "down"
                why = "the dealer's top card, exposed" if position == 1 else "seven cards to each hand"
                return CardDue("dealer", position, face, why=why)
        return None if self.discarded else DISCARDS

    def _place(self, due: CardDue, card: Card) -> None:
        (self.hands[due.seat] if due.hand == "seat" and due.seat is not None else self.dealer).append(card)

    def _pressed(self, due: PressDue) -> None:
        self.discarded = True

    def _entered_result(self) -> None:
        for seat in range(1, self.seats + 1):
            self._emit("reveal", {"hand": "seat", "seat": seat, "cards": [c.code for c in self.hands[seat]]})
        self._emit("reveal", {"hand": "dealer", "cards": [c.code for c in self.dealer]})
        self.outcome = self.options.settle(self.hands, self.dealer)
        self._emit("result", self.outcome)

    def _snapshot_game(self) -> dict:
        return {"dealer_up": self.dealer[0].code if self.dealer else None, "result": self.outcome}
