"""No Bust 21st Century Blackjack (california-card-room-games.txt, "No Bust 21st Century Blackjack",
Palace Card Club): jokers, no bust, a player-dealer.

- :mod:`games.no_bust.rules`: totals, the natural, the comparison rules 1-6, the players' and the
  player-dealer's charts, doubles, splits and surrender, the action button, settlement.
- :mod:`games.no_bust.options`: seats, decks and jokers, and the readings below.
- :mod:`games.no_bust.machine`: the round (initial deal, the players' decisions on seat buttons,
  the player-dealer's hole card and draws).
- :mod:`games.no_bust.odds`: the player-dealer's drawing rule exactly, the bet by a seeded simulation.

Readings where the sheet is silent or reads two ways (rule tags as in :mod:`games.no_bust.rules`;
those a table may change are ``[game]`` options, named in brackets):

1. "More than a natural" (GR1-6, HP7) [``highest_total``]: the natural is two jokers (N), ranked
   above every 21 (HRC) and called "Natural 22" in the players' chart. Default 21: any total of 22
   or more is over a natural, and an ace counts 11 only up to 21. The other reading, 22, lets a
   drawn 22 be "a natural or less" (it still loses to two jokers: N) and A-A count 22.
2. A joker with any card or cards is a hard 21 (HP2, AR3), equal to every other 21 (HRC ranks
   "Joker, any card" with A-10): a tie at 21 is a push (GR6). Two jokers are the natural only as
   a hand's first two cards; no other hand can hold two (a joker hand is frozen, AR1).
3. The player-dealer's second card [``player_dealer_second_card``]: the sheet speaks of its "up
   card" (GR7, AR2), so by default it has a hole card, dealt face down in the initial deal after
   the players' second cards and turned up when the players are done -- no peek: DS6 settles a
   natural after the doubles and splits. ``"after_draws"`` deals it face up after the draws.
4. The initial deal (HP8): one card to each player clockwise from the player-dealer's left, the
   player-dealer's up card, a second card to each player, the hole card. Every seat but the
   player-dealer's is dealt (the controller sees no chips: a seat without a wager has nothing to
   settle); the players' cards are face up (a shoe game).
5. The players' chart (RFP) binds: stand on soft or hard 20 or more and on any total over a
   natural (a draw cannot bring it back), draw on 11 or less (the card is asked for without a
   press when nothing else is allowed), choose on 12-19.
6. The player-dealer's chart (RPD), "stay hard 17 or more, hit soft 17 or less": hit every total of
   16 or less and soft 17, stay on hard 17 or more and soft 18 or more. With a joker up there is no
   draw (GR7); a joker anywhere in its hand is a frozen hard 21 (AR1, AR3).
7. Doubles (DS1, DS2, DS4) [``double_on_stand_totals``]: on a hand's first two cards, after a split
   too, never with a joker, one draw card; by default not on a total the player must stand on (a
   double draws a card), the other reading of "any two cards" allows it.
8. Splits (DS3, DS5) [``max_splits``, ``resplit_aces``]: a pair of a rank or any two 10-point cards,
   never jokers; up to three splits a seat; split aces get one card each and are not split again
   by default; a split hand's second card is dealt when its turn comes; the split-off hand is
   played after the seat's other hands.
9. Surrender [``surrender``]: named by DS and AR2 but not described: on a hand's first two cards,
   not after a split, never with a joker or against a joker up card; the player forfeits half.
   The players' chart says "MUST HIT ON 11 or Less" while surrender is offered on such a hand
   [``surrender_on_must_hit``]: the chart's columns (must stand, must hit, have option) order the
   play between a hit and a stand, and surrender is declining to play the hand, which DS bars only
   with a joker; so by default a hand of 11 or less may surrender and what "must hit" forbids is
   standing (a double draws a card: it is a hit). The other reading -- a draw is the only
   decision on 11 or less -- is ``surrender_on_must_hit = false``.
10. Payouts: the sheet prints none; every win is even money, a natural too by default
    [``natural_pays``]. "All pay-offs to the extent of that player / dealer's money covers" (DS7)
    and the fees are the dealer's: the controller sees no chips; a result is per hand and holds
    for every betting square on it.
11. The action button: the sheet gives no chart for this game [``action_chart``]. The
    player-dealer's second card counts round the table from the player on its left, the
    player-dealer's position being 0 (Commission-Free Baccarat's rule 21), by rank order A 1 ...
    K 13 (default) or by Three Card Poker's R8 (A 1, 2-10, J Q K 0); a joker counts 0.
12. The player-dealer position: the sheet's "Player-dealer and Deal" of its California games (at
    most two consecutive hands, offered clockwise; games.round.rotation).
"""

from pathlib import Path

from games.no_bust import lines as _lines
from games.no_bust import odds as _odds
from games.no_bust.machine import NoBustRound
from games.no_bust.options import OPTIONS_SCHEMA, NoBustOptions
from games.registry import GameEntry

GAME = GameEntry(
    name="no_bust",
    title="No Bust 21st Century Blackjack",
    sheet="california-card-room-games.txt",
    machine=NoBustRound,
    options=NoBustOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: NoBustRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, 8),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 3, "game": {}},
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
)


def _hand(h: dict) -> str:
    what = ("natural" if h["natural"] else "21 (joker)" if h["joker"] else
            ("soft " if h["soft"] else "") + str(h["total"]))
    tags = [t for t, on in (("doubled", h.get("doubled")), ("surrendered", h.get("surrendered"))) if on]
    outcome = "/".join(w["outcome"] for w in h["wagers"])
    return f"{' '.join(h['cards'])} {what}{' ' + ' '.join(tags) if tags else ''}: {outcome}"


def _summary(data: dict) -> str:
    """``PD seat 1: 10C 7D 17 | seat 2 9H 9S 18: win | seat 3 JK 5C 21 (joker): win``."""
    d = data["dealer"]
    pd = "natural" if d["natural"] else "21 (joker)" if d["joker"] else str(d["total"])
    parts = [f"PD seat {data['player_dealer']}: {' '.join(d['cards'])} {pd}" + (" (joker up: all frozen)"
                                                                               if data["frozen"] else "")]
    for seat, s in data["seats"].items():
        parts.append(f"seat {seat} " + ", ".join(_hand(h) for h in s["hands"]))
    return "  |  ".join(parts)


__all__ = ["GAME", "NoBustOptions", "NoBustRound"]
