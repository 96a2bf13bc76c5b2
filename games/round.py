"""The round machine every game reuses: common states, deck integrity, prompts, faults.

DESIGN.md, "The round machine": common states and transitions live once,
here; a game subclass adds only its dealing phase and its guards. The API
and every event this module emits are specified in docs/internals.md
("Round machine"); a pit subscriber sees exactly those.

States (docs/internals.md), in the order a shoe goes through them:
``closed -> deck_check -> shuffle -> load_shoe -> ready -> betting -> dealing
-> result -> ready -> betting ...``; any state with the shoe in play can go
to ``fault``; ``betting``, ``dealing`` and ``fault`` can be voided
(``voided -> ready | shuffle``).

- ``closed``: the table is shut; the pit's ``open()`` starts a deck check.
- ``deck_check``: the decks are checked card by card against the game's
  deck spec; the table does not open until a check passes (DESIGN.md, "Deck
  integrity"). The alarm names the missing and the extra cards.
- ``shuffle``: the shuffler's count is checked against the spec's size; a
  wrong count sends the table back to ``deck_check`` to find out which
  cards are wrong.
- ``load_shoe``: the dealer loads the shoe and places the cut card, then
  presses ``shuffle_ack``.
- ``ready``: the shoe is in play and the previous round (if any) is
  settled. With no player-dealer offer pending, ``ready`` opens betting at
  once (``ready -> betting``, trigger ``betting_opened``) and publishes no
  prompt of its own: the dealer presses ``deal`` only twice a round (no
  more bets, settle). With an offer pending the table waits in ``ready``
  with the ``bets`` prompt naming the offered ``seat``: ``deal`` = the seat
  accepts and betting opens, ``pass`` = it declines (the offer moves on;
  when nobody takes it the holder keeps the deal and betting opens).
- ``betting``: a round has a number (``round_start``); ``deal`` means no
  more bets.
- ``dealing``: the game's phase. Every card read is first taken from the
  :class:`~games.ledger.ShoeLedger` (a foreign card or a copy too many is
  an alarm at once and the round goes to ``fault``), then offered to the
  game, which knows whether the rules expect it.
- ``result``: the round is decided; ``deal`` settles it (the player-dealer
  count is updated) and goes to ``ready`` (trigger ``round_settled``), or to
  ``shuffle`` when the cut card came out.
- ``fault``: something the rules do not allow happened. The dealer's
  ``void`` button or the pit's ``void()`` voids the round; the pit's
  ``resume()`` burns the offending card(s) and returns to where the round
  was -- unless the fault lost a card the layout holds (a shoe misread,
  two cards at once, an unknown card while dealing): that round can only be
  voided.
- ``voided``: transient; the round's cards go to the discards, then
  ``ready`` (or ``shuffle`` if the cut card came out).

The machine is a pytransitions ``Machine`` with ``queued=True`` and
``auto_transitions=False`` (DESIGN.md, "Lessons"): a trigger fired inside a
callback runs after the current transition has finished, so the events of
one transition are never interleaved with the next. It owns no timers and
no threads: the controller's table loop owns time and calls in from its one
thread.

Every state change emits ``transition``, then the state's own events, then
the state's ``prompt`` -- except a state the machine leaves at once
(``voided``; ``ready`` with no offer pending), whose prompt would be stale
before anyone could act on it (the simulated dealer acts on prompts). The
prompt is published again whenever what the machine expects changes inside
a state (e.g. after each card).

Alarm codes: ``deck_check_failed`` (fault; names missing and extra cards),
``shuffle_count`` (fault), ``foreign_card`` and ``card_too_many`` (fault,
from the ledger), ``unexpected_card`` (fault; warning when no shoe is in
play), ``missing_draw`` (warning), ``shoe_empty`` (fault, mid-round),
``game_broken`` (critical), ``unexpected_input`` (warning: a deck check,
shuffle count or cut card arriving where none belongs; ignored), and
``<device>_<code>`` from :meth:`RoundMachine.device_fault` (fault while the
game needs the device, warning otherwise; never a card identity).

Player-dealer decisions happen between rounds: settling a round
(``deal`` in ``result``) counts it and may offer the deal (``player_dealer``
events come before the transition to ``ready``). While an offer is pending
the table waits in ``ready``: ``deal`` accepts it *and* opens betting. The
holder may still pass voluntarily while bets are open; then ``deal`` in
``betting`` only accepts the offer (bets stay open until the next ``deal``,
so bettors see who banks before bets close). ``round_start.player_dealer``
is the seat holding (or offered) the deal when betting opens; the seat that
actually banked is in the game's ``result``.

Nothing emitted, and nothing in :meth:`RoundMachine.snapshot`, carries the
order of undealt cards or the identity of a card dealt face down
(DESIGN.md, "What must never leave the controller").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from transitions import EventData, Machine

from games.cards import Card
from games.decks import DeckSpec
from games.ledger import ShoeLedger, check_deck

Emit = Callable[[str, dict], None]

STATES: tuple[str, ...] = (
    "closed", "deck_check", "shuffle", "load_shoe", "ready", "betting", "dealing", "result", "fault", "voided",
)

BUTTONS: tuple[str, ...] = ("deal", "void", "shuffle_ack", "pass")
"""The dealer's buttons (docs/internals.md)."""

