"""Fault specs (``NAME@WHEN``) and the scheduler that fires them from the dealer's prompts."""

from __future__ import annotations

import threading

import pytest

from hw_sim.faults import (
    FAULTS,
    FaultScheduler,
    FaultSpec,
    FaultSpecError,
    check_faults,
    check_table_faults,
    parse_fault,
)
from hw_sim.table_config import sim_table_raw

KNOWN = ", ".join(sorted(FAULTS))


@pytest.mark.parametrize(("text", "spec"), [
    ("jam@shuffle", FaultSpec("jam", "shuffler", "step", step="shuffle")),
    ("door_open@deck_check", FaultSpec("door_open", "shuffler", "step", step="deck_check")),
    ("misread@card:12", FaultSpec("misread", "shoe", "step", step="card", count=12)),
    ("bad_checksum@card:4", FaultSpec("bad_checksum", "shoe", "step", step="card", count=4)),
    ("double_card@card:30", FaultSpec("double_card", "shoe", "step", step="card", count=30)),
    ("unplug@round:3", FaultSpec("unplug", "shoe", "round", count=3, duration=1.0)),
    ("heartbeat@round:2", FaultSpec("heartbeat", "shoe", "round", count=2, duration=5.0)),
    ("heartbeat@round:2+2.5s", FaultSpec("heartbeat", "shoe", "round", count=2, duration=2.5)),
    ("garbage@5s", FaultSpec("garbage", "shoe", "time", seconds=5.0)),
    ("shuffler.garbage@0.5s", FaultSpec("garbage", "shuffler", "time", seconds=0.5)),
    ("shuffler.unplug@shuffle:2+3s", FaultSpec("unplug", "shuffler", "step", step="shuffle", count=2,
                                               duration=3.0)),
    ("shoe.jam@settle", FaultSpec("jam", "shoe", "step", step="settle")),
    ("die_on_edge@dice:2", FaultSpec("die_on_edge", "cup", "step", step="dice", count=2)),
    ("stall@dice", FaultSpec("stall", "cup", "step", step="dice")),
    ("malformed_report@round:3", FaultSpec("malformed_report", "cup", "round", count=3)),
    ("cup.unplug@dice:4+0.5s", FaultSpec("unplug", "cup", "step", step="dice", count=4, duration=0.5)),
])
def test_good_specs(text, spec):
    assert parse_fault(text) == spec
    assert parse_fault(str(spec)) == spec          # str() is a spec again


@pytest.mark.parametrize(("text", "message"), [
    ("jam", "expected NAME@WHEN (e.g. jam@shuffle, misread@card:12"),
    ("@5s", f"the fault name is missing before '@'; known faults: {KNOWN}"),
    ("fire@5s", f"unknown fault 'fire'; known faults: {KNOWN}"),
    ("dice.jam@5s", "unknown device 'dice'; devices: shoe, shuffler, cup"),
    ("cup.jam@5s", "jam is a fault of the shuffler or shoe, not of the cup"),
    ("shoe.stall@dice", "stall is a fault of the cup, not of the shoe"),
    ("shuffler.misread@card:3", "misread is a fault of the shoe, not of the shuffler"),
    ("jam@", "WHEN is missing after '@'"),
    ("jam@lunch", "unknown moment 'lunch': WHEN is SECONDSs (e.g. 5s), round:N, or a step deck_check, "
                  "shuffle, load_shoe, bets, card, hand, dice, settle, fault with an optional :N"),
    ("misread@card:0", "the count after ':' must be a whole number from 1, not '0'"),
    ("misread@card:x", "the count after ':' must be a whole number from 1, not 'x'"),
    ("misread@card:", "the count after ':' must be a whole number from 1, not ''"),
    ("misread@card:1.5", "the count after ':' must be a whole number from 1, not '1.5'"),
    ("unplug@round", "round needs its number: round:N"),
    ("unplug@round:-1", "the count after ':' must be a whole number from 1, not '-1'"),
    ("garbage@5", "a time needs its unit, seconds: 5s, not '5'"),
    ("garbage@-5s", "a time must be 0 s or more, not '-5s'"),
    ("garbage@5xs", "a time is a number of seconds such as 5s or 0.5s, not '5xs'"),
    ("garbage@1e999s", "a time must be 0 s or more, not '1e999s'"),
    ("jam@shuffle+2s", "jam takes no duration (only dropout, heartbeat, unplug do)"),
    ("unplug@round:3+2", "a duration needs its unit, seconds: 2s, not '2'"),
    ("unplug@round:3+", "a duration needs its unit, seconds: 5s, not ''"),
    ("unplug@round:3+0s", "the duration must be more than 0 s, not '0s'"),
])
def test_bad_specs_say_what_is_wrong(text, message):
    with pytest.raises(FaultSpecError) as err:
        parse_fault(text)
    assert str(err.value).startswith(f"fault spec {text!r}: {message}"), str(err.value)


