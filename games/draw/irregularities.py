"""Misdeals and the other irregularities of the deal and the draw in Draw Poker & Low-Ball, and the
sheet's consequence of each (california-card-room-games.txt, "THE DEAL AND THE DRAW", "BOXED CARDS
- EXPOSED CARDS", "EXPOSED CARDS", "IRREGULARITIES IN A DECK", "KILL" and the paragraphs after it).

No device reads a card at this table, so nothing sees a card dealt wrong: the dealer (or the pit)
reports what happened (``cmd/irregularity {"what": ...}``) and :func:`rule` says what the sheet
makes of it. Three consequences:

- ``misdeal``: the hand is dead and redealt, with the same button (the button moves "after each
  hand is completed");
- ``no_pot``: "NO POT", every chip in the pot refunded, and the deck is checked card by card;
- ``play_on``: "Action goes", with what changes: a card replaced, a hand dead, the burn already
  off, the rotation's new position, or no more betting.

What is reported (``what``), when (the phase: ``deal`` -- the deal and the betting before the draw;
``draw`` -- the burn and the draw; ``after`` -- the betting after the draw and the showdown), and
the sheet's consequence:

- ``first_card_exposed`` (deal): "If the first card dealt is turned over, it is deemed a misdeal."
- ``extra_cards`` {count, seat, picked_up} (deal): "Two extra cards off the deck on the deal
  constitutes a misdeal"; "If two or more players are dealt a sixth card, a misdeal will be
  declared." One: "the dealer may take the card back and use it as the burn card, however, if the
  player picks up that sixth card, that hand will be declared dead. In this case, a card will
  still be burned before the draw. Action goes."
- ``boxed`` {count, seat} (deal, draw): "one boxed card will be replaced from the center of the deck
  after all players have received their cards. If two or more boxed cards are dealt, a misdeal
  will be declared." "On the draw, all boxed cards, even two or more will be replaced from the top
  of the deck after all players have received their cards. Action goes." "If the burn card is a
  boxed card, it will be burned like a normal card."
- ``exposed`` {seat, card} (deal, draw), a card the dealer exposes: "If two or more cards are
  exposed on the deal, it is a misdeal." One: "In 'High Draw Poker' Players must keep all cards
  exposed on the deal"; "In 'Lo-Ball' Players must take all exposed cards five or under; players
  may not take a six or higher. If the exposed card is a six or higher, player will receive another
  card from the center of the deck after completion of the deal." On the draw: "a player may not
  take an exposed card ... the player will receive another card from the top of the deck after the
  draw is completed."
- ``out_of_rotation`` (deal, draw): "If the dealer deals cards out of rotation on the deal, the cards
  will be reshuffled and a new hand dealt." "If cards are dealt out of rotation on the draw the draw
  will be completed. 'No further action is permitted on this hand' Immediate showdown."
- ``off_table`` {seat} (deal, draw): "Any card 'dealt' off the table is a 'dead card'. The player is
  entitled to another card ... a. On the deal, it will be replaced from the center of the deck after
  the completion of the deal. b. On the draw, it will be replaced from the top of the deck after all
  the players have received their cards. Action goes."
- ``wrong_count`` {seat, cards, acted} (any): "If a player is dealt more or less cards than the game
  he is playing in calls for, and it is discovered before two players act on their hands, it is a
  misdeal. If it is discovered after two players have acted, all monies, antes and blinds are
  forfeited by that player." "Before the draw, a player having less than five cards in his hand
  may receive additional cards, providing no action has been taken by the first player to act."
  "Before the draw, more than five cards is a foul hand." "After the draw, a player having less
  than five cards in his hand may receive additional cards, providing no action have been taken by
  the first player to act. More or less than five cards after the draw is a foul hand."
- ``out_of_position`` {opened, button} (any): "If there has been no opening bet, and if all the
  players agree that the deal is out of position, all hands will be declared dead and the cards
  redealt from the correct position. If the pot has been opened, however, play continues and the
  next deal follows rotation from the new position."
- ``irregular_deck`` (any, while the pot is in play): "if the deck is found to be irregular while
  the pot is in play: It shall be declared 'NO POT' and all money in the pot is refunded. However.
  Once the pot is out of play, no adjustment can be made."

Choices where the sheet is silent (each tested in tests/games/test_draw_irregularities.py):
1. **Counts add up over the hand**: a second boxed card, a second card exposed or a second extra
   card on the deal, reported apart, is the misdeal of "two or more".
2. **The joker exposed on the deal in Low-Ball** is taken: it plays as the lowest card not held,
   always five or under in a hand of five (games.poker.low choice 3).
3. **A wrong number of cards found during the draw** is a foul hand, more or fewer: the betting
   before the draw has acted, so no card is added ("providing no action has been taken").
4. **A boxed burn card before the draw** changes nothing; an exposed card, a card off the table
   and cards out of rotation while the burn is due are refused: no card of the draw is dealt yet.
5. **The dead hand's cards** go to the discards: the stub is counted with them (games.draw.stub).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from games.cards import Card
from games.decks import DeckSpec, standard
from games.poker.entries import EntryError
from games.poker.entries import card_of as parse_card

Phase = Literal["deal", "draw", "after"]
Consequence = Literal["misdeal", "no_pot", "play_on"]

KEYS: dict[str, frozenset[str]] = {
    "first_card_exposed": frozenset(),
    "extra_cards": frozenset({"count", "seat", "picked_up"}),
    "boxed": frozenset({"count", "seat"}),
    "exposed": frozenset({"seat", "card"}),
    "out_of_rotation": frozenset(),
    "off_table": frozenset({"seat"}),
    "wrong_count": frozenset({"seat", "cards", "acted"}),
    "out_of_position": frozenset({"opened", "button"}),
    "irregular_deck": frozenset(),
}
"""What may be reported, and the keys each report takes."""
KINDS: tuple[str, ...] = tuple(KEYS)

LOW_TAKEN = frozenset({"A", "2", "3", "4", "5"})
"""Low-Ball: "Players must take all exposed cards five or under" (the joker too, choice 2)."""

REDEAL = "the hand is redealt with the same button"
ACTION_GOES = "Action goes."


class IrregularityError(ValueError):
    """A report the rules cannot rule on (the message says why; it names no card code)."""


@dataclass(frozen=True)
class HandView:
    """What :func:`rule` needs to know of the hand: the variant, the phase and the step due, the
    players dealt in and those whose hand is dead, the draws entered, what the deal has already
    seen, the button, the table's seats, the deck, and the cards already entered (card -> where)."""

    variant: str
    phase: Phase
    step: str
    players: frozenset[int]
    dead: frozenset[int] = frozenset()
    draws: Mapping[int, int] | None = None
    draw_dead: Mapping[int, int] | None = None
    exposed_on_deal: int = 0
    boxed_on_deal: int = 0
    extra_on_deal: int = 0
    button: int = 1
    table: int = 8
    spec: DeckSpec = field(default_factory=lambda: standard(1, jokers=1))
    taken: Mapping[Card, str] | None = None


