"""No Bust 21st Century Blackjack's rules as pure functions (california-card-room-games.txt,
"No Bust 21st Century Blackjack", Palace Card Club).

The sheet numbers several lists from 1; the code cites them by list:

- HP n: "How to Play" 1-8;  N: "Naturals" (a. two jokers);
- GR n: "Game Rules" 1-7 (the comparison rules 1-6, and 7: the player-dealer's joker up card);
- DS n: "Double-Down Split & Surrender" 1-7;  AR n: "Additional Game Rules" 1-4;
- HRC: the "Hand Rankings Chart"; RPD: "Rules for Player Dealer" (must stay hard 17 or more, must
  hit soft 17 or less); RFP: "Rules for Players" (must stand on soft and hard 20, 21, natural 22;
  must hit on 11 or less; option on 12-19).

Where the sheet is silent the reading chosen is written at the function that carries it out and
listed in :mod:`games.no_bust` (the game's docstring); the readings a table may change are
fields of :class:`Rules` (the ``[game]`` options).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from games.blackjack import best_total, ten_point
from games.cards import Card
from games.wagers import Outcome, Pays, WagerResult

BUTTONS: tuple[str, ...] = ("hit", "stand", "double", "split", "surrender")
"""The players' decisions, one seat button each: draw, stand, double down, split, surrender (DS)."""

NATURAL_NAME = "natural"

ActionChart = Literal["rank_order", "face_value"]
ACTION_CHARTS: tuple[str, ...] = ("rank_order", "face_value")


@dataclass(frozen=True)
class Rules:
    """The readings a table may choose where the sheet is silent or reads two ways (the game's
    docstring, :mod:`games.no_bust`, says why each default was chosen)."""

    highest_total: int = 21
    """The highest total that is not "more than a natural" (GR1-6, HP7). 21: a drawn total of 22
    is over (the natural, two jokers, ranks above 21 in the HRC, and RFP calls it "Natural 22");
    22: a drawn 22 is "a natural or less" and an ace counts 11 up to 22."""
    double_on_stand_totals: bool = False
    """DS1 "any two cards" against RFP's "must stand on 20, 21": False reads the double's one
    draw card as a draw, so no double where the player must stand."""
    surrender: bool = True
    """DS and AR2 name surrender without saying how it is played: a hand's first two cards, not
    after a split, the player forfeits half the wager."""
    surrender_on_must_hit: bool = True
    """The players' chart's "MUST HIT ON 11 or Less" against surrender offered on such a hand
    (:func:`refusal`, reading 9): True lets a hand of 11 or less surrender; False reads "must hit"
    as barring every decision but a draw (a hit, or a double, which draws)."""
    max_splits: int = 3
    """DS5: multiple splitting up to 3 times (per seat)."""
    resplit_aces: bool = False
    """DS3a: split aces "receive one draw card for each Ace only": not split again unless a table says so."""
    natural_pays: Pays = field(default_factory=lambda: Pays(1))
    """The sheet names no bonus for a natural: it wins even money unless a table says otherwise."""

    def __post_init__(self) -> None:
        if self.highest_total not in (21, 22):
            raise ValueError(f"highest_total is 21 or 22, not {self.highest_total}")


# --- totals --------------------------------------------------------------------------------


def card_value(card: Card) -> int:
    """HP1, HP3, HP4: face value, an ace 1 (11 is counted in :func:`total`), a face card 10.
    A joker has no value of its own: a hand holding one is a hard 21 (HP2, AR3)."""
    if card.is_joker:
        raise ValueError("a joker has no card value: a hand with a joker is a hard 21 (HP2, AR3)")
    if card.rank == "A":
        return 1
    if card.rank in ("J", "Q", "K"):
        return 10
    value = int(card.rank)
    if not 2 <= value <= 10:
        raise ValueError(f"{card.code} is not a card of this game's deck")
    return value


