"""Joker Seven's two paytables: the generic sheet (joker-seven.txt, rule 15) and New Jersey's
(N.J.A.C. 13:47-20.26(g)), with the readings where a sheet leaves a combination unclear.

Both sheets price the same wagers; they differ in odds and in what they say about jokers:
- Two jokers are one pair: NJ (g)(1) says so; the generic sheet is silent. Option
  ``two_jokers_pair`` (True in both: the generic sheet has no rule against it, and a card room
  running both games wants one reading).
- The one-joker wager loses on two jokers: NJ (g)(3); the generic sheet's "if one of the seven
  cards dealt is a Joker" could be read either way. Option ``one_joker_loses_on_two`` (True in
  both, for the same reason).
- Four of a kind: two pairs (generic rule 14; NJ (g)3ii), a prial (NJ (g)3iii; generic "3 of the
  seven cards ... have the same value" holds for four too) and the pair of its rank (NJ (g)3i).
- A prial is one pair for the two-pairs wager, and a prial plus a pair is two pairs (a pair
  within the prial, NJ (g)2vi, and the pair). Three pairs are two pairs (and one more).
- A specific pair wins on a pair, a prial (the pair within a prial, NJ (g)2vi: 9 to 1, the
  specific-pair odds) or four of its rank; jokers are not a specific pair ("other than Jokers").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.wagers import Pays

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True)
class Paytable:
    name: str
    source: str
    four_or_more: Pays          # "4 or more Black/Red cards"
    exactly: dict[int, Pays]    # exactly 4, 5, 6, 7 of a colour
    no_pair: Pays
    two_pairs: Pays
    three_of_a_kind: Pays       # the prial
    one_joker: Pays
    two_jokers: Pays
    specific_pair: Pays
    two_jokers_pair: bool = True
    one_joker_loses_on_two: bool = True
    notes: tuple[str, ...] = field(default=())


GENERIC = Paytable(
    "generic", "joker-seven.txt, rule 15",
    four_or_more=Pays(1), exactly={4: Pays(2), 5: Pays(5), 6: Pays(20), 7: Pays(40)},
    no_pair=Pays(3), two_pairs=Pays(3), three_of_a_kind=Pays(12), one_joker=Pays(3), two_jokers=Pays(20),
    specific_pair=Pays(10),
)

NJ = Paytable(
    "nj", "N.J.A.C. 13:47-20.26(g)",
    four_or_more=Pays(1), exactly={4: Pays(2), 5: Pays(5), 6: Pays(15), 7: Pays(25)},
    no_pair=Pays(3), two_pairs=Pays(3), three_of_a_kind=Pays(12), one_joker=Pays(3), two_jokers=Pays(20),
    specific_pair=Pays(9),
)

PAYTABLES: dict[str, Paytable] = {p.name: p for p in (GENERIC, NJ)}