@dataclass(frozen=True)
class Ruling:
    """The sheet's consequence of one report.

    ``message``: what happened and the consequence, citing the sheet; ``action``: what the dealer
    does now. The rest is what changes in the hand (play on): ``dead_hand`` -- a seat whose hand is
    dead; ``extra`` -- cards off the stub before the draw beyond five each and the burn (negative:
    fewer); ``burned`` -- the burn is already off; ``draw_dead`` -- dead cards in ``seat``'s draw,
    each replaced after everybody has drawn; ``no_further_action`` -- no betting after the draw;
    ``button`` -- the deal's position, which the rotation follows; ``card`` -- the exposed card,
    face up, which the pit may see; ``dead_card`` -- it is out of play; ``exposed``, ``boxed``,
    ``extra_cards`` -- what the deal has now seen more."""

    what: str
    consequence: Consequence
    message: str
    action: str
    seat: int | None = None
    dead_hand: int | None = None
    extra: int = 0
    burned: bool = False
    draw_dead: int = 0
    no_further_action: bool = False
    button: int | None = None
    card: Card | None = None
    dead_card: bool = False
    exposed: int = 0
    boxed: int = 0
    extra_cards: int = 0

    @property
    def misdeal(self) -> bool:
        return self.consequence == "misdeal"