@dataclass(frozen=True)
class Total:
    """A hand's standing: ``value`` is the total (21 with a joker, 22 for a natural: RFP's
    "Natural 22"); ``soft`` when an ace counts 11; ``over`` when it is more than a natural."""

    value: int
    soft: bool = False
    joker: bool = False
    natural: bool = False
    over: bool = False

    def describe(self) -> str:
        if self.natural:
            return "a natural (two jokers)"
        if self.joker:
            return "a hard 21 (a joker)"
        kind = "soft" if self.soft else "hard"
        return f"{kind} {self.value}" + (" (more than a natural)" if self.over else "")

    def to_dict(self) -> dict:
        """As the ``result`` publishes a hand. The natural (two jokers) is published as what the
        sheet ranks it: "A 'Natural' hand beats all other hands" (Naturals a), the HRC's first rank,
        which has no hand value -- so ``total`` null, ``natural`` and ``joker`` true (it is two
        jokers). Its internal 22 (RFP's "Natural 22") only orders it above every total; published, a
        22 reads as a drawn 22, which is more than a natural (issue 23.6)."""
        if self.natural:
            return {"total": None, "soft": False, "joker": True, "natural": True, "over": False}
        return {"total": self.value, "soft": self.soft, "joker": self.joker, "natural": self.natural,
                "over": self.over}


def total(cards: Sequence[Card], highest_total: int = 21) -> Total:
    """A hand's total.

    - N a: two jokers (a hand's first two cards; no other hand can hold two: a joker hand is
      frozen, AR1) are a natural, which beats all other hands; RFP names it "Natural 22".
    - HP2, AR3: a joker with any card or cards is a hard 21.
    - HP3, HP5: the sum of the cards, each ace 1 or 11 -- as many aces count 11 as keep the
      total at ``highest_total`` or less (21: at most one; 22 also lets A-A count 22).
    - GR1-4: a total above ``highest_total`` is "more than a natural" (the hand does not bust:
      the comparison rules settle it).
    """
    if not cards:
        raise ValueError("a hand has at least one card")
    jokers = sum(1 for c in cards if c.is_joker)
    if jokers:
        if len(cards) == 2 and jokers == 2:
            return Total(22, natural=True)
        return Total(21, joker=True)
    value, elevens = best_total(sum(card_value(c) for c in cards), sum(1 for c in cards if c.rank == "A"),
                                highest_total)
    return Total(value, soft=elevens > 0, over=value > highest_total)


# --- the comparison rules --------------------------------------------------------------------


def compare(player: Total, dealer: Total) -> tuple[Outcome, str]:
    """A player's hand against the player-dealer's (HP6), as the sheet's rules decide it.

    - N: a natural beats all other hands; two naturals tie, a push (GR6: "tied on a natural").
    - GR1: player over a natural, player-dealer a natural or less: the player-dealer wins.
    - GR2: player a natural or less, player-dealer over: the player wins.
    - GR3: both over: the player-dealer closer wins (3a); the player closer is a push (3b).
    - GR4: a tie over a natural: the player-dealer wins.
    - GR5: both below a natural: the hand closest to a natural wins.
    - GR6: tied on a natural or less: a push.
    A joker hand is a 21 like any other: the HRC ranks "Joker, any card" with A-10 at 21.
    """
    p, d = player.value, dealer.value
    if player.natural and dealer.natural:
        return "push", "both hands are naturals (two jokers): tied on a natural, a push (GR6)"
    if player.natural:
        return "win", "a natural (two jokers) beats all other hands (Naturals)"
    if dealer.natural:
        return "lose", "the player-dealer's natural (two jokers) beats all other hands (Naturals)"
    if player.over and not dealer.over:
        return "lose", (f"the player's {p} is more than a natural and the player-dealer's {d} is not: "
                        "the player-dealer wins (GR1)")
    if dealer.over and not player.over:
        return "win", (f"the player-dealer's {d} is more than a natural and the player's {p} is not: "
                       "the player wins (GR2)")
    if player.over and dealer.over:
        if p == d:
            return "lose", f"tied on {p}, over a natural: the player-dealer wins all ties over a natural (GR4)"
        if d < p:
            return "lose", f"both over a natural; the player-dealer's {d} is closer than {p}: the player-dealer wins (GR3a)"
        return "push", f"both over a natural; the player's {p} is closer than {d}: a push (GR3b)"
    if p == d:
        return "push", f"tied on {p}, a natural or less: a push (GR6)"
    if p > d:
        return "win", f"both a natural or less; the player's {p} is closer than {d}: the player wins (GR5)"
    return "lose", f"both a natural or less; the player-dealer's {d} is closer than {p}: the player-dealer wins (GR5)"


