"""Three Card Poker's round, as the controller sequences it (california-card-room-games.txt,
Three Card Poker; the rule numbers below are that section's "Dealing procedures" (D), "Round of
Play" (R) and "Bonus Bet" (B) lists).

1. ``betting``: antes and bonus bets; ``deal`` is "no more bets" (Betting scheme 2). The
   player-dealer holds the position for at most two consecutive hands, then it is offered
   clockwise (R12; games.round.rotation).
2. ``dealing``, by steps, to each seat starting to the left of the player-dealer and going
   clockwise, the player-dealer last (D1a):
   - from a **shoe**: three cards face down to each seat in turn (choice: the sheet says "deal
     each seated player ... three cards ... then in turn to each of the other players", read as
     three at a time; a hand-forming shuffler delivers them that way too). The player-dealer's
     stack is delivered face down and its third card then turned face up (D1a);
   - from a **hand-forming shuffler**: each hand of three is one delivery (``hand`` prompt, one
     ``D`` message); a delivery of any other size is an alarm and the round can only be voided
     (the cards on the layout no longer match a hand).
   Then each player, from the player-dealer's left, presses ``play`` or ``fold`` on the seat
   buttons (R3); a fold forfeits the ante and any bonus bet (R3a).
3. ``result``: folded hands are collected unseen (R4: never revealed to the pit); the
   player-dealer's hand is revealed and qualifies with Queen high (R5); the action button goes
   where the player-dealer's face-down second card says (R8); each playing hand is revealed
   (R6); every seat's ante, play and bonus are settled (R5a-b, B1-8; games.three_card_poker.rules).

Which seats play: every seat but the player-dealer's (the controller sees no chips; a seat
without an ante simply has no wager to settle -- the dealer knows).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.cards import Card
from games.round import DeviceRole, Emit, PlayerDealer, RoundMachine, ShoePlay
from games.round.steps import CardDue, DecisionDue, Step, Steps

HAND = 3
"""Three cards a hand (the game's name; Bonus Bet 3)."""

SHOE_ROLES: dict[str, DeviceRole] = {
    "shoe": DeviceRole(kinds=("card_shoe",), needed_in=frozenset({"dealing"}), reads_cards=True),
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle"}),
                           prepares_deck=True),
}
HAND_ROLES: dict[str, DeviceRole] = {
    "shuffler": DeviceRole(kinds=("hand_shuffler",), needed_in=frozenset({"deck_check", "shuffle", "dealing"}),
                           prepares_deck=True, reads_cards=True),
}
"""Type of card deck used, 1: "dealt from a multiple deck automatic card shuffling device
('shuffler') or shoe"."""