def rule(args: Mapping[str, Any], view: HandView) -> Ruling:
    """The ruling on the report ``args`` (``what`` and its keys), or :class:`IrregularityError`."""
    what = args.get("what")
    if not isinstance(what, str) or what not in KEYS:
        raise IrregularityError(f"what is one of {', '.join(KINDS)}")
    extra = sorted(set(args) - KEYS[what] - {"what", "id"})
    if extra:
        takes = ", ".join(sorted(KEYS[what])) or "nothing more"
        raise IrregularityError(f"{extra[0]} is no part of the {what} report (it takes {takes})")
    try:
        return _RULES[what](args, view)
    except EntryError as exc:
        raise IrregularityError(str(exc)) from None


# --- the reports --------------------------------------------------------------------------

def _first_card_exposed(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "first_card_exposed", ("deal",))
    return _misdeal("first_card_exposed", "the first card dealt was turned over: \"If the first card dealt is "
                                          "turned over, it is deemed a misdeal\" (THE DEAL AND THE DRAW)")


def _extra_cards(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "extra_cards", ("deal",))
    count = _count(args.get("count", 1), "count")
    total = view.extra_on_deal + count
    if total >= 2:
        return _misdeal("extra_cards", f"{total} extra cards came off the deck on the deal: \"Two extra cards off the "
                                       "deck on the deal constitutes a misdeal\"; \"If two or more players are dealt "
                                       "a sixth card, a misdeal will be declared. All hands are dead.\"")
    seat = _seat(args, view, "the seat dealt a sixth card")
    picked = args.get("picked_up", False)
    if not isinstance(picked, bool):
        raise IrregularityError("picked_up is true or false: whether the player picked up his sixth card")
    if picked:
        return Ruling("extra_cards", "play_on",
                      f"seat {seat} was dealt a sixth card and picked it up: \"that hand will be declared dead. In "
                      "this case, a card will still be burned before the draw. Action goes.\"",
                      f"seat {seat}'s hand is dead: put its six cards with the discards; the antes and blinds it "
                      "posted stay in the pot", seat=seat, dead_hand=seat, extra=1, extra_cards=1)
    return Ruling("extra_cards", "play_on",
                  f"seat {seat} was dealt a sixth card: \"the dealer may take the card back and use it as the burn "
                  "card\". Action goes.",
                  "take the sixth card back face down and keep it apart as the burn card: no other card is burned "
                  "before the draw", seat=seat, burned=True, extra_cards=1)


def _boxed(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "boxed", ("deal", "draw"))
    count = _count(args.get("count", 1), "count")
    if view.phase == "deal":
        total = view.boxed_on_deal + count
        if total >= 2:
            return _misdeal("boxed", f"{total} boxed cards on the deal: \"If two or more boxed cards are dealt, a "
                                     "misdeal will be declared.\"")
        seat = _seat(args, view, "the seat the boxed card was dealt to") if "seat" in args else None
        return Ruling("boxed", "play_on",
                      "a boxed card on the deal: \"Boxed cards - Cards exposed face up in the deck - are dead "
                      "cards\"; \"one boxed card will be replaced from the center of the deck after all players "
                      "have received their cards.\"",
                      "place the boxed card in the center of the table and finish the deal; then give "
                      f"{f'seat {seat}' if seat else 'the player it fell to'} a card from the center of the deck",
                      seat=seat, extra=1, boxed=1)
    if view.step == "burn":
        if count != 1:
            raise IrregularityError("one burn card: count is 1 while the burn is due")
        return Ruling("boxed", "play_on", "the burn card is a boxed card: \"If the burn card is a boxed card, it "
                                          "will be burned like a normal card.\"",
                      "burn it like a normal card")
    seat = _drawing(args, view, count)
    return Ruling("boxed", "play_on",
                  f"{_cards(count, 'boxed card')} in seat {seat}'s draw: \"On the draw, all boxed cards, even two "
                  "or more will be replaced from the top of the deck after all players have received their "
                  "cards. Action goes.\"",
                  f"place the boxed card{'s' if count > 1 else ''} in the center of the table; after everybody has "
                  f"drawn, give seat {seat} {count} from the top of the deck", seat=seat, draw_dead=count)


