"""Device input, by the device's role: what a card, a deck check, a count, a fault or a device going
away and coming back means for the round (the lifecycle's part that reads the table's devices).

The table hands every device event over as ``device_input(role, kind, data)``; the kind picks the
``_input_<kind>`` method (a part or a game adds its own), and an input the game does not use is an
``unexpected_input`` warning. What a fault means depends on the device's role
(:class:`~games.round.contract.DeviceRole`), never on its name: docs/internals.md, "Round machine".
A device the next step cannot do without holds the prompt (``expect: device``) until it is back;
a reader whose line went down in a round that was voided holds it until it has shown that every
card it read arrived (:attr:`~games.round.lifecycle.RoundMachine.unsettled`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.cards import Card

CARD_LOST: dict[str, str] = {
    "misread": "a card left the shoe unread",
    "double_card": "two cards left the shoe at once",
    "unknown_card": "a card left the shoe and what the shoe read is not a card",
    "cards_lost": "a card the shoe read never arrived",
}
"""Faults of a card-reading role that put a card on the layout the machine never saw."""

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
    "die_unreadable": "the cup could not read a die: check that every die lies flat, clean and in view",
    "die_on_edge": "a die landed on its edge against the cup's wall",
    "lifted_early": "the cup was lifted before the shake ended",
    "bad_report": "the cup sent a report that could not be read: check its cable",
    "reports_lost": "reports from the cup were lost: check its cable",
    "duplicate_report": "the cup sent a report twice (the second is set aside): nothing is lost",
    "stale_report": "the cup sent an earlier report again (set aside): nothing is lost; if it recurs, have the "
                    "cup checked",
    "restarted": "the cup restarted: check its power and cable",
    "stall": "the cup's endpoint stalled (the driver cleared it)",
    "self_test": "the cup failed its self-test: have it serviced",
    "wrong_dice": "the cup holds another number of dice than its config says: check the cup and the config",
}
"""What the dealer does about a device fault, by code (alarm ``action``)."""


class DeviceInputs:
    """Device input by role: the lifecycle part that reads the table's devices (module docstring)."""

    def device_input(self, role: str, kind: str, data: Mapping[str, Any]) -> None:
        """Every device event, as the table hands it over: ``kind`` picks ``_input_<kind>``.

        ``role`` is the device's role in the game (its name in ``[devices]``).
        A kind this game has no handler for is an ``unexpected_input``
        warning; the round is unchanged.
        """
        handler = getattr(self, f"_input_{kind}", None)
        if handler is None:
            self._unexpected_input(f"the {role} sent {kind.replace('_', ' ')}, which {self.game} does not use: "
                                   "ignored")
            return
        handler(role, **data)

    def _input_card_drawn(self, role: str, card: Card, read: int | None = None) -> None:
        voided = self.unsettled.get(role)
        if voided is not None:
            self._burn_late(role, card, voided)
            return
        self.card(card)

    def _burn_late(self, role: str, card: Card, voided: int) -> None:
        """A card the reader read before the round it was drawn for was voided, delivered only now
        (its line was down; it keeps a read until acknowledged). It belongs to the voided round:
        it left the shoe (the ledger takes it, unless the cards were shuffled since and counted
        with it) and is burned, never dealt into a later round. Its identity is not published:
        the voided round never turned it up."""
        if role not in self._unsettled_reshuffled:
            self.ledger.take(card)
        self._alarm("voided_round_card", "warning",
                    f"a card the {role} read for round {voided}, which was voided while its line was down, "
                    "arrived only now: it is burned with that round's cards and dealt to no later round",
                    expected=self._expected_text(),
                    action=f"put the card drawn for round {voided} with the discards")

    def _input_deck_verified(self, role: str, cards: Sequence[Card], unreadable: int = 0) -> None:
        self.deck_checked(cards, unreadable)

    def _input_shuffle_complete(self, role: str, count: int) -> None:
        self.shuffled(count)

    def _input_card_count(self, role: str, count: int) -> None:
        """A count on request: nothing in a round depends on it (the controller logs it)."""

    def _input_device_fault(self, role: str, code: str, detail: str = "") -> None:
        self.device_fault(role, code, detail)

    def _input_device_offline(self, role: str, reason: str = "") -> None:
        # A silent device (heartbeat lost) is its own fault; a port that fails is plain ``offline``.
        code = "heartbeat_lost" if reason == "heartbeat_lost" else "offline"
        self.down[role] = "went silent (heartbeat lost)" if code == "heartbeat_lost" else "is offline"
        self.device_fault(role, code, reason)
        if self.state in ("ready", "betting", "deck_check", "shuffle", "load_shoe", "result"):
            self._publish_prompt_if_changed()  # the prompt now waits for the device, if it needs it

    def _input_device_online(self, role: str, info: str = "", reads: int | None = None,
                             serial: str | None = None) -> None:
        """A device is back: a prompt that waited for it is published again. A fault it caused
        stays until the pit resumes or voids."""
        if self.down.pop(role, None) is not None and self.state != "closed":
            self._publish_prompt_if_changed()

    def _input_reads_accounted(self, role: str, count: int = 0) -> None:
        """Every card the reader says it read has arrived: a round it faulted may resume."""
        fault = self.fault
        self._unsettled_reshuffled.discard(role)
        if self.unsettled.pop(role, None) is not None and self.state != "closed":
            self._publish_prompt_if_changed()  # the next round may deal: no read of the voided one is on the way
        if self.state == "fault" and fault is not None and fault.unproven == role:
            fault.unproven = None
            fault.resume_note = f"the {role} is back and every card it read arrived: the pit may resume"
            self._publish_prompt()

    def _waiting_for(self) -> tuple[str, str] | None:
        """A device the next step cannot do without, and why it cannot work now. No prompt asks
        for a card while the role that reads it is down, nor for a deck check or a shuffle while
        the role that does them is: the table waits, and its prompt says for what."""
        unsettled = {role: f"has not yet shown that every card it read for voided round {voided} arrived"
                     for role, voided in self.unsettled.items()}
        for role, why in sorted({**unsettled, **self.down}.items()):
            policy = self.ROLES.get(role)
            if policy is None:
                continue
            if policy.reads_cards and self.state in ("ready", "betting", "dealing"):
                return role, why
            if policy.prepares_deck and self.state in policy.needed_in:
                return role, why
        return None

    def device_fault(self, device: str, code: str, detail: str) -> None:
        """A device reported a fault or went offline; what it means depends on the device's role.

        ``device`` is the device's role in the game (``[devices.<role>]``),
        ``code`` a driver fault code (docs/internals.md) or ``offline``.
        Consequences, by the role's :class:`~games.round.contract.DeviceRole`:

        - a card-reading role while ``dealing`` (or in a fault raised while
          dealing): ``misread``, ``double_card``, ``unknown_card`` put a card
          on the layout that the machine never saw: alarm ``<role>_<code>``
          (fault) and ``fault``; the round can only be voided. ``offline``,
          ``heartbeat_lost``, ``link_lost``: alarm and ``fault`` too, but the
          link retransmits, so nothing read was lost: ``resume`` returns to
          ``dealing`` with the same card due.
        - the deck-preparing role during ``deck_check`` or ``shuffle``:
          alarm (fault) and the state's prompt again, naming the fault, so
          the dealer repeats the step.
        - Anything else, in any state but ``closed``: alarm of severity
          warning; the round is unchanged. In ``closed``: nothing (the
          controller's ``device`` event says it).

        ``detail`` is not repeated in the alarm: a driver's detail may name a
        card that is face up by then, and an alarm names no card.
        """
        del detail  # see the docstring: the controller's ``device`` event carries it
        if code == "cards_lost" and self.unsettled.pop(device, None) is not None:
            self._unsettled_reshuffled.discard(device)
            # The reader restarted or lost reads: the voided round's card will never come, so
            # nothing is on the way any more (the warning below says it was lost).
            self._publish_prompt_if_changed()
        state = self.state
        role = self.ROLES.get(device)
        alarm = alarm_code(device, code)
        while_dealing = state == "dealing" or (
            state == "fault" and self.fault is not None and self.fault.origin == "dealing")
        reads = role is not None and role.reads_cards
        if reads and while_dealing and code in CARD_LOST:
            what = CARD_LOST[code]
            why = f"{what} ({device} {code}): the layout no longer matches what was read"
            self._alarm(alarm, "fault", f"round {self.round}: {why}", expected=self._expected_text(),
                        action=f"{what}: void the round (dealer's void button or pit cmd/void)")
            self._enter_fault(alarm, f"round {self.round}: {why}", no_resume=why)
            return
        if reads and while_dealing and code in LINK_FAULTS:
            down = "went offline" if code == "offline" else f"lost its link ({code})"
            message = (f"the {device} {down} during round {self.round}: no card can be read until it is back, "
                       f"and the round resumes only once the {device} shows that every card it read arrived")
            self._alarm(alarm, "fault", message, expected=self._expected_text(),
                        action=f"stop drawing; check the {device}'s cable and power; when it is back the pit "
                               "resumes (pit cmd/resume: the same card is due) or voids the round")
            self._enter_fault(alarm, message, unproven=device,
                              resume_note=f"once the {device} is back and has shown that every card it read "
                                          "arrived, the pit may resume: the same card is due")
            return
        if role is not None and role.prepares_deck and state in role.needed_in and state != "closed":
            step = "deck check" if state == "deck_check" else "shuffle"
            fix = DEVICE_FIXES.get(code, f"check the {device}")
            what = "went offline" if code == "offline" else f"reported {code}"
            self._alarm(alarm, "fault", f"the {device} {what} during the {step}",
                        action=f"{fix}, then run the {step} again")
            self._device_note = f"The {device} {what}: {fix}, then run the {step} again."
            self._publish_prompt()
            return
        if state == "closed":
            return
        what = "went offline" if code == "offline" else f"reported {code}"
        self._alarm(alarm, "warning", f"the {device} {what} (state {state})",
                    expected=self._expected_text(),
                    action=f"{DEVICE_FIXES.get(code, f'check the {device}')}; then follow the prompt")


def alarm_code(device: str, code: str) -> str:
    """``<device>_<code>`` as an alarm code (``^[a-z][a-z0-9_]*$``), whatever a driver calls itself."""
    slug = re.sub(r"[^a-z0-9]+", "_", f"{device}_{code}".lower()).strip("_")
    return slug if slug[:1].isalpha() else f"device_{slug}"
