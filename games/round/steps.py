"""Dealing by steps: a part for games whose rules say, at every moment, what comes next --
a card to a named place, face up or down, or a seat's decision.

Most games deal in an order their rules fix (Three Card Poker: three cards to each seat from
the left of the player-dealer; Joker Seven: seven cards to the layout; Bet'Win: a card to each
seat, the dealer's Waiting card, each seat's change or stand, the Adjoining card). The game
names the next step from what is on the layout (:meth:`Steps._next_step`), and this part does
the rest the same way for every game: the prompt (``card`` with hand, seat, position and face,
or ``decision`` with the seat and its choices), the ``card`` event (a face-down card without its
code or value), a card arriving while a decision is due (``unexpected_card``, fault), the seat
buttons (lit for the deciding seat only; another seat's press refused with the reason), the
``turn`` light (the deciding seat, or the seat that shakes the dice cup), and ``hands_complete``
when no step is left.

A step may also be a shake of the dice cup (:class:`DiceDue`): the ``dice`` prompt with the
number of dice and the shaker's seat; the reading is taken only after a shake in this step and
only if it has that many dice, each 1 to 6 (games.dice.reading_problem). A reading that fails is
a warning alarm naming what came and what was due (``dice_before_shake``, ``dice_count``,
``dice_value``), and the same prompt is published again: the round waits for a valid shake. A
valid one is a ``dice`` event, then the game's :meth:`Steps._shaken`. Dice read when none are due
are an ``unexpected_dice`` warning. The cup's own faults and its link going down while a shake is
due repeat the shake (the ``reads_dice`` role's policy, as a shuffler's faults repeat its step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from games.cards import Card
from games.dice import reading_problem
from games.round.devices import DEVICE_FIXES, alarm_code
from games.round.lifecycle import RoundMachine


@dataclass(frozen=True)
class CardDue:
    """The next card: where it goes and why (the rule, for the prompt)."""

    hand: str
    position: int
    face: Literal["up", "down"] = "up"
    seat: int | None = None
    why: str = ""

    @property
    def where(self) -> str:
        return f"seat {self.seat}" if self.seat is not None and self.hand == "seat" else f"the {self.hand}"


@dataclass(frozen=True)
class DecisionDue:
    """A seat's decision: which seat, the seat buttons it may press, and why."""

    seat: int
    choices: tuple[str, ...]
    why: str = ""


@dataclass(frozen=True)
class PressDue:
    """The dealer closes a phase with a button (Bet'Win's "re-bet completed": ``deal``)."""

    button: str
    expect: str
    text: str


@dataclass(frozen=True)
class DiceDue:
    """A shake of the dice cup: how many dice the rules throw, the seat that shakes (the banker,
    the designated player; None: the dealer), and why (the rule, for the prompt)."""

    count: int
    seat: int | None = None
    why: str = ""


Step = CardDue | DecisionDue | PressDue | DiceDue

_UNSET: Any = object()
"""No step worked out yet in this snapshot."""

NOTHING_LOST: frozenset[str] = frozenset({"stall", "duplicate_report", "stale_report"})
"""Dice-cup faults after which the reading still arrives: a stall (the cup keeps a report until
it is read), a report sent twice or an earlier one sent again (the driver sets it aside; nothing
the cup sent since is missing). No new shake is asked for: the shake on its way is the throw."""


