"""The showdown of the poker-room games (california-card-room-games.txt): which five cards a hand
may use, its high and its low, and who wins each half of a high-low split pot. One evaluator for
them all: :func:`games.poker.hands.best` for the high, :func:`games.poker.low.low` for the low,
each under the game's rules (:class:`PokerRules`, and :data:`GAMES` by game).

Which cards make a hand (``hole``):
- ``None``: any five of the hand and the board. Draw Poker and Low-Ball (five cards, no board),
  Mexican Poker (five), 7-Card Stud, Stud High-Low and Razz (the best five of seven; a community
  card, when the stub runs short, is the board), and Texas Hold'em: "any player may use any
  combination of five cards to determine their best hand" ("The Basic Play of the Mother Game").
- ``2``: exactly two from the hand and three from the board: Omaha ("may only use two cards from
  their hand").
Pineapple's hand is two cards once it has discarded after the flop ("using two cards to make a
hand"): it is Hold'em's showdown. Crazy Pineapple's player "keeps all three cards in their hand"
and the sheet says no more, so (choice 1 below) any five of the three and the board.

A high-low split (Hold'em Hi/Lo, Pineapple and Crazy Pineapple High-Low, Omaha Hi/Lo, 7-Card
Stud High-Low): "the pot is split between the high hand and the low hand"; eight or better for
low "in force for all the high-low split games unless a specific posting to the contrary is
made", "if there is no low, the high hand wins the entire pot" (7-Card Stud High-Low Split). The
high and the low are worked out apart: a hand may win both ("any other grouping of five cards
whether the same as his high hand or not"). Ties share ("In case of tie the pot is split", Draw
Poker & Low-Ball rule 9); how the chips divide is the round's.

Choices where the sheet is silent (tested in tests/games/test_poker_showdown.py):
1. Crazy Pineapple (three cards kept) plays any five of the hand and the board, like Hold'em.
2. Omaha's low, like its high, takes exactly two from the hand and three from the board (the
   sheet's Omaha Hi/Lo is "Same as Omaha hold'em except pot is split").
3. Every game of the sheet is dealt from one deck, so a card entered twice in one showdown is an
   entry error and is refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.cards import Card
from games.poker.hands import DRAW, STANDARD, Hand, HighRules, PokerHandError, best
from games.poker.low import EIGHT_OR_BETTER, LOWBALL, RAZZ, LowHand, LowRules, low
from games.poker.mexican import MEXICAN


@dataclass(frozen=True)
class PokerRules:
    """What a game ranks at the showdown: a high (or None), a low (or None), and how many cards the
    hand must give (``hole``: None for any five of hand and board, 2 for Omaha)."""

    high: HighRules | None
    low: LowRules | None = None
    hole: int | None = None

    def __post_init__(self) -> None:
        if self.high is None and self.low is None:
            raise ValueError("a poker game ranks a high, a low or both")
        if self.hole is not None and not 1 <= self.hole <= 4:
            raise ValueError(f"a hand gives one to four cards to its five, not {self.hole}")


GAMES: dict[str, PokerRules] = {
    "draw": PokerRules(DRAW),                                   # Draw Poker & Low-Ball 4, 6
    "lowball": PokerRules(None, LOWBALL),                       # Draw Poker & Low-Ball 4, 6, 7
    "mexican_stud": PokerRules(MEXICAN),                        # Mexican Poker, Hand Ranking
    "holdem": PokerRules(STANDARD),                             # Texas Hold'em
    "holdem_hi_lo": PokerRules(STANDARD, EIGHT_OR_BETTER),      # Hold'em - Hi/Lo Split
    "pineapple": PokerRules(STANDARD),                          # two cards kept after the flop
    "pineapple_hi_lo": PokerRules(STANDARD, EIGHT_OR_BETTER),
    "crazy_pineapple": PokerRules(STANDARD),                    # three kept: choice 1
    "crazy_pineapple_hi_lo": PokerRules(STANDARD, EIGHT_OR_BETTER),
    "omaha": PokerRules(STANDARD, None, hole=2),                # Omaha Hold'em - High Hand
    "omaha_hi_lo": PokerRules(STANDARD, EIGHT_OR_BETTER, hole=2),
    "stud": PokerRules(STANDARD),                               # 7-Card Stud: "no Joker"
    "stud_hi_lo": PokerRules(STANDARD, EIGHT_OR_BETTER),        # 7-Card Stud High-Low Split
    "razz": PokerRules(None, RAZZ),                             # "RAZZ"
}
"""Each poker-room game's showdown. A high-low game posted without a qualifier takes
``PokerRules(STANDARD, LowRules(), ...)`` instead."""


@dataclass(frozen=True)
class Showdown:
    """One hand's high and low: None where the game ranks none, or (low) where it does not qualify."""

    high: Hand | None
    low: LowHand | None


