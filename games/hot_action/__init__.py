"""Hot Action Blackjack (california-card-room-games.txt, subsection (6) of the regulatory passage,
"HOT ACTION BLACKJACK", The Palace Club): 22, no bust, a Banker among the players, the dice.

- :mod:`games.hot_action.rules`: totals (ace 1 or 11, joker 2 or 12), the natural and two card 22,
  the drawing rules, the results against the Bank, the action button from the dice.
- :mod:`games.hot_action.options`: seats, decks, the first Banker, the dice count, the readings below.
- :mod:`games.hot_action.machine`: the round (the Banker's shake, the deal with its hole card, the
  players' hits on seat buttons, the Banker's draws) and the irregularities the sheet settles.
- :mod:`games.hot_action.odds`: the Banker's drawing rule exactly, and the bet for a player drawing to 18
  (:mod:`games.hot_action.bet`, counted offline).

The sheet numbers none of the game's paragraphs; the code cites them as I n (INSTRUCTIONS), G n
(GAME RULES) and H n (HOUSE RULES), counted in the sheet's order (:mod:`games.hot_action.rules`
lists them). Readings where the sheet is silent or says two things (those a table may change are
``[game]`` options, named in brackets):

1. The Banker below 18 [``banker_below_18``]: G9-G13 fix what every hand does at 18 and over, and
   nothing below. Default ``hit``: the Banker draws to 18 as a dealer does (I9: the Bank wins by
   making 18 to 22; G13's dealer hits soft 18 by itself). ``choice``: the Banker hits or stands
   below 18 on its seat buttons like a player (G4); a Bank that stands below 18 is then compared by
   closeness to 22, a tie a push, and a player over 22 loses to it (see rules.compare).
2. The Banker's hard 18 [``banker_hard_18``]: I10 "BANKERS SHOULD HIT HARD 18" against G9 "Must
   stand on any hand that totals hard 18 or more". Default ``stand``: G9 is a game rule and I10's
   "should" advice; ``hit`` makes the Banker hit hard 18 (and stand on hard 19 and more).
3. Ties the sheet does not name (I8 gives the Bank ties on 18 only) [``tie_19_22``, ``tie_over_22``,
   ``tie_22s``]: a tie on 19 to 22, an equal total over 22 (I5d names only the closer hand), two
   natural 22s or two two card 22s: a push by default (nobody is closer); ``banker`` gives them to
   the Bank.
4. A player who stood on 12 or less against a Bank over 22 [``low_vs_over``]: I7 lets players win
   against a Bank over 22 only on 13 to 22, and I9 does not give the Bank the hand: no action, a
   push by default; ``banker`` gives it to the Bank.
5. The check for a two card 22 [``check_two_card_22``]: H14 speaks of the Banker checking. With an
   up card that can make one (an ace, a joker, a 10-point card) the check is made when the hole card
   is dealt; a two card 22 (or a natural) is turned up at once and every hand stands (no card a
   player draws can beat or tie it). False: the hole card waits for its turn.
6. The dice (H5): three dice (totals 3 to 18, as in the sheet's Pai Gow Tiles), counted round every
   position from the Banker's as 1 [``dice_direction``: ``counterclockwise`` by default, the card
   rooms' custom with dice; or ``clockwise``]. H12: pay-off begins at the button and goes round in
   the order the cards are dealt, the Banker left out (from the next seat when the button is on the
   Banker's).
7. The deal: from position one (H21), seat order; each player's two cards face up, the Banker's up
   card after the first round and its hole card last (G3, H21). Every position but the Banker's is
   dealt and settled: the controller sees no chips (a seat without a bet has nothing to settle).
8. Totals (G2, G11): an ace counts 1 or 11, a joker 2 or 12, as many high as keep the hand at 22 or
   less; a hand with one counting high is soft. I11's "two to twelve" is read as G2's "2 or 12", as
   its aces are "one or eleven". G12's example "2 + 2 + Joker" cannot be a soft 18 under either
   reading (16 or 6): a misprint; the definition (an ace or joker high, 18) is carried out.
9. Payouts: every win is even money, a natural 22 too: G7 ("Bankers can only win or lose up to the
   amount bet") leaves no room for a bonus.
10. The Banker position: at most two consecutive hands (I3; games.round.rotation). G5 ("may not bank
    unless they have made a non-bank bet last hand") holds by construction: every other seat played
    the last hand; the first Banker after the table opens has no last hand. G6 ("must match their
    first bank, unless they lost money"): the controller sees no chips, so it says on the second
    hand's bets prompt what the first hand's results show -- the Bank lost bets and won none (it
    lost money: no need to match), lost none (it must match), or both (the chips decide) -- and the
    result carries the Bank's round. G7, G8, the Kum-Kum and back-line bets are the dealer's.
11. H17 against H19: a reading shoe cannot see where a card went. A card drawn while a hand's
    decision is due is read as H17's hit that the player did not ask for: dead, no burn, and the
    hand still decides; a card drawn while the dice are due (no card due at all) as H19's card
    pulled out prematurely: dead, five more burned. Burned cards are face down and never published.
12. H13 needs a person: ``cmd/hole_exposed`` with ``by`` (``dealer``: dead, burn five, replace;
    ``banker``: it plays). H15, H18, H20-H22 are the dealer's corrections of a layout that did not
    follow the prompts; the controller refuses the presses that would lead there (a seat out of
    turn, a stand on soft 18) and raises ``missed_mandatory_hit`` when the table moves on past a
    mandatory hit.
"""

from pathlib import Path

from games.hot_action import lines as _lines
from games.hot_action import odds as _odds
from games.hot_action.machine import HOLE_EXPOSED_SCHEMA, HotActionRound
from games.hot_action.options import OPTIONS_SCHEMA, HotActionOptions
from games.registry import GameEntry

GAME = GameEntry(
    name="hot_action",
    title="Hot Action Blackjack",
    sheet="california-card-room-games.txt",
    machine=HotActionRound,
    options=HotActionOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: HotActionRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, 8),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 4, "game": {}, "devices": {"cup": {"dice": 3}}},
    commands={"hole_exposed": HOLE_EXPOSED_SCHEMA},
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
)


def _hand(h: dict) -> str:
    what = ("natural 22" if h["natural"] else "two card 22" if h["two_card_22"] else
            ("soft " if h["soft"] else "") + str(h["total"]))
    return f"{' '.join(h['cards'])} {what}"


def _summary(data: dict) -> str:
    """``Bank seat 1: 10S 8H 18 | seat 2 9H 9S 18: lose | seat 3 AC AD natural 22: win``."""
    parts = [f"Bank seat {data['player_dealer']}: {_hand(data['bank'])}"]
    for seat, s in data["seats"].items():
        parts.append(f"seat {seat} {_hand(s)}: {s['wagers'][0]['outcome']}")
    return "  |  ".join(parts)


__all__ = ["GAME", "HotActionOptions", "HotActionRound"]