class ThreeCardPoker(Steps, PlayerDealer, RoundMachine):
    """The round, whichever way the cards come; the two modes below add their device part."""

    game = "three_card_poker"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "shuffle_ack", "pass")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = ("play", "fold")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("action", "player_dealer", "turn")
    ROLES = {**SHOE_ROLES, "shuffler": DeviceRole(kinds=("shuffler", "hand_shuffler"),
                                                  needed_in=frozenset({"deck_check", "shuffle"}), prepares_deck=True)}

    def __init__(self, options: Any, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.hands: dict[int, list[Card]] = {}
        self.choices: dict[int, str] = {}
        self.outcome: dict[str, Any] | None = None
        super().__init__(spec=options.spec, emit=emit, seats=options.seats,
                         player_dealer_seat=options.first_player_dealer_seat, first_round=first_round)

    def _clear_layout(self) -> None:
        self.hands, self.choices, self.outcome = {}, {}, None

    @property
    def banker(self) -> int:
        return self.rotation.seat

    def _order(self) -> list[int]:
        """Seats from the player-dealer's left, clockwise, the player-dealer last (D1a)."""
        pd = self.banker
        return [(pd + i - 1) % self.seats + 1 for i in range(1, self.seats + 1)]

    def _players(self) -> list[int]:
        return [s for s in self._order() if s != self.banker]

    # --- the steps ----------------------------------------------------------------------------

    def _next_step(self) -> Step | None:
        for seat in self._order():
            hand = self.hands.get(seat, [])
            if len(hand) < HAND:
                return self._card_due(seat, len(hand) + 1)
        for seat in self._players():
            if seat not in self.choices:
                return DecisionDue(seat, self.SEAT_BUTTONS, "play (a play wager equal to the ante) or fold, R3")
        return None

    def _card_due(self, seat: int, position: int) -> CardDue:
        if seat == self.banker:
            face = "up" if position == HAND else "down"
            why = "the player-dealer's third card, turned face up, D1a" if face == "up" else "the player-dealer's hand, D1a"
            return CardDue("player_dealer", position, face, seat=seat, why=why)
        return CardDue("seat", position, "down", seat=seat, why="three cards face down, D1a")

    def _place(self, due: CardDue, card: Card) -> None:
        assert due.seat is not None
        self.hands.setdefault(due.seat, []).append(card)

    def _decide(self, seat: int, choice: str) -> None:
        self.choices[seat] = choice

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        if seat == self.banker and self.state == "dealing":
            return f"seat {seat} is the player-dealer: it neither plays nor folds (R3)"
        if seat in self.choices:
            return f"seat {seat} has already chosen to {self.choices[seat]} (R3)"
        return super()._seat_refusal(name, seat)

    # --- result ------------------------------------------------------------------------------

    def _entered_result(self) -> None:
        pd_hand = self.hands[self.banker]
        self._emit("reveal", {"hand": "player_dealer", "seat": self.banker, "cards": [c.code for c in pd_hand]})
        action = self.options.action_button(pd_hand[1], self.banker, self.seats)
        self.action_seat = action["seat"]
        self._emit("action_button", action)
        playing = [s for s in reversed(self._players()) if self.choices.get(s) == "play"]
        for seat in playing:  # R6: from the player farthest to the dealer's right
            self._emit("reveal", {"hand": "seat", "seat": seat, "cards": [c.code for c in self.hands[seat]]})
        self.outcome = self.options.settle(pd_hand, {s: (self.hands[s], self.choices[s] == "play")
                                                     for s in self._players()})
        self.outcome["player_dealer"] = self.banker
        self._emit("result", self.outcome)

    def _snapshot_game(self) -> dict:
        pd = self.hands.get(self.banker, [])
        up = pd[HAND - 1].code if len(pd) == HAND else None
        return {"player_dealer_up_card": up, "dealt": {str(s): len(h) for s, h in sorted(self.hands.items())},
                "choices": {str(s): c for s, c in sorted(self.choices.items())}, "result": self.outcome}


class ThreeCardPokerShoe(ThreeCardPoker, ShoePlay):
    """Dealt from a reading shoe over many hands, with a cut card (games.round.shoe_play)."""

    ROLES = SHOE_ROLES

    def _round_cards_most(self) -> int:
        """Three cards to every seat and the player-dealer (D1a): the controller deals every seat
        (it sees no antes), so the most a round takes is the table's."""
        return HAND * self.seats


class ThreeCardPokerHands(ThreeCardPoker):
    """Dealt by a hand-forming shuffler: each hand is one delivery; the cards go back to the
    shuffler after every hand."""

    ROLES = HAND_ROLES

    def _dealing_prompt(self) -> dict:
        step = self._next_step()
        if isinstance(step, CardDue):
            who = "the player-dealer" if step.hand == "player_dealer" else f"seat {step.seat}"
            return {"expect": "hand", "hand": step.hand, "seat": step.seat, "count": HAND,
                    "text": f"Take the next hand of {HAND} from the shuffler to {who} (D1a)."}
        return super()._dealing_prompt()

    def _input_hand_delivered(self, role: str, cards: tuple[Card, ...]) -> None:
        step = self._next_step() if self.state == "dealing" else None
        if not isinstance(step, CardDue) or step.position != 1:
            for card in cards:  # each is checked against the deck, then refused where it is
                self.card(card)
            return
        taken = []
        for card in cards:
            fault = self.ledger.take(card)
            if fault is not None:
                code = "foreign_card" if fault.kind == "foreign" else "card_too_many"
                self._alarm(code, "fault", fault.message, card=None, expected=self._due_text(),
                            action="void the round: the hand holds a card the deck cannot")
                self._enter_fault(code, fault.message, no_resume="the hand held a card the deck cannot")
                return
            taken.append(card)
        if len(taken) != HAND:
            who = "the player-dealer" if step.hand == "player_dealer" else f"seat {step.seat}"
            why = (f"the shuffler delivered {len(taken)} card(s) for {who}'s hand: a Three Card Poker hand is "
                   f"{HAND} (D1a)")
            self._alarm("hand_size", "fault", why, expected=self._due_text(),
                        action="void the round; check the shuffler")
            self._enter_fault("hand_size", why, no_resume=why)
            return
        self._quiet = True  # one delivery: the prompt moves on once, after the whole hand
        try:
            for card in taken:
                self._deal_card(card)
        finally:
            self._quiet = False
        if self.state == "dealing":
            self._publish_prompt()

    _quiet = False

    def _publish_prompt(self) -> None:
        if not self._quiet:
            super()._publish_prompt()