@dataclass(frozen=True)
class Split:
    """Who wins: ``high`` and ``low`` are the indices of the hands that share each half. With both,
    the pot is split between them; with one empty, the other takes the whole pot (no qualifying
    low: the high "wins the entire pot"; Low-Ball and Razz have no high)."""

    high: tuple[int, ...]
    low: tuple[int, ...]


def fives(hand: Sequence[Card], board: Sequence[Card], hole: int | None) -> Iterator[tuple[Card, ...]]:
    """The five-card hands a player may make: with ``hole`` None, all the cards together (the
    evaluators choose the five); with ``hole`` n, each n from the hand with each 5 - n from the board."""
    if hole is None:
        yield (*hand, *board)
        return
    if len(hand) < hole or len(board) < 5 - hole:
        raise PokerHandError(f"{hole} cards from the hand and {5 - hole} from the board: "
                             f"the hand has {len(hand)}, the board {len(board)}")
    for mine in combinations(hand, hole):
        for shared in combinations(board, 5 - hole):
            yield (*mine, *shared)


def showdown(rules: PokerRules, hand: Sequence[Card], board: Sequence[Card] = ()) -> Showdown:
    """The best high and the best low ``hand`` makes with ``board`` under ``rules``."""
    seen: set[Card] = set()
    for c in (*hand, *board):
        if c in seen and not c.is_joker:
            raise PokerHandError(f"{c} is entered twice: one deck holds it once")
        seen.add(c)
    choices = list(fives(hand, board, rules.hole))
    high = max(best(five, rules.high) for five in choices) if rules.high is not None else None
    lows = [] if rules.low is None else [h for five in choices if (h := low(five, rules.low)) is not None]
    return Showdown(high, max(lows) if lows else None)


def split(showdowns: Sequence[Showdown]) -> Split:
    """Who wins the high and who the low among the hands still in at the showdown."""
    return Split(_winners([s.high for s in showdowns]), _winners([s.low for s in showdowns]))


def settle(rules: PokerRules, hands: Mapping[int, Sequence[Card]], board: Sequence[Card] = ()) -> dict[str, Any]:
    """The showdown of the hands entered by seat, as a table publishes it: each hand's best high
    and low, who wins each half among them, and why the pot goes where it goes (the whole pot to
    the high hand when no low qualifies; Razz's and Low-Ball's to the best low)."""
    seats = sorted(hands)
    made = [showdown(rules, hands[s], board) for s in seats]
    won = split(made)
    high = [seats[i] for i in won.high]
    low = [seats[i] for i in won.low]
    out: dict[str, Any] = {
        "hands": [{"seat": s, "cards": [c.code for c in hands[s]],
                   "high": None if m.high is None else {"name": m.high.name, "key": list(m.high.key)},
                   "low": None if m.low is None else {"name": m.low.name, "key": list(m.low.key)}}
                  for s, m in zip(seats, made, strict=True)],
        "high": high,
        "low": low,
    }
    share = " share it" if len(high if rules.high is not None else low) > 1 else ""
    if rules.high is None:
        out["pot"] = "low"
        out["why"] = f"the best low hand wins the pot (Razz, Low-Ball): seat{'s' if len(low) > 1 else ''} " \
                     f"{', '.join(map(str, low))}{share}"
    elif rules.low is None:
        out["pot"] = "high"
        out["why"] = f"the best high hand wins the pot: seat{'s' if len(high) > 1 else ''} " \
                     f"{', '.join(map(str, high))}{share}"
    elif not low:
        out["pot"] = "high"
        out["why"] = "no low qualifies (eight or better): the high hand wins the entire pot"
    else:
        out["pot"] = "split"
        out["why"] = "the pot is split between the best high hand and the best low hand"
    return out


def _winners(hands: Sequence[Hand | LowHand | None]) -> tuple[int, ...]:
    ranked = [h for h in hands if h is not None]
    if not ranked:
        return ()
    top = max(ranked)   # type: ignore[type-var]
    return tuple(i for i, h in enumerate(hands) if h == top)


__all__ = ["GAMES", "PokerRules", "Showdown", "Split", "fives", "settle", "showdown", "split"]