def _exposed(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "exposed", ("deal", "draw"))
    if view.step == "burn":
        raise IrregularityError("no card of the draw is dealt yet (the burn is due): an exposed card is reported "
                                "on the deal or as the draw is dealt")
    seat = _seat(args, view, "the seat whose card the dealer exposed") if view.phase == "deal" \
        else _drawing(args, view, 1)
    card = None
    if "card" in args:
        card = parse_card(args["card"], "the exposed card", view.spec)
        if view.taken and card in view.taken:
            raise IrregularityError(f"the exposed card is already entered for {view.taken[card]}: the deck holds it once")
    if view.phase == "draw":
        return Ruling("exposed", "play_on",
                      f"a card exposed in seat {seat}'s draw: \"In both Poker and Lo-Ball, a player may not take an "
                      "exposed card. When a player's card is exposed by the dealer, the player will receive another "
                      "card from the top of the deck after the draw is completed.\" Action goes.",
                      f"the exposed card is dead: put it with the discards; after the draw, give seat {seat} a card "
                      "from the top of the deck", seat=seat, draw_dead=1, card=card, dead_card=True)
    if view.exposed_on_deal + 1 >= 2:
        return _misdeal("exposed", f"{view.exposed_on_deal + 1} cards exposed on the deal: \"If two or more cards "
                                   "are exposed on the deal, it is a misdeal.\"", card=card)
    if view.variant == "draw":
        return Ruling("exposed", "play_on",
                      f"one of seat {seat}'s cards exposed on the deal: \"In 'High Draw Poker' Players must keep all "
                      "cards exposed on the deal.\"", f"seat {seat} keeps the exposed card; finish the deal",
                      seat=seat, card=card, exposed=1)
    if card is None:
        raise IrregularityError("card is needed in Low-Ball: an exposed card five or under is taken, a six or "
                                "higher is replaced (EXPOSED CARDS)")
    if card.is_joker or card.rank in LOW_TAKEN:
        return Ruling("exposed", "play_on",
                      f"one of seat {seat}'s cards exposed on the deal, five or under: \"In 'Lo-Ball' Players must take "
                      "all exposed cards five or under\"", f"seat {seat} takes the exposed card; finish the deal",
                      seat=seat, card=card, exposed=1)
    return Ruling("exposed", "play_on",
                  f"one of seat {seat}'s cards exposed on the deal, six or higher: \"players may not take a six or "
                  "higher. If the exposed card is a six or higher, player will receive another card from the center "
                  "of the deck after completion of the deal.\"",
                  f"the exposed card is dead: put it with the discards; after the deal, give seat {seat} a card from "
                  "the center of the deck", seat=seat, extra=1, card=card, dead_card=True, exposed=1)


def _out_of_rotation(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "out_of_rotation", ("deal", "draw"))
    if view.phase == "deal":
        return _misdeal("out_of_rotation", "cards dealt out of rotation on the deal: \"If the dealer deals cards out "
                                           "of rotation on the deal, the cards will be reshuffled and a new hand "
                                           "dealt.\"")
    if view.step == "burn":
        raise IrregularityError("no card of the draw is dealt yet (the burn is due): cards out of rotation are "
                                "reported on the deal or as the draw is dealt")
    return Ruling("out_of_rotation", "play_on",
                  "cards dealt out of rotation on the draw: \"the draw will be completed. 'No further action is "
                  "permitted on this hand' Immediate showdown.\"",
                  "complete the draw; no betting after it: the showdown follows at once", no_further_action=True)


