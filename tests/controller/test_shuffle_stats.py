"""The shuffle monitor (controller.table.shuffle_stats) fed as the table feeds it: cards as they
leave the shoe, the table's events that make faces public, and the shuffles that end each deal."""

from __future__ import annotations

import json
import random

import pytest

from controller.shared.schemas import validate
from controller.table.carried_order import compare
from controller.table.shuffle_stats import MIN_SHOE, P_SUSPECT, ShuffleStats
from games.cards import STANDARD_RANKS, SUITS

FACES = [r + s for s in SUITS for r in STANDARD_RANKS]
EIGHT_DECKS = {f: 8 for f in FACES}


def deal(stats: ShuffleStats, faces: list[str], *, round_: int = 1, down: frozenset[int] = frozenset()) -> None:
    """One round: each card leaves the shoe, face up unless its index is in ``down`` (face down,
    never revealed)."""
    stats.observe("round_start", {"round": round_})
    for i, face in enumerate(faces):
        stats.dealt(face)
        if i in down:
            stats.observe("card", {"hand": "seat", "position": 1, "face": "down"})
        else:
            stats.observe("card", {"hand": "seat", "position": 1, "face": "up", "card": face})


def shoe(rng: random.Random, dealt: int = 400) -> list[str]:
    order = [f for f in FACES for _ in range(8)]
    rng.shuffle(order)
    return order[:dealt]


def test_the_first_deal_is_compared_with_nothing_and_nothing_is_published_before_a_shuffle() -> None:
    stats = ShuffleStats(EIGHT_DECKS, clock=lambda: 100.0)
    rng = random.Random(1)
    first = shoe(rng)
    deal(stats, first[:200], round_=1)
    deal(stats, first[200:], round_=2)
    assert stats.payload()["shoes"] == []
    assert stats.observe("shuffle", {"ok": True, "count": 416, "expected": 416}) == []
    assert stats.previous == first and stats.payload()["run"]["shoes"] == 0
    second = shoe(rng)
    deal(stats, second, round_=3)
    mid_deal = json.dumps(stats.payload())
    assert not any(f'"{face}"' in mid_deal for face in FACES)   # no card of the deal in progress
    assert stats.observe("shuffle", {"ok": True, "count": 416, "expected": 416}) == []
    body = stats.payload()
    [result] = body["shoes"]
    expected = compare(first, second, EIGHT_DECKS)
    assert result["observed"] == expected.observed and result["expected"] == pytest.approx(expected.mean, abs=1e-4)
    assert result["rounds"] == [3, 3] and result["dealt"] == result["public"] == 400
    assert result["tested"] and not result["suspect"] and result["p_value"] > P_SUSPECT
    assert body["run"] == {"since": 100.0, "shoes": 1, "observed": expected.observed,
                           "expected": round(expected.mean, 4), "variance": round(expected.variance, 4),
                           "p_value": body["run"]["p_value"], "tested": True, "suspect": False}


def test_a_deal_that_comes_out_in_the_last_deals_order_is_suspect_once_per_shoe_and_the_run_once() -> None:
    stats = ShuffleStats(EIGHT_DECKS)
    order = shoe(random.Random(2))
    deal(stats, order, round_=1)
    stats.observe("shuffle", {})
    found = []
    for n in range(2, 5):   # cut only: the same order again, three times
        deal(stats, order[150:] + order[:150], round_=10 * n)
        deal(stats, [], round_=10 * n + 5)
        found.append(stats.observe("shuffle", {}))
    assert [len(f) for f in found] == [2, 1, 1]   # the shoe each time; the run the first time only
    shoe_warning, run_warning = found[0]
    assert shoe_warning.message.startswith("the shoe of rounds 20-25 repeats the order of the deal before it: ")
    assert f"< {P_SUSPECT}; 400 of 400 cards public)" in shoe_warning.message
    assert run_warning.message.startswith("the 1 deals compared since the counts began, together, repeat the order")
    assert stats.payload()["run"]["suspect"] and all(s["suspect"] for s in stats.payload()["shoes"])