class FakeDevice:
    def __init__(self, name: str, log: list) -> None:
        self.name, self.log = name, log

    def inject(self, fault: str, **kw) -> None:
        self.log.append((self.name, fault, kw))


def _scheduler(*specs: str) -> tuple[FaultScheduler, list]:
    log: list = []
    devices = {"shoe": FakeDevice("shoe", log), "shuffler": FakeDevice("shuffler", log)}
    return FaultScheduler(specs, devices), log


def _play(sched: FaultScheduler, log: list, prompts: list[tuple[str, int | None]]) -> list[tuple[int, tuple]]:
    """Feed prompts; which injections happened before which prompt (its index)."""
    fired = []
    for i, (expect, rnd) in enumerate(prompts):
        before = len(log)
        sched.before_prompt(expect, rnd)
        fired += [(i, entry) for entry in log[before:]]
    return fired


SHOE_START = [("deck_check", None), ("shuffle", None), ("shuffle", None), ("load_shoe", None)]
ROUND = ["bets", "card", "card", "card", "card", "settle"]


def _rounds(first: int, n: int, with_round: bool = True) -> list[tuple[str, int | None]]:
    out = []
    for r in range(first, first + n):
        out += [(e, r if with_round else None) for e in ROUND]
    return out


@pytest.mark.parametrize("with_round", [True, False])
def test_steps_draws_and_rounds_are_counted_from_the_prompts(with_round):
    sched, log = _scheduler("door_open@deck_check", "jam@shuffle:2", "misread@card:6", "unplug@round:3+0.5s",
                            "bad_checksum@settle:2")
    prompts = SHOE_START + _rounds(7, 4, with_round)   # the controller numbers rounds from 7 (a journal)
    fired = _play(sched, log, prompts)
    # 0 deck_check, 1-2 shuffle, 3 load_shoe; round 1 of the run: 4 bets, 5-8 draws 1-4, 9 settle;
    # round 2: 10 bets, 11-14 draws 5-8, 15 settle; round 3: 16 bets, 17 its first draw
    assert fired == [
        (0, ("shuffler", "door_open", {"next_job": True})),
        (2, ("shuffler", "jam", {"next_job": True})),
        (12, ("shoe", "misread", {})),
        (15, ("shoe", "bad_checksum", {})),
        (17, ("shoe", "unplug", {})),
    ]
    assert [str(s) for s in sched.fired] == ["door_open@deck_check", "jam@shuffle:2", "misread@card:6",
                                             "bad_checksum@settle:2", "unplug@round:3+0.5s"]
    sched.stop()   # the replug timer is cancelled


def test_a_round_resumed_after_a_fault_is_not_counted_twice():
    sched, log = _scheduler("garbage@round:2")
    _play(sched, log, [("bets", 1), ("card", 1), ("fault", 1), ("card", 1), ("card", 1), ("settle", 1)])
    assert log == []
    _play(sched, log, [("bets", 2), ("card", 2)])
    assert log == [("shoe", "garbage", {})]


def test_timed_faults_and_returns_run_on_the_simulators_clock():
    """Each timed fault and its return fire on their own timers: waited for as they come (each
    injection notifies), not for a fixed time -- on a loaded machine the 0.01 s garbage once fired
    after the 0.05 s recovery the test waited for, and the replug after a fixed 0.2 s."""
    sched, log = _scheduler("garbage@0.01s", "heartbeat@0s+0.05s", "shuffler.unplug@card:1+0.02s")
    came = threading.Condition()
    for device in sched.devices.values():
        def inject(fault: str, _original=device.inject, **kw) -> None:
            _original(fault, **kw)
            with came:
                came.notify_all()
        device.inject = inject
    wanted = [("shoe", "garbage", {}), ("shoe", "hang", {}), ("shoe", "recover", {}), ("shuffler", "unplug", {}),
              ("shuffler", "replug", {})]
    sched.start()
    sched.before_prompt("card", 1)
    with came:
        assert came.wait_for(lambda: all(w in log for w in wanted), 10), log
    sched.stop()
    assert log.index(("shoe", "hang", {})) < log.index(("shoe", "recover", {}))
    assert log.index(("shuffler", "unplug", {})) < log.index(("shuffler", "replug", {}))


# --- a fault that could never fire is refused at start ---------------------------------------------

def _devices(game: str) -> dict[str, str]:
    return {name: dev["kind"] for name, dev in sim_table_raw(game)["devices"].items()}


