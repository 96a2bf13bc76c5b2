"""The Hold'em family's round ("hand"), as the controller sequences it
(california-card-room-games.txt, "THE BASIC PLAY OF THE MOTHER GAME TEXAS HOLD'EM", "The
Variations"; the poker room's general rules in the Draw Poker & Low-Ball sections).

The dealer pitches the cards by hand: no device reads them. The controller proves the deck and
sequences the hand:

1. ``deck_check`` (a new deck) and ``shuffle``: the shuffler's deck check names missing and extra
   cards; every shuffle's count is checked against the 52 (GAMES.md: "deck count"). A shuffle
   follows every hand, so every hand is dealt from a deck just counted.
2. ``betting`` (the lifecycle's "bets open"): the hand has a number; its button and blinds are
   worked out from the seats in (games.poker.positions, via games.holdem.rules.hand_positions) and
   lit on the seat lights (``dealer_button``, ``small_blind``, ``big_blind``). The seat buttons
   ``sit_out`` and ``sit_in`` mark a seat out or in; before the deal the positions follow at
   once, after it they count from the next hand. ``deal`` starts the hand: an ``action_button``
   event publishes the button, the blinds, the players dealt in and the house's collection for
   the hand (games.poker.economics).
3. ``dealing``: the deal plan of the variant (games.poker.deal_plan.plan), one ``press`` prompt
   per step -- collect the blinds and the fee, the hole cards face down, each betting round with
   who acts first, each burn, the flop, the turn, the river, Pineapple's discard, the showdown --
   each closed by the dealer's ``deal``. While the showdown is due the pit may enter the hands
   shown and the board by card codes (``cmd/showdown``): each accepted entry is a ``reveal``, and
   the reply carries the showdown so far (games.holdem.rules.evaluate).
4. ``result``: the hand's positions, collection and showdown (None when nobody entered one); the
   button moves on from this hand. ``deal`` settles and the cards go back to the shuffler.

A voided hand (a misdeal) is dealt again with the same button: "In both instances, hands are
redealt" (Draw & Low-Ball, THE DEAL AND THE DRAW), and the button moves "after each hand is
completed".

Secrecy: the controller never learns a hole card, a down card, a burn or the stub; it names only
what the pit enters for the showdown, after checking it, and a refusal names no code entered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.cards import Card
from games.holdem import rules
from games.holdem.options import HoldemOptions
from games.poker.deal_plan import Step as PlanStep
from games.poker.pitched import BlindsRound, money
from games.poker.positions import Positions, first_to_act, left_of
from games.round import Emit, Refused


class HoldemRound(BlindsRound):
    """The Hold'em family's round machine (API: docs/internals.md)."""

    RESET_ACTION: ClassVar[str] = "check the button's seat; the first hand puts it on the configured seat"

    game = "holdem"
    TABLE = "Hold'em"

    def __init__(self, options: HoldemOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.steps: tuple[PlanStep, ...] = options.plan.steps
        self.seated: set[int] = set(options.seats_in if options.seats_in is not None
                                    else range(1, options.seats + 1))
        self.waiting: dict[int, str] = {}     # seats sat in since their last hand: "new" (positions.deal_in)
        self.last: Positions | None = None    # the last completed hand's positions
        self.pos: Positions | None = None     # this hand's (provisional while betting)
        self.players: frozenset[int] = frozenset()
        self.done = 0                         # plan steps done this hand
        self.board: tuple[Card, ...] | None = None
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.evaluation: dict[str, Any] | None = None
        self.take: dict[str, Any] | None = None
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)

    # --- positions ------------------------------------------------------------------------

    def _place_positions(self) -> None:
        found = rules.hand_positions(self.seats, self.seated, self.last, first_button=self.options.button,
                                     rule=self.options.button_rule, waiting=self.waiting)
        if found is None:
            self.pos, self.players, self.take = None, frozenset(), None
            return
        self.pos, self.players = found
        self.take = rules.collection(self.options.economics, len(self.players), self.options.schedule_name)

    def _entered_betting(self) -> None:
        super()._entered_betting()
        self._place_positions()

    def _clear_layout(self) -> None:
        self.done, self.board, self.shown, self.evaluation = 0, None, {}, None

    def _entered_dealing(self) -> None:
        assert self.pos is not None
        for seat in self.players:
            self.waiting.pop(seat, None)
        self._emit("action_button", self._positions_data())

    def _positions_data(self) -> dict[str, Any]:
        pos = self.pos
        assert pos is not None and self.take is not None
        return {"seat": pos.button, "dead_button": pos.dead_button, "small_blind": pos.blinds[0],
                "big_blind": pos.blinds[-1], "players": sorted(self.players), "variant": self.options.variant,
                "collection": self.take}

    # --- the steps of the deal (games.poker.deal_plan) ------------------------------------

    def _step_text(self, step: PlanStep) -> str:
        pos = self.pos
        assert pos is not None and self.take is not None
        n = len(self.players)
        first = left_of(pos.button, self.players, self.seats)[0]
        if step.action == "collect":
            sb, bb = pos.blinds[0], pos.blinds[-1]
            small = f"seat {sb} posts the small blind" if sb is not None else "no small blind (dead)"
            jackpot = (f" and the jackpot {money(self.take['jackpot'])}" if self.take["jackpot"]
                       else " (no jackpot: fewer than 5 players)")
            return (f"Hand {self.round}: button seat {pos.button}{' (dead)' if pos.dead_button else ''}; {small}, "
                    f"seat {bb} the big blind. Collect the fee {money(self.take['fee'])}{jackpot} "
                    f"({n} players); press deal.")
        if step.action == "deal":
            cards = len(step.faces)
            return (f"Deal {cards} hole cards face down to each of the {n} players, one at a time, starting with "
                    f"seat {first}; press deal.")
        if step.action == "bet":
            if step.first == "left_of_big_blind":
                opener = first_to_act(self.seats, pos, self.players, "first")
                who = f"seat {opener} acts first (left of the big blind)"
            else:
                who = "the first player still in to the left of the button acts first"
            return f"Betting round ({step.name}): {who}; press deal when the betting is complete."
        if step.action == "burn":
            return "Burn the top card face down; press deal."
        if step.action == "board":
            if step.cards == 3:
                return "Turn the flop: three cards face up in the centre; press deal."
            return f"Turn the {step.name} card: one card face up on the board; press deal."
        if step.action == "discard":
            return "Each player still in discards one card face down (Pineapple); press deal when all have."
        return ("Showdown: the hands still in are shown (cards speak); a disputed showdown is entered by the pit "
                "(cmd/showdown); press deal when the pot is awarded.")

    # --- betting and the seats in -----------------------------------------------------------

    def _can_deal(self) -> bool:
        return self.pos is not None

    def _betting_text(self) -> str:
        pos = self.pos
        assert pos is not None
        return (f"Hand {self.round}: button seat {pos.button}, big blind seat {pos.blinds[-1]}, "
                f"{len(self.players)} players; press deal to start the hand.")

    # --- the showdown, entered by the pit -------------------------------------------------

    def _command_showdown(self, args: Mapping[str, Any]) -> dict:
        """``cmd/showdown`` {"seat": n, "cards": [...]} or {"board": [...]}: a hand shown, or the
        board, by card codes, while the showdown is due. Checked (games.holdem.rules.parse_entry),
        published as a ``reveal``, and the showdown so far is the reply."""
        step = self._step()
        if step is None or step.action != "showdown":
            now = f", {step.action} is due" if step is not None else ""
            raise Refused(f"no showdown is due (state {self.state}{now}): a showdown is entered after the river's "
                          "betting round, before the dealer presses deal")
        has_board, has_seat = "board" in args, "seat" in args or "cards" in args
        if has_board == has_seat:
            raise Refused("give either seat and cards (a hand shown) or board (the five board cards)")
        taken: dict[Card, str] = {c: "the board" for c in self.board or ()}
        for s, hand in self.shown.items():
            taken.update({c: f"seat {s}" for c in hand})
        try:
            if has_board:
                if self.board is not None:
                    raise Refused("the board is already entered for this hand (a reveal is never taken back)")
                self.board = rules.parse_entry(list(args["board"]), rules.BOARD, "the board", self.spec, taken)
                self._emit("reveal", {"hand": "board", "cards": [c.code for c in self.board]})
            else:
                seat, codes = args.get("seat"), args.get("cards")
                if seat is None or codes is None:
                    raise Refused("a hand shown needs both seat and cards")
                if seat not in self.players:
                    raise Refused(f"seat {seat} is not in hand {self.round}: the players are "
                                  f"{', '.join(map(str, sorted(self.players)))}")
                if seat in self.shown:
                    raise Refused(f"seat {seat}'s hand is already entered for this hand (a reveal is never taken back)")
                want = rules.shown_cards(self.options.variant)
                hand = rules.parse_entry(list(codes), want, f"seat {seat}'s hand", self.spec, taken)
                self.shown[seat] = hand
                self._emit("reveal", {"hand": "seat", "seat": seat, "cards": [c.code for c in hand]})
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        if self.board is not None and self.shown:
            self.evaluation = rules.evaluate(self.options.variant, self.board, self.shown)
        return {"showdown": self.evaluation, "entered": {"board": self.board is not None,
                                                         "seats": sorted(self.shown)}}

    # --- the result -----------------------------------------------------------------------

    def _entered_result(self) -> None:
        self.last = self.pos
        self._emit("result", self._result_data())

    def _result_data(self) -> dict[str, Any]:
        data = self._positions_data()
        data.pop("seat")
        return {"button": self.pos.button if self.pos else None, **data, "showdown": self.evaluation}

    # --- restart and snapshot -------------------------------------------------------------

    def _snapshot_game(self) -> dict:
        pos = self.pos
        return {"variant": self.options.variant, "seats_in": sorted(self.seated),
                "players": sorted(self.players),
                "positions": None if pos is None else {"button": pos.button, "dead_button": pos.dead_button,
                                                       "small_blind": pos.blinds[0], "big_blind": pos.blinds[-1]},
                "collection": self.take,
                "step": None if self._step() is None else self._step().action,
                "showdown": self.evaluation}
