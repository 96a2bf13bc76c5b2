"""The common round machine (games/round/): machine setup and the player-dealer rotation.

The rotation follows the California sheet's "Player-dealer and Deal": nobody
banks more than two consecutive rounds, the deal is then offered clockwise,
and the game is broken when no other player intervenes.
"""

import json

import pytest

from games.baccarat import BaccaratOptions, BaccaratRound
from games.round import MAX_CONSECUTIVE, STATES, PlayerDealerRotation, RoundMachine


def test_machine_is_queued_without_auto_transitions():
    """DESIGN.md lessons: queued=True, auto_transitions=False, no timers; the contract's states."""
    m = BaccaratRound(BaccaratOptions(), lambda k, d: None)
    assert m.machine.has_queue
    assert not hasattr(m, "to_ready")
    assert set(m.machine.states) == set(STATES)
    assert m.state == "closed" and m.round is None


def test_base_machine_needs_a_dealing_phase():
    """A game subclass supplies the dealing phase; the base alone cannot deal."""
    m = RoundMachine(spec=BaccaratOptions().spec, emit=lambda k, d: None, seats=8)
    with pytest.raises(NotImplementedError):
        m._deal_card(None)  # type: ignore[arg-type]
    assert m.rotation is None and m._buttons() == []


def test_player_dealer_two_consecutive_then_offer():
    """Seat 6 of 8 banks two rounds ('kept' after the first), then seat 7 is offered the deal."""
    r = PlayerDealerRotation(8, 6)
    assert MAX_CONSECUTIVE == 2
    assert r.round_played() == [{"seat": 6, "consecutive": 1, "change": "kept"}]
    assert r.round_played() == [{"seat": 7, "consecutive": 0, "change": "offered"}]
    assert (r.seat, r.offered, r.barred(6), r.lit_seat) == (6, 7, True, 7)
    assert r.accept() == [{"seat": 7, "consecutive": 0, "change": "accepted"}]
    assert r.snapshot() == {"seat": 7, "consecutive": 0, "offered": None}


def test_player_dealer_offer_wraps_clockwise_past_the_last_seat():
    """Seat 8 of 8 banks two rounds: the offer goes to seat 1 (clockwise, seats 1..N)."""
    r = PlayerDealerRotation(8, 8)
    r.round_played()
    assert r.round_played() == [{"seat": 1, "consecutive": 0, "change": "offered"}]


def test_game_broken_when_the_offer_returns_to_the_two_round_holder():
    """4 seats; seat 2 banked two; seats 3, 4, 1 decline: back at seat 2 -> broken."""
    r = PlayerDealerRotation(4, 2)
    r.round_played()
    r.round_played()
    assert r.pass_() == ([{"seat": 3, "consecutive": 0, "change": "passed"},
                          {"seat": 4, "consecutive": 0, "change": "offered"}], False)
    assert r.pass_()[1] is False
    events, broken = r.pass_()
    assert broken and events == [{"seat": 1, "consecutive": 0, "change": "passed"}]
    assert r.offered == 3  # reopened, the offer starts again clockwise of seat 2


def test_a_seat_that_accepted_and_passes_keeps_the_deal_when_nobody_else_takes_it():
    """Seat 2 accepts from seat 1 (who banked two) and passes before banking: it accepted the
    deal, so the game is not broken (rule 5 of games.round.rotation). The offer goes to seat 3,
    which declines; seat 1 is skipped (barred), and the deal is back with seat 2."""
    r = PlayerDealerRotation(3, 1)
    r.round_played()
    r.round_played()
    r.accept()                                  # seat 2
    events, broken = r.pass_()                  # seat 2 passes voluntarily -> offer to 3
    assert not broken and events[-1] == {"seat": 3, "consecutive": 0, "change": "offered"}
    events, broken = r.pass_()                  # seat 3 declines -> seat 1 barred, skipped -> seat 2
    assert not broken
    assert events == [{"seat": 3, "consecutive": 0, "change": "passed"},
                      {"seat": 2, "consecutive": 0, "change": "kept"}]
    assert (r.seat, r.offered) == (2, None)


