"""The common round machine (games/round/): machine setup and the player-dealer rotation.

The rotation follows the California sheet's "Player-dealer and Deal": nobody
banks more than two consecutive rounds, the deal is then offered clockwise,
and the game is broken when no other player intervenes.
"""

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
    assert (r.seat, r.offered, r.barred, r.lit_seat) == (6, 7, 6, 7)
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


def test_accepting_then_passing_before_banking_does_not_clear_the_bar():
    """Seat 2 accepts from seat 1 (who banked two) but passes before banking a round: no
    intervening round was played, so when nobody else takes it and the offer reaches seat 1,
    the game is broken rather than giving seat 1 a third consecutive round."""
    r = PlayerDealerRotation(3, 1)
    r.round_played()
    r.round_played()
    r.accept()                                  # seat 2
    events, broken = r.pass_()                  # seat 2 passes voluntarily -> offer to 3
    assert not broken and events[-1] == {"seat": 3, "consecutive": 0, "change": "offered"}
    events, broken = r.pass_()                  # seat 3 declines -> next is seat 1, barred
    assert broken


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
    assert fresh.restore(r.saved()) is None
    assert (fresh.seat, fresh.consecutive, fresh.offered, fresh.barred, fresh.lit_seat) == (6, 2, 7, 6, 7)
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
])
def test_a_saved_rotation_that_does_not_fit_is_refused_and_changes_nothing(saved, why):
    r = PlayerDealerRotation(8, 3)
    assert r.restore(saved).startswith(why)
    assert (r.seat, r.consecutive, r.offered, r.barred) == (3, 0, None, None)
