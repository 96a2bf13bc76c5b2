"""A demo whose table cannot go on says what happened and exits non-zero at once (issue 13: a
demo whose game broke waited 600 s and exited 1 without a word). Real processes, the demo's own
broker."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from games import registry

TABLECTL = [sys.executable, "-m", "controller.cli"]


def test_a_demo_whose_game_breaks_says_so_and_exits_1_at_once():
    """Players who never take the deal: after seat 1's second round the offer goes round the
    table and the game is broken (Player-dealer and Deal). The demo ends then, long before its
    rounds or its timeout, naming the alarm."""
    proc = subprocess.run([*TABLECTL, "demo", "--rounds", "50", "--seed", "4", "--pass-probability", "1",
                           "--broker", "mosquitto", "--timeout", "120"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("tablectl demo: stopped after 2 of 50 rounds: the table closed itself in round 2: "
                           "game_broken: the deal went round the table back to seat "), last
    assert "ALARM critical game_broken" in proc.stdout


def test_a_bad_pass_probability_is_refused_naming_it():
    for bad, why in (("2", "a probability is 0 to 1, not 2"), ("nan", "a probability is 0 to 1, not nan"),
                     ("often", "not a number: 'often'")):
        proc = subprocess.run([*TABLECTL, "demo", "--pass-probability", bad], capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode == 2 and why in proc.stderr, proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_long_demo_ends_normally(seed):
    """Issue 13: `tablectl demo --rounds 300` ended with the game broken on 3 of 13 seeds (a seat
    that accepted the deal and passed it on was not counted as intervening). The simulated players
    now never break the game, and the rule set lets them play on: 1,000 rounds end with 0 missing
    (seeds 1 to 50 were run by hand for the issue; three here keep it so)."""
    proc = subprocess.run([*TABLECTL, "demo", "--rounds", "1000", "--seed", str(seed), "--transport", "hwsim",
                           "--broker", "mosquitto", "--timeout", "300"], capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"1000 rounds in [0-9.]+ s; \d+ events, 0 missing, 0 duplicates", last), last
    assert "game_broken" not in proc.stdout


@pytest.mark.parametrize("game", registry.names())
def test_a_demo_that_ends_well_prints_no_error_or_warning(game):
    """A newcomer's first command: the broker line, the rounds and the summary, and nothing on
    stderr, for every game (paho once logged "Client is not connected" at ERROR as the pit client
    stopped; a simulated table whose 28 pins ran out warned of missing seat lights)."""
    proc = subprocess.run([*TABLECTL, "demo", "--game", game, "--rounds", "5", "--seed", "2",
                           "--broker", "mosquitto"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
