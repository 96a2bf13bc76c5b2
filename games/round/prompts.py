"""What the machine shows: the prompt (what it expects next, which buttons are lit), the light
picture, and the retained state's snapshot.

DESIGN.md, "The round machine": the machine publishes a prompt with every state; the dealer's
lights show it, the pit sees it, and the simulated dealer plays by following it. A prompt is a
request: the same one published twice asks twice, so it goes out again only when it changed
(:meth:`Prompts._publish_prompt_if_changed`). Nothing here carries the order of undealt cards or
a face-down card's identity (DESIGN.md, "What must never leave the controller").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NO_CARD: dict[str, str] = {
    "closed": "no card: the table is closed",
    "deck_check": "no card: the deck check is due",
    "shuffle": "no card: the shuffle is due",
    "load_shoe": "no card: the shoe is being loaded",
    "ready": "no card: betting has not opened",
    "betting": "no card: bets are open (press deal for no more bets first)",
    "result": "no card: the round is complete",
    "fault": "no card: the table is in fault",
    "voided": "no card: the round was voided",
}


class Prompts:
    """The prompt, the lights and the snapshot: the lifecycle part the table and the pit read."""

    def _buttons(self) -> list[str]:
        state = self.state
        if state in ("ready", "betting") and self._waiting_for() is not None:
            return []  # no deal while the card reader is down (a part may add what needs no device)
        if state == "load_shoe":
            return ["shuffle_ack"]
        if state in ("ready", "betting", "result"):
            return ["deal"]
        if state == "fault" and self._voidable():
            return ["void"]
        return []

    def _publish_prompt(self) -> None:
        prompt = self._prompt()
        # Kept as emitted, not copied (this is on every card's path): an emitted event's data is
        # never changed afterwards -- the table journals it as it is when the item is done.
        self._shown_prompt = prompt
        self._emit("prompt", prompt)

    def _publish_prompt_if_changed(self) -> None:
        """Publish the prompt only if it is not the one published last. A prompt is a request:
        the same one again asks again, and whoever follows prompts does it twice. (A shuffler
        that went silent and came back while the card drawn for a card prompt was still on the
        line published that prompt again, and the simulated dealer drew one card more: an
        ``unexpected_card`` fault after the round's result.) A device going down or coming back
        changes the prompt only when the prompt waits for it."""
        if self._prompt() != self._shown_prompt:
            self._publish_prompt()

    def _last_round_note(self) -> str:
        return " This is the last round of the shoe." if self.last_round else ""

    def _prompt(self) -> dict:
        """What the machine expects next: the dealer's lights, the pit, and the simulated dealer read it."""
        waiting = self._waiting_for() if self.state != "fault" else None
        if waiting is not None:
            role, why = waiting
            return {"expect": "device", "hand": None, "buttons": self._buttons(), "device": role,
                    "text": f"Waiting for the {role}: it {why}. Check its cable and power; the table goes on "
                            f"when it is back."}
        return self._prompt_for_state()

    def _prompt_for_state(self) -> dict:
        state = self.state
        prompt: dict[str, Any] = {"expect": "none", "hand": None, "buttons": self._buttons(), "text": ""}
        if state == "dealing":
            prompt.update(self._dealing_prompt())
            prompt["buttons"] = self._buttons()
            return prompt
        last = self._last_round_note()
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
            prompt.update(expect="bets", text="Press deal to open betting." + last)
        elif state == "betting":
            prompt.update(expect="bets", text=f"Bets open for round {self.round}: press deal for no more bets."
                          + last)
        elif state == "result":
            nxt = "the shuffle" if self._shuffle_due() else "the next round"
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
                if fault is not None and fault.held:
                    notes.append(f"{len(fault.held)} card(s) read while the line was down are dealt on resume")
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

    def lights(self, prompt: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The light picture of the game's declared groups: which seats each group lights,
        which dealer buttons are lit (those the prompt accepts), and which seats' buttons."""
        prompt = self._prompt() if prompt is None else prompt
        seats = self._light_seats()
        return {"seats": {g: sorted(set(seats.get(g, []))) for g in self.LIGHT_GROUPS},
                "buttons_lit": list(prompt["buttons"]),
                "seat_buttons_lit": {b: sorted(s) for b, s in self._seat_buttons_lit().items() if s}}

    def _light_seats(self) -> dict[str, list[int]]:
        return {"action": [] if self.action_seat is None else [self.action_seat]}

    def _seat_buttons_lit(self) -> dict[str, list[int]]:
        """Which seats may press which seat button now (the game decides)."""
        return {}

    def snapshot(self) -> dict:
        """The retained state topic: nothing secret (no face-down card, no undealt order)."""
        prompt = self._prompt()
        fault = self.fault if self.state == "fault" else None
        data: dict[str, Any] = {
            "game": self.game,
            "state": self.state,
            "round": self.round,
            "prompt": prompt,
            "player_dealer": None,
            "action_seat": self.action_seat,
            "lights": self.lights(prompt),
            "shoe": {"dealt": self.ledger.drawn, "remaining": self.ledger.remaining,
                     "last_round": self.last_round},
            "fault": None if fault is None else {"code": fault.code, "message": fault.message,
                                                 "cards": [c.code for c in fault.cards],
                                                 "resumable": fault.no_resume is None and fault.unproven is None},
        }
        data.update(self._snapshot_parts())
        data.update(self._snapshot_game())
        return data

    def _snapshot_parts(self) -> dict:
        return {}

    def _no_card_text(self) -> str:
        """Why no card is due now, e.g. ``no card: player stands on 7, banker stands on 6``."""
        return NO_CARD.get(self.state, "no card")

    def _snapshot_game(self) -> dict:
        """Game-specific snapshot fields (without secrets)."""
        return {}