VOID_BY: tuple[str, ...] = ("dealer", "pit", "controller")

SHOE_IN_PLAY: frozenset[str] = frozenset({"load_shoe", "ready", "betting", "dealing", "result", "fault"})
"""States in which the shoe holds a shuffled spec and every card read is taken from the ledger."""

ROUND_STATES: frozenset[str] = frozenset({"betting", "dealing", "result"})
"""States in which a round has a number and can be voided from ``fault``."""

MAX_CONSECUTIVE = 2
"""Player-dealer and Deal: nobody acts as player-dealer more than two consecutive rounds."""

SHOE_CARD_LOST: dict[str, str] = {
    "misread": "a card left the shoe unread",
    "double_card": "two cards left the shoe at once",
    "unknown_card": "a card left the shoe and what the shoe read is not a card",
}
"""Shoe faults that put a card on the layout the machine never saw (see :meth:`RoundMachine.device_fault`)."""

LINK_FAULTS: frozenset[str] = frozenset({"offline", "heartbeat_lost", "link_lost"})
"""A device's link is down: nothing it read is lost (the link retransmits), but nothing new arrives."""

DEVICE_FIXES: dict[str, str] = {
    "jam": "clear the shuffler jam",
    "door_open": "close the shuffler door",
    "unreadable": "the shuffler could not read a card: check that every card is face down and clean",
    "count_wrong": "the shuffler's count is wrong: recount the cards",
    "unknown_card": "the device read something that is not a card: look for a foreign card",
    "misread": "a card left the shoe unread: put it with the discards",
    "double_card": "two cards left the shoe at once: put them with the discards",
    "offline": "check the device's cable and power",
    "heartbeat_lost": "check the device's cable and power",
    "link_lost": "check the device's cable and power",
}
"""What the dealer does about a device fault, by code (alarm ``action``)."""