class Steps(RoundMachine):
    """``class Game(Steps, ..., RoundMachine)``; the game implements :meth:`_next_step`,
    :meth:`_place` and :meth:`_decide`, and ``_card_data`` for a face-up card's extra fields."""

    def _next_step(self) -> Step | None:
        """What the rules want next, from the layout; None: the round is complete."""
        raise NotImplementedError

    def _place(self, due: CardDue, card: Card) -> None:
        """Put ``card`` where ``due`` says (the game's layout)."""
        raise NotImplementedError

    def _decide(self, seat: int, choice: str) -> None:
        """Seat ``seat`` pressed ``choice`` (one of the choices its decision offered)."""
        raise NotImplementedError

    def _pressed(self, due: PressDue) -> None:
        """The dealer pressed the button a :class:`PressDue` asked for (the game records it)."""
        raise NotImplementedError

    def _card_data(self, due: CardDue, card: Card) -> dict[str, Any]:
        """Extra fields of a face-up card's event (a value the game counts)."""
        return {}

    def _shaken(self, due: DiceDue, values: tuple[int, ...]) -> None:
        """A valid reading of the throw ``due`` asked for: ``due.count`` values, each 1 to 6, die 1
        first (the game records it; the ``dice`` event is already out)."""
        raise NotImplementedError

    def _dice_data(self, due: DiceDue, values: tuple[int, ...]) -> dict[str, Any]:
        """Extra fields of the ``dice`` event (the seat the total reaches, for a game that deals
        from it)."""
        return {}

    # --- the lifecycle's hooks -------------------------------------------------------

    def _deal_card(self, card: Card) -> None:
        step = self._next_step()
        if not isinstance(step, CardDue):
            why = (f"seat {step.seat} has not decided ({' or '.join(step.choices)})"
                   if isinstance(step, DecisionDue) else
                   f"{step.text[0].lower()}{step.text[1:].rstrip('.')} first" if isinstance(step, PressDue)
                   else "the dice are due (shake the cup)" if isinstance(step, DiceDue)
                   else "no card is due")
            message = f"{card.code} drawn, but {why}"
            self._alarm("unexpected_card", "fault", message, card=card.code, expected=self._due_text(),
                        action="void the round, or resume to burn the card")
            self._enter_fault("unexpected_card", message, card)
            return
        self._place(step, card)
        data: dict[str, Any] = {"hand": step.hand, "position": step.position, "face": step.face}
        if step.seat is not None:
            data["seat"] = step.seat
        if step.face == "up":
            data.update(card=card.code, **self._card_data(step, card))
        self._emit("card", data)
        self._step_done()

    def _seat_pressed(self, name: str, seat: int) -> None:
        self._decide(seat, name)
        self._step_done()

    _memo_open: bool = False
    _memo: Any = None

    def _step_now(self) -> Step | None:
        """:meth:`_next_step`, worked out once per :meth:`snapshot`: the prompt, the buttons, the
        lights and the seat buttons all ask for it, and a game may take tens of microseconds to
        work it out from its layout (a blackjack hand's choices), on every event."""
        if not self._memo_open:
            return self._next_step()
        if self._memo is _UNSET:
            self._memo = self._next_step()
        return self._memo

    def snapshot(self) -> dict:
        self._memo_open, self._memo = True, _UNSET  # a snapshot changes nothing: one step throughout
        try:
            return super().snapshot()
        finally:
            self._memo_open, self._memo = False, None

    def _buttons(self) -> list[str]:
        lit = super()._buttons()
        step = self._step_now() if self.state == "dealing" else None
        if isinstance(step, PressDue) and step.button not in lit:
            lit.append(step.button)
        return lit

    def _button_deal(self) -> None:
        step = self._next_step() if self.state == "dealing" else None
        if isinstance(step, PressDue) and step.button == "deal":
            self._pressed(step)
            self._step_done()
            return
        super()._button_deal()

    def _step_done(self) -> None:
        self._dice_shaken = False
        self._device_note = None  # a note about the step just done (a die on edge) is stale
        if self._next_step() is None:
            self._fire("hands_complete")
        else:
            self._publish_prompt()

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        step = self._next_step() if self.state == "dealing" else None
        if not isinstance(step, DecisionDue):
            return f"no decision is due (state {self.state})"
        if seat != step.seat:
            return f"seat {step.seat} decides first"
        if name not in step.choices:
            return f"seat {seat} may press {' or '.join(step.choices)} now, not {name}"
        return None

    def _dealing_prompt(self) -> dict:
        step = self._step_now()
        if isinstance(step, DecisionDue):
            text = f"Seat {step.seat}: {' or '.join(step.choices)}" + (f" ({step.why})" if step.why else "") + "."
            return {"expect": "decision", "seat": step.seat, "choices": list(step.choices), "text": text}
        if step is None:
            return {"expect": "none", "hand": None, "text": "Every hand is complete."}
        if isinstance(step, PressDue):
            return {"expect": step.expect, "hand": None, "text": step.text}
        if isinstance(step, DiceDue):
            who = f"Seat {step.seat} shakes" if step.seat is not None else "Shake"
            text = f"{who} the dice cup: {step.count} dice" + (f" ({step.why})" if step.why else "") + "."
            if self._device_note:
                text = f"{self._device_note} {text}"
            prompt = {"expect": "dice", "hand": None, "count": step.count, "text": text}
            if step.seat is not None:
                prompt["seat"] = step.seat
            return prompt
        face = " face down" if step.face == "down" else ""
        text = f"Card to {step.where}, position {step.position}{face}" + (f": {step.why}" if step.why else "") + "."
        prompt: dict[str, Any] = {"expect": "card", "hand": step.hand, "position": step.position, "face": step.face,
                                  "text": text}
        if step.seat is not None:
            prompt["seat"] = step.seat
        return prompt

    def _due_text(self) -> str:
        step = self._step_now()
        if isinstance(step, DecisionDue):
            return f"seat {step.seat} to {' or '.join(step.choices)}"
        if isinstance(step, PressDue):
            return f"no card: {step.text[0].lower()}{step.text[1:].rstrip('.')}"
        if isinstance(step, DiceDue):
            return _dice_text(step)
        if step is None:
            return "no card"
        return f"card -> {step.where}" + (f" ({step.why})" if step.why else "")

    def _deciding(self) -> DecisionDue | None:
        step = self._step_now() if self.state == "dealing" else None
        return step if isinstance(step, DecisionDue) else None

    def _light_seats(self) -> dict[str, list[int]]:
        """The ``turn`` light: the seat whose decision is due, or the seat that shakes the dice cup."""
        seats = super()._light_seats()
        step = self._step_now() if self.state == "dealing" else None
        seat = step.seat if isinstance(step, (DecisionDue, DiceDue)) else None
        seats["turn"] = [] if seat is None else [seat]
        return seats

    def _seat_buttons_lit(self) -> dict[str, list[int]]:
        due = self._deciding()
        return {} if due is None else {choice: [due.seat] for choice in due.choices}

    # --- the dice cup ------------------------------------------------------------------

    _dice_shaken: bool = False
    """The cup was shaken while the current :class:`DiceDue` was due, and nothing read since."""

    def _dice_due(self) -> DiceDue | None:
        step = self._next_step() if self.state == "dealing" else None
        return step if isinstance(step, DiceDue) else None

    def _input_cup_shaken(self, role: str) -> None:
        """A shake counts only for the throw that is due now: a shake before it (while betting)
        leaves the next reading a ``dice_before_shake``."""
        self._dice_shaken = self._dice_due() is not None

    def _input_cup_closed(self, role: str) -> None:
        """The cup is back over the dice: nothing to check (a reading, or its fault, came first)."""

    def _input_dice_read(self, role: str, values: tuple[int, ...]) -> None:
        values = tuple(values)
        due = self._dice_due()
        if due is None:
            if self.state != "closed":
                shown = " ".join(str(v) for v in values) or "no dice"
                self._alarm("unexpected_dice", "warning",
                            f"the {role} read dice ({shown}) but no dice are due (state {self.state}): ignored",
                            expected=self._expected_text(), action="follow the prompt; shake only when it asks")
            return
        shaken, self._dice_shaken = self._dice_shaken, False
        problem = reading_problem(values, due.count, shaken)
        if problem is not None:
            code, message = problem
            self._alarm(code, "warning", message, expected=_dice_text(due),
                        action="shake the cup again: the round waits for a valid shake")
            self._device_note = f"{message[0].upper()}{message[1:]}: shake again."
            self._publish_prompt()
            return
        data: dict[str, Any] = {"values": list(values), "total": sum(values), "seat": due.seat}
        data.update(self._dice_data(due, values))
        self._emit("dice", data)
        self._shaken(due, values)
        self._step_done()

    def device_fault(self, device: str, code: str, detail: str) -> None:
        """A fault of the ``reads_dice`` role while a shake is due repeats the shake (alarm
        ``<role>_<code>``, severity fault, and the dice prompt again naming it), as the shuffler's
        faults repeat its step; a stall loses nothing (the reading still comes): a warning.
        Anything else is the lifecycle's."""
        role = self.ROLES.get(device)
        if role is None or not role.reads_dice or self._dice_due() is None:
            super().device_fault(device, code, detail)
            return
        alarm = alarm_code(device, code)
        fix = DEVICE_FIXES.get(code, f"check the {device}")
        what = "went offline" if code == "offline" else f"reported {code}"
        if code in NOTHING_LOST:
            self._alarm(alarm, "warning", f"the {device} {what} while a shake was due; its reading is kept",
                        expected=self._expected_text(), action="wait for the reading; no new shake is needed")
            return
        self._dice_shaken = False
        self._alarm(alarm, "fault", f"the {device} {what} while a shake was due: the shake does not count",
                    expected=self._expected_text(), action=f"{fix}, then shake the cup again")
        self._device_note = f"The {device} {what}: {fix}, then shake again."
        self._publish_prompt()

    def _waiting_for(self) -> tuple[str, str] | None:
        """While a shake is due, the table waits for a ``reads_dice`` role that is down (the
        prompt says so); back, the dice prompt is published again."""
        found = super()._waiting_for()
        if found is None and self.down and self._dice_due() is not None:
            for role, why in sorted(self.down.items()):
                policy = self.ROLES.get(role)
                if policy is not None and policy.reads_dice:
                    return role, why
        return found


def _dice_text(due: DiceDue) -> str:
    who = f" by seat {due.seat}" if due.seat is not None else ""
    return f"dice: a shake of {due.count} dice{who}, each 1 to 6" + (f" ({due.why})" if due.why else "")
