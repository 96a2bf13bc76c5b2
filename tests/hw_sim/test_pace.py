"""The simulated dealer's pace (hw_sim.pace): its arithmetic, its parsing, and a wait that a stop or
a newer prompt ends at once."""

from __future__ import annotations

import statistics
import threading

import pytest

from games.decks import standard
from hw_sim.dealer import SimDealer
from hw_sim.pace import HUMAN, JITTER, Pace, PaceError, parse_pace
from hw_sim.physical import Table

BACCARAT_CARDS = 8 * 52


def baccarat_round(cards: int) -> list[dict]:
    """The prompts of one baccarat round as the dealer acts on them: bets, the cards, settle."""
    return [{"expect": "bets"}, *[{"expect": "card"}] * cards, {"expect": "settle"}]


def test_a_baccarat_round_takes_about_a_minute_at_human_pace() -> None:
    """Betting 25 s, 1.5 s a card, 22 s to settle and pay: a round of 4 to 6 cards means 53 to 56 s,
    inside the stated 45 to 75 s."""
    pace = Pace("human").for_table(seed=1, cards=BACCARAT_CARDS)
    means = {n: sum(pace.mean(p) for p in baccarat_round(n)) for n in (4, 5, 6)}
    assert means == {4: 53.0, 5: 54.5, 6: 56.0}
    assert all(45 <= m <= 75 for m in means.values())
    # drawn with the jitter: every round within ±30 % of its mean, and 500 rounds average out near it
    drawn = [sum(pace.draw(p) for p in baccarat_round(5)) for _ in range(500)]
    assert all(54.5 * (1 - JITTER) <= d <= 54.5 * (1 + JITTER) for d in drawn)
    assert 52 <= statistics.fmean(drawn) <= 57
    assert min(drawn) < 50 < 59 < max(drawn)   # the rounds differ: a human is not a metronome


def test_the_shoe_s_work_grows_with_the_deck_and_an_offer_is_quicker_than_betting() -> None:
    eight = Pace("human").for_table(seed=1, cards=BACCARAT_CARDS)
    one = Pace("human").for_table(seed=1, cards=52)
    assert eight.mean({"expect": "deck_check"}) == pytest.approx(20 + 0.1 * 416)    # 61.6 s
    assert eight.mean({"expect": "shuffle"}) == pytest.approx(20 + 0.25 * 416)      # 124 s
    assert one.mean({"expect": "shuffle"}) == pytest.approx(33.0)
    assert eight.mean({"expect": "bets", "seat": 3}) == HUMAN["offer"] < HUMAN["bets"]
    # what the dealer only reads costs no time
    assert eight.mean({"expect": "open"}) == eight.mean({"expect": "device"}) == eight.mean({}) == 0.0


def test_tables_with_other_seeds_drift_apart_and_a_seed_repeats() -> None:
    def run(seed: int) -> list[float]:
        pace = Pace("human").for_table(seed=seed, cards=BACCARAT_CARDS)
        return [pace.draw(p) for p in baccarat_round(5) * 20]
    assert run(1) == run(1)
    assert run(1) != run(2)


def test_fast_and_a_number_of_seconds() -> None:
    assert str(parse_pace("fast")) == "fast" and parse_pace("fast").draw({"expect": "bets"}) == 0.0
    fixed = parse_pace("2.5")
    assert str(fixed) == "2.5s"
    assert {fixed.draw({"expect": e}) for e in ("bets", "card", "shuffle", "settle")} == {2.5}   # no jitter
    assert parse_pace("2s").seconds == 2.0
    assert parse_pace("0").mode == "fast"
    assert parse_pace(0.005).seconds == 0.005   # the tests' and the benchmark's float
    assert str(parse_pace(" Human ")) == "human"


@pytest.mark.parametrize("text, why", [
    ("slow", "pace 'slow': human, fast or a number of seconds (e.g. 2 or 0.5)"),
    ("", "pace '': human, fast or a number of seconds"),
    ("-1", "pace '-1': a number of seconds must be 0 or more"),
    ("nan", "pace 'nan': a number of seconds must be 0 or more"),
    ("inf", "pace 'inf': a number of seconds must be 0 or more"),
    ("4000", "pace '4000': at most 3600 seconds between actions"),
])
def test_a_bad_pace_is_named(text: str, why: str) -> None:
    with pytest.raises(PaceError) as caught:
        parse_pace(text)
    assert str(caught.value).startswith(why)


def _dealer(pace: str) -> tuple[SimDealer, list[str]]:
    pressed: list[str] = []
    dealer = SimDealer(Table(standard(1), seed=1), {}, {}, lambda button, seat=None: pressed.append(button),
                       pace=parse_pace(pace))
    return dealer.start(), pressed


def test_a_stop_ends_the_wait_at_once() -> None:
    """Half an hour of betting time: stop() does not wait it out (the thread has ended when stop returns)."""
    dealer, pressed = _dealer("1800")
    waiting = threading.Event()
    dealer.before_act.append(lambda expect, _round: waiting.set())
    dealer.on_event({"kind": "prompt", "seq": 1, "data": {"expect": "bets", "buttons": ["deal"]}})
    assert waiting.wait(10)
    dealer.stop()
    assert dealer._thread is not None and not dealer._thread.is_alive()
    assert pressed == []


def test_a_newer_prompt_ends_the_wait_and_the_old_one_is_not_acted_on() -> None:
    dealer, pressed = _dealer("1800")
    reached = {"bets": threading.Event(), "settle": threading.Event()}
    dealer.before_act.append(lambda expect, _round: reached[expect].set())
    dealer.on_event({"kind": "prompt", "seq": 1, "data": {"expect": "bets", "buttons": ["deal"]}})
    assert reached["bets"].wait(10)          # the dealer is taking his betting time
    dealer.on_event({"kind": "prompt", "seq": 2, "data": {"expect": "settle", "buttons": ["deal"]}})
    assert reached["settle"].wait(10)        # ... and gave it up for the newer prompt
    dealer.stop()
    assert pressed == []           # the bets prompt was not acted on; the settle's wait ended with the stop


def test_a_failing_hook_costs_no_prompt(caplog) -> None:
    dealer, pressed = _dealer("fast")
    done = threading.Event()

    def broken(_expect: str, _round: int | None) -> None:
        raise KeyError("shoe")
    dealer.before_act.append(broken)
    dealer.press = lambda button, seat=None: (pressed.append(button), done.set())
    dealer.on_event({"kind": "prompt", "seq": 1, "data": {"expect": "bets", "buttons": ["deal"]}})
    assert done.wait(10)
    dealer.stop()
    assert pressed == ["deal"]
    assert "a before_act hook failed" in caplog.text