# --- the players' decisions -------------------------------------------------------------------


@dataclass(frozen=True)
class HandState:
    """What a player's decision on one hand depends on."""

    cards: tuple[Card, ...]
    split: bool = False
    """The hand came from a split (either half)."""
    from_aces: bool = False
    """The hand is a split ace (DS3a: one draw card only)."""
    splits: int = 0
    """How many times the seat has split this round (DS5)."""
    up_joker: bool = False
    """The player-dealer's up card is a joker: all hands are frozen (AR2, GR7)."""


def pair(cards: Sequence[Card]) -> bool:
    """DS3: a pair (two of a rank) or any two cards of 10-point value (DS3b, games.blackjack.ten_point);
    never a joker (DS2)."""
    if len(cards) != 2 or any(c.is_joker for c in cards):
        return False
    a, b = cards
    return a.rank == b.rank or (ten_point(a) and ten_point(b))


def refusal(button: str, hand: HandState, rules: Rules = Rules()) -> str | None:
    """Why ``button`` is out of place on ``hand`` now, citing the rule; None: the rules allow it.

    The players' chart (RFP) binds the players: they must stand on 20 or more (and on any
    total over a natural: no draw can bring it back -- reading), must hit on 11 or less, and have
    the option on 12 to 19. A hand with a joker is frozen (AR1, HP2); the player-dealer's joker
    up card freezes all hands (AR2, GR7).

    "MUST HIT ON 11 or Less" and surrender (reading 9): the chart's three columns -- must stand,
    must hit, have option -- order a hand's play between a hit and a stand; surrender is not
    playing the hand at all, offered by DS on any hand without a joker ("Players cannot split,
    double down or surrender any hand with a joker" names the only hands barred). So by default a
    hand of 11 or less may surrender, and what "must hit" forbids there is standing (a double
    draws a card, so it is a hit; a split hand's halves are then played by the chart). A table
    that reads the chart as the only play of such a hand sets ``surrender_on_must_hit = false``.
    """
    if button not in BUTTONS:
        return f"{button} is not a player's decision: the seat buttons are {', '.join(BUTTONS)}"
    if hand.up_joker:
        return ("the player-dealer's up card is a joker: all hands are frozen; players may not surrender, "
                "split, double down or draw (AR2, GR7)")
    cards = hand.cards
    if any(c.is_joker for c in cards):
        return ("the hand holds a joker: a hard 21, frozen, it cannot receive any further action "
                "(AR1, AR3, HP2; DS2: no split, double down or surrender)")
    if len(cards) < 2:
        return "the hand has one card: its second card is dealt first (DS3)"
    t = total(cards, rules.highest_total)
    codes = " ".join(c.code for c in cards)
    two = len(cards) == 2
    if hand.from_aces and button in ("hit", "double"):
        return "a split ace receives one draw card only (DS3a)"
    if button == "hit":
        if t.value >= 20:
            why = "no draw can bring it back" if t.over else "the players' chart"
            return f"must stand on {t.describe()} ({why}; RFP: must stand on soft and hard 20, 21, natural 22)"
        return None
    if button == "stand":
        if t.value <= 11:
            return f"must hit on {t.value}: players must hit on 11 or less (RFP)"
        return None
    if button == "double":
        if not two:
            return f"a double down is on two cards (DS1); this hand has {len(cards)}: {codes}"
        if t.value >= 20 and not rules.double_on_stand_totals:
            return (f"must stand on {t.describe()} (RFP): a double down draws a card (DS1), so none where the "
                    "player must stand (game.double_on_stand_totals)")
        return None
    if button == "split":
        if not pair(cards):
            return f"{codes} is neither a pair nor two cards of 10-point value (DS3)"
        if hand.splits >= rules.max_splits:
            return f"the seat has split {hand.splits} time(s): splitting is permitted up to {rules.max_splits} times (DS5)"
        if hand.from_aces and not rules.resplit_aces:
            return "split aces receive one draw card each and are not split again (DS3a; game.resplit_aces)"
        return None
    # surrender
    if not rules.surrender:
        return "surrender is not offered at this table (game.surrender = false)"
    if t.value <= 11 and not rules.surrender_on_must_hit:
        return (f"must hit on {t.value}: players must hit on 11 or less (RFP), and this table gives such a hand no "
                "surrender (game.surrender_on_must_hit = false)")
    if hand.split:
        return "surrender is on a hand's first two cards, not on a split hand (DS; reading)"
    if not two:
        return f"surrender is on the first two cards only; this hand has {len(cards)} (DS; reading)"
    return None


