"""Poker hands, one evaluator shared by every game that ranks them (7 Card Thrill, Double-Hand
Poker, and the poker-room games of california-card-room-games.txt), parameterised by each game's
rules rather than copied per game:

- :mod:`games.poker.hands`: high hands (:class:`~games.poker.hands.HighRules`: the bug, a wild
  joker, five aces, where the wheel ranks, the flush above the full house, stripped ranks).
- :mod:`games.poker.mexican`: Mexican Poker's ranking as such rules, and its choices.
- :mod:`games.poker.low`: ace-to-five lows (Low-Ball's joker, eight or better, Razz, the
  seven-or-better rule).
- :mod:`games.poker.showdown`: which five cards a hand may use (Hold'em, Omaha), each game's high
  and low (:data:`~games.poker.showdown.GAMES`), and the high-low split.
"""
