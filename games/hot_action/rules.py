"""Hot Action Blackjack's rules as pure functions (california-card-room-games.txt, subsection (6)
of the regulatory passage, "HOT ACTION BLACKJACK", The Palace Club).

The sheet numbers none of this game's paragraphs, so the code numbers them from 1 in the order
the sheet prints them, list by list (the first words say which paragraph is meant):

- I n, "INSTRUCTIONS": I1 "similar to Las Vegas Blackjack"; I2 "No player ever plays against ...
  The Palace Club"; I3 "each player has the opportunity to be a Banker ... two consecutive hands";
  I4 "Each player plays against the Banker"; I5 "The object of the game ...", its four ways a-d
  (a: a natural 22, any two aces, the highest hand; b: a two card 22 when the opponent has none;
  c: closer to 22 when both have 18-22; d: closer to 22 when both are over 22); I6 "YOU DON'T BUST
  IF YOU GO OVER 22"; I7 "Players win if they stand on 13 to 22 and the bank goes over 22"; I8
  "Bankers win ties on 18"; I9 "Bankers win if they make 18, 19, 20, 21, or 22, when the player's
  hand is under 18 or over 22"; I10 "BANKERS SHOULD HIT HARD 18"; I11 "All cards count as face
  value ... Jokers ... two to twelve".
- G n, "GAME RULES": G1 8 decks of 56 (4 jokers a deck); G2 "Jokers = 2 or 12. Aces = 1 or 11. Face
  cards = 10"; G3 all cards face up but the Banker's one hole card; G4 "scratch" or "wave" for hit
  or stand; G5 no bank without a non-bank bet last hand; G6 "Bankers must match their first bank,
  unless they lost money"; G7 "Bankers can only win or lose up to the amount bet"; G8 no other bet
  for those betting in the bank; G9 "Must stand on any hand that totals hard 18 or more"; G10 all,
  the Banker too, stand on soft 19, 20, 21 or 22; G11 "No soft hands over 22"; G12 all, the Banker
  too, hit soft 18 ("Ace + 7, Joker + 6, or 2 + 2 + Joker"); G13 "Dealers will automatically hit
  all cards that are soft 18".
- H n, "HOUSE RULES": H1 collections in advance ... H5 the Banker shakes the dice cup to place the
  action button; H12 "Action button determines where pay-off begins not where cards are dealt";
  H13 the Banker's hole card exposed out of turn (by the dealer: dead, five burned, replaced; by
  the player: it plays); H14 after the check for a two card 22 finds none, a replaced down card
  cannot make one; H15 a player who failed to hit soft 18; H16 "Once the Banker's hole card is
  exposed, in turn, all hands stand"; H17 a hit to a hand that should not be hit is a dead card;
  H18 a hit given out of turn plays; H19 a card pulled out prematurely is dead, and with two cards
  out at once (except on the deal) five more are burned; H20-H21 cards out of order, "once the
  banker receives his down card" they stay; H22-H23 a miscalled hand.

Where the sheet is silent or says two things, the reading is written at the function that
carries it out and listed in :mod:`games.hot_action`; those a table may change are the fields of
:class:`Rules` (the ``[game]`` options).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from games.blackjack import best_total, ten_point
from games.cards import Card
from games.dice import Direction, seat_for_total
from games.wagers import Outcome, Pays, WagerResult

BUTTONS: tuple[str, ...] = ("hit", "stand")
"""G4: a player motions a "scratch" (hit) or a "wave" (stand): one seat button each."""

TARGET = 22
"""I5, I6: the hands aim at 22; a hand over 22 does not bust."""

DICE = 3
"""H5: the Banker shakes the dice cup. The sheet does not say how many dice; three, whose totals
3 to 18 count round the table as in the sheet's other dice games (Pai Gow Tiles)."""

BURN = 5
"""H13, H19: five cards are burned."""

Winner = Literal["push", "banker"]
WINNERS: tuple[str, ...] = ("push", "banker")
DIRECTIONS: tuple[str, ...] = ("counterclockwise", "clockwise")
BELOW_18: tuple[str, ...] = ("hit", "choice")
HARD_18: tuple[str, ...] = ("stand", "hit")


