"""The simulated shuffler's ways of going wrong (hw_sim.shuffles and the ``weak_shuffle``,
``cut_only`` and ``stacked_shoe`` faults of hw_sim.faults), on hand-checkable stacks."""

from __future__ import annotations

import random
import re

import pytest

from games.decks import standard
from hw_sim import shuffles
from hw_sim.faults import FaultSpecError, check_table_faults, parse_fault
from hw_sim.physical import Table


def rising_sequences(order: list[int]) -> int:
    """Bayer and Diaconis's rising sequences: runs of consecutive values found left to right."""
    where = {v: i for i, v in enumerate(order)}
    return 1 + sum(where[v + 1] < where[v] for v in range(len(order) - 1))


@pytest.mark.parametrize("times", [1, 2, 3, 5])
def test_r_riffles_leave_at_most_two_to_the_r_rising_sequences(times: int) -> None:
    rng = random.Random(times)
    for _ in range(50):
        out = shuffles.riffles(list(range(52)), rng, times)
        assert sorted(out) == list(range(52))
        assert rising_sequences(out) <= 2 ** times


def test_a_riffle_cuts_binomially_and_drops_in_proportion() -> None:
    """Seeded: after one riffle, card 0 (top of the top packet) is on top with chance about 1/2,
    as the model says (the first card falls from the top packet with chance |top|/52, |top| ~ 26)."""
    rng = random.Random(9)
    on_top = sum(shuffles.riffles(list(range(52)), rng, 1)[0] == 0 for _ in range(4000))
    assert 0.46 < on_top / 4000 < 0.54


def test_a_cut_only_turns_the_stack_round() -> None:
    out = shuffles.cut_only(list(range(10)), random.Random(1))
    at = out.index(0)
    assert out != list(range(10)) and out[at:] + out[:at] == list(range(10))
    assert shuffles.cut_only([], random.Random(1)) == []


def test_a_stacked_shoe_keeps_a_slug_of_the_last_deal_where_it_is_dealt() -> None:
    stack = list(range(100))   # 0-29 were left in the shoe, 30-99 the last deal, in its order
    for seed in range(20):
        out = shuffles.stacked(stack, random.Random(seed), dealt=70, slug=40)
        assert sorted(out) == stack
        first = next(i for i, v in enumerate(out) if v >= 30 and out[i:i + 40] == list(range(v, v + 40)))
        assert first + 40 <= 70   # dealt before the cut card
    assert len(shuffles.stacked(stack, random.Random(1), dealt=5, slug=40)) == 100   # the whole deal is the slug


def test_the_physical_table_hands_the_shuffle_the_last_deal() -> None:
    table = Table(standard(1), seed=1)
    table.load_boxes_into_shuffler()
    table.shuffle_hopper()
    table.load_shoe(16)
    drawn = [table.draw() for _ in range(10)]
    table.clear_layout()
    table.gather_into_shuffler()
    seen = {}

    def arrange(stack, rng, dealt):
        seen.update(stack=list(stack), dealt=dealt)
        return list(stack)
    assert table.shuffle_hopper(arrange) == 52
    assert seen["dealt"] == 10 and seen["stack"][-10:] == drawn   # the deal at the end, as dealt


@pytest.mark.parametrize("text", ["weak_shuffle@shuffle:2", "shuffler.cut_only@round:3", "stacked_shoe@shuffle:4"])
def test_order_faults_are_faults_of_a_shuffler_of_a_table_that_reads_its_cards(text: str) -> None:
    spec = parse_fault(text)
    assert spec.device == "shuffler"
    assert check_table_faults([text], "baccarat", {"shoe": "card_shoe", "shuffler": "shuffler"}) == [spec]
    assert check_table_faults([text], "three_card_poker", {"shuffler": "hand_shuffler"}) == [spec]


def test_an_order_fault_a_table_could_never_show_is_refused() -> None:
    with pytest.raises(FaultSpecError, match=re.escape(
            "fault weak_shuffle@shuffle: Hold'em (Texas Hold'em, Hold'em Hi/Lo, Pineapple, Crazy Pineapple, Omaha) "
            "reads no card as it is dealt (no reading shoe, no hand-forming shuffler), so the order a shuffle "
            "leaves can never show")):
        check_table_faults(["weak_shuffle@shuffle"], "holdem", {"shuffler": "shuffler"})
    with pytest.raises(FaultSpecError, match="fault cut_only@shuffle: the table has no shuffler"):
        check_table_faults(["cut_only@shuffle"], "pai_gow_tiles", {"cup": "dice_cup"})
    with pytest.raises(FaultSpecError, match=re.escape("cut_only is a fault of the shuffler, not of the shoe")):
        parse_fault("shoe.cut_only@shuffle")
    with pytest.raises(FaultSpecError, match="stacked_shoe takes no duration"):
        parse_fault("stacked_shoe@shuffle+5s")