def test_a_face_down_card_counts_once_it_is_revealed_and_never_if_it_is_not() -> None:
    stats = ShuffleStats(EIGHT_DECKS)
    deal(stats, ["AS", "KH", "7D", "KH"], round_=1, down=frozenset({1, 3}))
    assert stats.deal.order() == ["AS", None, "7D", None]
    stats.observe("reveal", {"hand": "banker", "position": 2, "card": "KH"})   # the latest KH not public
    assert stats.deal.order() == ["AS", None, "7D", "KH"]
    stats.observe("round_start", {"round": 2})
    stats.observe("reveal", {"hand": "seat", "seat": 1, "cards": ["KH"]})   # a card of round 1: not this round's
    assert stats.deal.order() == ["AS", None, "7D", "KH"]
    stats.dealt(None)   # a misread
    stats.observe("shuffle", {})
    assert stats.previous == ["AS", None, "7D", "KH", None]


def test_a_deck_change_drops_the_last_deal_and_a_shuffle_without_a_deal_keeps_it() -> None:
    stats = ShuffleStats(EIGHT_DECKS)
    deal(stats, ["AS", "KH", "7D"])
    stats.observe("shuffle", {})
    stats.observe("shuffle", {})   # shuffled again before a card was dealt (after a jam)
    assert stats.previous == ["AS", "KH", "7D"]
    deal(stats, ["2C", "3C"])
    stats.observe("deck_check", {"ok": True})   # a deck check without a deck change: nothing happens
    assert stats.previous == ["AS", "KH", "7D"]
    stats.observe("prompt", {"expect": "new_deck"})
    stats.observe("deck_check", {"ok": True})
    assert stats.previous is None and stats.run.shoes == 1 and stats.deal.faces == []


def test_small_deals_are_tested_only_together() -> None:
    """Joker-Seven-sized deals: 7 of 54 cards, an expected count far below MIN_SHOE."""
    copies = {**{f: 1 for f in FACES}, "JK": 2}
    stats = ShuffleStats(copies)
    rng = random.Random(3)
    cards = [*FACES, "JK", "JK"]
    order = rng.sample(cards, len(cards))
    deal(stats, order[:7])
    stats.observe("shuffle", {})
    warned = []
    for n in range(60):   # every deal the same seven, in the same order: no shuffle at all
        deal(stats, order[:7], round_=n + 2)
        warned += stats.observe("shuffle", {})
    shoes = stats.payload()["shoes"]
    assert not any(s["tested"] for s in shoes) and all(s["expected"] < MIN_SHOE for s in shoes)
    [warning] = warned   # the run, once
    assert "deals compared since the counts began, together, repeat the order of the deals" in warning.message
    run = stats.payload()["run"]
    assert run["suspect"] and run["tested"] and run["observed"] == 60 * (6 + 5)   # 6 neighbours, 5 two apart


def test_reset_sets_the_deals_compared_aside() -> None:
    stats = ShuffleStats(EIGHT_DECKS, clock=iter([1.0, 2.0]).__next__)
    order = shoe(random.Random(4))
    deal(stats, order)
    stats.observe("shuffle", {})
    deal(stats, order)
    assert len(stats.observe("shuffle", {})) == 2
    assert stats.reset() == 1
    body = stats.payload()
    assert body["shoes"] == [] and body["run"]["shoes"] == 0 and body["run"]["since"] == 2.0
    assert stats.previous == order   # the next deal is still compared with the last
    deal(stats, order)
    assert len(stats.observe("shuffle", {})) == 2   # and may warn again


def test_the_journal_keeps_it_across_a_restart() -> None:
    stats = ShuffleStats(EIGHT_DECKS)
    order = shoe(random.Random(5))
    deal(stats, order, round_=7)
    stats.observe("shuffle", {})
    deal(stats, order[:30], round_=90, down=frozenset({2}))
    saved = json.loads(json.dumps(stats.save()))
    assert not stats.changed
    again = ShuffleStats(EIGHT_DECKS)
    assert again.load(saved) == []
    assert again.save() == stats.save()
    deal(again, order[30:], round_=91)
    assert again.observe("shuffle", {})[0].message.startswith("the shoe of rounds 90-91 repeats the order")