def _off_table(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "off_table", ("deal", "draw"))
    if view.phase == "deal":
        seat = _seat(args, view, "the seat the card was dealt to")
        return Ruling("off_table", "play_on",
                      f"a card to seat {seat} dealt off the table on the deal: \"Any card 'dealt' off the table is a "
                      "'dead card' ... On the deal, it will be replaced from the center of the deck after the "
                      "completion of the deal.\"",
                      f"the card is dead: put it with the discards; after the deal, give seat {seat} a card from "
                      "the center of the deck", seat=seat, extra=1)
    if view.step == "burn":
        raise IrregularityError("no card of the draw is dealt yet (the burn is due): a card off the table is "
                                "reported on the deal or as the draw is dealt")
    seat = _drawing(args, view, 1)
    return Ruling("off_table", "play_on",
                  f"a card of seat {seat}'s draw dealt off the table: \"On the draw, it will be replaced from the top "
                  "of the deck after all the players have received their cards. Action goes.\"",
                  f"the card is dead: put it with the discards; after everybody has drawn, give seat {seat} a card "
                  "from the top of the deck", seat=seat, draw_dead=1)


def _wrong_count(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "wrong_count", ("deal", "draw", "after"))
    seat = _seat(args, view, "the seat with the wrong number of cards")
    cards = args.get("cards")
    if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 10 or cards == 5:
        raise IrregularityError("cards is the number of cards the player holds, 0 to 10 and not 5 (\"Five cards "
                                "constitute a playing hand\")")
    acted = args.get("acted", 0)
    if isinstance(acted, bool) or not isinstance(acted, int) or not 0 <= acted <= len(view.players):
        raise IrregularityError(f"acted is how many players have acted on their hands, 0 to {len(view.players)}")
    held = f"seat {seat} holds {cards} cards"
    if view.phase == "deal":
        if cards < 5 and acted == 0:
            return Ruling("wrong_count", "play_on",
                          f"{held} before the draw and nobody has acted: \"Before the draw, a player having less "
                          "than five cards in his hand may receive additional cards, providing no action has been "
                          "taken by the first player to act.\"",
                          f"give seat {seat} {5 - cards} more from the deck", seat=seat)
        if acted < 2:
            return _misdeal("wrong_count", f"{held}, found before two players acted: \"If a player is dealt more or "
                                           "less cards than the game he is playing in calls for, and it is "
                                           "discovered before two players act on their hands, it is a misdeal.\"")
        return Ruling("wrong_count", "play_on",
                      f"{held}, found after two players acted: \"all monies, antes and blinds are forfeited by that "
                      "player.\"", f"seat {seat}'s hand is dead: put its cards with the discards; what it put in the "
                                   "pot stays", seat=seat, dead_hand=seat, extra=cards - 5)
    if view.phase == "draw":
        why = ("\"Before the draw, more than five cards is a foul hand.\"" if cards > 5 else
               "the betting before the draw has acted, so no card is added (\"providing no action has been taken "
               "by the first player to act\")")
        return Ruling("wrong_count", "play_on", f"{held} at the draw: a foul hand: {why}",
                      f"seat {seat}'s hand is dead: put its cards with the discards", seat=seat, dead_hand=seat,
                      extra=cards - 5)
    if cards < 5 and acted == 0:
        return Ruling("wrong_count", "play_on",
                      f"{held} after the draw and nobody has acted: \"After the draw, a player having less than five "
                      "cards in his hand may receive additional cards, providing no action have been taken by the "
                      "first player to act.\"", f"give seat {seat} {5 - cards} more from the deck", seat=seat)
    return Ruling("wrong_count", "play_on",
                  f"{held} after the draw: \"More or less than five cards after the draw is a foul hand.\"",
                  f"seat {seat}'s hand is dead: put its cards with the discards", seat=seat, dead_hand=seat)


