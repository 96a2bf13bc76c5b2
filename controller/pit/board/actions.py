"""What a board's user may change, from the board (issue 22): acknowledge an alarm, void or resume
a round. Each is a request the web side has checked already (a session, its CSRF token, the
origin, the user's role: controller.pit.board.web); here it is checked against the floor as the
board sees it now and handed to the pit service, which publishes it.

- **An acknowledgement** names an alarm open on the board now, by its table and seq; its code is
  the board's, not the request's. It also names the acknowledgement it replaces (none for the
  first): one sent again (a replayed request, a second browser of the same person, two people at
  once) finds the alarm owned already and is refused with who owns it, rather than taking it over
  unseen. The acknowledgement goes out on ``<prefix>/_pit/ack`` and reaches every board, this one
  too, through the broker; it never closes the alarm (the table's going on does).
- **A void or a resume** names the round its user saw: the board refuses it when the table has
  gone on since, and the table refuses it too if it arrives after the table went on
  (cmd/void ``round``). The table records it as ``by: pit:<user>`` in its event, so the archive
  says who.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Protocol

from controller.pit import acks
from controller.pit.board.picture import Picture
from controller.pit.board.users import NAME, Users
from controller.shared.schemas import TABLE_ID

log = logging.getLogger(__name__)

REASON = 200
"""Characters a void's reason may have (docs/schemas command.json)."""
COMMAND_TIMEOUT = 8.0
"""Seconds a board waits for a table's reply to its void or resume."""


class PitLink(Protocol):
    """What the board needs of its pit service (controller.pit.service.PitService)."""

    def acknowledge(self, ack: acks.Ack, timeout: float = ...) -> None: ...

    def command(self, table: str, name: str, args: dict[str, Any], timeout: float = ...) -> dict[str, Any]: ...


@dataclass
class Refusal(Exception):
    """A request the board will not carry out: its HTTP status and why, in one line."""

    status: HTTPStatus
    why: str


Form = dict[str, list[str]]


def _one(form: Form, key: str) -> str:
    values = form.get(key, [""])
    return values[0] if values else ""


def _table(form: Form) -> str:
    table = _one(form, "table")
    if not TABLE_ID.fullmatch(table):
        raise Refusal(HTTPStatus.BAD_REQUEST, "table: must be a table id")
    return table


def _number(form: Form, key: str) -> int:
    text = _one(form, key)
    if not text.isdigit() or len(text) > 18 or int(text) < 1:
        raise Refusal(HTTPStatus.BAD_REQUEST, f"{key}: must be a positive whole number")
    return int(text)


def acknowledge(picture: Picture, link: PitLink | None, users: Users | None, user: str, form: Form) -> dict[str, Any]:
    """Acknowledge the alarm the form names, as ``user``; what was sent, or :class:`Refusal`."""
    table, seq = _table(form), _number(form, "seq")
    note = _one(form, "note").strip()
    assignee = _one(form, "assignee").strip()
    replaces = _one(form, "replaces")
    if len(note) > acks.NOTE or "\0" in note:
        raise Refusal(HTTPStatus.BAD_REQUEST, f"note: at most {acks.NOTE} characters")
    if assignee and (not NAME.fullmatch(assignee) or (users is not None and users.get(assignee) is None)):
        raise Refusal(HTTPStatus.BAD_REQUEST, "assignee: must be the name of a user of this board")
    alarm = picture.open_alarm(table, seq)
    if alarm is None:
        raise Refusal(HTTPStatus.CONFLICT, f"table {table} has no open alarm {seq} (it has cleared, or never was): "
                                           f"nothing was acknowledged")
    owner = alarm["ack"]
    if (owner["id"] if owner else "") != replaces:
        raise Refusal(HTTPStatus.CONFLICT, "this alarm was acknowledged meanwhile" + (
            f" by {owner['by']}" if owner else "") + ": look at it again before acknowledging it")
    if link is None:
        raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "this board has no pit service to send it with")
    ack = acks.make(table, seq, alarm["code"], user, note=note or None, assignee=assignee or None)
    try:
        link.acknowledge(ack)
    except Exception as exc:   # the service's CommandFailed: the broker is away
        raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, str(exc)) from None
    log.info("pit board: %s acknowledged alarm %d (%s) of table %s", user, seq, alarm["code"], table)
    return {"ok": True, "ack": ack.to_json()}


def command(picture: Picture, link: PitLink | None, user: str, name: str, form: Form) -> dict[str, Any]:
    """Send ``cmd/<name>`` (void, resume) for the round the form names, as ``user``; the table's
    reply, or :class:`Refusal` (the table's own refusal is one too, with its words)."""
    table, number = _table(form), _number(form, "round")
    now = picture.now(table)
    if now is None:
        raise Refusal(HTTPStatus.NOT_FOUND, f"no table {table} on this board")
    if now["online"] is not True:
        raise Refusal(HTTPStatus.CONFLICT, f"table {table} is offline: nothing was sent")
    if now["round"] != number:
        raise Refusal(HTTPStatus.CONFLICT, f"table {table} is at round {now['round']} now, not {number}: look at it "
                                           f"again; nothing was sent")
    args: dict[str, Any] = {"id": f"board-{uuid.uuid4().hex[:16]}", "user": user, "round": number}
    if name == "void":
        reason = " ".join(_one(form, "reason").split())
        if not reason or len(reason) > REASON:
            raise Refusal(HTTPStatus.BAD_REQUEST, f"reason: say why, in 1 to {REASON} characters")
        args["reason"] = reason
    elif now["state"] != "fault":
        raise Refusal(HTTPStatus.CONFLICT, f"table {table} is not in fault (it is {now['state']}): there is nothing "
                                           f"to resume")
    if link is None:
        raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "this board has no pit service to send it with")
    try:
        reply = link.command(table, name, args, COMMAND_TIMEOUT)
    except Exception as exc:   # the service's CommandFailed: not sent, or no reply in time
        raise Refusal(HTTPStatus.GATEWAY_TIMEOUT, str(exc)) from None
    if not reply.get("ok"):
        raise Refusal(HTTPStatus.CONFLICT, f"table {table} refused: {str(reply.get('error'))[:300]}")
    log.info("pit board: %s sent cmd/%s for round %d of table %s", user, name, number, table)
    return {"ok": True, "reply": reply}
