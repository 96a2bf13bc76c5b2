"""A battery of dice-cup faults, then the table deals on (issue 19): malformed, repeated and
out-of-order reports, unplug storms and stalls, fired at the simulated dealer's shakes, bets,
settles and draws, on the simulated USB cup read by the controller's real pyusb driver through the
simulator's backend, with a real Mosquitto between the table and the pit. Once the last fault has
fired, the table deals further rounds to a result: every wait the battery left has a prompt that
ends it (the simulated dealer knows no game and only follows prompts).

Hot Action Blackjack (a card round after the shake) and Pai Gow Tiles (a press after it) take the
same battery."""

from __future__ import annotations

import random

import pytest

MORE = 5
"""Rounds to a result after the battery."""

SHAKES = 22
"""The battery's faults are fired at the dealer's 2nd to this many shakes (and as many bets and
settles)."""


def battery(seed: int) -> list[str]:
    """Seeded fault specs (hw_sim.faults): one at each of the dealer's shakes from the second (each
    kind at least once), at about half his bets and settles, and a storm of unplugs at three
    shakes in a row. (Steps both games have: Pai Gow Tiles draws no card.)"""
    rng = random.Random(seed)
    at_shake = ["malformed_report", "repeat_report", "stale_report", "stall", "die_on_edge", "die_unreadable",
                "lifted_early", "unplug"]
    between = ["repeat_report", "stale_report", "stall", "unplug"]
    specs: list[str] = []
    first = rng.sample(at_shake, len(at_shake))   # every kind at least once, at the first shakes
    storm = rng.randrange(len(first) + 2, SHAKES - 2)
    for n in range(2, SHAKES + 1):
        for step, kinds in (("dice", at_shake), ("bets", between), ("settle", between)):
            if step != "dice" and rng.random() < 0.5:
                continue
            kind = ("unplug" if storm <= n < storm + 3 else first.pop() if first else rng.choice(kinds)) \
                if step == "dice" else rng.choice(kinds)
            specs.append(f"cup.unplug@{step}:{n}+{rng.uniform(0.02, 0.4):.2f}s" if kind == "unplug"
                         else f"{kind}@{step}:{n}")
    return specs


def results(events: list[dict]) -> int:
    return sum(1 for e in events if e["kind"] == "result")


@pytest.mark.parametrize("seed", [19, 23])
@pytest.mark.parametrize("game", ["hot_action", "pai_gow_tiles"])
def test_after_a_battery_of_cup_faults_the_table_deals_further_rounds(game: str, seed: int, table_factory) -> None:
    specs = battery(seed)
    table = table_factory(game=game, seed=seed, rig={"faults": specs}).start()
    scheduler = table.rig.scheduler
    assert scheduler is not None
    # The battery runs while the table deals: wait until its last fault has fired (the dealer
    # fires each one just before acting on its prompt).
    table.wait_for(lambda _events: len(scheduler.fired) == len(specs), timeout=120,
                   what=f"the battery's {len(specs)} faults to fire")
    done = results(table.events())
    table.wait_for(lambda events: results(events) >= done + MORE, timeout=120,
                   what=f"{MORE} more results after the battery")
    table.dealer.paused.set()
    _messages, events = table.received()     # every event valid, seqs without a gap
    codes = {e["data"]["code"] for e in events if e["kind"] == "alarm"}
    for code in ("cup_bad_report", "cup_duplicate_report", "cup_stale_report", "cup_offline", "cup_stall"):
        assert code in codes, f"the battery raised no {code}: {sorted(codes)}"
    # Issue 23.4: no report of the cup is lost in the battery (an unplug loses what the cup held, and
    # the hello starts the count afresh): a repeated or an earlier report is named as such, never
    # "255 report(s) lost".
    assert "cup_reports_lost" not in codes
    # each round's result came from one valid throw of three dice
    for result in [e for e in events if e["kind"] == "result"]:
        throws = [e["data"] for e in events if e["kind"] == "dice" and e["round"] == result["round"]]
        assert len(throws) == 1 and len(throws[0]["values"]) == 3, (result["round"], throws)
    # Issue 23.3: the dice counts are the throws the rounds used, each once -- not the re-shakes the
    # table asked for after a fault while a shake was on its way (unexpected_dice), nor old reports.
    used = [e["data"]["values"] for e in events if e["kind"] == "dice"]
    dice = table.wait_for(lambda _ev: _counted(table, len(used)), what="the retained dice counts")
    for die in range(3):
        assert dice["dice"][die]["counts"] == [sum(1 for v in used if v[die] == face) for face in range(1, 7)]


def _counted(table, throws: int) -> dict | None:
    """The cup's retained dice counts, once they count ``throws`` (published after each batch)."""
    with table.cond:
        found = [p for t, p in table.messages if t == f"{table.base}/dice"]
    cup = found[-1]["cups"]["cup"] if found else None
    return cup if cup is not None and cup["shakes"] == throws else None
