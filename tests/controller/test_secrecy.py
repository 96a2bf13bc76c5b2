"""The line-error gate (controller.table.secrecy): no published figure depends on a face-down card.
Hand-worked event sequences as baccarat and Three Card Poker emit them."""

from __future__ import annotations

from controller.table.secrecy import LineErrorGate

HOLE_PROMPT = {"expect": "card", "hand": "banker", "position": 2, "face": "down", "buttons": [], "text": ""}
UP_PROMPT = {"expect": "card", "hand": "player", "position": 3, "face": "up", "buttons": [], "text": ""}


def test_counts_with_no_secret_in_play_go_out_at_once():
    gate = LineErrorGate()
    assert gate.dropped("shoe", {"bad_crc": 1}) == [{"device": "shoe", "dropped": {"bad_crc": 1}}]


def test_counts_while_the_hole_card_is_due_wait_for_its_reveal_and_go_out_whole():
    """Baccarat rule 10: the banker's second card face down. The shoe's damaged frame of it (and
    garbage meanwhile) is counted while it is due and on the layout; the reveal releases it all."""
    gate = LineErrorGate()
    assert gate.observe("prompt", HOLE_PROMPT) == []
    assert gate.dropped("shoe", {"bad_crc": 1}) == []
    assert gate.observe("card", {"hand": "banker", "position": 2, "face": "down"}) == []
    assert gate.observe("prompt", UP_PROMPT) == []                # still unrevealed on the layout
    assert gate.dropped("shoe", {"garbage": 7}) == []
    assert gate.dropped("shuffler", {"garbage": 2}) == []
    released = gate.observe("reveal", {"hand": "banker", "position": 2, "card": "10S"})
    assert released == [{"device": "shoe", "dropped": {"bad_crc": 1, "garbage": 7}},
                        {"device": "shuffler", "dropped": {"garbage": 2}}]
    assert gate.dropped("shoe", {"garbage": 1}) == [{"device": "shoe", "dropped": {"garbage": 1}}]


def test_a_hand_never_shown_leaves_one_fixed_figure_whatever_was_dropped():
    """Three Card Poker: a folded hand is never revealed (R5). At the round's result each device
    that dropped bytes meanwhile says only that counts were withheld: the same for any card."""
    outs = []
    for counts in ({"bad_crc": 1}, {"bad_crc": 1, "garbage": 12}, {"too_long": 3}):
        gate = LineErrorGate()
        gate.observe("prompt", {"expect": "hand", "hand": "seat", "seat": 2, "count": 3, "buttons": [], "text": ""})
        gate.dropped("hand_shuffler", counts)
        for position in (1, 2, 3):
            gate.observe("card", {"hand": "seat", "seat": 2, "position": position, "face": "down"})
        gate.observe("prompt", {"expect": "decision", "seat": 2, "choices": ["play", "fold"], "hand": None,
                                "buttons": [], "text": ""})
        outs.append(gate.observe("result", {}))
    assert outs == [[{"device": "hand_shuffler", "dropped": {"withheld": 1}}]] * 3


def test_a_whole_hand_revealed_releases_only_when_every_face_down_hand_is():
    gate = LineErrorGate()
    for seat in (1, 2):
        gate.observe("card", {"hand": "seat", "seat": seat, "position": 1, "face": "down"})
    gate.dropped("shoe", {"bad_crc": 2})
    assert gate.observe("reveal", {"hand": "seat", "seat": 1, "cards": ["AS", "KD", "QH"]}) == []
    assert gate.observe("reveal", {"hand": "seat", "seat": 2, "cards": ["2S", "3D", "4H"]}) == \
        [{"device": "shoe", "dropped": {"bad_crc": 2}}]


def test_a_round_voided_before_the_face_down_card_came_withholds_and_reopens():
    gate = LineErrorGate()
    gate.observe("prompt", HOLE_PROMPT)
    gate.dropped("shoe", {"bad_crc": 1})
    assert gate.observe("void", {"round": 3, "reason": "x", "by": "pit"}) == \
        [{"device": "shoe", "dropped": {"withheld": 1}}]
    assert not gate.holding and gate.dropped("shoe", {"garbage": 1}) == [{"device": "shoe", "dropped": {"garbage": 1}}]
