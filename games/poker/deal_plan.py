"""The deal of each poker-room game (california-card-room-games.txt) as plain data a round machine
can walk: what the dealer collects, deals, burns, turns on the board, and when players bet,
expose, discard or draw; and whether a deck is enough for so many players, with the sheet's
fallback when it runs short.

Each plan is a tuple of :class:`Step`, in order, and each step cites the sheet:
- **Texas Hold'em** ("THE BASIC PLAY OF THE MOTHER GAME"): two hole cards down, a round of
  betting; burn, the flop (three up); bet; burn, the turn; bet; burn, the river; bet. Hold'em
  Hi/Lo the same ("The Variations"). **Pineapple**: "three cards face down. After the Flop, the
  player discards one card". **Crazy Pineapple**: three down, "After the Flop, the player keeps
  all three cards": no discard. **Omaha** (and Hi/Lo): "four cards face down".
- **Draw Poker and Low-Ball** (rules 1 & 2, 8, THE DEAL AND THE DRAW): antes and blinds, the cut
  ("Cards must be cut before each deal"), five cards each, a round of betting, "Before dealing the draw, the top card from the deck must be
  discarded ('burned')", one draw of up to five cards ("Players must discard before receiving
  cards on the draw"), a last round of betting. TOO FEW CARDS FOR THE DRAW: "The dealer may not
  deal the last card from the stub of the deck. When he reaches the last card, he will combine it
  with all the discards except those of the players who have not yet completed their draws. The
  dealer will shuffle this new stub. The dealer will cut, and burn one card, and complete the
  draw." (fallback ``"draw_stub"``)
- **Mexican Stud** (MEXICAN POKER): "each player places a collection"; dealt "clockwise,
  beginning to the left of the dealer button"; "5 cards, of which 1 card must be face down";
  first one down and one up, a betting round begun by the high card; "After the betting is
  complete, the players may expose, if they wish, their down card ... prior to the deal of the
  third card which may be delivered up or down depending on whether or not previously dealt down
  cards have been opened" (face ``"keep_one_down"``: down if the player has opened his down card,
  else up); "The fourth and fifth cards are then dealt and played according to the same format";
  "Starting after the 2nd card, a card will be burned on each round."
- **7 Card Stud, Stud Hi-Lo, Razz** (7-CARD STUD): "two down cards and one up card, then a betting
  round, then three more up cards (with betting after each) then a final down card and a final
  round of betting"; a burn before each card after the first three (the stub rule's "four burn
  cards"); first to act: the bring-in, then the high hand showing (Razz: the low).
  The stub: "If there are not enough cards left in the deck for each player, the dealer is to deal
  all the cards 'except' the last card. The dealer then scrambles the last card and the four burn
  cards, cuts the deck, burns a card and delivers the remaining down cards, using the last card if
  necessary." (fallback ``"stud_scramble"``) "If the dealer determines that by using this
  procedure there will still not be enough cards for all the players, he cannot give any of the
  players a down card. Instead ... a community card will be used. The dealer will then burn a
  card and turn a card up in the center of the table. The card plays in everyone's hand. The
  player who was high on 6th Street will initiate the action." (fallback ``"stud_community"``)
- **Panguingue** (rules 1, 3, 5; THE DEAL; DECLARING): the fee and the ante before the deal; ten
  cards each, "dealt in two rounds of five at a time", to the right, starting with the previous
  winner; then each player declares; the draw and the melds are the round's.

Choices where the sheet is silent (each tested in tests/games/test_poker_deal_plan.py):
1. **Pineapple's discard** comes after the flop's betting round (``pineapple_discard=
   "after_flop_betting"``), as the discard after the flop is usually taken; ``"after_flop"``
   puts it as soon as the flop is turned, before that round.
2. **Hole cards go one at a time** round the table (``per_turn`` 1), as poker is dealt; only
   Panguingue's "rounds of five" differ.
3. **Mexican Stud's short stub** takes 7-Card Stud's rule (its two burns before the last card,
   not four): the sheet's Mexican section has none, and it is a stud game.
4. **The deck check** assumes the worst: every player stays to the end and draws five. Hold'em's
   family and Panguingue have no short-stub rule: too many players for the whole deal is refused;
   Panguingue leaves one card at least to draw from.
5. **Panguingue's deck** is 8 decks of 40 (THE DECK: "a set of 8 decks ... A total of 320
   cards"); rule 3 says ten decks, so ``pan_decks`` may be 10.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Action = Literal["collect", "cut", "deal", "burn", "board", "bet", "expose", "discard", "draw", "declare",
                 "showdown"]
Face = Literal["down", "up", "keep_one_down"]
Fallback = Literal["draw_stub", "stud_scramble", "stud_community"]

HOLDEM_FAMILY: dict[str, int] = {
    "holdem": 2, "holdem_hi_lo": 2, "pineapple": 3, "pineapple_hi_lo": 3, "crazy_pineapple": 3,
    "crazy_pineapple_hi_lo": 3, "omaha": 4, "omaha_hi_lo": 4,
}
"""Hole cards per player ("The Variations")."""
STUD_FAMILY = ("stud", "stud_hi_lo", "razz")
GAMES: tuple[str, ...] = ("draw", "lowball", "mexican_stud", *HOLDEM_FAMILY, *STUD_FAMILY, "panguingue")
PAN_DECK = 40
"""Panguingue: a deck without 8s, 9s, 10s and jokers (rules 3, 4)."""


@dataclass(frozen=True)
class Step:
    """One thing the dealer or the players do.

    - ``collect``: what ``name`` says (blinds, antes, the fee) before the deal;
    - ``cut``: the dealer cuts the deck before the deal (Draw & Low-Ball);
    - ``deal``: to each player in turn, ``faces`` giving each card's face in dealing order, ``per_turn``
      cards at a time;
    - ``burn``: one card off the top, face down; ``board``: ``cards`` community cards face up;
    - ``bet``: a betting round, ``first`` says who opens it (``left_of_big_blind``,
      ``left_of_button``, ``bring_in``, ``high_card``, ``high_showing``, ``low_showing``);
    - ``expose``: each player may turn his down card up (Mexican Stud);
    - ``discard``: each player discards ``cards``; ``draw``: each player discards and draws up to
      ``cards``; ``declare``: each player says whether he plays (Panguingue);
    - ``showdown``."""

    action: Action
    name: str = ""
    faces: tuple[Face, ...] = ()
    per_turn: int = 1
    cards: int = 0
    first: str = ""
    rule: str = ""


@dataclass(frozen=True)
class DealPlan:
    game: str
    deck: int
    """Cards in the deck the game is dealt from."""
    start: Literal["left_of_button", "left_of_dealer", "previous_winner"]
    direction: Literal["clockwise", "counterclockwise"]
    steps: tuple[Step, ...]
    short_stub: Literal["draw_stub", "stud_scramble"] | None
    """The sheet's rule when the stub runs short (``"stud_scramble"``: 7-Card Stud's, ending in the
    community card when even that is not enough), or None where it has none."""


@dataclass(frozen=True)
class DeckCheck:
    """Whether ``deck`` cards see ``players`` players through the deal (choice 4: everyone to the
    end): ``needed`` cards straight from the deck; ``fallback`` None when enough, else the sheet's
    rule the dealer will need."""

    game: str
    players: int
    deck: int
    needed: int
    fallback: Fallback | None
    detail: str

    @property
    def enough(self) -> bool:
        return self.fallback is None


def _bet(name: str, first: str, rule: str) -> Step:
    return Step("bet", name, first=first, rule=rule)


def plan(game: str, *, pineapple_discard: Literal["after_flop_betting", "after_flop"] = "after_flop_betting",
         pan_decks: int = 8) -> DealPlan:
    """The deal of ``game`` (a name of :data:`GAMES`)."""
    if game in HOLDEM_FAMILY:
        return _holdem(game, pineapple_discard)
    if game in ("draw", "lowball"):
        return DealPlan(game, 53, "left_of_button", "clockwise", (
            Step("collect", "antes and blinds", rule="Draw Poker & Low-Ball 1 & 2: blinds 2-3-5, antes of 1.00"),
            Step("cut", rule="THE DEAL AND THE DRAW: 'Cards must be cut before each deal ... The 'cut' is made with "
                             "one hand, straight out.'"),
            Step("deal", "five cards", faces=("down",) * 5, rule="1 & 2: 'Each player is then dealt five cards'"),
            _bet("before the draw", "left_of_big_blind", "BLINDS: 'the player to the left of the blind'"),
            Step("burn", rule="'Before dealing the draw, the top card from the deck must be discarded'"),
            Step("draw", "the draw", cards=5, rule="8: 'one draw of cards'; 'You can draw up to five cards'"),
            _bet("after the draw", "left_of_button", "8; BLINDS: 'the player to the left of the dealer'"),
            Step("showdown", rule="6, 9"),
        ), "draw_stub")
    if game == "mexican_stud":
        steps: list[Step] = [
            Step("collect", "collection", rule="MEXICAN POKER: 'each player places a collection'"),
            Step("deal", "first two cards", faces=("down", "up"), rule="'the first two cards ... (1 up and 1 down)'"),
            _bet("second card", "high_card", "'begins with the high card clockwise of the dealer button'"),
        ]
        for street in ("third", "fourth", "fifth"):
            steps += [Step("expose", rule="'the players may expose, if they wish, their down card'"),
                      Step("burn", rule="'Starting after the 2nd card, a card will be burned on each round'"),
                      Step("deal", f"{street} card", faces=("keep_one_down",),
                           rule="'delivered up or down depending on whether ... down cards have been opened'"),
                      _bet(f"{street} card", "high_showing", "'The highest hand will start the action'")]
        steps.append(Step("showdown", rule="'The player with the ranking hand wins the pot'"))
        return DealPlan(game, 41, "left_of_button", "clockwise", tuple(steps), "stud_scramble")
    if game in STUD_FAMILY:
        later = "low_showing" if game == "razz" else "high_showing"
        steps = [Step("collect", "antes", rule="7-CARD STUD: 'a player must have at least an ante'"),
                 Step("deal", "3rd street", faces=("down", "down", "up"), rule="7-CARD STUD: 'two down cards and one up card'"),
                 _bet("3rd street", "bring_in", "High-Low Split: 'The low card by suit'; RAZZ: 'the high card'")]
        for street, face in (("4th street", "up"), ("5th street", "up"), ("6th street", "up"), ("7th street", "down")):
            steps += [Step("burn", rule="7-CARD STUD: 'the four burn cards'"),
                      Step("deal", street, faces=(face,), rule="'three more up cards ... then a final down card'"),
                      _bet(street, later, "'the high hand initiates action'; RAZZ: 'the low hand is first'")]
        steps.append(Step("showdown", rule="'A player must have seven cards in order to win'"))
        return DealPlan(game, 52, "left_of_dealer", "clockwise", tuple(steps), "stud_scramble")
    if game == "panguingue":
        if pan_decks not in (8, 10):
            raise ValueError(f"pan_decks: 8 (THE DECK) or 10 (rule 3), not {pan_decks!r}")
        return DealPlan(game, PAN_DECK * pan_decks, "previous_winner", "counterclockwise", (
            Step("collect", "fee and ante", rule="PANGUINGUE 1: 'The fee is collected before the hand is dealt'; 5"),
            Step("deal", "ten cards", faces=("down",) * 10, per_turn=5,
                 rule="THE DEAL: 'ten cards, dealt in two rounds of five at a time'"),
            Step("declare", rule="DECLARING: 'each player declares whether he is playing or not'"),
        ), None)
    raise ValueError(f"game: unknown poker-room game {game!r}: one of {', '.join(GAMES)}")


def _holdem(game: str, discard: str) -> DealPlan:
    if discard not in ("after_flop_betting", "after_flop"):
        raise ValueError(f"pineapple_discard: 'after_flop_betting' or 'after_flop', not {discard!r}")
    hole = HOLDEM_FAMILY[game]
    pine = game.startswith("pineapple")
    drop = Step("discard", "one card", cards=1, rule="Pineapple: 'After the Flop, the player discards one card'")
    flop = [Step("burn", rule="'The dealer then burns top card'"),
            Step("board", "flop", cards=3, rule="'turns three cards face up simultaneously ... (The Flop)'")]
    if pine and discard == "after_flop":
        flop.append(drop)
    flop.append(_bet("flop", "left_of_button", "'Another round of betting occurs'"))
    if pine and discard == "after_flop_betting":
        flop.append(drop)
    steps = (
        Step("collect", "blinds", rule="choice: the blinds of positions.py (the sheet names none for Hold'em)"),
        Step("deal", "hole cards", faces=("down",) * hole, rule="'dealt two cards face down' / three / four"),
        _bet("pre-flop", "left_of_big_blind", "'a round of betting after everyone has looked at their cards'"),
        *flop,
        Step("burn", rule="'burns top card'"), Step("board", "turn", cards=1, rule="'(The Turn Card)'"),
        _bet("turn", "left_of_button", "'Another round of betting occurs'"),
        Step("burn", rule="'burns top card'"), Step("board", "river", cards=1, rule="'(The River Card)'"),
        _bet("river", "left_of_button", "'The final round of betting takes place'"),
        Step("showdown", rule="'The pot is won by the player having the best high five-card hand'"),
    )
    return DealPlan(game, 52, "left_of_button", "clockwise", steps, None)


def stud_last_card(stub: int, players: int, *, burns_before: int = 3) -> Fallback | None:
    """The last card of a stud hand (7-Card Stud's 7th street, Mexican's 5th) to ``players``
    players from a stub of ``stub`` cards, ``burns_before`` burns having gone before: None (burn
    and deal), ``"stud_scramble"`` (deal all but the last card, scramble it with the burns, cut,
    burn, deliver the rest) or ``"stud_community"`` (even so not enough: one card up in the
    centre for everyone)."""
    if stub >= players + 1:
        return None
    this_burn = 1 if stub >= 1 else 0
    direct = max(stub - this_burn - 1, 0)
    last = 1 if stub - this_burn >= 1 else 0
    pool = last + burns_before + this_burn - 1
    return "stud_scramble" if direct + pool >= players else "stud_community"


def check_deck(game: str, players: int, *, deck: int | None = None, **options) -> DeckCheck:
    """Whether the deck sees ``players`` players through ``game``'s deal, and which fallback of
    the sheet applies if not (choice 4). Raises ValueError when even the deal before the stub rule
    cannot be made: too many players for the game."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(f"players: a whole number, two or more, not {players!r}")
    p = plan(game, **options)
    size = p.deck if deck is None else deck
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"deck: a whole number of cards, not {size!r}")
    counts = [_cards(step, players) for step in p.steps]
    needed = sum(counts)
    if game == "panguingue":
        if needed >= size:
            raise ValueError(f"players: {players} players take {needed} cards of {size}, leaving none to draw")
        return DeckCheck(game, players, size, needed, None, f"{size - needed} cards left to draw from")
    if p.short_stub == "stud_scramble":
        last = max(i for i, s in enumerate(p.steps) if s.action == "deal")
        return _stud(game, players, size, needed, sum(counts[:last - 1]), counts[:last - 1], p)
    if p.short_stub == "draw_stub":
        draw = next(i for i, s in enumerate(p.steps) if s.action == "draw")
        before = sum(counts[:draw])
        if before > size:
            raise ValueError(f"players: {players} players need {before} cards before the draw, the deck has {size}")
        # "The dealer may not deal the last card from the stub of the deck."
        if needed <= size - 1:
            return DeckCheck(game, players, size, needed, None, "the draw comes from the stub")
        return DeckCheck(game, players, size, needed, "draw_stub",
                         f"{size - 1 - before} cards for draws of up to {needed - before}: "
                         f"the last card and the discards are shuffled into a new stub")
    if needed > size:
        raise ValueError(f"players: {players} players need {needed} cards, the deck has {size}")
    return DeckCheck(game, players, size, needed, None, f"{size - needed} cards left")


def _stud(game: str, players: int, size: int, needed: int, before: int, counts: list[int],
          p: DealPlan) -> DeckCheck:
    if before > size:
        raise ValueError(f"players: {players} players need {before} cards before the last card, "
                         f"the deck has {size}")
    burns = sum(1 for s in p.steps[:len(counts)] if s.action == "burn")
    fallback = stud_last_card(size - before, players, burns_before=burns)
    detail = {None: "every player gets his last card",
              "stud_scramble": "the last card and the burns are scrambled for the last cards",
              "stud_community": "a community card in the centre plays in everyone's hand"}[fallback]
    return DeckCheck(game, players, size, needed, fallback, detail)


def _cards(step: Step, players: int) -> int:
    if step.action == "deal":
        return len(step.faces) * players
    if step.action == "burn":
        return 1
    if step.action == "board":
        return step.cards
    if step.action == "draw":
        return step.cards * players
    return 0


__all__ = ["GAMES", "HOLDEM_FAMILY", "STUD_FAMILY", "DealPlan", "DeckCheck", "Step", "check_deck", "plan",
           "stud_last_card"]
