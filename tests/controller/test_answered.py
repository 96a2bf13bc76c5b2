"""controller.table.answered: which commands count as the same one, and for how long."""

from __future__ import annotations

from controller.table.answered import KEEP_SECONDS, AnsweredCommands
from controller.table.commands import Request

ANSWER = {"ok": True, "request_id": "p-1", "data": {"state": "bets"}, "error": None}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_same_command_id_and_arguments_get_the_first_answer() -> None:
    kept = AnsweredCommands()
    press = Request("button", "p-1", {"button": "deal"})
    assert kept.get(press) is None
    kept.put(press, ANSWER)
    assert kept.get(Request("button", "p-1", {"button": "deal"})) == ANSWER


def test_another_id_other_arguments_or_another_command_are_new() -> None:
    kept = AnsweredCommands()
    kept.put(Request("button", "p-1", {"button": "deal"}), ANSWER)
    assert kept.get(Request("button", "p-2", {"button": "deal"})) is None
    assert kept.get(Request("button", "p-1", {"button": "void"})) is None   # an id reused by hand
    assert kept.get(Request("void", "p-1", {"button": "deal"})) is None
    assert kept.get(Request("button", 1, {"button": "deal"})) is None       # 1 is not "p-1" ...
    kept.put(Request("button", 1, {"button": "deal"}), ANSWER)
    assert kept.get(Request("button", "1", {"button": "deal"})) is None     # ... and "1" is not 1


def test_no_id_or_a_command_harmless_twice_is_never_kept() -> None:
    kept = AnsweredCommands()
    for request in (Request("button", None, {"button": "deal"}), Request("replay", "w-1", {"from": 1, "to": 2}),
                    Request("rebirth", "r", {})):
        kept.put(request, ANSWER)
        assert kept.get(request) is None


def test_an_answer_is_forgotten_after_its_time_and_past_the_bound() -> None:
    clock = Clock()
    kept = AnsweredCommands(keep=3, clock=clock)
    first = Request("open", "o-1", {})
    kept.put(first, ANSWER)
    clock.now += KEEP_SECONDS
    assert kept.get(first) == ANSWER
    clock.now += 0.001
    assert kept.get(first) is None
    for n in range(4):
        kept.put(Request("open", f"o-{n}", {}), ANSWER)
    assert kept.get(Request("open", "o-0", {})) is None   # the oldest of four, past a bound of three
    assert all(kept.get(Request("open", f"o-{n}", {})) == ANSWER for n in (1, 2, 3))