@pytest.mark.parametrize("saved, why", [
    ("nonsense", "string indices must be integers"),
    ({"deal": {"faces": ["ZZ"], "public": [True], "round_from": 0, "rounds": [None, None]}, "previous": None,
      "run": {"since": 0, "shoes": 0, "observed": 0, "expected": 0, "variance": 0, "flagged": False}},
     "the deal names cards the shoe has not got"),
    ({"deal": {"faces": [], "public": [], "round_from": 0, "rounds": [None, None]}, "previous": None}, "'run'"),
    ({"deal": {"faces": [], "public": [], "round_from": 0, "rounds": [None, None]}, "previous": None,
      "run": {"since": 0, "shoes": 1, "observed": 3, "expected": float("nan"), "variance": 1, "flagged": False}},
     "a figure is not a finite number"),
])
def test_a_journal_entry_that_does_not_fit_starts_afresh_and_says_why(saved, why: str) -> None:
    stats = ShuffleStats(EIGHT_DECKS)
    [problem] = stats.load(saved)
    assert problem.startswith("the journal's shuffle figures cannot be taken up (") and why in problem
    assert problem.endswith("): they start afresh")
    assert stats.previous is None and stats.deal.faces == [] and stats.changed


def test_a_shoe_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="a shuffle monitor needs a shoe of 4 cards at least"):
        ShuffleStats({"AS": 1, "KH": 1})


def test_the_payload_is_valid_against_its_schema() -> None:
    stats = ShuffleStats(EIGHT_DECKS)
    validate("integrity_shuffle", stats.payload())
    order = shoe(random.Random(6))
    for _ in range(3):
        deal(stats, order, round_=1)
        stats.observe("shuffle", {})
    validate("integrity_shuffle", stats.payload())


def test_the_deal_is_journaled_as_each_round_begins_and_at_a_shuffle_not_with_every_card() -> None:
    stats = ShuffleStats(EIGHT_DECKS)
    stats.observe("round_start", {"round": 1})
    assert not stats.changed   # nothing dealt yet
    stats.dealt("AS")
    stats.observe("card", {"face": "up", "card": "AS"})
    assert not stats.changed
    stats.observe("round_start", {"round": 2})
    assert stats.changed and stats.save()["deal"]["faces"] == ["AS"] and not stats.changed
    stats.dealt("KH")
    stats.observe("shuffle", {})
    assert stats.changed and stats.save()["previous"] == ["AS", None]   # KH never shown


def test_a_players_hand_shown_at_the_players_choice_stays_a_gap() -> None:
    """Three Card Poker shows a seat's hand only when its player played (R6), and a player plays the
    better hands: counted, the shown faces would lean high and bend a fair shuffle's comparison (a
    fair table drifted to z = +9 in 20,000 rounds). The player-dealer's hand, always shown, counts."""
    stats = ShuffleStats(EIGHT_DECKS)
    stats.observe("round_start", {"round": 1})
    for face in ["AS", "KS", "QS", "2C", "7D", "9H"]:
        stats.dealt(face)   # a hand-forming shuffler: hands leave face down
    stats.observe("reveal", {"hand": "player_dealer", "seat": 2, "cards": ["2C", "7D", "9H"]})
    stats.observe("reveal", {"hand": "seat", "seat": 1, "cards": ["AS", "KS", "QS"]})   # played: shown
    assert stats.deal.order() == [None, None, None, "2C", "7D", "9H"]


def test_a_deal_that_cannot_be_compared_is_forgotten_not_raised() -> None:
    """More public copies of a face than the shoe holds (a card too many read in a one-deck game):
    the comparison cannot be made; the deal is logged and forgotten, and the table's event goes on."""
    one_deck = {f: 1 for f in FACES}
    stats = ShuffleStats(one_deck)
    deal(stats, FACES[:10])
    stats.observe("shuffle", {})
    deal(stats, ["AS", "AS", *FACES[2:10]], round_=2)   # AS twice: the reader read a card too many
    stats.observe("shuffle", {})
    assert stats.run.shoes == 1
    deal(stats, FACES[:10], round_=3)   # compared with a previous deal of two aces of spades: impossible
    assert stats.observe("shuffle", {}) == []
    assert stats.previous is None and stats.run.shoes == 1
    deal(stats, FACES[:10], round_=4)
    stats.observe("shuffle", {})
    assert stats.previous == FACES[:10]
