"""No Bust 21st Century Blackjack's round, as the controller sequences it
(california-card-room-games.txt, "No Bust 21st Century Blackjack"; rule tags as in
:mod:`games.no_bust.rules`: HP How to Play, GR Game Rules, DS Double-Down Split & Surrender,
AR Additional Game Rules, RPD/RFP the player-dealer's and the players' charts).

1. ``betting``: wagers on the betting squares; ``deal`` is "no more bets". The player-dealer
   banks at most two consecutive hands, then the deal is offered clockwise (the sheet's
   "Player-dealer and Deal" of its California games; games.round.rotation).
2. ``dealing``, by steps (games.round.steps), every seat but the player-dealer's playing:
   a. the initial deal (HP8: two cards each): one card face up to each player from the
      player-dealer's left, clockwise, then the player-dealer's up card; a second card to each
      player, then -- with ``player_dealer_second_card = "hole"`` -- the player-dealer's second
      card face down (its hole card: published without its identity);
   b. the players' draws (AR4), seat by seat from the player-dealer's left, each of a seat's hands
      in turn: a ``decision`` prompt lights the seat buttons the rules allow on that hand now
      (hit, stand, double, split, surrender: games.no_bust.rules.choices). A hand that must draw
      and may do nothing else (11 or less, RFP) gets its card without a press; a hand that must
      stand (20 or more, RFP) or is frozen (a joker, AR1) is passed. The player-dealer's joker up
      card freezes every hand: there is no draw at all (AR2, GR7);
   c. the player-dealer's hole card is turned up (``reveal``) once the players are done -- or,
      with ``"after_draws"``, its second card is dealt face up then -- and it draws as RPD says.
3. ``result``: the action button from the player-dealer's second card, and for each seat each
   hand's wagers (bet or split wager, double), win, lose or push and at what odds.

A split moves the hand's second card to a new hand of the seat, numbered after its last
(``seat_hand`` in ``card`` events and prompts); hands are played in that order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.cards import Card
from games.no_bust import rules
from games.round import DeviceRole, Emit, PlayerDealer, RoundMachine, ShoePlay
from games.round.steps import CardDue, DecisionDue, Step, Steps

ROLES: dict[str, DeviceRole] = {
    "shoe": DeviceRole(kinds=("card_shoe",), needed_in=frozenset({"dealing"}), reads_cards=True),
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle"}),
                           prepares_deck=True),
}
"""GAMES.md: a reading shoe (N decks with jokers); the shuffler checks the decks and shuffles them."""

VERBS = {"hit": "draw", "stand": "stand", "double": "double down", "split": "split", "surrender": "surrender"}


@dataclass(frozen=True)
class SeatCard(CardDue):
    """A card to one of a seat's hands (``seat_hand``, 1 unless the seat split)."""

    seat_hand: int = 1
    show_hand: bool = False

    @property
    def where(self) -> str:
        return f"seat {self.seat}" + (f" hand {self.seat_hand}" if self.show_hand else "")


@dataclass(frozen=True)
class DealerCard(CardDue):
    """A card to the player-dealer's hand."""

    @property
    def where(self) -> str:
        return f"the player-dealer (seat {self.seat})"


@dataclass(frozen=True)
class SeatDecision(DecisionDue):
    """A seat's decision on one of its hands."""

    seat_hand: int = 1


@dataclass
class SeatHand:
    """A player's hand on the layout, and what the player did with it."""

    cards: list[Card] = field(default_factory=list)
    wager: str = "bet"
    split: bool = False
    from_aces: bool = False
    doubled: bool = False
    stood: bool = False
    surrendered: bool = False
    drawing: str | None = None
    """``hit`` or ``double``: the card the player asked for is due."""

    def played(self) -> rules.PlayedHand:
        return rules.PlayedHand(tuple(self.cards), self.wager, self.doubled, self.surrendered)