def _out_of_position(args: Mapping[str, Any], view: HandView) -> Ruling:
    _only(view, "out_of_position", ("deal", "draw", "after"))
    opened = args.get("opened")
    if not isinstance(opened, bool):
        raise IrregularityError("opened is true or false: whether the pot has been opened (an opening bet made)")
    button = args.get("button")
    if isinstance(button, bool) or not isinstance(button, int) or not 1 <= button <= view.table:
        raise IrregularityError(f"button is the seat the deal was made from, 1 to {view.table}")
    if button == view.button:
        raise IrregularityError(f"the button of this hand is seat {button}: the deal is in position")
    if not opened and view.phase != "deal":
        raise IrregularityError("the betting before the draw is over: the pot has been opened (opened is true)")
    if not opened:
        return _misdeal("out_of_position", f"the deal came from seat {button}'s button, not seat {view.button}'s, and "
                                           "nobody has opened: \"all hands will be declared dead and the cards "
                                           "redealt from the correct position.\"")
    return Ruling("out_of_position", "play_on",
                  f"the deal came from seat {button}'s button, not seat {view.button}'s, and the pot has been opened: "
                  "\"play continues and the next deal follows rotation from the new position.\"",
                  f"play the hand on; the next hand's button moves on from seat {button}", button=button)


def _irregular_deck(args: Mapping[str, Any], view: HandView) -> Ruling:
    return Ruling("irregular_deck", "no_pot",
                  "the deck is irregular while the pot is in play: \"It shall be declared 'NO POT' and all money in "
                  "the pot is refunded.\" (IRREGULARITIES IN A DECK)",
                  "refund every chip in the pot; gather every card for a deck check")


_RULES = {"first_card_exposed": _first_card_exposed, "extra_cards": _extra_cards, "boxed": _boxed,
          "exposed": _exposed, "out_of_rotation": _out_of_rotation, "off_table": _off_table,
          "wrong_count": _wrong_count, "out_of_position": _out_of_position, "irregular_deck": _irregular_deck}


# --- helpers --------------------------------------------------------------------------------

def _misdeal(what: str, why: str, card: Card | None = None) -> Ruling:
    return Ruling(what, "misdeal", f"misdeal: {why}", f"all hands are dead: gather every card; {REDEAL}", card=card)


PHASES = {"deal": "on the deal (the deal and the betting before the draw)",
          "draw": "on the draw (the burn and the draw)",
          "after": "after the draw"}


def _only(view: HandView, what: str, phases: Collection[str]) -> None:
    if view.phase not in phases:
        when = " or ".join(PHASES[p] for p in phases)
        raise IrregularityError(f"{what} is reported {when}; the hand is {PHASES[view.phase]}")


def _count(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
        raise IrregularityError(f"{key} is a number of cards, 1 to 10")
    return value


def _seat(args: Mapping[str, Any], view: HandView, what: str) -> int:
    seat = args.get("seat")
    if seat is None:
        raise IrregularityError(f"seat is needed: {what}")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IrregularityError("seat is a seat number")
    if seat not in view.players:
        raise IrregularityError(f"seat {seat} is not a player of this hand: the players are "
                                f"{', '.join(map(str, sorted(view.players)))}")
    if seat in view.dead:
        raise IrregularityError(f"seat {seat}'s hand is already dead")
    return seat


def _drawing(args: Mapping[str, Any], view: HandView, count: int) -> int:
    """The seat whose draw a dead card fell in: a player, and if the draws are entered, one that draws
    as many cards as are now dead in its draw."""
    seat = _seat(args, view, "the seat whose draw it was")
    if view.draws is not None:
        k = view.draws.get(seat)
        if k is None:
            raise IrregularityError(f"seat {seat} does not draw (the draws entered are for seats "
                                    f"{', '.join(map(str, sorted(view.draws)))})")
        already = (view.draw_dead or {}).get(seat, 0)
        if already + count > k:
            raise IrregularityError(f"seat {seat} draws {k}: {already + count} dead cards cannot be in its draw")
    return seat


def _cards(n: int, what: str) -> str:
    return f"a {what}" if n == 1 else f"{n} {what}s"


__all__ = ["KEYS", "KINDS", "HandView", "IrregularityError", "Ruling", "rule"]
