"""High Card: a neutral game of a few lines that proves the seam without baccarat.

Each seat gets one card face down; each seat then shows or folds (seat
buttons, one decision prompt at a time, the ``turn`` light on that seat:
games.round.steps does all of that from ``_next_step``);
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
from games.round.steps import CardDue, DecisionDue, Step, Steps
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


class HighCard(Steps, RoundMachine):
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

    def _next_step(self) -> Step | None:
        if len(self.hands) < self.seats:
            return CardDue("seat", 1, "down", seat=len(self.hands) + 1)
        undecided = [s for s in range(1, self.seats + 1) if s not in self.choices]
        if undecided:
            return DecisionDue(undecided[0], self.SEAT_BUTTONS)
        return CardDue("dealer", 1, "up") if self.dealer is None else None

    def _place(self, due: CardDue, card: Card) -> None:
        if due.hand == "seat":
            assert due.seat is not None
            self.hands[due.seat] = card
        else:
            self.dealer = card

    def _decide(self, seat: int, choice: str) -> None:
        self.choices[seat] = choice

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
