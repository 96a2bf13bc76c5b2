"""The pit's commands as the table carries them out, and their replies.

A command arrives on the inbox like any input (``cmd/<name>``); it is checked against its schema
(controller.table.commands), answered once however often it comes (a QoS 1 redelivery, or the pit
sending it again: controller.table.answered), carried out on the round machine or the table, and
answered on ``.../cmd/<name>/reply`` and in a ``command`` event (the audit trail: who asked for
what, and whether it was done). A machine's refusal (:class:`~games.round.Refused`) is the
reply's error, never the end of the loop. Replies go out after the item's events, so a pit that
reads a reply has the events it caused already.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from controller.shared.schemas import show
from controller.table.answered import AnsweredCommands
from controller.table.commands import CommandError, Request, parse
from controller.table.inbox import Command
from controller.table.publisher import Publisher
from games import registry
from games.round import Refused

if TYPE_CHECKING:
    from controller.table.loop import Table

log = logging.getLogger(__name__)

RESETS = ("dice_reset", "integrity_reset")
"""Commands whose ``command`` event says what they set aside (``reset``: the reply's cup or wager and counts)."""


class Requests:
    """The commands of one table, and the replies owed for the item being handled."""

    def __init__(self, table: Table) -> None:
        self.table = table
        try:
            self.game_commands = dict(registry.get(table.config.table.game).commands)
        except KeyError:  # a game the registry does not know fails at build_machine, with its reason
            self.game_commands = {}
        self._answered = AnsweredCommands()  # a command that comes twice is carried out once
        self._replies: list[tuple[Command, dict[str, Any]]] = []

    def handle(self, command: Command) -> None:
        try:
            request = parse(command, remote_buttons=self.table.config.dealer.remote_buttons,
                            game=self.game_commands)
        except CommandError as exc:
            self._answer(command, exc.request_id, error=str(exc))
            return
        if request.name == "button":
            bad = self._bad_button(request.args)
            if bad:
                self._answer(command, request.id, error=f"bad button command: {bad}")
                return
        again = self._answered.get(request)
        if again is not None:  # delivered twice, or sent again: answered, not carried out twice
            log.info("command %s id %s came again: answered as the first time, not carried out again",
                     request.name, show(request.id, 40))
            self._replies.append((command, again | {"repeated": True}))
            return
        try:
            data = self.run(request)
        except Refused as exc:
            answer = self._answer(command, request.id, error=f"refused: {exc}")
        except Exception:
            log.exception("command %s failed", request.name)
            answer = self._answer(command, request.id,
                                  error="internal error: the command failed; see the controller's log")
        else:
            answer = self._answer(command, request.id, data=data)
        self._answered.put(request, answer)

    def _bad_button(self, args: Mapping[str, Any]) -> str | None:
        """A ``cmd/button`` naming a button the game does not have is a malformed command
        (the game's vocabulary, from its machine); a known one out of place is the machine's
        refusal, in the reply's data."""
        machine = self.table.machine
        assert machine is not None
        names = (*machine.BUTTONS, *machine.SEAT_BUTTONS)
        if args["button"] not in names:   # what was sent is not quoted back (controller.table.commands)
            quoted = ", ".join(f'"{n}"' for n in names)
            return f"button: must be one of {quoted}"
        return None

    def run(self, request: Request) -> dict[str, Any]:
        """Carry a checked request out; the reply's data, or :class:`Refused` saying why not."""
        table = self.table
        machine = table.machine
        assert machine is not None
        name, args = request.name, request.args
        extra: dict[str, Any] = {}
        if name == "open":
            waiting = table.devices.unsynced()
            if waiting:
                raise Refused(f"{', '.join(waiting)} not answered yet since the controller started; "
                              f"open again in a moment")
            if machine.state != "closed":
                raise Refused(f"the table is already open (state {machine.state})")
            # Said before the machine moves: a game without cards opens straight into its first
            # round, whose start must not come before the table's opening (issue 24).
            table.emit("table", {"status": "open"})
            machine.open()
        elif name == "close":
            machine.close()
            table.emit("table", {"status": "closed"})
        elif name == "void":   # the board names its user: the void is recorded as theirs (issue 22)
            _same_round(machine.round, args)
            machine.void(args["reason"], by=_by(args))
        elif name == "resume":
            _same_round(machine.round, args)
            machine.resume(by=_by(args))
        elif name == "rebirth":
            extra = table.sessions.rebirth()
        elif name == "replay":
            extra = table.outbox.queue_replay(args["from"], args["to"], args.get("requester", ""))
        elif name == "button":
            verdict = table.press(args["button"], args.get("seat"))
            extra = {"accepted": verdict.accepted, "reason": verdict.reason}
        elif name == "dice_reset":
            extra = table.devices.reset_dice(args["cup"])
        elif name == "integrity_reset":
            extra = table.integrity.reset(args)
        elif name in self.game_commands:
            extra = machine.command(name, args)   # the game's own (Refused when out of place)
        return {"state": machine.state, "round": machine.round, **extra}

    def _answer(self, command: Command, request_id: Any, *, data: dict | None = None,
                error: str | None = None) -> dict[str, Any]:
        ok = error is None
        event: dict[str, Any] = {"name": command.name[:64], "id": request_id, "ok": ok, "error": error}
        if ok and command.name in RESETS and data is not None:
            # What was set aside, for the audit trail (`tablectl report --only integrity`): which cup
            # or wager, and how many throws or rounds. Counts only: nothing secret.
            event["reset"] = {k: v for k, v in data.items() if k not in ("state", "round")}
        self.table.emit("command", event)
        answer = {"ok": ok, "request_id": request_id, "data": data, "error": error}
        self._replies.append((command, answer))
        return answer

    def send_replies(self, publisher: Publisher) -> None:
        """After the item's events: each reply to its ``.../reply`` topic (paho queues it until
        connected)."""
        for command, reply in self._replies:
            publisher.reply(command, **reply)
        self._replies.clear()


def _same_round(current: int | None, args: Mapping[str, Any]) -> None:
    """A void or resume naming a round (the board names the round its user saw) is carried out only
    on that round: one that arrives late, or again, after the table went on never touches the next."""
    if "round" in args and args["round"] != current:
        now = f"round {current} is the table's now" if current is not None else "the table has no round now"
        raise Refused(f"round: the command is for another round than the table's ({now}); nothing was done")


def _by(args: Mapping[str, Any]) -> str:
    """``pit:<user>`` for a command that names the pit user who sent it (checked by the command's
    schema: docs/schemas/defs.json ``pit_user``), else ``pit``."""
    user = args.get("user")
    return f"pit:{user}" if user else "pit"
