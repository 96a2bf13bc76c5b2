"""Draw Poker & Low-Ball's round ("hand"), as the controller sequences it
(california-card-room-games.txt, "DRAW POKER & LOW-BALL" and the sections after it).

The dealer pitches the cards by hand: no device reads them. The controller proves the deck and
sequences the hand:

1. ``deck_check`` (a new deck) and ``shuffle``: the shuffler's deck check names missing and extra
   cards; every shuffle's count is checked against the 53 (rule 3). A shuffle follows every hand.
2. ``betting`` (the lifecycle's "bets open"): the hand's button and blinds (2-3-5, rules 1 & 2;
   the first hand's from rule 5's high card, ``first_blind``) are worked out from the seats in and
   lit on the seat lights; ``sit_out``/``sit_in`` mark a seat out or in. ``deal`` starts the hand:
   an ``action_button`` event publishes the button, the blinds and antes each seat posts, the
   players dealt in and the house's collection.
3. ``dealing``: the deal plan (games.poker.deal_plan: antes and blinds, five cards each, a betting
   round, the burn, the draw, a last betting round, the showdown), one ``press`` prompt per step,
   each closed by the dealer's ``deal``. Three entries come from the dealer or the pit:
   ``cmd/draw`` -- the draws declared (games.draw.stub: the stub counted, and the sheet's procedure
   when it runs short, in the draw's prompt); ``cmd/irregularity`` -- a misdeal, a boxed or exposed
   card, a sixth card, a card off the table, cards out of rotation, a wrong number of cards, a deal
   out of position, an irregular deck (games.draw.irregularities: redeal with the same button, play
   on, or NO POT); ``cmd/showdown`` -- the hands shown (games.draw.rules).
4. ``result``: the hand's positions, stakes, collection, draws, irregularities and showdown; the
   button moves on from this hand (or from the position a deal out of position came from).

Secrecy: the controller never learns a card dealt face down, a burn, a discard or the stub; it
names only what is face up at the table and entered (an exposed card, the hands shown), after
checking it, and a refusal names no code entered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import Card
from games.draw import irregularities as irr
from games.draw import rules
from games.draw.options import DrawOptions
from games.draw.stub import HAND, MAX_DRAW, DrawError, DrawPlan, describe, draw_order, plan_draw
from games.poker.deal_plan import Step as PlanStep
from games.poker.entries import seat_key
from games.poker.pitched import BlindsRound, money
from games.poker.positions import Positions, first_to_act, left_of
from games.poker.time_clock import TimeClock, collect_phrase
from games.round import Emit, Refused

STUB_RULE = ("if the stub runs short, the last card may not be dealt: at the last card, combine it with all the "
             "discards except those of the players who have not yet completed their draws, shuffle this new stub, "
             "cut, burn one card and complete the draw (TOO FEW CARDS FOR THE DRAW)")


@dataclass(frozen=True)
class _Misdealt:
    """What a redeal keeps of the hand it redeals (choice 4): the button and blinds, the players,
    what they posted and the collection taken."""

    pos: Positions
    players: frozenset[int]
    stake: dict[str, Any]
    take: dict[str, Any]


class DrawRound(BlindsRound):
    """Draw Poker & Low-Ball's round machine (API: docs/internals.md)."""

    RESET_ACTION: ClassVar[str] = ("check the button's seat; the first hand puts the first blind on the configured "
                                   "seat")
    SEATED_BEYOND_TABLE_DROPS: ClassVar[bool] = False

    def _restored_fits(self, restored: Positions) -> bool:
        return len(restored.spots) == len(self.options.blinds)

    game = "draw"
    TABLE = "Draw Poker"

    def __init__(self, options: DrawOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.steps: tuple[PlanStep, ...] = options.plan.steps
        actions = [s.action for s in self.steps]
        self._burn_at, self._draw_at = actions.index("burn"), actions.index("draw")
        self.seated: set[int] = set(options.seats_in if options.seats_in is not None
                                    else range(1, options.seats + 1))
        self.waiting: dict[int, str] = {}     # seats sat in since their last hand: "new" (positions.deal_in)
        self.last: Positions | None = None    # the last completed hand's positions
        self.pos: Positions | None = None     # this hand's (provisional while betting)
        self.players: frozenset[int] = frozenset()
        self.take: dict[str, Any] | None = None
        self.stake: dict[str, Any] | None = None
        schedule = options.economics.schedule
        self.time_clock = (TimeClock(schedule.time_fee, schedule.period_minutes) if schedule.basis == "time"
                           else None)
        """The "fee of 5.00 is collected every 1/2 hr." (games.poker.time_clock), as each hand starts."""
        self.redeal_of: int | None = None     # the misdealt hand this hand redeals
        self._misdealt: int | None = None     # set by a misdeal: the next hand redeals it
        self._redealt: _Misdealt | None = None  # the misdealt hand's positions, players, stakes, collection
        self.reante_of: int | None = None     # the hand nobody opened, whose pot this hand plays for
        self._reante: int | None = None       # set when nobody opened: the next hand antes again
        self._deck_suspect = False            # NO POT: the deck is checked before the next hand
        self._clear_hand()
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)

    def _clear_hand(self) -> None:
        self.done = 0
        self.opened = True                            # False: nobody opened (OPENERS), reported
        self.dead: dict[int, str] = {}                # seat -> why its hand is dead
        self.extra = 0                                # cards off the stub on the deal beyond five each
        self.burned = False                           # the sixth card taken back is the burn
        self.on_deal = {"exposed": 0, "boxed": 0, "extra_cards": 0}
        self.draws: dict[int, int] | None = None      # seat -> cards drawn, as declared
        self.draw_dead: dict[int, int] = {}           # seat -> dead cards in its draw (replaced after)
        self.no_further_action = False                # cards out of rotation on the draw
        self.moved_button: int | None = None          # the deal came from here (out of position, play on)
        self.exposed: dict[Card, tuple[int, bool]] = {}  # exposed card -> (seat, dead)
        self.irregularities: list[dict[str, Any]] = []
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.bet_after: dict[int, bool] = {}
        self.evaluation: dict[str, Any] | None = None

    def _clear_layout(self) -> None:
        self._clear_hand()

    # --- positions, stakes, collection ------------------------------------------------------

    def _place_positions(self) -> None:
        if self.redeal_of is not None and self._redealt is not None:
            self._place_redeal(self._redealt)
            return
        found = rules.hand_positions(self.seats, self.seated, self.last, first_blind=self.options.first_blind,
                                     blinds=len(self.options.blinds), rule=self.options.button_rule,
                                     waiting=self.waiting)
        if found is None:
            self.pos, self.players, self.take, self.stake = None, frozenset(), None, None
            return
        self.pos, self.players = found
        self.take = rules.collection(self.options.economics, len(self.players), self.options.schedule_name)
        self.stake = rules.stakes(self.pos, self.players, self.options.ante, self.options.blinds)

    def _place_redeal(self, hand: _Misdealt) -> None:
        """A redeal is the misdealt hand dealt again (docs/draw.md, choice 4: "hands are redealt",
        THE DEAL AND THE DRAW; the button moves only "after each hand is completed", BLINDS): its
        button and blinds, and what its players posted, which stays in the pot. So a seat change
        while the redeal waits moves nothing: a seat that sits in is dealt from the next hand (it
        posted nothing for this pot), a player of the misdealt hand who sits out is not dealt and
        leaves what he posted in the pot, and may sit in again before the deal. With fewer than two
        of its players in, the redeal waits for them (the pit may void it: the next hand is new)."""
        players = hand.players & frozenset(self.seated)
        if len(players) < 2:
            self.pos, self.players, self.take, self.stake = None, frozenset(), None, None
            return
        self.pos, self.players, self.stake = hand.pos, players, hand.stake
        self.take = dict(hand.take)

    def _entered_betting(self) -> None:
        super()._entered_betting()
        self.redeal_of, self._misdealt = self._misdealt, None
        if self.redeal_of is None:
            self._redealt = None
            self.reante_of, self._reante = self._reante, None   # a redeal plays for the same pot
        self._place_positions()

    def _entered_dealing(self) -> None:
        for seat in self.players:
            self.waiting.pop(seat, None)
        if self.time_clock is not None and self.take is not None:
            self.take = {**self.take, **self.time_clock.collect(self.players)}
        self._emit("action_button", self._positions_data())

    def _positions_data(self) -> dict[str, Any]:
        pos = self.pos
        assert pos is not None and self.take is not None
        return {"seat": pos.button, "dead_button": pos.dead_button, "big_blind": pos.blinds[-1] if pos.blinds else None,
                "reante_of": self.reante_of,
                "players": sorted(self.players), "variant": self.options.variant, "stakes": self.stake,
                "collection": self.take, "redeal_of": self.redeal_of}

    def _onward(self) -> str | None:
        if self.state == "shuffle" and self._deck_suspect:   # NO POT: a deck check, not a count
            self._deck_suspect = False
            return "deck_failed"
        return super()._onward()

    # --- the hand as counted ----------------------------------------------------------------

    def _phase(self) -> str | None:
        if self._step() is None:
            return None
        if self.done < self._burn_at:
            return "deal"
        return "draw" if self.done <= self._draw_at else "after"

    def _stub(self) -> int:
        """Cards in the stub when the draw begins: the deck less five each, the cards the deal's
        irregularities took, and the burn (a sixth card taken back, or the top card)."""
        return self.spec.size - HAND * len(self.players) - self.extra - 1

    def _live(self) -> set[int]:
        live = set(self.players) - set(self.dead)
        return live if self.draws is None else live & set(self.draws)

    def _plan(self) -> DrawPlan | None:
        if self.draws is None or self.pos is None:
            return None
        button = self.moved_button or self.pos.button
        order = [(s, self.draws[s]) for s in draw_order(self.seats, button, self.draws)]
        return plan_draw(self.spec.size, self._stub(), order, self.draw_dead)

    def _stub_alarm(self, plan: DrawPlan | None) -> None:
        if plan is not None and (plan.reshuffles or not plan.complete):
            self._alarm("stub_short", "warning",
                        f"TOO FEW CARDS FOR THE DRAW: the stub holds {plan.stub} cards for {plan.needed} to deal",
                        expected=self._expected_text(), action=describe(plan))

    # --- the steps of the deal (games.poker.deal_plan) ------------------------------------

    def _pressed(self, due: Any) -> None:
        super()._pressed(due)
        if self.no_further_action and self.done == self._draw_at + 1 and self.steps[self.done].action == "bet":
            self.done += 1   # "'No further action is permitted on this hand' Immediate showdown."

    def _step_text(self, step: PlanStep) -> str:
        pos = self.pos
        assert pos is not None and self.take is not None and self.stake is not None
        n = len(self.players)
        if step.action == "collect":
            return self._collect_text()
        if step.action == "cut":
            return ("Cut the cards before the deal: one hand, straight out (\"Cards must be cut before each deal\", "
                    "THE DEAL AND THE DRAW); press deal.")
        if step.action == "deal":
            first = left_of(self.moved_button or pos.button, self.players, self.seats)[0]
            return (f"Deal five cards face down to each of the {n} players, one at a time, starting with seat {first} "
                    "(left of the button); press deal. A misdeal, a boxed or exposed card, a sixth card or a card "
                    "off the table: report it (cmd/irregularity).")
        if step.action == "bet" and self.steps.index(step) < self._burn_at and not pos.blinds:
            live = set(self.players) - set(self.dead)
            first = left_of(pos.button, live or self.players, self.seats)[0]
            return (f"Betting round (before the draw): seat {first} acts first (left of the button); \"No 'openers' "
                    "are required ... You may open on anything\"; check and raise is permitted. If nobody opens, "
                    "report it (cmd/no_open): \"everyone 'antes' again\" for this pot (OPENERS); else press deal "
                    "when the betting is complete.")
        if step.action == "bet" and self.steps.index(step) < self._burn_at:
            live = set(self.players) - set(self.dead)
            opener = first_to_act(self.seats, pos, live or self.players, "first")
            big = money(self.options.blinds[-1])
            raising = ("check and raise is not permitted in Lo-Ball" if self.options.variant == "lowball"
                       else "check and raise is permitted")
            return (f"Betting round (before the draw): seat {opener} acts first (left of the {big} blind); the blind "
                    f"is live: it may raise if the bet has only been called; {raising}; press deal when the betting "
                    "is complete.")
        if step.action == "burn":
            declare = "The players still in declare their draws (enter them: cmd/draw)"
            if self.burned:
                return (f"{declare}. The burn is the sixth card taken back (THE DEAL AND THE DRAW): do not burn "
                        "another; press deal.")
            return (f"{declare}; burn the top card face down (\"Before dealing the draw, the top card from the deck "
                    "must be discarded\"); press deal.")
        if step.action == "draw":
            return self._draw_text()
        if step.action == "bet":
            who = "the first player still in to the left of the button acts first"
            if self.draws is not None and self._live():
                seat = first_to_act(self.seats, pos, self._live(), "later")
                who = f"seat {seat} acts first (the first player still in to the left of the button)"
            seven = (" A seven or better (7-6-5-4-3 or better) must bet, or it wins no action after the draw."
                     if self.options.variant == "lowball" else "")
            return f"Betting round (after the draw): {who}; press deal when the betting is complete.{seven}"
        return self._showdown_text()

    def _collect_text(self) -> str:
        pos, stake, take = self.pos, self.stake, self.take
        assert pos is not None and stake is not None and take is not None
        n = len(self.players)
        button = f"button seat {pos.button}{' (dead)' if pos.dead_button else ''}"
        if take["basis"] == "time":
            fee = collect_phrase(take)
        elif self.redeal_of is not None:
            fee = f"the collection taken for hand {self.redeal_of} stands: collect nothing again"
        else:
            jackpot = f" and the jackpot {money(take['jackpot'])}" if take["jackpot"] else ""
            fee = f"collect the fee {money(take['fee'])}{jackpot} ({n} players)"
        if self.redeal_of is not None:
            out = self._redeal_changes()
            return (f"Hand {self.round} redeals hand {self.redeal_of} (misdeal): {button}; the antes and blinds "
                    f"posted for hand {self.redeal_of} stay in the pot: post nothing again; {fee}{out}; press deal.")
        blinds = ", ".join(f"seat {b['seat']} {money(b['amount'])}" if b["seat"] is not None
                           else f"{money(b['amount'])} not posted" for b in stake["blinds"]) or "none (antes only)"
        again = (f"nobody opened hand {self.reante_of}: its pot stays in the middle and everyone antes again "
                 "(OPENERS); " if self.reante_of is not None else "")
        return (f"Hand {self.round} ({rules.TITLES[self.options.variant]}): {button}; {again}blinds: {blinds}; antes "
                f"{money(stake['ante'])} from each of the {n} players; {fee}; press deal.")

    def _redeal_changes(self) -> str:
        """The seats a redeal deals otherwise than the misdealt hand: its players sat out, seats
        sat in since (they wait for the next hand)."""
        hand = self._redealt
        if hand is None:
            return ""
        out = sorted(hand.players - self.players)
        new = sorted(set(self.seated) - hand.players)
        words = []
        if out:
            words.append(f"seat{'s' if len(out) > 1 else ''} {', '.join(map(str, out))} sat out: not dealt in, "
                         "what it posted stays in the pot")
        if new:
            words.append(f"seat{'s' if len(new) > 1 else ''} {', '.join(map(str, new))} sat in since hand "
                         f"{self.redeal_of}: dealt in from the next hand")
        return "".join(f"; {w}" for w in words)

    def _draw_text(self) -> str:
        try:
            plan = self._plan()
        except DrawError as exc:
            return f"Deal the draw: {exc}; press deal when the draw is complete."
        if plan is not None:
            return f"{describe(plan)} Press deal when the draw is complete."
        stub = self._stub()
        live = set(self.players) - set(self.dead)
        worst = MAX_DRAW * len(live) + sum(self.draw_dead.values())
        short = f"; {STUB_RULE}" if worst > stub - 1 else ""
        return (f"Deal the draw: each player still in discards, then receives as many cards as he discarded (up to "
                f"five), from the left of the button. The stub holds {stub} cards{short}. Enter the draws "
                "(cmd/draw) and the prompt says exactly. Press deal when the draw is complete.")

    def _showdown_text(self) -> str:
        if self.options.variant == "lowball":
            wins = ("the lowest hand wins: aces low, the wheel (A-2-3-4-5) best, the joker the lowest card not "
                    "held; pairs count against the hand")
        else:
            wins = ("the highest hand wins: five aces best; the joker is an ace or completes a straight or a "
                    "flush")
        now = ("Immediate showdown (cards dealt out of rotation on the draw: no further action)"
               if self.no_further_action else "Showdown")
        return (f"{now}: cards speak; {wins}; a tie splits the pot; a disputed showdown is entered by the pit "
                "(cmd/showdown); press deal when the pot is awarded.")

    # --- betting and the seats in -----------------------------------------------------------

    def _can_deal(self) -> bool:
        return self.pos is not None

    def _betting_text(self) -> str:
        pos = self.pos
        assert pos is not None
        redeal = f" (it redeals hand {self.redeal_of})" if self.redeal_of is not None else ""
        blind = (f"{money(self.options.blinds[-1])} blind seat {pos.blinds[-1]}" if pos.blinds
                 else "antes only" + (f", the pot of hand {self.reante_of} in the middle" if self.reante_of else ""))
        return (f"Hand {self.round}{redeal}: button seat {pos.button}, {blind}, {len(self.players)} players"
                f"{self._redeal_changes()}; press deal to start the hand.")

    def _waiting_text(self) -> str:
        hand = self._redealt
        if self.redeal_of is None or hand is None:
            return super()._waiting_text()
        return (f"Hand {self.round} redeals hand {self.redeal_of} (misdeal) and waits for its players: two of seats "
                f"{', '.join(map(str, sorted(hand.players)))} must be in (seat button sit_in); a void by the pit "
                "gives up the redeal and the next hand is a new one.")

    # --- the draws, entered by the dealer or the pit ----------------------------------------

    def _command_draw(self, args: Mapping[str, Any]) -> dict:
        """``cmd/draw`` {"draws": {seat: cards}}: the draws the players still in declared, in one
        entry, while the burn or the draw is due. A seat not listed has folded. The reply and the
        draw's prompt say how to deal it (games.draw.stub); a short stub is a ``stub_short`` alarm
        naming the sheet's procedure."""
        step = self._step()
        if step is None or step.action not in ("burn", "draw"):
            now = f", {step.action} is due" if step is not None else ""
            raise Refused(f"no draw is due (state {self.state}{now}): the draws are entered after the betting before "
                          "the draw, while the burn or the draw is due")
        if self.draws is not None and self.done > self._burn_at:
            raise Refused("the burn card is burned: the draws stand (\"The last player may also change his draw "
                          "unless the dealer has burned the burn card\")")
        raw = args.get("draws")
        if not isinstance(raw, Mapping) or not raw:
            raise Refused("draws is {seat: cards drawn} for every player still in, e.g. {\"2\": 3, \"5\": 0}")
        draws: dict[int, int] = {}
        live = set(self.players) - set(self.dead)
        for key, count in raw.items():
            seat = seat_key(key)
            if seat is None:
                raise Refused("a key of draws is not a seat number")
            if seat not in self.players:
                raise Refused(f"seat {seat} is not in hand {self.round}: the players are "
                              f"{', '.join(map(str, sorted(self.players)))}")
            if seat in self.dead:
                raise Refused(f"seat {seat}'s hand is dead: it does not draw")
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_DRAW:
                raise Refused(f"seat {seat} draws 0 to {MAX_DRAW} cards (\"Players may draw up to five cards\")")
            draws[seat] = count
        if len(draws) < 2:
            raise Refused("a draw is for two players or more: one player left wins the pot without a draw")
        for seat, n in self.draw_dead.items():
            if draws.get(seat, 0) < n:
                raise Refused(f"seat {seat} has {n} dead cards in its draw already: it draws {n} at least")
        assert live >= set(draws)
        self.draws = dict(sorted(draws.items()))
        plan = self._plan()
        assert plan is not None
        self._stub_alarm(plan)
        return self._draw_reply(plan)

    def _draw_reply(self, plan: DrawPlan) -> dict[str, Any]:
        return {"draws": {str(s): n for s, n in sorted(self.draws.items())} if self.draws else None,
                "order": [s for s, _ in plan.order], "stub": plan.stub, "needed": plan.needed,
                "short": bool(plan.reshuffles) or not plan.complete, "procedure": describe(plan)}

    # --- nobody opened (a game without blinds) ----------------------------------------------

    def _command_no_open(self, args: Mapping[str, Any]) -> dict:
        """``cmd/no_open`` {}: the betting before the draw went round and nobody opened ("BASICS OF
        DRAW POKER", OPENERS: "If no one opens the pot, everyone 'antes' again and you resume this
        procedure until the pot has been opened and until a player has won the pot"). The hand ends
        without a draw or a showdown; its pot stays in the middle, and the next hand, dealt by the
        next button (choice 12), collects everyone's ante again for it. Only a game without blinds
        can pass out: a blind is a live bet that opens the pot."""
        step = self._step()
        if self.options.blinds:
            raise Refused("the blinds open the pot (a blind is a live bet, BLINDS): only a game without blinds can "
                          "be passed out")
        if step is None or step.action != "bet" or self.done > self._burn_at:
            now = f", {step.action} is due" if step is not None else ""
            raise Refused(f"nobody-opened is reported during the betting before the draw (state {self.state}{now})")
        self.opened = False
        self.done = len(self.steps)
        self._step_done()
        return {"round": self.round, "opened": False,
                "next": "the pot stays in the middle: everyone antes again for it in the next hand (OPENERS)"}

    # --- irregularities, reported by the dealer or the pit ----------------------------------

    def _view(self) -> irr.HandView:
        pos = self.pos
        assert pos is not None
        phase = self._phase()
        step = self._step()
        assert phase is not None and step is not None
        taken = {c: (f"seat {s}'s exposed card" if not dead else "a dead card") for c, (s, dead) in self.exposed.items()}
        return irr.HandView(self.options.variant, phase, step.action, self.players, frozenset(self.dead),  # type: ignore[arg-type]
                            self.draws, self.draw_dead, self.on_deal["exposed"], self.on_deal["boxed"],
                            self.on_deal["extra_cards"], self.moved_button or pos.button, self.seats, self.spec, taken)

    def _command_irregularity(self, args: Mapping[str, Any]) -> dict:
        """``cmd/irregularity`` {"what": ..., ...}: what went wrong at the table, and the sheet's
        consequence (games.draw.irregularities): a misdeal voids the hand (redealt with the same
        button), NO POT voids it and checks the deck, anything else plays on with what changes."""
        step = self._step()
        what = args.get("what")
        if self.state != "dealing" or step is None:
            if self.state == "result" and what == "irregular_deck":
                raise Refused("the pot is out of play: \"Once the pot is out of play, no adjustment can be made.\"")
            raise Refused(f"no hand is being dealt (state {self.state}): an irregularity is reported during the hand")
        if step.action in ("collect", "cut") and what != "irregular_deck":
            due = "the antes and blinds are due" if step.action == "collect" else "the cut is due"
            raise Refused(f"no card is dealt yet: {due} (press deal once it is done)")
        try:
            ruling = irr.rule(args, self._view())
        except irr.IrregularityError as exc:
            raise Refused(str(exc)) from None
        record: dict[str, Any] = {"what": ruling.what, "phase": self._phase(), "consequence": ruling.consequence,
                                  "seat": ruling.seat, "message": ruling.message}
        self._alarm(f"irregularity_{ruling.what}", "warning", ruling.message, expected=self._expected_text(),
                    action=ruling.action)
        if ruling.card is not None:
            seat = ruling.seat
            self.exposed[ruling.card] = (seat or 0, ruling.dead_card or ruling.misdeal)
            data: dict[str, Any] = {"hand": "exposed", "card": ruling.card.code}
            if seat is not None:
                data["seat"] = seat
            self._emit("reveal", data)    # it lies face up on the table
        reply = {"what": ruling.what, "consequence": ruling.consequence, "message": ruling.message,
                 "action": ruling.action}
        if ruling.consequence == "misdeal":
            self._misdealt = self.redeal_of or self.round   # a redeal misdealt again redeals the same hand
            if self.redeal_of is None:                       # ... with the first misdealt hand's positions
                assert self.pos is not None and self.stake is not None and self.take is not None
                self._redealt = _Misdealt(self.pos, self.players, self.stake, self.take)
            self._void(f"{ruling.message}; {irr.REDEAL}", "pit")
            return reply
        if ruling.consequence == "no_pot":
            self._deck_suspect = True
            self._void(f"NO POT: {ruling.message}", "pit")
            return reply
        self._apply(ruling)
        self.irregularities.append(record)
        plan = self._plan()
        if plan is not None and (ruling.draw_dead or ruling.dead_hand or ruling.extra or ruling.burned):
            self._stub_alarm(plan)
            reply["draw"] = self._draw_reply(plan)
        return reply

    def _apply(self, ruling: irr.Ruling) -> None:
        if ruling.dead_hand is not None:
            self.dead[ruling.dead_hand] = ruling.message
            if self.draws is not None:
                self.draws.pop(ruling.dead_hand, None)
                self.draw_dead.pop(ruling.dead_hand, None)
        self.extra += ruling.extra
        self.burned = self.burned or ruling.burned
        if ruling.draw_dead and ruling.seat is not None:
            self.draw_dead[ruling.seat] = self.draw_dead.get(ruling.seat, 0) + ruling.draw_dead
        self.no_further_action = self.no_further_action or ruling.no_further_action
        if ruling.button is not None:
            self.moved_button = ruling.button
        self.on_deal["exposed"] += ruling.exposed
        self.on_deal["boxed"] += ruling.boxed
        self.on_deal["extra_cards"] += ruling.extra_cards

    # --- the showdown, entered by the pit -------------------------------------------------

    def _command_showdown(self, args: Mapping[str, Any]) -> dict:
        """``cmd/showdown`` {"seat": n, "cards": [five codes], "bet_after_draw": bool}: a hand shown,
        while the showdown is due. Checked (games.draw.rules.parse_hand), published as a ``reveal``,
        and the showdown so far is the reply."""
        step = self._step()
        if step is None or step.action != "showdown":
            now = f", {step.action} is due" if step is not None else ""
            raise Refused(f"no showdown is due (state {self.state}{now}): a showdown is entered after the betting "
                          "after the draw, before the dealer presses deal")
        if set(args) - {"id", "seat", "cards", "bet_after_draw"}:
            raise Refused("give seat and cards (a hand shown, five cards), and in Low-Ball bet_after_draw")
        seat, codes = args.get("seat"), args.get("cards")
        if seat is None or codes is None:
            raise Refused("a hand shown needs both seat and cards")
        if seat not in self.players:
            raise Refused(f"seat {seat} is not in hand {self.round}: the players are "
                          f"{', '.join(map(str, sorted(self.players)))}")
        if seat in self.dead:
            raise Refused(f"seat {seat}'s hand is dead: it cannot win the pot")
        if self.draws is not None and seat not in self.draws:
            raise Refused(f"seat {seat} folded before the draw (the draws entered are for seats "
                          f"{', '.join(map(str, sorted(self.draws)))})")
        if seat in self.shown:
            raise Refused(f"seat {seat}'s hand is already entered for this hand (a reveal is never taken back)")
        bet = args.get("bet_after_draw")
        if bet is not None and self.options.variant != "lowball":
            raise Refused("bet_after_draw is Low-Ball's (THE SEVEN OR BETTER RULE): Draw Poker has no such rule")
        if bet is not None and not isinstance(bet, bool):
            raise Refused("bet_after_draw is true or false: whether the hand bet after the draw")
        taken = {c: f"seat {s}'s hand" for s, hand in self.shown.items() for c in hand}
        taken.update({c: ("a dead card" if dead else f"seat {s}'s exposed card")
                      for c, (s, dead) in self.exposed.items() if dead or s != seat})
        try:
            hand = rules.parse_hand(codes, seat, self.spec, taken)
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        self.shown[seat] = hand
        if bet is not None:
            self.bet_after[seat] = bet
        self._emit("reveal", {"hand": "seat", "seat": seat, "cards": [c.code for c in hand]})
        self.evaluation = rules.evaluate(self.options.variant, self.shown, self.bet_after)
        return {"showdown": self.evaluation, "entered": {"seats": sorted(self.shown)}}

    # --- the result -----------------------------------------------------------------------

    def _entered_result(self) -> None:
        if not self.opened:
            self._reante = self.round
        self.last = self.pos
        if self.moved_button is not None:
            self.last = rules.moved_to(self.seats, self.seated, self.moved_button, len(self.options.blinds))
        self._emit("result", self._result_data())

    def _stub_data(self) -> dict[str, Any] | None:
        try:
            plan = self._plan()
        except DrawError:
            return None
        if plan is None:
            return None
        return {"stub": plan.stub, "needed": plan.needed, "reshuffles": plan.reshuffles, "complete": plan.complete}

    def _result_data(self) -> dict[str, Any]:
        data = self._positions_data()
        return {"button": data.pop("seat"), **data, "opened": self.opened, "moved_button": self.moved_button,
                "draws": None if self.draws is None else {str(s): n for s, n in self.draws.items()},
                "stub": self._stub_data(), "dead_hands": sorted(self.dead),
                "no_further_action": self.no_further_action, "irregularities": self.irregularities,
                "showdown": self.evaluation}

    # --- restart and snapshot -------------------------------------------------------------

    def _snapshot_game(self) -> dict:
        pos = self.pos
        step = self._step()
        return {"variant": self.options.variant, "seats_in": sorted(self.seated), "players": sorted(self.players),
                "positions": None if pos is None else {"button": pos.button, "dead_button": pos.dead_button,
                                                       "big_blind": pos.blinds[-1] if pos.blinds else None},
                "stakes": self.stake, "collection": self.take, "redeal_of": self.redeal_of,
                "step": None if step is None else step.action,
                "draws": None if self.draws is None else {str(s): n for s, n in self.draws.items()},
                "stub": self._stub_data(), "dead_hands": sorted(self.dead),
                "irregularities": self.irregularities, "showdown": self.evaluation}
