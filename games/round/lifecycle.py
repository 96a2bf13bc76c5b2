"""The lifecycle core every game's round machine is built on: states, pit commands, deck integrity, faults.

DESIGN.md, "The round machine": common states and transitions live once,
here; a game picks parts (:mod:`games.round.rotation` for a player-dealer,
:mod:`games.round.shoe_play` for a shoe dealt over many rounds) and adds
only its dealing phase and its guards. The API and every event this module
emits are specified in docs/internals.md ("Round machine"); a pit
subscriber sees exactly those.

States, in the order a table goes through them:
``closed -> deck_check -> shuffle [-> load_shoe] -> ready -> betting ->
dealing -> result -> ready | shuffle ...``; any state with cards in play can
go to ``fault``; ``betting``, ``dealing`` and ``fault`` can be voided
(``voided -> ready | shuffle``).

- ``closed``: the table is shut; the pit's ``open()`` starts a deck check.
- ``deck_check``: the decks are checked card by card against the game's
  deck spec; the table does not open until a check passes (DESIGN.md, "Deck
  integrity"). The alarm names the missing and the extra cards.
- ``shuffle``: the shuffler's count is checked against the spec's size; a
  wrong count sends the table back to ``deck_check`` to find out which
  cards are wrong. A game with shoe play then goes to ``load_shoe``;
  a game that shuffles for every round goes to ``ready``.
- ``ready``: the previous round (if any) is settled. ``ready`` opens
  betting at once (``ready -> betting``) and publishes no prompt of its
  own, unless a part holds it there (a player-dealer offer pending).
- ``betting``: a round has a number (``round_start``); ``deal`` means no
  more bets.
- ``dealing``: the game's phase. Every card read is first taken from the
  :class:`~games.ledger.ShoeLedger` (a foreign card or a copy too many is
  an alarm at once and the round goes to ``fault``), then offered to the
  game, which knows whether the rules expect it.
- ``result``: the round is decided; ``deal`` settles it and goes to
  ``ready``, or to ``shuffle`` when the game says a shuffle is due.
- ``fault``: something the rules do not allow happened. The dealer's
  ``void`` button or the pit's ``void()`` voids the round; the pit's
  ``resume()`` burns the offending card(s) and returns to where the round
  was -- unless the fault lost a card the layout holds: that round can
  only be voided.
- ``voided``: transient; the round's cards go to the discards, then
  ``ready`` (or ``shuffle``).

A game played without cards (Pai Gow Tiles: tiles and a dice cup; :mod:`games.round.no_deck`)
has no deck check and no shuffle: ``closed -> ready`` on ``open()``, and every round ends back in
``ready``. Whether a game plays cards is a capability of its lifecycle (``PLAYS_CARDS``), as shoe
play is, not a branch for one game.

The machine is a pytransitions ``Machine`` with ``queued=True`` and
``auto_transitions=False`` (DESIGN.md, "Lessons"): a trigger fired inside a
callback runs after the current transition has finished. It owns no timers
and no threads: the controller's table loop owns time and calls in from its
one thread.

Every state change emits ``transition``, then the state's own events, then
the state's ``prompt`` -- except a state the machine leaves at once, whose
prompt would be stale before anyone could act on it.

The machine is this module's lifecycle (states, pit commands, deck integrity,
faults and voids) composed with three parts of its own, each a module:
:mod:`games.round.devices` (every device event, as ``device_input(role, kind,
data)``, and what a device fault means by the device's role),
:mod:`games.round.presses` (buttons, answered with a
:class:`~games.round.contract.Verdict`) and :mod:`games.round.prompts` (the
prompt, the lights and the snapshot).

Alarm codes: ``deck_check_failed`` (fault), ``shuffle_count`` (fault),
``foreign_card`` and ``card_too_many`` (fault, from the ledger),
``unexpected_card`` (fault; warning when no cards are in play),
``missing_draw`` (warning), ``unexpected_input`` (warning), and
``<role>_<code>`` from :meth:`RoundMachine.device_fault` (never a card
identity).

Nothing emitted, and nothing in :meth:`RoundMachine.snapshot`, carries the
order of undealt cards or the identity of a card dealt face down
(DESIGN.md, "What must never leave the controller").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from transitions import EventData, Machine

from games.cards import Card
from games.decks import DeckSpec
from games.ledger import ShoeLedger, check_deck
from games.round.contract import (
    ROUND_STATES,
    STATES,
    VOID_BY,
    DeviceRole,
    Emit,
    Fault,
    Refused,
    void_by_ok,
)
from games.round.devices import DeviceInputs
from games.round.presses import Presses
from games.round.prompts import Prompts

CARDS_IN_PLAY: frozenset[str] = frozenset({"load_shoe", "ready", "betting", "dealing", "result", "fault"})
"""States in which the shoe (or the shuffler's output) holds a shuffled spec and every card read
is taken from the ledger."""


class RoundMachine(DeviceInputs, Presses, Prompts):
    """The lifecycle core; a game subclasses it (with any parts) and adds its dealing phase.

    A game declares its vocabulary as class attributes -- ``BUTTONS`` (the
    dealer's buttons), ``SEAT_BUTTONS`` (players' decisions), ``LIGHT_GROUPS``
    (seat-light groups), ``ROLES`` (devices by role, with the fault policy)
    -- and implements :meth:`_deal_card`, :meth:`_dealing_prompt`,
    :meth:`_due_text`, and the entry hooks ``_entered_dealing`` and
    ``_entered_result``; it calls ``self._fire("hands_complete")`` when the
    rules say the round is complete. Optional: :meth:`_no_card_text`,
    :meth:`_clear_layout`, :meth:`_snapshot_game`, :meth:`_seat_refusal` and
    ``_seat_<button>`` for seat buttons.
    """

    game = "generic"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "shuffle_ack")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = ()
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("action",)
    ROLES: ClassVar[Mapping[str, DeviceRole]] = {}
    PLAYS_A_SHOE: ClassVar[bool] = False
    """A shoe dealt over many rounds (``load_shoe``, cut card): see :mod:`games.round.shoe_play`."""
    SHUFFLE_EVERY_ROUND: ClassVar[bool] = True
    """Without shoe play the cards go back to the shuffler after every round."""
    PLAYS_CARDS: ClassVar[bool] = True
    """The game is dealt from cards: the table opens only through a deck check and a shuffle (by
    its ``prepares_deck`` role) and every card read is checked against the spec. A game without
    cards picks :class:`games.round.no_deck.NoDeck`, which opens straight to ``ready``."""

    rotation: Any = None
    state: str  # set by pytransitions
    NEEDS_BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void")
    """Buttons the lifecycle and the chosen parts light; a game must declare each in BUTTONS."""

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        needed = {b for klass in cls.__mro__ for b in klass.__dict__.get("NEEDS_BUTTONS", ())}
        missing = sorted(needed - set(cls.BUTTONS))
        if missing and cls.__dict__.get("BUTTONS") is not None:
            raise TypeError(f"{cls.__name__}.BUTTONS lacks {', '.join(missing)}, which its parts light")

    def __init__(self, *, spec: DeckSpec, emit: Emit, seats: int, first_round: int = 1) -> None:
        self.spec = spec
        self.seats = seats
        self._emit = emit
        self.ledger = ShoeLedger(spec)
        self.round: int | None = None
        self._next_round = first_round
        self.last_round = False
        self.action_seat: int | None = None
        self.fault: Fault | None = None
        self._device_note: str | None = None  # a device fault the current prompt must mention
        self.down: dict[str, str] = {}  # role -> why it cannot work now (offline, link lost)
        self.unsettled: dict[str, int] = {}
        """Card-reading role -> the voided round whose reads it has not yet shown all arrived: a
        card it delivers before that proof was drawn for the voided round (see :meth:`_void`)."""
        self._unsettled_reshuffled: set[str] = set()
        """Those of :attr:`unsettled` whose voided round's cards went back into a shuffle since:
        a late card of theirs is in the new count already, so the ledger does not take it again."""
        self._shown_prompt: dict | None = None  # the prompt published last
        self._resuming_with_held = False
        self.machine = Machine(
            model=self, states=list(STATES), transitions=self._transitions(), initial="closed",
            queued=True, auto_transitions=False, send_event=True,
            after_state_change="_after_change",
        )

    # --- the transitions -----------------------------------------------------------------

    @staticmethod
    def _transitions() -> list[dict]:
        resumable = ["load_shoe", "ready", "betting", "dealing", "result"]
        table: list[dict[str, Any]] = [
            {"trigger": "open_table", "source": "closed", "dest": "ready", "conditions": "_opens_without_deck"},
            {"trigger": "open_table", "source": "closed", "dest": "deck_check"},
            {"trigger": "close_table",
             "source": ["deck_check", "shuffle", "load_shoe", "ready", "betting", "result"], "dest": "closed"},
            {"trigger": "deck_verified", "source": "deck_check", "dest": "shuffle"},
            {"trigger": "deck_failed", "source": "shuffle", "dest": "deck_check"},
            {"trigger": "shuffled_ok", "source": "shuffle", "dest": "load_shoe", "conditions": "_plays_a_shoe"},
            {"trigger": "shuffled_ok", "source": "shuffle", "dest": "ready"},
            {"trigger": "shuffled_wrong_count", "source": "shuffle", "dest": "deck_check"},
            {"trigger": "shoe_loaded", "source": "load_shoe", "dest": "ready"},
            {"trigger": "betting_opened", "source": "ready", "dest": "betting"},
            {"trigger": "no_more_bets", "source": "betting", "dest": "dealing"},
            {"trigger": "hands_complete", "source": "dealing", "dest": "result"},
            {"trigger": "round_settled", "source": "result", "dest": "ready"},
            {"trigger": "shoe_finished", "source": ["ready", "result"], "dest": "shuffle"},
            {"trigger": "fault_raised", "source": resumable, "dest": "fault"},
            {"trigger": "void_round", "source": ["betting", "dealing", "fault"], "dest": "voided"},
            {"trigger": "void_done", "source": "voided", "dest": "shuffle", "conditions": "_shuffle_due_now"},
            {"trigger": "void_done", "source": "voided", "dest": "ready"},
            {"trigger": "game_broken", "source": ["ready", "betting"], "dest": "closed"},
        ]
        for dest in resumable:
            table.append({"trigger": "resumed", "source": "fault", "dest": dest,
                          "conditions": f"_resumes_to_{dest}"})
        return table

    def _plays_a_shoe(self, _event: EventData) -> bool:
        return self.PLAYS_A_SHOE

    def _opens_without_deck(self, _event: EventData) -> bool:
        return not self.PLAYS_CARDS

    def _shuffle_due_now(self, _event: EventData) -> bool:
        return self._shuffle_due()

    def _shuffle_due(self) -> bool:
        """After this round (settled or voided) the cards go back to the shuffler."""
        return self.SHUFFLE_EVERY_ROUND

    def _resumes_to(self, dest: str) -> bool:
        return self.fault is not None and self.fault.origin == dest

    def _resumes_to_load_shoe(self, _e: EventData) -> bool:
        return self._resumes_to("load_shoe")

    def _resumes_to_ready(self, _e: EventData) -> bool:
        return self._resumes_to("ready")

    def _resumes_to_betting(self, _e: EventData) -> bool:
        return self._resumes_to("betting")

    def _resumes_to_dealing(self, _e: EventData) -> bool:
        return self._resumes_to("dealing")

    def _resumes_to_result(self, _e: EventData) -> bool:
        return self._resumes_to("result")

    def _fire(self, trigger: str) -> None:
        """Fire a trigger; with ``queued=True`` a trigger fired from a callback runs after it."""
        self.trigger(trigger)  # type: ignore[attr-defined]  # bound by pytransitions

    def _after_change(self, event: EventData) -> None:
        """Every state change: ``transition``, then the state's own events, then its ``prompt``.

        A resume goes back into a state without entering it afresh: the
        round's hands and result stay as they were.
        """
        trigger = event.event.name if event.event else ""
        self._device_note = None
        self._emit("transition", {"from": event.transition.source, "to": event.transition.dest,
                                  "trigger": trigger})
        if trigger == "resumed":
            self.fault = None
        else:
            hook = getattr(self, f"_entered_{self.state}", None)
            if hook is not None:
                hook()
        onward = self._onward()
        if onward is not None:
            self._fire(onward)  # queued: runs once this transition has finished
            return
        if trigger == "resumed" and self._resuming_with_held:
            return  # the held cards are dealt next, and each deal prompts for what follows
        self._publish_prompt()

    def _onward(self) -> str | None:
        """The trigger that leaves a transient state at once, or None to stay."""
        if self.state == "voided":
            return "void_done"
        if self.state == "ready" and not self._hold_in_ready():
            return "betting_opened"
        return None

    def _hold_in_ready(self) -> bool:
        """A part keeps the table in ``ready`` (a player-dealer offer pending)."""
        return False

    # --- pit commands (raise Refused when out of place) -----------------------------------

    def open(self) -> None:
        """Pit ``open``: ``closed -> deck_check``. The table opens only after a deck check passes;
        a game without cards (``PLAYS_CARDS`` false) opens straight to ``ready``."""
        if self.state != "closed":
            raise Refused(f"the table is already open (state {self.state})")
        self._fire("open_table")

    def close(self) -> None:
        """Pit ``close``: to ``closed`` from any state with no card of a round on the layout.

        Betting opens as soon as a round is settled, so a table between
        rounds is in ``betting``: closing then voids that round (``void``,
        ``by: "pit"``; no card was dealt, the bets go back) and closes.
        ``dealing`` and ``fault`` are refused: void the round first.
        """
        if self.state == "closed":
            raise Refused("the table is already closed")
        if self.state in ("dealing", "fault"):
            raise Refused(f"round {self.round} is in progress (state {self.state}): void it first")
        if self.state == "betting":
            self._emit("void", {"round": self.round, "reason": "the table closed before the deal", "by": "pit"})
            self._clear_layout()
        self._fire("close_table")

    def void(self, reason: str, by: str) -> None:
        """Void the round in progress (pit, or the dealer's ``void`` button from ``fault``).

        A round can be voided while betting, dealing, or from ``fault``; a
        fault that arose with no round in progress (a card read in ``ready``)
        has nothing to void and is resumed instead.
        """
        if not void_by_ok(by):
            raise Refused(f"by: must be one of {', '.join(VOID_BY)}, or pit:<user>")
        if not self._voidable():
            if self.state == "fault" and self.fault is not None and self.fault.origin == "result":
                raise Refused(f"round {self.round} already has its result, which stands: resume to burn the card")
            if self.state == "fault":
                raise Refused("no round in progress to void: resume to burn the card")
            if self.state == "result":
                raise Refused(f"round {self.round} already has a result: settle it with deal")
            raise Refused(f"no round in progress to void (state {self.state})")
        self._void(reason, by)

    def resume(self, by: str) -> None:
        """Leave ``fault``: burn the offending card(s) and go back to where the round was.

        Refused when the fault lost a card the layout holds (``Fault.no_resume``)
        or a part says the round cannot go on (:meth:`_resume_refusal`).
        """
        if self.state != "fault" or self.fault is None:
            raise Refused(f"nothing to resume: the table is not in fault (state {self.state})")
        if self.fault.no_resume:
            raise Refused(f"round {self.round} cannot resume: {self.fault.no_resume}; void it")
        if self.fault.unproven:
            raise Refused(f"round {self.round} cannot resume yet: the {self.fault.unproven} has not shown that every "
                          "card it read arrived; wait until it is back (or void the round)")
        why = self._resume_refusal()
        if why:
            raise Refused(why)
        burned = [c.code for c in self.fault.cards]
        held = list(self.fault.held)
        self._emit("resume", {"round": self.round, "by": by, "burned": burned})
        self._resuming_with_held = bool(held)   # no prompt for a card already on the layout
        try:
            self._fire("resumed")  # clears ``self.fault`` (``_after_change``)
        finally:
            self._resuming_with_held = False
        for card in held:  # read while the line was down: dealt now, as the rules place them
            if self.state == "dealing":
                self._deal_card(card)
            else:
                expected = self._no_card_text()
                message = f"{card.code} drawn, but {expected}"
                self._alarm("unexpected_card", "fault", message, card=card.code, expected=expected,
                            action="void the round, or resume to burn the card")
                self._enter_fault("unexpected_card", message, card)

    def _resume_refusal(self) -> str | None:
        return None

    def _known_commands(self) -> str:
        return ", ".join(sorted(n[len("_command_"):] for n in dir(self) if n.startswith("_command_"))) or "none"

    def command(self, name: str, args: Mapping[str, Any]) -> dict:
        """A pit command the game adds (its registry entry's ``commands``): ``_command_<name>(args)``
        returns the reply's data or raises :class:`Refused`."""
        handler = getattr(self, f"_command_{name}", None)
        if handler is None:
            raise Refused(f"{self.game} has no such command: its commands are {self._known_commands()}")
        return handler(args) or {}

    # --- device input (never raises) -----------------------------------------------------

    def deck_checked(self, cards: Sequence[Card], unreadable: int) -> None:
        """The shuffler's deck check: every card read, and how many it could not read."""
        if self.state not in ("deck_check", "shuffle"):
            self._unexpected_input(f"a deck check result arrived in state {self.state}: ignored")
            return
        check = check_deck(self.spec, list(cards))
        ok = check.ok and unreadable == 0
        missing = [c.code for c in check.missing]
        extra = [c.code for c in check.extra]
        self._emit("deck_check", {"ok": ok, "expected": check.expected, "counted": check.counted,
                                  "missing": missing, "extra": extra, "unreadable": unreadable})
        if ok:
            if self.state == "deck_check":
                self._deck_proved()
            else:
                self._publish_prompt()
            return
        message = "deck check failed: " + check.summary()
        if unreadable:
            message += f"; {unreadable} card(s) unreadable"
        self._alarm("deck_check_failed", "fault", message, missing=missing, extra=extra,
                    action="find the missing cards, remove the extra cards, then check the deck again")
        if self.state == "shuffle":
            self._fire("deck_failed")
        else:
            self._publish_prompt()

    def _deck_proved(self) -> None:
        """A deck check passed in ``deck_check``: on to the shuffle (a game may first want
        another deck proved, as a deck change does)."""
        self._fire("deck_verified")

    def shuffled(self, count: int) -> None:
        """A shuffle finished with ``count`` cards: checked against the spec's size."""
        if self.state != "shuffle":
            self._unexpected_input(f"a shuffle count arrived in state {self.state}: ignored")
            return
        ok = count == self.spec.size
        self._emit("shuffle", {"ok": ok, "count": count, "expected": self.spec.size})
        if ok:
            self.ledger.refill()
            self._unsettled_reshuffled.update(self.unsettled)
            self._shuffled_ok()
            self._fire("shuffled_ok")
            return
        self._alarm("shuffle_count", "fault",
                    f"the shuffle counted {count} cards; a {self.spec.name} shoe holds {self.spec.size}",
                    action="check the deck to find the missing or extra cards")
        self._fire("shuffled_wrong_count")

    def _shuffled_ok(self) -> None:
        """A good shuffle: a part resets what it kept about the previous cards."""

    def card(self, card: Card) -> None:
        """A card was read.

        In play it is first taken from the ledger (foreign card, copy too
        many: alarm and ``fault``), then offered to the game in
        ``dealing``; anywhere else it is a card the rules did not ask for
        (``unexpected_card`` alarm and ``fault``).
        """
        if self.state not in CARDS_IN_PLAY:
            self._alarm("unexpected_card", "warning",
                        f"{card.code} read while no shoe is in play (state {self.state})",
                        card=card.code, expected=self._no_card_text(), action="remove the card from the shoe")
            return
        fault = self.ledger.take(card)
        held = self.fault if self.state == "fault" else None
        if fault is None and held is not None and held.unproven is not None and held.origin == "dealing":
            # Read while the shoe's line was down (it keeps a read until acknowledged): the card is
            # on the layout, so it is dealt when the round resumes, not burned.
            held.held.append(card)
            self._publish_prompt()
            return
        if fault is not None:
            code = "foreign_card" if fault.kind == "foreign" else "card_too_many"
            self._alarm(code, "fault", fault.message, card=card.code, expected=self._expected_text(),
                        action="hold the card for the pit: void the round, or resume to burn it")
            self._enter_fault(code, fault.message, card)
            return
        if self.state == "dealing":
            self._deal_card(card)
            return
        expected = self._no_card_text()
        message = f"{card.code} drawn, but {expected}"
        # The action says what will work: a void only where the fault can be voided (issue 27: a
        # card in ``ready`` said "void the round", and the void was then refused).
        if self.state == "fault":
            voidable = self._voidable()
        else:
            voidable = self.state == "betting" or (self.state == "result" and not self._result_published())
        action = ("void the round, or resume to burn the card" if voidable else
                  "hold the card for the pit: it resumes to burn it (the round's result stands)"
                  if self.state == "result" else
                  "hold the card for the pit: it resumes to burn it (no round is in progress to void)")
        self._alarm("unexpected_card", "fault", message, card=card.code, expected=expected, action=action)
        self._enter_fault("unexpected_card", message, card)

    # --- presses ------------------------------------------------------------------------

    # --- state entry ---------------------------------------------------------------------

    def _entered_betting(self) -> None:
        self.round = self._next_round
        self._next_round += 1
        self.action_seat = None
        self._clear_layout()
        self._emit("round_start", {"round": self.round, "player_dealer": self._player_dealer_seat(),
                                   "last_of_shoe": self.last_round})

    # --- restart -------------------------------------------------------------------------

    @property
    def round_open(self) -> bool:
        """A round is under way and unfinished: what a restart must void. Betting or dealing,
        or a fault raised in a round; not ``result`` (the round is decided)."""
        if self.state in ("betting", "dealing"):
            return True
        if self.state == "fault":
            return self.fault is None or self._fault_in_open_round()
        return False

    def save(self) -> dict:
        """What must outlive a restart (JSON-able); parts add their own."""
        return {}

    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None:
        """Take up :meth:`save` from before a restart; ``stopped_in`` is the state the
        previous process last journaled. Parts restore their own and emit what they did."""

    # --- helpers ---------------------------------------------------------------------------

    def _voidable(self) -> bool:
        if self.state in ("betting", "dealing"):
            return True
        return self.state == "fault" and self.fault is not None and self._fault_in_open_round()

    def _fault_in_open_round(self) -> bool:
        """The fault came in a round that has no published result: one that has a result is
        decided (the pit has been told who won; the report counts it a hand), so a card drawn
        after it is burned on resume, never a reason to void the round."""
        fault = self.fault
        assert fault is not None
        if fault.origin == "result":
            return not self._result_published()
        return fault.origin in ROUND_STATES

    def _result_published(self) -> bool:
        """In ``result``: the round's ``result`` event is out (a game that publishes it later,
        Joker Seven after the deck count of its rule 12, says when)."""
        return True

    def _void(self, reason: str, by: str) -> None:
        """Void the round. Cards the machine received for it but never dealt (held while the line
        was down, offending cards of the fault) are burned with it and counted in the event; a
        reader whose line went down in the round and has not shown that every card it read arrived
        may still deliver one, and until it has (``reads_accounted``) such a card is burned too
        and no card is asked for: the next round never starts on the voided round's card."""
        fault = self.fault
        burned = len(fault.cards) + len(fault.held) if fault is not None else 0
        if fault is not None and fault.unproven is not None and self.round is not None:
            self.unsettled[fault.unproven] = self.round
        self._emit("void", {"round": self.round, "reason": reason, "by": by, "cards_burned": burned})
        self._clear_layout()
        self.action_seat = None
        self.fault = None
        self._fire("void_round")

    def _enter_fault(self, code: str, message: str, card: Card | None = None, *,
                     no_resume: str | None = None, resume_note: str | None = None,
                     unproven: str | None = None) -> None:
        """Go to ``fault`` (or, already there, add to the fault: a card to burn, a reason not to resume)."""
        if self.state == "fault" and self.fault is not None:
            if card is not None:
                self.fault.cards.append(card)
            if no_resume is not None and self.fault.no_resume is None:
                self.fault.no_resume = no_resume
                self.fault.message = message
            if unproven is not None and self.fault.unproven is None:
                self.fault.unproven = unproven
            self._publish_prompt()
            return
        self.fault = Fault(self.state, code, message, [card] if card is not None else [],
                           no_resume=no_resume, resume_note=resume_note, unproven=unproven)
        self._fire("fault_raised")

    def _alarm(self, code: str, severity: str, message: str, *, card: str | None = None,
               expected: str | None = None, missing: Sequence[str] = (), extra: Sequence[str] = (),
               action: str = "") -> None:
        self._emit("alarm", {"code": code, "severity": severity, "message": message, "card": card,
                             "expected": expected, "missing": list(missing), "extra": list(extra),
                             "action": action})

    def _unexpected_input(self, message: str) -> None:
        self._alarm("unexpected_input", "warning", message, expected=self._prompt()["text"],
                    action="follow the prompt")

    def _player_dealer_seat(self) -> int | None:
        return None

    # --- game hooks ----------------------------------------------------------------------

    def _deal_card(self, card: Card) -> None:
        """A card the ledger accepted, arriving in ``dealing``. The game places it or alarms."""
        raise NotImplementedError

    def _dealing_prompt(self) -> dict:
        """The prompt fields for ``dealing`` (``expect``, ``hand``, ``text``, ...)."""
        raise NotImplementedError

    def _due_text(self) -> str:
        """What card is due in ``dealing`` and why, e.g. ``card -> player (player has 3: draws)``."""
        raise NotImplementedError

    def _clear_layout(self) -> None:
        """The round's cards go to the discards."""