@pytest.mark.parametrize(("game", "text", "why"), [
    ("pai_gow_tiles", "unplug@round:3", "fault unplug@round:3: the table has no shoe (its devices: cup), so it can "
                                        "never happen; cup.unplug@round:3 names the cup"),
    ("three_card_poker", "misread@card:3", "fault misread@card:3: the table has no shoe (its devices: shuffler), so "
                                           "it can never happen"),
    ("baccarat", "die_on_edge@dice", "fault die_on_edge@dice: the table has no cup (its devices: shoe, shuffler), "
                                     "so it can never happen"),
    ("pai_gow_tiles", "jam@shuffle", "fault jam@shuffle: the table has no shuffler (its devices: cup), so it can "
                                     "never happen"),
    ("holdem", "jam@card:2", "fault jam@card:2: Hold'em (Texas Hold'em, Hold'em Hi/Lo, Pineapple, Crazy Pineapple, "
                             "Omaha) never prompts the dealer for card, so it can never happen (its steps: "
                             "deck_check, shuffle, bets, settle, fault)"),
    ("joker_seven", "garbage@load_shoe", "fault garbage@load_shoe: Joker Seven never prompts the dealer for "
                                         "load_shoe, so it can never happen (its steps: deck_check, shuffle, bets, "
                                         "card, settle, fault)"),
    ("pai_gow_tiles", "cup.unplug@shuffle", "fault cup.unplug@shuffle: Pai Gow Tiles never prompts the dealer for "
                                            "shuffle, so it can never happen (its steps: bets, dice, settle, fault)"),
    ("baccarat", "unplug@hand:2", "fault unplug@hand:2: Commission-Free Baccarat never prompts the dealer for hand"),
    ("three_card_poker", "shuffler.unplug@card", "fault shuffler.unplug@card: Three Card Poker never prompts the "
                                                 "dealer for card"),
    ("baccarat", "biased_hands@round:2", "fault biased_hands@round:2: the shuffler is a shuffler, which has no "
                                         "biased_hands fault (a fault of a hand_shuffler)"),
])
def test_a_fault_that_could_never_fire_is_refused(game: str, text: str, why: str) -> None:
    with pytest.raises(FaultSpecError) as caught:
        check_table_faults([text], game, _devices(game))
    assert str(caught.value).startswith(why), str(caught.value)
    assert "\n" not in str(caught.value)


def test_every_refusal_in_one_line_and_a_device_of_another_kind() -> None:
    with pytest.raises(FaultSpecError) as caught:
        check_table_faults(["misread@card:1", "jam@shuffle", "stall@5s"], "three_card_poker", _devices("three_card_poker"))
    assert str(caught.value) == ("fault misread@card: the table has no shoe (its devices: shuffler), so it can never "
                                 "happen; fault stall@5s: the table has no cup (its devices: shuffler), so it can "
                                 "never happen")
    with pytest.raises(FaultSpecError) as caught:
        check_faults(["misread@card:1"], {"shoe": "shuffler"})
    assert str(caught.value) == ("fault misread@card: the shoe is a shuffler, which has no misread fault "
                                 "(a fault of a card_shoe)")


@pytest.mark.parametrize(("game", "text"), [
    ("three_card_poker", "shuffler.unplug@round:15+300s"),   # issue 21: it was accepted and never fired
    ("three_card_poker", "shuffler.unplug@hand:2"),
    ("pai_gow_tiles", "cup.unplug@round:2"),
    ("holdem", "shuffler.garbage@round:2"),
    ("baccarat", "unplug@load_shoe"),
    ("hot_action", "cup.stall@dice:3"),
    ("double_hand", "shuffler.count_wrong@round:2"),
    ("three_card_poker", "biased_hands@round:15"),
    ("baccarat", "wrong_decks@deck_check"),   # _devices: its demo, from a hand-forming shuffler
])
def test_faults_a_table_can_have_are_accepted(game: str, text: str) -> None:
    assert check_table_faults([text], game, _devices(game)) == [parse_fault(text)]


@pytest.mark.parametrize(("first", "rest"), [
    ("hand", ["hand", "hand", "settle"]),          # Three Card Poker from a hand-forming shuffler
    ("press", ["press", "decision", "settle"]),    # the poker room: the dealer presses at each step
    ("dice", ["settle"]),                          # Pai Gow Tiles
])
def test_a_round_is_counted_at_its_first_dealing_prompt_whatever_deals_it(first: str, rest: list[str]) -> None:
    sched, log = _scheduler("shuffler.unplug@round:3+300s")
    prompts = [(e, r) for r in (1, 2, 3) for e in ["bets", first, *rest]]
    fired = _play(sched, log, prompts)
    assert fired == [(2 * (2 + len(rest)) + 1, ("shuffler", "unplug", {}))]
    sched.stop()


def test_a_fault_of_a_device_the_rig_lacks_costs_the_dealer_nothing(caplog) -> None:
    """Refused at start; and should one slip through, firing it logs, never raises into the dealer's hook."""
    sched = FaultScheduler(["unplug@round:1"], {})
    sched.before_prompt("card", 1)
    assert "injecting unplug@round:1 failed" in caplog.text
    sched.stop()
