"""Mexican Poker ("Stud Loco", 5-card stud Mexico style) ranking: california-card-room-games.txt,
"MEXICAN POKER", its "Hand Ranking" 1-11 and its "Stud-Loce Rules". The evaluator is the shared
one (:func:`games.poker.hands.best`) with :data:`MEXICAN`; this module holds only what the sheet
says of this game's ranking, and the choices made where it is silent.

From the sheet:
- The deck: "a 'stripped' standard 53-card deck consisting of 52 cards and 1 Joker. the 8's, 9's
  and 10's are removed, leaving 41 cards" (:data:`DECK_RANKS`): a card of those ranks is refused.
- The joker "is 'wild' in all cases whether facing up or down" (``joker="wild"``).
- Hand Ranking: 1 five of a kind, 2 royal flush, 3 straight flush, 4 four of a kind, 5 flush,
  6 full house, 7 straight, 8 three of a kind, 9 two pair, 10 one pair, 11 high card: the flush
  beats the full house (``flush_over_full_house``), five of a kind beats everything
  (``five_aces``, which under a wild joker is five of any rank).
- The straights: with 8-9-10 gone, "a non-contiguous progression" counts: 4-5-6-7-J, 5-6-7-J-Q,
  6-7-J-Q-K and 7-J-Q-K-A (:data:`SKIP_STRAIGHTS`), besides A-2-3-4-5, 2-3-4-5-6 and 3-4-5-6-7.
  The evaluator runs straights over the ranks the deck holds (``removed``), which gives exactly
  these seven.
- Ties: "Hands are considered to be of equal value whether or not one hand may include the
  Joker": a hand's key holds its ranks only, never whether the joker made it.

Where the sheet is silent (each choice is tested in tests/games/test_poker_mexican.py):
1. The royal flush (Hand Ranking 2) is the ace-high straight flush of this deck, 7-J-Q-K-A
   suited: with the tens gone no A-K-Q-J-10 exists, and the sheet still ranks a royal flush
   apart from the straight flush.
2. Straights rank by their top card in the stripped order, the ace high: 7-J-Q-K-A highest, then
   6-7-J-Q-K, 5-6-7-J-Q, 4-5-6-7-J, 3-4-5-6-7, 2-3-4-5-6, and A-2-3-4-5 the lowest (the ace low
   only there, as in the standard ranking).
3. The joker stands for a card of this 41-card deck the hand does not hold, or for the fifth card
   of a rank held four times (five of a kind). So it is never an 8, 9 or 10 (they are not in the
   deck), and a flush with it takes the best card of the suit not held, never a second ace of
   the suit: Draw Poker's "There is no double Ace Flush" ("Basics of Draw Poker") carried over.
4. Ranks break ties inside a category as in the standard ranking (a flush by its five cards from
   the top, a full house by its three then its two, ...); suits never do (Stud Poker House Rules:
   "Suits do not count in ranking of hands").
"""

from __future__ import annotations

from games.poker.hands import HighRules

DECK_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
"""The ranks of the 41-card deck (4 suits of these 10 ranks, and the joker)."""

MEXICAN = HighRules(joker="wild", five_aces=True, wheel="lowest", flush_over_full_house=True,
                    removed=frozenset({"8", "9", "10"}))

SKIP_STRAIGHTS: tuple[tuple[str, ...], ...] = (
    ("4", "5", "6", "7", "J"),
    ("5", "6", "7", "J", "Q"),
    ("6", "7", "J", "Q", "K"),
    ("7", "J", "Q", "K", "A"),
)
"""The sheet's list of the straights that skip the removed 8-9-10."""

__all__ = ["DECK_RANKS", "MEXICAN", "SKIP_STRAIGHTS"]
