"""High Card: a neutral game of a few lines that proves the seam without baccarat.

Each seat gets one card face down; each seat then shows or folds (seat
buttons, one decision prompt at a time, the ``turn`` light on that seat);
the dealer's card comes face up; a shown card higher than the dealer's
wins 1 to 1, an equal one pushes, a lower one or a fold loses. A shown card
is revealed with the result; a folded card never is. No rotation, no shoe
play: the cards go back to the shuffler after every round. Ranks: A low, K high.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import STANDARD_RANKS, Card
from games.decks import DeckSpec, standard_deck
from games.options import OptionError, whole_number
from games.registry import GameEntry
from games.round import DeviceRole, Emit, RoundMachine
from games.wagers import Pays, WagerResult

SPEC = DeckSpec("13 spades", tuple(c for c in standard_deck() if c.suit == "S"))


@dataclass(frozen=True)
class Options:
    seats: int = 2

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 2 <= self.seats <= 4:
            raise OptionError("seats", f"High Card has 2 to 4 seats, not {self.seats}")

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> Options:
        return cls(seats=seats, **section)


class HighCard(RoundMachine):
    game = "high_card"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = ("show", "fold")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("turn",)
    ROLES: ClassVar[dict[str, DeviceRole]] = {
        "shoe": DeviceRole(("card_shoe",), frozenset({"dealing"}), reads_cards=True),
        "shuffler": DeviceRole(("shuffler",), frozenset({"deck_check", "shuffle"}), prepares_deck=True),
    }

    def __init__(self, options: Options, emit: Emit, first_round: int = 1) -> None:
        self.hands: dict[int, Card] = {}
        self.choices: dict[int, str] = {}
        self.dealer: Card | None = None
        super().__init__(spec=SPEC, emit=emit, seats=options.seats, first_round=first_round)

    def _clear_layout(self) -> None:
        self.hands, self.choices, self.dealer = {}, {}, None

    def _deciding(self) -> int | None:
        """The seat whose show-or-fold is due: every seat has its card, the dealer not yet."""
        if len(self.hands) < self.seats:
            return None
        return next((s for s in range(1, self.seats + 1) if s not in self.choices), None)

    def _deal_card(self, card: Card) -> None:
        if len(self.hands) < self.seats:
            seat = len(self.hands) + 1
            self.hands[seat] = card
            self._emit("card", {"hand": "seat", "seat": seat, "position": 1, "face": "down"})
            self._publish_prompt()
            return
        if self._deciding() is not None:
            message = f"{card.code} drawn, but seat {self._deciding()} has not shown or folded"
            self._alarm("unexpected_card", "fault", message, card=card.code, expected=self._due_text(),
                        action="void the round, or resume to burn the card")
            self._enter_fault("unexpected_card", message, card)
            return
        self.dealer = card
        self._emit("card", {"hand": "dealer", "position": 1, "face": "up", "card": card.code})
        self._fire("hands_complete")

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        due = self._deciding() if self.state == "dealing" else None
        if due is None:
            return f"no decision is due (state {self.state})"
        return None if seat == due else f"seat {due} decides first"

    def _seat_show(self, seat: int) -> None:
        self._decided(seat, "show")

    def _seat_fold(self, seat: int) -> None:
        self._decided(seat, "fold")

    def _decided(self, seat: int, choice: str) -> None:
        self.choices[seat] = choice
        self._publish_prompt()

    def _dealing_prompt(self) -> dict:
        seat = self._deciding()
        if seat is not None:
            return {"expect": "decision", "seat": seat, "choices": list(self.SEAT_BUTTONS),
                    "text": f"Seat {seat}: show or fold."}
        if len(self.hands) < self.seats:
            n = len(self.hands) + 1
            return {"expect": "card", "hand": "seat", "seat": n, "text": f"Card to seat {n}, face down."}
        return {"expect": "card", "hand": "dealer", "text": "Card to the dealer, face up."}

    def _due_text(self) -> str:
        seat = self._deciding()
        return f"seat {seat} to show or fold" if seat is not None else f"card -> {self._dealing_prompt()['hand']}"

    def _light_seats(self) -> dict[str, list[int]]:
        seat = self._deciding() if self.state == "dealing" else None
        return {**super()._light_seats(), "turn": [] if seat is None else [seat]}

    def _seat_buttons_lit(self) -> dict[str, list[int]]:
        seat = self._deciding() if self.state == "dealing" else None
        return {} if seat is None else {b: [seat] for b in self.SEAT_BUTTONS}

    def _entered_result(self) -> None:
        assert self.dealer is not None
        for seat, choice in sorted(self.choices.items()):
            if choice == "show":
                self._emit("reveal", {"hand": "seat", "seat": seat, "card": self.hands[seat].code})
        self._emit("result", {"dealer": self.dealer.code, "seats": {
            str(s): settle(self.hands[s], self.choices[s], self.dealer).to_dict() for s in sorted(self.hands)}})


def rank(card: Card) -> int:
    return STANDARD_RANKS.index(card.rank)


def settle(card: Card, choice: str, dealer: Card) -> WagerResult:
    if choice == "fold":
        return WagerResult("ante", "lose", why="folded")
    if rank(card) > rank(dealer):
        return WagerResult("ante", "win", Pays(1), why=f"{card.code} beats {dealer.code}")
    if rank(card) == rank(dealer):
        return WagerResult("ante", "push", why="equal ranks")
    return WagerResult("ante", "lose", why=f"{dealer.code} beats {card.code}")


GAME = GameEntry(
    name="high_card", title="High Card (a test game)", sheet="tests/neutral_game.py", machine=HighCard,
    options=Options.from_config, options_schema={"type": "object", "additionalProperties": False},
    build=lambda options, emit, first_round: HighCard(options, emit, first_round),
    deck=lambda options: SPEC, seats=(2, 4), option_keys={"seats": "table.seats"}, demo={"seats": 2, "game": {}},
)