def choices(hand: HandState, rules: Rules = Rules()) -> tuple[str, ...]:
    """The decisions the rules allow on ``hand`` now, in seat-button order. ``()``: frozen;
    ``("stand",)``: the player must stand; ``("hit",)``: the player must draw (RFP)."""
    return tuple(b for b in BUTTONS if refusal(b, hand, rules) is None)


# --- the player-dealer ---------------------------------------------------------------------------


def player_dealer_draws(cards: Sequence[Card], highest_total: int = 21) -> tuple[bool, str]:
    """Whether the player-dealer must draw another card, and why (RPD, GR7, AR1).

    - GR7, AR2: the up card (the first) is a joker: there is no draw.
    - AR1, AR3: a hand with a joker is a hard 21, frozen.
    - RPD: must stay on hard 17 or more; must hit soft 17 or less. Read as a card room reads a
      blackjack chart: hit any total of 16 or less and soft 17; stay on hard 17 or more and on
      soft 18 or more (the chart hits soft totals only up to 17).
    """
    if cards and cards[0].is_joker:
        return False, "the player-dealer's up card is a joker: there is no draw (GR7)"
    if any(c.is_joker for c in cards):
        return False, "the player-dealer's hand holds a joker: a hard 21, frozen (AR1, AR3)"
    t = total(cards, highest_total)
    if t.soft and t.value <= 17:
        return True, f"the player-dealer must hit soft {t.value} (RPD: must hit soft 17 or less)"
    if not t.soft and t.value <= 16:
        return True, f"the player-dealer must hit hard {t.value} (RPD: must hit 17 or less, must stay hard 17 or more)"
    if t.soft:
        return False, f"the player-dealer stays on soft {t.value} (RPD hits soft 17 or less)"
    return False, f"the player-dealer stays on hard {t.value} (RPD: must stay hard 17 or more)"


# --- the action button ---------------------------------------------------------------------------

_RANK_ORDER = {"A": 1, "J": 11, "Q": 12, "K": 13}


def action_value(card: Card, chart: str = "rank_order") -> int:
    """The player-dealer's second card's count for the action button. The sheet gives no chart
    for this game; the two charts of the sheet's other player-dealer games (option
    ``action_chart``):

    - ``rank_order``: Commission-Free Baccarat's rule 21, A 1, 2-10 face value, J 11, Q 12, K 13;
    - ``face_value``: Three Card Poker's R8, A 1, 2-10 face value, J Q K 0.
    A joker is on neither chart: it counts 0 (the button on the player-dealer's position).
    """
    if card.is_joker:
        return 0
    if chart not in ACTION_CHARTS:
        raise ValueError(f"action_chart is one of {', '.join(ACTION_CHARTS)}, not {chart!r}")
    if card.rank in _RANK_ORDER:
        return _RANK_ORDER[card.rank] if chart == "rank_order" or card.rank == "A" else 0
    return int(card.rank)