class Refused(Exception):
    """A pit command (open, close, void, resume) that is out of place in the current state.

    The controller turns it into an error reply; the machine is unchanged.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass
class Fault:
    """Why the round is in ``fault`` and where it goes back to on resume."""

    origin: str
    code: str
    message: str
    cards: list[Card] = field(default_factory=list)
    no_resume: str | None = None
    """Why the round can only be voided (a card left the shoe unseen), or None."""
    resume_note: str | None = None
    """What resuming does, when it is not burning cards (a device link came back)."""


class PlayerDealerRotation:
    """Who holds the player-dealer position, and the clockwise offer of it.

    California card-room games, "Player-dealer and Deal": one seat holds the
    position; nobody holds it more than two consecutive rounds; then it is
    offered clockwise, and "the game will be broken if at least one other
    intervening player at the table does not accept the deal when offered".

    - :meth:`round_played` counts a *settled* round. A voided round is not
      counted: nobody won or lost against the player-dealer in it, so it is
      not a round "of play" in the sheet's sense, and counting it would take
      the deal from a seat that never banked a hand.
    - After :data:`MAX_CONSECUTIVE` rounds the holder is *barred* until
      another seat has banked a round, and the position is offered to the
      next seat clockwise.
    - :meth:`pass_` is the dealer's ``pass`` button: the offered seat
      declines and the offer moves on clockwise; with no offer pending it
      is the holder passing voluntarily.
    - :meth:`accept` is ``deal`` while an offer is pending.
    - An offer that comes back round to the barred seat means nobody
      intervened: the game is broken (the caller raises the alarm and
      closes the table). An offer that comes back to a holder who passed
      voluntarily and is not barred returns the deal to that holder
      (``kept``): nobody else took it, and the holder may keep banking up
      to the limit.

    Seats are numbered 1..N clockwise; empty seats are passed by the dealer.
    Each method returns the ``player_dealer`` events' data to emit.
    """

    def __init__(self, seats: int, seat: int) -> None:
        if seats < 2:
            raise ValueError(f"a player-dealer game needs at least 2 seats, not {seats}")
        if not 1 <= seat <= seats:
            raise ValueError(f"player-dealer seat {seat} is not one of seats 1..{seats}")
        self.seats = seats
        self.seat = seat
        self.consecutive = 0
        self.offered: int | None = None
        self.origin: int | None = None
        self.barred: int | None = None

    def next_seat(self, seat: int) -> int:
        """The seat clockwise of ``seat``."""
        return seat % self.seats + 1

    @property
    def lit_seat(self) -> int:
        """The seat the player-dealer light shows: the offered seat while an offer is pending."""
        return self.offered if self.offered is not None else self.seat

    def round_played(self) -> list[dict]:
        """A round was settled with ``seat`` as player-dealer."""
        self.consecutive += 1
        self.barred = None
        if self.consecutive >= MAX_CONSECUTIVE:
            self.barred = self.seat
            return [self._offer_from(self.seat)]
        return [self._event(self.seat, self.consecutive, "kept")]

    def accept(self) -> list[dict]:
        """The offered seat takes the deal."""
        if self.offered is None:
            return []
        self.seat, self.consecutive = self.offered, 0
        self.offered = self.origin = None
        return [self._event(self.seat, 0, "accepted")]

    def pass_(self) -> tuple[list[dict], bool]:
        """The ``pass`` button. Returns the events and whether the game is broken."""
        if self.offered is None:
            events = [self._event(self.seat, self.consecutive, "passed")]
            self.origin = self.seat
            nxt = self.next_seat(self.seat)
        else:
            events = [self._event(self.offered, 0, "passed")]
            nxt = self.next_seat(self.offered)
        if nxt == self.barred:
            # Round the table back to the seat that banked two rounds: nobody intervened.
            self.offered, self.origin = self.next_seat(self.barred), self.barred
            return events, True
        if nxt == self.origin:
            self.offered = self.origin = None
            events.append(self._event(self.seat, self.consecutive, "kept"))
            return events, False
        self.offered = nxt
        events.append(self._event(nxt, 0, "offered"))
        return events, False

    def snapshot(self) -> dict:
        return {"seat": self.seat, "consecutive": self.consecutive, "offered": self.offered}

    def saved(self) -> dict:
        """Everything the rotation knows, for the journal: a restarted controller
        must not hand a seat a third consecutive round (the limit of "Player-dealer
        and Deal") because it forgot the two before the restart."""
        return {"seats": self.seats, "seat": self.seat, "consecutive": self.consecutive,
                "offered": self.offered, "origin": self.origin, "barred": self.barred}

    def restore(self, saved: object) -> str | None:
        """Take up a :meth:`saved` rotation; None when done, else why it was not
        (the table then starts again from its configured seat, and says so)."""
        if not isinstance(saved, dict):
            return f"not a saved rotation: {type(saved).__name__}"
        if saved.get("seats") != self.seats:
            return f"saved for {saved.get('seats')} seats, the table now has {self.seats}"
        seat, consecutive = saved.get("seat"), saved.get("consecutive")
        seats_ok = all(v is None or (type(v) is int and 1 <= v <= self.seats)
                       for v in (saved.get("offered"), saved.get("origin"), saved.get("barred")))
        if type(seat) is not int or not 1 <= seat <= self.seats or type(consecutive) is not int \
                or not 0 <= consecutive <= MAX_CONSECUTIVE or not seats_ok:
            return f"not a valid rotation: {saved}"
        self.seat, self.consecutive = seat, consecutive
        self.offered, self.origin, self.barred = saved.get("offered"), saved.get("origin"), saved.get("barred")
        return None

    def _offer_from(self, origin: int) -> dict:
        self.origin = origin
        self.offered = self.next_seat(origin)
        return self._event(self.offered, 0, "offered")

    @staticmethod
    def _event(seat: int, consecutive: int, change: str) -> dict:
        return {"seat": seat, "consecutive": consecutive, "change": change}


class RoundMachine:
    """The common round machine; a game subclasses it and adds its dealing phase.

    A subclass implements :meth:`_deal_card` (a card the ledger accepted,
    arriving in ``dealing``), :meth:`_dealing_prompt`, :meth:`_due_text`,
    :meth:`_no_card_text`, and the entry hooks ``_entered_dealing`` and
    ``_entered_result``; it calls ``self._fire("hands_complete")`` when the
    rules say the round is complete. Optional: :meth:`_clear_layout`,
    :meth:`_snapshot_game`.
    """

    game = "generic"
    state: str  # set by pytransitions

    def __init__(self, *, spec: DeckSpec, emit: Emit, seats: int,
                 player_dealer_seat: int | None = None, first_round: int = 1) -> None:
        self.spec = spec
        self.seats = seats
        self._emit = emit
        self.ledger = ShoeLedger(spec)
        self.rotation = PlayerDealerRotation(seats, player_dealer_seat) if player_dealer_seat else None
        self.round: int | None = None
        self._next_round = first_round
        self.last_round = False
        self._shoe_empty = False
        self.action_seat: int | None = None
        self.fault: Fault | None = None
        self._device_note: str | None = None  # a device fault the current prompt must mention
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
            {"trigger": "open_table", "source": "closed", "dest": "deck_check"},
            {"trigger": "close_table",
             "source": ["deck_check", "shuffle", "load_shoe", "ready", "betting", "result"], "dest": "closed"},
            {"trigger": "deck_verified", "source": "deck_check", "dest": "shuffle"},
            {"trigger": "deck_failed", "source": "shuffle", "dest": "deck_check"},
            {"trigger": "shuffled_ok", "source": "shuffle", "dest": "load_shoe"},
            {"trigger": "shuffled_wrong_count", "source": "shuffle", "dest": "deck_check"},
            {"trigger": "shoe_loaded", "source": "load_shoe", "dest": "ready"},
            {"trigger": "betting_opened", "source": "ready", "dest": "betting"},
            {"trigger": "no_more_bets", "source": "betting", "dest": "dealing"},
            {"trigger": "hands_complete", "source": "dealing", "dest": "result"},
            {"trigger": "round_settled", "source": "result", "dest": "ready"},
            {"trigger": "shoe_finished", "source": ["ready", "result"], "dest": "shuffle"},
            {"trigger": "fault_raised", "source": resumable, "dest": "fault"},
            {"trigger": "void_round", "source": ["betting", "dealing", "fault"], "dest": "voided"},
            {"trigger": "void_done", "source": "voided", "dest": "shuffle", "conditions": "_shoe_done"},
            {"trigger": "void_done", "source": "voided", "dest": "ready"},
            {"trigger": "game_broken", "source": ["ready", "betting"], "dest": "closed"},
        ]
        for dest in resumable:
            table.append({"trigger": "resumed", "source": "fault", "dest": dest,
                          "conditions": f"_resumes_to_{dest}"})
        return table

    def _shoe_done(self, _event: EventData) -> bool:
        return self.last_round

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
        round's hands and result stay as they were. A state the machine
        leaves at once (:meth:`_onward`) publishes no prompt: it would be
        stale before anyone could act on it.
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
        self._publish_prompt()

    def _onward(self) -> str | None:
        """The trigger that leaves a transient state at once, or None to stay.

        ``voided`` always moves on; ``ready`` opens betting unless a
        player-dealer offer is pending (then it waits for ``deal`` or ``pass``).
        """
        if self.state == "voided":
            return "void_done"
        if self.state == "ready" and not self._offer_pending():
            return "betting_opened"
        return None

    def _offer_pending(self) -> bool:
        return self.rotation is not None and self.rotation.offered is not None

    # --- pit commands (raise Refused when out of place) -----------------------------------

    def open(self) -> None:
        """Pit ``open``: ``closed -> deck_check``. The table opens only after a deck check passes."""
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
        if by not in VOID_BY:
            raise Refused(f"void by {by!r}: must be one of {', '.join(VOID_BY)}")
        if not self._voidable():
            if self.state == "fault":
                raise Refused("no round in progress to void: resume to burn the card")
            if self.state == "result":
                raise Refused(f"round {self.round} already has a result: settle it with deal")
            raise Refused(f"no round in progress to void (state {self.state})")
        self._void(reason, by)

    def resume(self, by: str) -> None:
        """Leave ``fault``: burn the offending card(s) and go back to where the round was.

        Refused when the fault lost a card the layout holds (``Fault.no_resume``:
        a shoe misread, two cards at once, an unknown card while dealing) or
        the shoe is empty mid-round: such a round can only be voided.
        """
        if self.state != "fault" or self.fault is None:
            raise Refused(f"nothing to resume: the table is not in fault (state {self.state})")
        if self.fault.no_resume:
            raise Refused(f"round {self.round} cannot resume: {self.fault.no_resume}; void it")
        if self._shoe_empty and self.fault.origin in ("betting", "dealing"):
            raise Refused("the shoe is empty: the round cannot go on; void it")
        burned = [c.code for c in self.fault.cards]
        self._emit("resume", {"round": self.round, "by": by, "burned": burned})
        self._fire("resumed")  # clears ``self.fault`` (``_after_change``)

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
                self._fire("deck_verified")
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

    def shuffled(self, count: int) -> None:
        """A shuffle finished with ``count`` cards: checked against the spec's size."""
        if self.state != "shuffle":
            self._unexpected_input(f"a shuffle count arrived in state {self.state}: ignored")
            return
        ok = count == self.spec.size
        self._emit("shuffle", {"ok": ok, "count": count, "expected": self.spec.size})
        if ok:
            self.ledger.refill()
            self.last_round = False
            self._shoe_empty = False
            self._fire("shuffled_ok")
            return
        self._alarm("shuffle_count", "fault",
                    f"the shuffle counted {count} cards; a {self.spec.name} shoe holds {self.spec.size}",
                    action="check the deck to find the missing or extra cards")
        self._fire("shuffled_wrong_count")

    def card(self, card: Card) -> None:
        """The shoe read a card.

        In play it is first taken from the ledger (foreign card, copy too
        many: alarm and ``fault``), then offered to the game in
        ``dealing``; anywhere else it is a card the rules did not ask for
        (``unexpected_card`` alarm and ``fault``).
        """
        if self.state not in SHOE_IN_PLAY:
            self._alarm("unexpected_card", "warning",
                        f"{card.code} read while no shoe is in play (state {self.state})",
                        card=card.code, expected=self._no_card_text(), action="remove the card from the shoe")
            return
        fault = self.ledger.take(card)
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
        self._alarm("unexpected_card", "fault", message, card=card.code, expected=expected,
                    action="void the round, or resume to burn the card")
        self._enter_fault("unexpected_card", message, card)

    def cut_card(self) -> None:
        """The cut card came out: the round in progress (or the next to start) is the shoe's last.

        After that round's result, ``deal`` leads to ``shuffle`` instead of ``betting``.
        """
        if self.state not in SHOE_IN_PLAY:
            self._unexpected_input(f"cut card read while no shoe is in play (state {self.state})")
            return
        self.last_round = True
        self._emit("shoe", {"event": "cut_card", "last_round": True, "remaining": self.ledger.remaining})
        if self.state in ("result", "ready", "betting"):
            self._publish_prompt()

    def shoe_empty(self) -> None:
        """The shoe ran out. Mid-round (betting or dealing) that is a fault: void, then shuffle."""
        in_play = self.state in SHOE_IN_PLAY and self.state != "load_shoe"
        self._emit("shoe", {"event": "empty", "last_round": in_play or self.last_round,
                            "remaining": self.ledger.remaining})
        if not in_play:
            return
        self.last_round = True
        self._shoe_empty = True
        if self.state in ("betting", "dealing"):
            message = f"the shoe ran out during round {self.round}"
            self._alarm("shoe_empty", "fault", message, expected=self._expected_text(),
                        action="void the round; the table goes to the shuffle")
            self._enter_fault("shoe_empty", message)
        elif self.state == "ready":
            self._fire("shoe_finished")
        elif self.state == "result":
            self._publish_prompt()

    def device_fault(self, device: str, code: str, detail: str) -> None:
        """A device reported a fault or went offline (the controller calls this for each).

        ``device`` is the driver's name (``shoe``, ``shuffler``), ``code`` a
        driver fault code (docs/internals.md) or ``offline``. Consequences:

        - ``shoe`` while ``dealing`` (or in a fault raised while dealing):
          ``misread``, ``double_card``, ``unknown_card`` put a card on the
          layout that the machine never saw, so the layout no longer matches
          what was read: alarm ``shoe_<code>`` (fault) and ``fault``; the
          round can only be voided (``resume`` is refused with that reason).
          ``offline``, ``heartbeat_lost``, ``link_lost``: alarm and
          ``fault`` too, but the link retransmits, so nothing read was lost:
          ``resume`` returns to ``dealing`` with the same card due.
        - ``shuffler`` during ``deck_check`` or ``shuffle``: alarm
          ``shuffler_<code>`` (fault) and the state's prompt again, naming
          the fault, so the dealer repeats the deck check or the shuffle.
        - Anything else, in any state but ``closed``: alarm ``<device>_<code>``
          of severity warning; the round is unchanged. In ``closed``:
          nothing (the controller's ``device`` event says it).

        ``detail`` is not repeated in the alarm: a driver's detail may name a
        card that is face up by then, and an alarm names no card.
        """
        del detail  # see the docstring: the controller's ``device`` event carries it
        state = self.state
        alarm = _alarm_code(device, code)
        while_dealing = state == "dealing" or (
            state == "fault" and self.fault is not None and self.fault.origin == "dealing")
        if device == "shoe" and while_dealing and code in SHOE_CARD_LOST:
            what = SHOE_CARD_LOST[code]
            why = f"{what} (shoe {code}): the layout no longer matches what was read"
            self._alarm(alarm, "fault", f"round {self.round}: {why}", expected=self._expected_text(),
                        action=f"{what}: void the round (dealer's void button or pit cmd/void)")
            self._enter_fault(alarm, f"round {self.round}: {why}", no_resume=why)
            return
        if device == "shoe" and while_dealing and code in LINK_FAULTS:
            down = "went offline" if code == "offline" else f"lost its link ({code})"
            message = (f"the shoe {down} during round {self.round}: nothing it read was lost, "
                       "but no card can be read until it is back")
            self._alarm(alarm, "fault", message, expected=self._expected_text(),
                        action="stop drawing; check the shoe's cable and power; when it is back the pit "
                               "resumes (pit cmd/resume: the same card is due) or voids the round")
            self._enter_fault(alarm, message,
                              resume_note="once the shoe is back the pit may resume: the same card is due")
            return
        if device == "shuffler" and state in ("deck_check", "shuffle"):
            step = "deck check" if state == "deck_check" else "shuffle"
            fix = DEVICE_FIXES.get(code, "check the shuffler")
            what = "went offline" if code == "offline" else f"reported {code}"
            self._alarm(alarm, "fault", f"the shuffler {what} during the {step}",
                        action=f"{fix}, then run the {step} again")
            self._device_note = f"The shuffler {what}: {fix}, then run the {step} again."
            self._publish_prompt()
            return
        if state == "closed":
            return
        what = "went offline" if code == "offline" else f"reported {code}"
        self._alarm(alarm, "warning", f"the {device} {what} (state {state})",
                    expected=self._expected_text(),
                    action=f"{DEVICE_FIXES.get(code, f'check the {device}')}; then follow the prompt")

    def button(self, name: str) -> None:
        """A dealer button. One not lit is refused with a ``button`` event (``accepted: false``).

        ``deal`` pressed while dealing and a card is still due is also a
        ``missing_draw`` alarm (warning): the dealer thinks the round is
        over but the rules want another card. The round is unchanged.
        """
        if name not in BUTTONS:
            self._emit("button", {"button": name, "accepted": False,
                                  "reason": f"unknown button: the buttons are {', '.join(BUTTONS)}"})
            return
        if name not in self._buttons():
            if name == "deal" and self.state == "dealing":
                due = self._due_text()
                self._emit("button", {"button": name, "accepted": False, "reason": f"a card is due: {due}"})
                self._alarm("missing_draw", "warning", f"deal pressed but a card is due: {due}",
                            expected=due, action="draw the card the prompt names")
                return
            self._emit("button", {"button": name, "accepted": False,
                                  "reason": f"{name} is not lit in state {self.state}"})
            return
        self._emit("button", {"button": name, "accepted": True, "reason": None})
        getattr(self, f"_button_{name}")()

    def _button_shuffle_ack(self) -> None:
        self._fire("shoe_loaded")

    def _button_deal(self) -> None:
        rotation = self.rotation
        if self.state == "ready":
            if rotation is not None:
                self._emit_player_dealer(rotation.accept())
            self._fire("betting_opened")
        elif self.state == "betting":
            if rotation is not None and rotation.offered is not None:
                # Accepting the deal does not also close the bets: bettors see who banks first.
                self._emit_player_dealer(rotation.accept())
                self._publish_prompt()
            else:
                self._fire("no_more_bets")
        elif self.state == "result":
            # The round is settled: count it for the player-dealer, then ready (-> betting) or shuffle.
            if rotation is not None:
                self._emit_player_dealer(rotation.round_played())
            self._fire("shoe_finished" if self.last_round else "round_settled")

    def _button_pass(self) -> None:
        assert self.rotation is not None
        events, broken = self.rotation.pass_()
        self._emit_player_dealer(events)
        if not broken:
            if self.state == "ready" and not self._offer_pending():
                self._fire("betting_opened")  # nobody took it: the holder keeps the deal, betting opens
            else:
                self._publish_prompt()
            return
        barred = self.rotation.barred
        self._alarm("game_broken", "critical",
                    f"the deal went round the table back to seat {barred} after its {MAX_CONSECUTIVE} "
                    "consecutive rounds: no other player accepted it, so the game is broken "
                    "(Player-dealer and Deal)",
                    action="the table closes; the pit decides when to reopen it")
        if self.state == "betting":
            self._emit("void", {"round": self.round, "reason": "game broken: no intervening player-dealer",
                                "by": "controller"})
            self._clear_layout()
        self._fire("game_broken")

    def _button_void(self) -> None:
        self._void("dealer pressed void", "dealer")

    # --- state entry ---------------------------------------------------------------------

    def _entered_betting(self) -> None:
        self.round = self._next_round
        self._next_round += 1
        self.action_seat = None
        self._clear_layout()
        self._emit("round_start", {"round": self.round, "player_dealer": self._player_dealer_seat(),
                                   "last_of_shoe": self.last_round})

    # --- helpers ---------------------------------------------------------------------------

    def _voidable(self) -> bool:
        if self.state in ("betting", "dealing"):
            return True
        return self.state == "fault" and self.fault is not None and self.fault.origin in ROUND_STATES

    def _void(self, reason: str, by: str) -> None:
        self._emit("void", {"round": self.round, "reason": reason, "by": by})
        self._clear_layout()
        self.action_seat = None
        self.fault = None
        self._fire("void_round")

    def _enter_fault(self, code: str, message: str, card: Card | None = None, *,
                     no_resume: str | None = None, resume_note: str | None = None) -> None:
        """Go to ``fault`` (or, already there, add to the fault: a card to burn, a reason not to resume)."""
        if self.state == "fault" and self.fault is not None:
            if card is not None:
                self.fault.cards.append(card)
            if no_resume is not None and self.fault.no_resume is None:
                self.fault.no_resume = no_resume
                self.fault.message = message
            self._publish_prompt()
            return
        self.fault = Fault(self.state, code, message, [card] if card is not None else [],
                           no_resume=no_resume, resume_note=resume_note)
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

    def _emit_player_dealer(self, events: list[dict]) -> None:
        for data in events:
            self._emit("player_dealer", data)

    def _player_dealer_seat(self) -> int | None:
        return self.rotation.lit_seat if self.rotation is not None else None

    def _buttons(self) -> list[str]:
        state = self.state
        if state == "load_shoe":
            return ["shuffle_ack"]
        if state in ("ready", "betting"):
            return ["deal", "pass"] if self.rotation is not None else ["deal"]
        if state == "result":
            return ["deal"]
        if state == "fault" and self._voidable():
            return ["void"]
        return []

    def _publish_prompt(self) -> None:
        self._emit("prompt", self._prompt())

    def _prompt(self) -> dict:
        """What the machine expects next: the dealer's lights, the pit, and the simulated dealer read it."""
        state = self.state
        prompt: dict[str, Any] = {"expect": "none", "hand": None, "buttons": self._buttons(), "text": ""}
        if state == "dealing":
            prompt.update(self._dealing_prompt())
            prompt["buttons"] = self._buttons()
            return prompt
        last = " This is the last round of the shoe." if self.last_round else ""
        offer = self.rotation.offered if self.rotation is not None else None
        if offer is not None and state in ("ready", "betting"):
            prompt["seat"] = offer
        if state == "closed":
            prompt.update(expect="open", text="The table is closed: waiting for the pit to open it.")
        elif state == "deck_check":
            prompt.update(expect="deck_check",
                          text=f"Load the decks into the shuffler and run a deck check ({self.spec.size} "
                               f"cards, {self.spec.name}).")
        elif state == "shuffle":
            prompt.update(expect="shuffle", text="Gather every card into the shuffler and shuffle.")
        if state in ("deck_check", "shuffle") and self._device_note:
            prompt["text"] = f"{self._device_note} {prompt['text']}"
        elif state == "load_shoe":
            prompt.update(expect="load_shoe",
                          text="Load the shuffled cards into the shoe, place the cut card, press shuffle_ack.")
        elif state == "ready":
            text = ("Press deal to open betting." if offer is None else
                    f"The player-dealer position is offered to seat {offer}: deal = seat {offer} accepts "
                    f"and betting opens; pass = seat {offer} declines.")
            prompt.update(expect="bets", text=text + last)
        elif state == "betting":
            text = (f"Bets open for round {self.round}: press deal for no more bets." if offer is None else
                    f"The player-dealer position is offered to seat {offer}: deal = seat {offer} accepts; "
                    f"pass = seat {offer} declines.")
            prompt.update(expect="bets", text=text + last)
        elif state == "result":
            nxt = "the shuffle" if self.last_round else "the next round"
            prompt.update(expect="settle",
                          text=f"Settle round {self.round}, clear the layout, press deal for {nxt}.")
        elif state == "fault":
            fault = self.fault
            what = fault.message if fault else "fault"
            burn = " ".join(c.code for c in fault.cards) if fault and fault.cards else ""
            how = ("press void or have the pit void the round" if self._voidable()
                   else "the pit resumes")
            if fault is not None and fault.no_resume:
                resume = " (it cannot be resumed)"  # the message says why
            else:
                notes = [fault.resume_note] if fault is not None and fault.resume_note else []
                if burn and self._voidable():
                    notes.append(f"the pit may resume (burns {burn})")
                resume = "".join(f"; {n}" for n in notes)
            prompt.update(expect="fault", text=f"Fault: {what}. To go on, {how}{resume}.")
        return prompt

    def _expected_text(self) -> str:
        """What the machine expects now, for an alarm's ``expected``."""
        if self.state == "dealing":
            return self._due_text()
        return self._no_card_text()

    def snapshot(self) -> dict:
        """The retained state topic: nothing secret (no face-down card, no undealt order)."""
        prompt = self._prompt()
        fault = self.fault if self.state == "fault" else None
        data: dict[str, Any] = {
            "game": self.game,
            "state": self.state,
            "round": self.round,
            "prompt": prompt,
            "player_dealer": self.rotation.snapshot() if self.rotation is not None else None,
            "action_seat": self.action_seat,
            "lights": {"action_seat": self.action_seat, "player_dealer_seat": self._player_dealer_seat(),
                       "buttons_lit": prompt["buttons"]},
            "shoe": {"dealt": self.ledger.drawn, "remaining": self.ledger.remaining,
                     "last_round": self.last_round},
            "fault": None if fault is None else {"code": fault.code, "message": fault.message,
                                                 "cards": [c.code for c in fault.cards],
                                                 "resumable": fault.no_resume is None},
        }
        data.update(self._snapshot_game())
        return data

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

    def _no_card_text(self) -> str:
        """Why no card is due now, e.g. ``no card: player stands on 7, banker stands on 6``."""
        return {
            "closed": "no card: the table is closed",
            "deck_check": "no card: the deck check is due",
            "shuffle": "no card: the shuffle is due",
            "load_shoe": "no card: the shoe is being loaded",
            "ready": "no card: betting has not opened",
            "betting": "no card: bets are open (press deal for no more bets first)",
            "result": "no card: the round is complete",
            "fault": "no card: the table is in fault",
            "voided": "no card: the round was voided",
        }.get(self.state, "no card")

    def _clear_layout(self) -> None:
        """The round's cards go to the discards."""

    def _snapshot_game(self) -> dict:
        """Game-specific snapshot fields (without secrets)."""
        return {}


def _alarm_code(device: str, code: str) -> str:
    """``<device>_<code>`` as an alarm code (``^[a-z][a-z0-9_]*$``), whatever a driver calls itself."""
    slug = re.sub(r"[^a-z0-9]+", "_", f"{device}_{code}".lower()).strip("_")
    return slug if slug[:1].isalpha() else f"device_{slug}"