def test_the_run_does_not_restart_when_the_deal_comes_back():
    """Issue 13, defect 8, hand-worked: two seats; seat 1 banks round A; in round B's betting
    seat 1 passes, seat 2 accepts then passes, the offer returns to seat 1, which accepts. Its
    run is still 1 (A): banking B makes it 2, so the deal is offered to seat 2 before round C.
    Before, seat 1's count restarted at the acceptance and it banked A, B and C."""
    r = PlayerDealerRotation(2, 1)
    assert r.round_played() == [{"seat": 1, "consecutive": 1, "change": "kept"}]     # A
    r.pass_()                                                                         # seat 1 passes
    assert r.accept() == [{"seat": 2, "consecutive": 0, "change": "accepted"}]
    assert r.pass_() == ([{"seat": 2, "consecutive": 0, "change": "passed"},
                          {"seat": 1, "consecutive": 1, "change": "offered"}], False)
    assert r.accept() == [{"seat": 1, "consecutive": 1, "change": "accepted"}]
    assert r.round_played() == [{"seat": 2, "consecutive": 0, "change": "offered"}]   # B: seat 1's 2nd
    assert r.barred(1) and r.pass_breaks_game      # with two seats, seat 2 is the only one left


def test_a_holder_alone_beside_a_barred_seat_keeps_the_deal_at_once():
    """Two seats: seat 2 accepted from seat 1 (barred) and passes: the only other seat may not
    take the deal, so it is back with seat 2 at once, and the game is not broken."""
    r = PlayerDealerRotation(2, 1)
    r.round_played()
    r.round_played()
    r.accept()
    assert r.pass_() == ([{"seat": 2, "consecutive": 0, "change": "passed"},
                          {"seat": 2, "consecutive": 0, "change": "kept"}], False)
    assert r.round_played() == [{"seat": 2, "consecutive": 1, "change": "kept"}]
    assert not r.barred(1)                          # another seat banked: seat 1's run is over


def test_a_voided_round_neither_counts_nor_breaks_the_run():
    """Voids are not seen by the rotation at all: seat 1 banks A, B is voided, seat 1 banks C:
    A and C are two consecutive settled rounds."""
    r = PlayerDealerRotation(4, 1)
    r.round_played()                                # A; B voided: nothing to tell the rotation
    assert r.round_played() == [{"seat": 2, "consecutive": 0, "change": "offered"}]


def test_voluntary_pass_returns_to_a_holder_who_is_not_barred():
    """Seat 1 banked one round, passes; seats 2 and 3 decline: seat 1 keeps the deal."""
    r = PlayerDealerRotation(3, 1)
    r.round_played()
    r.pass_()
    r.pass_()
    events, broken = r.pass_()
    assert not broken
    assert events == [{"seat": 3, "consecutive": 0, "change": "passed"},
                      {"seat": 1, "consecutive": 1, "change": "kept"}]
    assert r.round_played() == [{"seat": 2, "consecutive": 0, "change": "offered"}]  # its 2nd round


def test_rotation_rejects_bad_seats():
    with pytest.raises(ValueError, match="at least 2 seats"):
        PlayerDealerRotation(1, 1)
    with pytest.raises(ValueError, match="not one of seats"):
        PlayerDealerRotation(8, 9)


def test_base_machine_ready_opens_betting_at_once_without_a_player_dealer():
    """A game without a player-dealer never has an offer pending: ready -> betting at once; and
    without shoe play there is no shoe to load: a good shuffle goes straight to ready."""
    events: list[tuple[str, dict]] = []
    spec = BaccaratOptions().spec
    m = RoundMachine(spec=spec, emit=lambda k, d: events.append((k, d)), seats=8)
    m.open()
    m.deck_checked(spec.all_cards(), 0)
    m.shuffled(spec.size)
    assert m.state == "betting" and m.round == 1
    assert [d["to"] for k, d in events if k == "transition"] == ["deck_check", "shuffle", "ready", "betting"]
    assert events[-2] == ("round_start", {"round": 1, "player_dealer": None, "last_of_shoe": False})
    assert [d["expect"] for k, d in events if k == "prompt"][-1] == "bets"
    verdict = m.press("shuffle_ack")  # no shoe to load in a game without shoe play
    assert not verdict.accepted and verdict.reason == "shuffle_ack is not lit in state betting"


