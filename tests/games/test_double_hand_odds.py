"""Double-Hand Poker's odds (games.double_hand.odds): a seeded simulation, labelled so, of a seat's
wager against the designated player, both hands set the house way."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from games.double_hand.odds import odds


def test_the_simulation_is_labelled_seeded_and_complete():
    table = odds(samples=300)
    (wager,) = table.wagers
    assert wager.method == "simulation" and wager.interval is not None
    assert "seeded deals" in wager.note and table.paytable == "ties: designated_player"
    assert abs(float(wager.total_probability()) - 1) < 1e-9
    assert [o.name for o in wager.outcomes] == ["win 1 to 1", "push", "lose"]
    assert odds(samples=300).to_dict() == table.to_dict(), "the same seed, the same figures"


def test_copies_to_the_designated_player_favour_it_and_push_makes_the_game_even():
    """Reading 4: with copies to the designated player a seat cannot be favoured; with ties
    pushing, the two orders of every deal cancel: exactly even."""
    copies = odds(samples=400).wagers[0]
    assert copies.expected < 0 and not copies.favours_player
    even = odds("push", samples=400).wagers[0]
    assert even.expected == 0 and not even.favours_player


@pytest.mark.parametrize("paytable, decks, why", [
    ("sheet", None, "--paytable: Double-Hand Poker pays even money; name the ties reading instead"),
    (None, 2, "--decks: Double-Hand Poker is one deck of 52 and a joker (D)"),
])
def test_what_the_odds_refuse(paytable, decks, why):
    with pytest.raises(ValueError, match=why.replace("(", r"\(").replace(")", r"\)")):
        odds(paytable, decks, samples=10)


def test_tablectl_odds_prints_the_simulated_figure():
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "odds", "double_hand", "--paytable", "push"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "simulated, 95 % interval" in proc.stdout and re.search(r"house edge -?0\.000 %", proc.stdout)
    assert proc.stderr == "", "an even game is not flagged as favouring the player"