class NoBustRound(Steps, PlayerDealer, ShoePlay, RoundMachine):
    """The No Bust 21st Century Blackjack round machine (API: docs/internals.md)."""

    game = "no_bust"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "shuffle_ack", "pass")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = rules.BUTTONS
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("action", "player_dealer", "turn")
    ROLES = ROLES

    def __init__(self, options: Any, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.readings: rules.Rules = options.readings
        self._clear_layout()
        super().__init__(spec=options.spec, emit=emit, seats=options.seats,
                         player_dealer_seat=options.first_player_dealer_seat, first_round=first_round)

    def _clear_layout(self) -> None:
        self.hands: dict[int, list[SeatHand]] = {}
        self.splits: dict[int, int] = {}
        self.pd: list[Card] = []
        self.revealed = False
        self.outcome: dict[str, Any] | None = None
        self.action: dict[str, Any] | None = None
        self._deal_order: list[tuple[int | None, int]] | None = None
        self._initial_dealt = 0

    @property
    def banker(self) -> int:
        return self.rotation.seat

    def _players(self) -> list[int]:
        """Every seat but the player-dealer's, from its left, clockwise."""
        pd = self.banker
        return [(pd + i - 1) % self.seats + 1 for i in range(1, self.seats)]

    def _lay(self) -> list[tuple[int | None, int]]:
        """The round's initial deal order (HP8), fixed when dealing starts; None is the player-dealer."""
        if self._deal_order is None:
            players = self._players()
            order: list[tuple[int | None, int]] = [(s, 1) for s in players] + [(None, 1)] + [(s, 2) for s in players]
            if self.options.hole_card:
                order.append((None, 2))
            self._deal_order = order
            self.hands = {s: [SeatHand()] for s in players}
            self.splits = dict.fromkeys(players, 0)
        return self._deal_order

    def _initial_complete(self) -> bool:
        return self._initial_dealt >= len(self._lay())

    def _up_joker(self) -> bool:
        """AR2, GR7: the player-dealer's up card (its first) is a joker."""
        return bool(self.pd) and self.pd[0].is_joker

    def _state_of(self, seat: int, hand: SeatHand) -> rules.HandState:
        return rules.HandState(tuple(hand.cards), hand.split, hand.from_aces, self.splits.get(seat, 0),
                               self._up_joker())

    # --- the steps ------------------------------------------------------------------------------

    def _next_step(self) -> Step | None:
        order = self._lay()
        if self._initial_dealt < len(order):
            seat, position = order[self._initial_dealt]
            if seat is None:
                if position == 1:
                    return DealerCard("player_dealer", 1, "up", seat=self.banker,
                                   why="the player-dealer's up card (HP8)")
                return DealerCard("player_dealer", 2, "down", seat=self.banker,
                               why="the player-dealer's hole card, face down (HP8)")
            return SeatCard("seat", position, "up", seat=seat, why="the initial deal, two cards each (HP8)")
        step = self._player_step()
        if step is not None:
            return step
        if self.options.hole_card and not self.revealed:
            # The players are done and the hole card is turned up next (Steps._step_done below);
            # until then nothing that depends on it -- not even whether a card is due -- is said.
            return None
        if len(self.pd) < 2:
            return DealerCard("player_dealer", 2, "up", seat=self.banker,
                           why="the player-dealer's second card, once the players have drawn (HP8; reading)")
        draws, why = rules.player_dealer_draws(self.pd, self.readings.highest_total)
        if draws:
            return DealerCard("player_dealer", len(self.pd) + 1, "up", seat=self.banker, why=why)
        return None

    def _player_step(self) -> Step | None:
        """The first player's step left: a card to a hand, or a decision (AR4)."""
        if self._up_joker():
            return None  # AR2, GR7: every hand is frozen, no draw
        for seat in self._players():
            hands = self.hands[seat]
            for i, hand in enumerate(hands):
                step = self._hand_step(seat, i, hand, len(hands) > 1)
                if step is not None:
                    return step
        return None

    def _hand_step(self, seat: int, i: int, hand: SeatHand, show: bool) -> Step | None:
        if hand.surrendered or hand.stood or (hand.doubled and hand.drawing is None):
            return None
        n = len(hand.cards)
        if n < 2:
            why = ("a split ace's one draw card (DS3a)" if hand.from_aces
                   else "a split hand's second card (DS3)")
            return SeatCard("seat", n + 1, "up", seat=seat, why=why, seat_hand=i + 1, show_hand=show)
        if hand.drawing is not None:
            why = "the double down's one draw card (DS1)" if hand.drawing == "double" else "the player draws (AR4)"
            return SeatCard("seat", n + 1, "up", seat=seat, why=why, seat_hand=i + 1, show_hand=show)
        state = self._state_of(seat, hand)
        allowed = rules.choices(state, self.readings)
        if not allowed or allowed == ("stand",):
            return None  # frozen, or must stand (RFP): no press asked for
        t = rules.total(hand.cards, self.readings.highest_total)
        if allowed == ("hit",):
            return SeatCard("seat", n + 1, "up", seat=seat, seat_hand=i + 1, show_hand=show,
                            why=f"must hit on {t.value} (RFP: 11 or less)")
        codes = " ".join(c.code for c in hand.cards)
        return SeatDecision(seat, allowed, f"hand {i + 1}: {codes}, {t.describe()}", seat_hand=i + 1)

    def _finished_why(self, seat: int, hand: SeatHand) -> str | None:
        """Why ``hand`` takes no further action, or None while it may."""
        codes = " ".join(c.code for c in hand.cards)
        if hand.surrendered:
            return f"its hand {codes} surrendered"
        if hand.doubled and hand.drawing is None:
            return f"its hand {codes} doubled down and received its one draw card (DS1)"
        if hand.stood:
            return f"its hand {codes} stood"
        if len(hand.cards) < 2 or hand.drawing is not None:
            return None
        state = self._state_of(seat, hand)
        allowed = rules.choices(state, self.readings)
        if not allowed:
            return f"its hand {codes}: {rules.refusal('stand', state, self.readings)}"
        if allowed == ("stand",):
            return f"its hand {codes}: {rules.refusal('hit', state, self.readings)}"
        return None

    def _place(self, due: CardDue, card: Card) -> None:
        if self._initial_dealt < len(self._lay()):
            self._initial_dealt += 1
        if due.hand == "player_dealer":
            self.pd.append(card)
            return
        assert isinstance(due, SeatCard) and due.seat is not None
        hand = self.hands[due.seat][due.seat_hand - 1]
        hand.cards.append(card)
        hand.drawing = None

    def _card_data(self, due: CardDue, card: Card) -> dict[str, Any]:
        return {"seat_hand": due.seat_hand} if isinstance(due, SeatCard) else {}

    def _decide(self, seat: int, choice: str) -> None:
        step = self._next_step()
        assert isinstance(step, SeatDecision) and step.seat == seat
        hands = self.hands[seat]
        hand = hands[step.seat_hand - 1]
        if choice == "hit":
            hand.drawing = "hit"
        elif choice == "stand":
            hand.stood = True
        elif choice == "double":
            hand.doubled, hand.drawing = True, "double"
        elif choice == "surrender":
            hand.surrendered = True
        else:  # split (DS3, DS5): the second card starts a new hand with a wager of its own
            self.splits[seat] += 1
            moved = hand.cards.pop()
            aces = moved.rank == "A"
            hand.split, hand.from_aces = True, hand.from_aces or aces
            hands.append(SeatHand([moved], wager="split", split=True, from_aces=aces))

    def _step_done(self) -> None:
        if (self.options.hole_card and not self.revealed and self._initial_complete()
                and self._player_step() is None):
            self.revealed = True  # the players are done: the hole card is turned up (HP8; reading)
            self._emit("reveal", {"hand": "player_dealer", "seat": self.banker, "position": 2,
                                  "card": self.pd[1].code})
        super()._step_done()

    # --- refusals and texts ------------------------------------------------------------------------

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        if self.state != "dealing":
            return super()._seat_refusal(name, seat)
        verb = VERBS.get(name, name)
        if seat == self.banker:
            return (f"seat {seat} is the player-dealer: its hand is played by the player-dealer's chart (RPD), "
                    "not by seat buttons")
        if not self._initial_complete():
            return f"seat {seat} may not {verb} before the initial deal is complete (HP8): {self._due_text()}"
        if self._up_joker():
            return f"seat {seat} may not {verb}: " + rules.refusal(name, rules.HandState((), up_joker=True))
        step = self._next_step()
        hands = self.hands.get(seat, [])
        if isinstance(step, SeatDecision) and step.seat == seat:
            hand = hands[step.seat_hand - 1]
            why = rules.refusal(name, self._state_of(seat, hand), self.readings)
            if why is None:
                return None
            codes = " ".join(c.code for c in hand.cards)
            return f"seat {seat} may not {verb} on hand {step.seat_hand} ({codes}): {why}"
        pending = [h for h in hands if self._finished_why(seat, h) is None]
        if hands and not pending:
            return f"seat {seat} may not {verb}: " + "; ".join(w for h in hands if (w := self._finished_why(seat, h)))
        if isinstance(step, SeatDecision):
            return f"seat {step.seat} decides first"
        if isinstance(step, CardDue):
            return f"a card is due first: {self._due_text()}"
        return "the players' draws are over: the player-dealer's hand is played by its chart (RPD)"

    def _dealing_prompt(self) -> dict:
        prompt = super()._dealing_prompt()
        step = self._next_step()
        if isinstance(step, (SeatCard, SeatDecision)):
            prompt["seat_hand"] = step.seat_hand
        return prompt

    def _no_card_text(self) -> str:
        if self.state == "result" and self.pd:
            why = rules.player_dealer_draws(self.pd, self.readings.highest_total)[1]
            return f"no card: round {self.round} is complete ({why})"
        return super()._no_card_text()

    # --- result ----------------------------------------------------------------------------------------

    def _entered_result(self) -> None:
        pd = self.pd
        self.action = rules.action_button(pd[1], self.banker, self.seats, self.options.action_chart)
        self.action_seat = self.action["seat"]
        self._emit("action_button", self.action)
        self.outcome = rules.settle(pd, {s: [h.played() for h in hands] for s, hands in self.hands.items()},
                                    self.readings)
        self.outcome["player_dealer"] = self.banker
        self._emit("result", self.outcome)

    def _snapshot_game(self) -> dict:
        """The layout as the table shows it: the hole card is null until it is turned up."""
        shown: list[str | None] = [c.code for c in self.pd]
        if self.options.hole_card and len(shown) >= 2 and not self.revealed:
            shown[1] = None
        high = self.readings.highest_total
        return {
            "player_dealer_cards": shown,
            "frozen": self._up_joker(),
            "hands": {str(s): [{"cards": [c.code for c in h.cards],
                                "total": rules.total(h.cards, high).to_dict()["total"] if h.cards else None,
                                "doubled": h.doubled, "stood": h.stood, "surrendered": h.surrendered}
                               for h in hands] for s, hands in sorted(self.hands.items())},
            "action_button": self.action,
            "result": self.outcome,
        }