def test_device_fault_alarm_codes_are_slugs():
    """Whatever a driver calls itself, the alarm code matches ^[a-z][a-z0-9_]*$ (alarm schema)."""
    events: list[tuple[str, dict]] = []
    m = RoundMachine(spec=BaccaratOptions().spec, emit=lambda k, d: events.append((k, d)), seats=8)
    m.open()
    m.device_fault("Shoe #2", "9-bad", "")
    assert events[-1][1]["code"] == "shoe_2_9_bad" and events[-1][1]["severity"] == "warning"
    m.device_fault("2nd shoe", "x", "")
    assert events[-1][1]["code"] == "device_2nd_shoe_x"


def test_a_saved_rotation_is_taken_up_as_it_was():
    r = PlayerDealerRotation(8, 6)
    r.round_played()
    r.round_played()  # seat 6 banked two: barred, the deal offered to seat 7
    fresh = PlayerDealerRotation(8, 1)
    assert fresh.restore(json.loads(json.dumps(r.saved()))) is None
    assert (fresh.seat, fresh.consecutive, fresh.offered, fresh.barred(6), fresh.lit_seat) == (6, 2, 7, True, 7)
    # seat 7 passes, seat 8 passes, seat 1 passes ... back round to 6: nobody intervened
    broken = [fresh.pass_()[1] for _ in range(7)]
    assert broken == [False] * 6 + [True]


@pytest.mark.parametrize("saved, why", [
    ([1, 2], "not a saved rotation: list"),
    ({"seats": 6, "seat": 1, "consecutive": 0}, "saved for 6 seats, the table now has 8"),
    ({"seats": 8, "seat": 9, "consecutive": 0}, "not a valid rotation"),
    ({"seats": 8, "seat": 2, "consecutive": 3}, "not a valid rotation"),
    ({"seats": 8, "seat": 2, "consecutive": True}, "not a valid rotation"),
    ({"seats": 8, "seat": 2, "consecutive": 1, "offered": 0}, "not a valid rotation"),
    ({"seats": 8, "seat": 2, "run_seat": 2, "run": 3, "offer": None}, "not a valid rotation"),
    ({"seats": 8, "seat": 2, "run_seat": None, "run": 1, "offer": None}, "not a valid rotation"),
    ({"seats": 8, "seat": 2, "run_seat": 2, "run": 1, "offer": {"seat": 3, "origin": 2}}, "not a valid rotation"),
    ({"seats": 8, "seat": 2, "run_seat": 2, "run": 1, "offer": [3]}, "not a valid rotation"),
])
def test_a_saved_rotation_that_does_not_fit_is_refused_and_changes_nothing(saved, why):
    r = PlayerDealerRotation(8, 3)
    assert r.restore(saved).startswith(why)
    assert (r.seat, r.consecutive, r.offered, r.run_seat) == (3, 0, None, None)


@pytest.mark.parametrize("saved, expected", [
    # holder 6 banked two and the deal is offered to 7 (a journal from before runs were kept)
    ({"seats": 8, "seat": 6, "consecutive": 2, "offered": 7, "origin": 6, "barred": 6},
     {"seat": 6, "run_seat": 6, "run": 2, "offer": {"seat": 7, "origin": 6, "forced": True}}),
    # seat 7 accepted from 6, which stays barred
    ({"seats": 8, "seat": 7, "consecutive": 0, "offered": None, "origin": None, "barred": 6},
     {"seat": 7, "run_seat": 6, "run": 2, "offer": None}),
    # holder 3 banked one, passed voluntarily, offered to 4
    ({"seats": 8, "seat": 3, "consecutive": 1, "offered": 4, "origin": 3, "barred": None},
     {"seat": 3, "run_seat": 3, "run": 1, "offer": {"seat": 4, "origin": 3, "forced": False}}),
])
def test_a_rotation_saved_before_runs_were_kept_is_taken_up(saved, expected):
    r = PlayerDealerRotation(8, 1)
    assert r.restore(saved) is None
    assert r.saved() == {"seats": 8, **expected}