@dataclass(frozen=True)
class Rules:
    """The readings a table may choose where the sheet is silent or says two things
    (:mod:`games.hot_action` says why each default is the one a card room would expect)."""

    banker_below_18: str = "hit"
    """The sheet gives the Banker no rule below 18 (G9-G13 fix 18 and up). ``hit``: the Banker draws
    to 18 as a dealer does (I9: the Bank wins by making 18 to 22); ``choice``: the Banker hits or
    stands below 18 like any player, on its seat buttons."""
    banker_hard_18: str = "stand"
    """I10 "BANKERS SHOULD HIT HARD 18" against G9 "Must stand on any hand that totals hard 18 or
    more". ``stand``: G9 binds, I10 is advice; ``hit``: the Banker must hit hard 18 (only 18)."""
    check_two_card_22: bool = True
    """H14: "once the banker checks for a two card 22": with an up card that can make one (an ace,
    a joker or a 10-point card) the Banker checks its hole card at the end of the deal; a two card
    22 is turned up at once and every hand stands. False: no check, the hole card waits for its turn."""
    tie_19_22: str = "push"
    """I5c: closer to 22 wins; I8: "Bankers win ties on 18". Ties on 19 to 22 are not named: a push,
    since the sheet gives the Bank ties on 18 only; ``banker`` reads I8 as every tie."""
    tie_over_22: str = "push"
    """I5d: both over 22, closer to 22 wins; an equal total over 22 is not named: a push."""
    tie_22s: str = "push"
    """I5a-b: two natural 22s, or two (ranked) two card 22s, are not named: a push."""
    low_vs_over: str = "push"
    """I7: players win if they stand on 13 to 22 and the Bank goes over 22. A player who stood on 12
    or less against a Bank over 22 is not named by I7 or I9: no action, a push; ``banker``: the Bank
    wins it (the player did not meet I7's condition)."""

    def __post_init__(self) -> None:
        for name, allowed in (("banker_below_18", BELOW_18), ("banker_hard_18", HARD_18),
                              ("tie_19_22", WINNERS), ("tie_over_22", WINNERS), ("tie_22s", WINNERS),
                              ("low_vs_over", WINNERS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} is one of {', '.join(allowed)}, not {getattr(self, name)!r}")


# --- totals -----------------------------------------------------------------------------------


def point(card: Card) -> int:
    """G2 at its low count: an ace 1, a joker 2, a face card 10, every other card its face value.
    (An ace may count 11 and a joker 12: :func:`total` raises them.)"""
    if card.is_joker:
        return 2
    if card.rank == "A":
        return 1
    if card.rank in ("J", "Q", "K"):
        return 10
    value = int(card.rank) if card.rank.isdigit() else 0
    if not 2 <= value <= 10:
        raise ValueError(f"{card.code} is not a card of this game's deck (G1: 52 cards and 4 jokers a deck)")
    return value


def flexible(card: Card) -> bool:
    """G2: an ace (1 or 11) and a joker (2 or 12) may count ten more."""
    return card.is_joker or card.rank == "A"


@dataclass(frozen=True)
class Total:
    """A hand's standing.

    ``value``: the best total (:func:`total`); ``soft``: an ace counts 11 or a joker 12 in it;
    ``natural``: a natural 22, two aces as the hand's two cards (I5a); ``two_card_22``: two cards
    worth 22 -- two aces, or a joker with a 10-point card -- ranked as such (I5b; H14 may take the
    rank from a Banker's replaced hand); ``over``: more than 22 (I6: no bust)."""

    value: int
    soft: bool = False
    natural: bool = False
    two_card_22: bool = False

    @property
    def over(self) -> bool:
        return self.value > TARGET

    def describe(self) -> str:
        if self.natural:
            return "a natural 22 (two aces)"
        if self.two_card_22:
            return "a two card 22"
        if self.over:
            return f"{self.value} (over 22)"
        return f"{'soft' if self.soft else 'hard'} {self.value}"

    def to_dict(self) -> dict:
        return {"total": self.value, "soft": self.soft, "natural": self.natural,
                "two_card_22": self.two_card_22, "over": self.over}


def total(cards: Sequence[Card], two_card_22_ranked: bool = True) -> Total:
    """A hand's total (G2, G11, I5).

    - G2: each ace counts 1 or 11, each joker 2 or 12, face cards 10, others face value. The hand
      counts as many aces and jokers high (ten more each) as keep it at 22 or less: the total
      closest to 22 without going over (I5). So two aces are 22, and A-A-A is 13.
    - G11: "No soft hands over 22": a hand over 22 counts every ace 1 and every joker 2 (hard).
    - A hand is soft when an ace or a joker counts high in it (G12's soft 18: A+7, Joker+6).
    - I5a: two aces as a hand's two cards are a natural 22; I5b: two cards worth 22 (two aces, or a
      joker and a 10-point card) are a two card 22 -- unless ``two_card_22_ranked`` is False (H14:
      the Banker's down card replaced after its check found none).

    G12 also calls "2 + 2 + Joker" a soft 18, which G2 cannot make (2 + 2 + 12 = 16, 2 + 2 + 2 = 6,
    and I11's "two to twelve" reaches 16 at most): read as a misprint; the definition (an ace or
    joker counting high, 18) is what is carried out, and 2-2-JK is a soft 16.
    """
    if not cards:
        raise ValueError("a hand has at least one card")
    value, raised = best_total(sum(point(c) for c in cards), sum(1 for c in cards if flexible(c)), TARGET)
    two = len(cards) == 2 and value == TARGET
    natural = two and all(c.rank == "A" for c in cards)
    return Total(value, soft=raised > 0, natural=natural, two_card_22=two and two_card_22_ranked)


def check_due(up: Card) -> bool:
    """H14: the Banker's up card can make a two card 22 with the hole card (an ace with an ace, a
    joker with a 10-point card, a 10-point card with a joker: G2, face cards = 10), so the Banker
    checks for one."""
    return flexible(up) or ten_point(up)


# --- the drawing rules ----------------------------------------------------------------------------

Must = Literal["hit", "stand", "choice"]


def player_must(cards: Sequence[Card]) -> tuple[Must, str]:
    """What a player's hand must do, and why (G9-G13; the players' own choice is G4's).

    - G12, G13: a soft 18 must hit; the dealer hits it without being asked.
    - G9: a hard 18 or more must stand (a hand over 22 is hard: G11).
    - G10: a soft 19, 20, 21 or 22 must stand (a natural or two card 22 too).
    - Below 18 the sheet leaves it to the player (G4: a scratch to hit, a wave to stand).
    """
    t = total(cards)
    if t.soft and t.value == 18:
        return "hit", "must hit soft 18 (G12; the dealer hits it, G13)"
    if t.value >= 18 and not t.soft:
        return "stand", f"must stand on {t.describe()} (G9: hard 18 or more)"
    if t.soft and t.value >= 19:
        return "stand", f"must stand on {t.describe()} (G10: soft 19, 20, 21 or 22)"
    return "choice", f"{t.describe()}: hit or stand (G4)"


def banker_must(cards: Sequence[Card], rules: Rules = Rules()) -> tuple[Must, str]:
    """What the Banker's hand must do once its turn has come, and why.

    - G12, G13: soft 18 hits ("including the Banker").
    - G9: hard 18 or more stands -- unless ``banker_hard_18 = "hit"`` (I10 "BANKERS SHOULD HIT
      HARD 18"): then hard 18 hits and hard 19 or more stands.
    - G10: soft 19 to 22 stands.
    - Below 18 (silent): ``banker_below_18 = "hit"`` draws to 18 (I9: the Bank wins by making 18 to
      22); ``"choice"`` leaves it to the Banker (G4).
    """
    t = total(cards)
    if t.soft and t.value == 18:
        return "hit", "the Banker must hit soft 18 (G12, G13)"
    if not t.soft and t.value == 18 and rules.banker_hard_18 == "hit":
        return "hit", "the Banker hits hard 18 (I10; game.banker_hard_18)"
    if t.value >= 18 and not t.soft:
        return "stand", f"the Banker stands on {t.describe()} (G9: hard 18 or more)"
    if t.soft and t.value >= 19:
        return "stand", f"the Banker stands on {t.describe()} (G10: soft 19, 20, 21 or 22)"
    if rules.banker_below_18 == "hit":
        return "hit", f"the Banker draws to 18 on {t.describe()} (game.banker_below_18; I9)"
    return "choice", f"the Banker's {t.describe()}: hit or stand (game.banker_below_18 = choice; G4)"


# --- results against the Bank -------------------------------------------------------------------------


def _winner(reading: str, tie: str, rule: str) -> tuple[Outcome, str]:
    if reading == "banker":
        return "lose", f"{tie}: the Bank wins it ({rule}; reading)"
    return "push", f"{tie}: the sheet names no winner, a push ({rule}; reading)"


def compare(player: Total, bank: Total, rules: Rules = Rules()) -> tuple[Outcome, str]:
    """A player's hand against the Bank's (I4), as the sheet's results decide it; the rule is in the why.

    - I5a: a natural 22 beats every other hand; two naturals: ``tie_22s``.
    - I5b: a two card 22 beats a hand without one; two: ``tie_22s``.
    - Bank over 22: player over 22, closer wins (I5d), equal ``tie_over_22``; player 13-22 wins
      (I7); player 12 or less: ``low_vs_over``.
    - Bank 18-22: player 18-22, closer wins (I5c), a tie on 18 goes to the Bank (I8), ties on 19-22
      ``tie_19_22``; player under 18 or over 22: the Bank wins (I9).
    - Bank under 18 (only with ``banker_below_18 = "choice"``; silent): a player over 22 loses (a
      hand that went over loses to one that did not, as in I7 and I9); otherwise closer to 22
      wins and a tie pushes (I5c carried below 18; I8 gives the Bank ties on 18 only).
    """
    p, b = player.value, bank.value
    if player.natural and bank.natural:
        return _winner(rules.tie_22s, "both natural 22s", "I5a; game.tie_22s")
    if player.natural:
        return "win", "a natural 22 (two aces) is the highest hand (I5a)"
    if bank.natural:
        return "lose", "the Bank's natural 22 (two aces) is the highest hand (I5a)"
    if player.two_card_22 and bank.two_card_22:
        return _winner(rules.tie_22s, "both two card 22s", "I5b; game.tie_22s")
    if player.two_card_22:
        return "win", "a two card 22 against a Bank without one (I5b)"
    if bank.two_card_22:
        return "lose", "the Bank's two card 22 against a hand without one (I5b)"
    if bank.over:
        if player.over:
            if p == b:
                return _winner(rules.tie_over_22, f"both {p}, over 22", "I5d; game.tie_over_22")
            if p < b:
                return "win", f"both over 22; the player's {p} is closer to 22 than the Bank's {b} (I5d)"
            return "lose", f"both over 22; the Bank's {b} is closer to 22 than the player's {p} (I5d)"
        if p >= 13:
            return "win", f"the player stands on {p} (13 to 22) and the Bank goes over 22 with {b} (I7)"
        return _winner(rules.low_vs_over, f"the player stood on {p}, under 13, and the Bank went over 22 with {b}",
                       "I7; game.low_vs_over")
    if b >= 18:
        if 18 <= p <= TARGET:
            if p == b == 18:
                return "lose", "a tie on 18: Bankers win ties on 18 (I8)"
            if p == b:
                return _winner(rules.tie_19_22, f"a tie on {p}", "I5c, I8; game.tie_19_22")
            if p > b:
                return "win", f"both 18 to 22; the player's {p} is closer to 22 than the Bank's {b} (I5c)"
            return "lose", f"both 18 to 22; the Bank's {b} is closer to 22 than the player's {p} (I5c)"
        where = "under 18" if p < 18 else "over 22"
        return "lose", f"the Bank makes {b} (18 to 22) and the player's {p} is {where} (I9)"
    # The Bank stood under 18 (game.banker_below_18 = "choice").
    if player.over:
        return "lose", (f"the Bank stood on {b} and the player went over 22 with {p}: a hand over 22 loses to "
                        "one of 22 or less (I7, I9; reading)")
    if p == b:
        return "push", f"a tie on {p}, under 18: a push (I5c, I8; reading)"
    if p > b:
        return "win", f"the player's {p} is closer to 22 than the Bank's {b}, under 18 (I5c; reading)"
    return "lose", f"the Bank's {b} is closer to 22 than the player's {p} (I5c; reading)"


EVEN = Pays(1)
"""G7: "Bankers can only win or lose up to the amount bet": every win is even money (a natural 22
too: a bonus would have the Bank lose more than the amount bet)."""


def settle_hand(cards: Sequence[Card], bank: Sequence[Card], bank_ranked: bool = True,
                rules: Rules = Rules()) -> WagerResult:
    """A player's bet against the Bank: win at even money (G7), lose or push."""
    outcome, why = compare(total(cards), total(bank, bank_ranked), rules)
    return WagerResult("bet", outcome, EVEN if outcome == "win" else None, why)


def bank_summary(outcomes: Sequence[str]) -> dict:
    """The Bank's round, for G6 ("Bankers must match their first bank, unless they lost money"):
    how many bets it won, lost and pushed, and whether it lost money -- True when it lost bets and
    won none, False when it lost none, None when it did both (the chips decide: the controller
    sees none)."""
    wins = sum(1 for o in outcomes if o == "lose")
    losses = sum(1 for o in outcomes if o == "win")
    pushes = sum(1 for o in outcomes if o == "push")
    lost: bool | None = (losses > 0) if not (wins and losses) else None
    return {"wins": wins, "losses": losses, "pushes": pushes, "lost_money": lost}


def settle(bank: Sequence[Card], seats: Mapping[int, Sequence[Card]], bank_ranked: bool = True,
           rules: Rules = Rules()) -> dict:
    """The ``result`` data but for what the machine adds (the Banker's seat, the action button):
    the Bank's hand, each seat's hand and bet, the Bank's round (G6)."""
    b = total(bank, bank_ranked)
    out: dict[str, dict] = {}
    for seat, cards in sorted(seats.items()):
        wager = settle_hand(cards, bank, bank_ranked, rules)
        out[str(seat)] = {"cards": [c.code for c in cards], **total(cards).to_dict(), "wagers": [wager.to_dict()]}
    return {"bank": {"cards": [c.code for c in bank], **b.to_dict(), "ranked": bank_ranked},
            "seats": out,
            "bank_round": bank_summary([s["wagers"][0]["outcome"] for s in out.values()])}


# --- the action button ---------------------------------------------------------------------------------


def action_button(values: Sequence[int], banker: int, seats: int, direction: Direction) -> dict:
    """H5: the Banker shakes the dice cup and the total places the action button, counted round the
    table's positions from the Banker's as 1 (``direction``, game.dice_direction; every position
    counts, as the sheet's dice games count them: games.dice.seat_for_total).

    H12: the button "determines where pay-off begins not where cards are dealt": pay-off begins at
    the button's seat and goes round as the cards are dealt (rising seat numbers, H21's "starting
    with position one"), the Banker's own seat left out; on the Banker's seat it begins at the
    next seat."""
    total_ = sum(values)
    seat = seat_for_total(total_, banker, range(1, seats + 1), direction)
    order = payoff_order(seat, banker, seats)
    return {"dice": list(values), "total": total_, "banker": banker, "direction": direction, "seat": seat,
            "first_payoff_seat": order[0], "payoff_order": order}


def payoff_order(action_seat: int, banker: int, seats: int) -> list[int]:
    """H12: the seats in the order they are paid, from the action button, the Banker's left out."""
    return [s for s in ((action_seat - 1 + i) % seats + 1 for i in range(seats)) if s != banker]