def action_button(card: Card, player_dealer: int, seats: int, chart: str = "rank_order") -> dict:
    """Where the action button goes (the ``action_button`` event's data): the count runs round the
    table from the player to the player-dealer's left, the player-dealer's position being 0
    (Commission-Free Baccarat rule 21's numbering: position = count mod seats). On position 0
    first action goes to the player on the player-dealer's left (the order rule 21 settles in)."""
    count = action_value(card, chart)
    position = count % seats
    seat = (player_dealer - 1 + position) % seats + 1
    left = player_dealer % seats + 1
    return {"card": card.code, "count": count, "position": position, "seat": seat,
            "first_action_seat": seat if position else left}


# --- settlement ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wager(WagerResult):
    """A :class:`~games.wagers.WagerResult` with the part of the stake it applies to: a surrender
    loses half the wager (``stake`` 1/2), everything else the whole."""

    stake: Fraction = Fraction(1)

    @property
    def net(self) -> Fraction:
        return WagerResult.net.fget(self) * self.stake  # type: ignore[attr-defined]

    def to_dict(self) -> dict:
        return {**super().to_dict(), "stake": str(self.stake)}


@dataclass(frozen=True)
class PlayedHand:
    """A player's hand as it ended: its cards, its wager (``bet``, or ``split`` for a hand a split
    made), and whether it doubled down or surrendered."""

    cards: tuple[Card, ...]
    wager: str = "bet"
    doubled: bool = False
    surrendered: bool = False


def settle_hand(hand: PlayedHand, dealer: Sequence[Card], rules: Rules = Rules()) -> list[Wager]:
    """One hand's wagers against the player-dealer's hand: its bet (or split wager) and its
    double, each win (at even money; a natural at ``natural_pays``), lose or push.

    - DS6: if the player-dealer's hand is a natural, the double-down and split wagers receive
      no action (a push). (A player-dealer's natural needs a joker up card, which freezes every
      hand (AR2), so no double or split can meet one; the rule is carried out all the same.)
    - A surrender forfeits half the wager (reading; DS, AR2 name surrender only).
    """
    if hand.surrendered:
        return [Wager(hand.wager, "lose", None, "surrendered: half the wager is forfeited, half returned "
                                                 "(DS; reading)", Fraction(1, 2))]
    p = total(hand.cards, rules.highest_total)
    d = total(dealer, rules.highest_total)
    outcome, why = compare(p, d)
    no_action = ("the player-dealer's hand is a natural: double-down and split wagers receive no action (DS6)")
    out: list[Wager] = []
    pays_natural = p.natural and hand.wager == "bet"
    for name in (hand.wager, "double") if hand.doubled else (hand.wager,):
        if d.natural and name in ("split", "double"):
            out.append(Wager(name, "push", None, no_action))
        elif outcome == "win":
            out.append(Wager(name, "win", rules.natural_pays if pays_natural else Pays(1), why))
        else:
            out.append(Wager(name, outcome, None, why))
    return out


def settle(dealer: Sequence[Card], seats: Mapping[int, Sequence[PlayedHand]], rules: Rules = Rules()) -> dict:
    """The ``result`` data: the player-dealer's hand and each seat's hands with their wagers."""
    d = total(dealer, rules.highest_total)
    return {
        "dealer": {"cards": [c.code for c in dealer], **d.to_dict()},
        "frozen": bool(dealer) and dealer[0].is_joker,
        "seats": {str(seat): {"hands": [
            {"cards": [c.code for c in h.cards], **total(h.cards, rules.highest_total).to_dict(),
             "wager": h.wager, "doubled": h.doubled, "surrendered": h.surrendered,
             "wagers": [w.to_dict() for w in settle_hand(h, dealer, rules)]} for h in hands]}
            for seat, hands in sorted(seats.items())},
    }
