"""The pit's map of areas (controller/pit/board/areas.py): a table's own id, then the first glob
that matches; a map that cannot be used is refused naming the entry and why."""

from __future__ import annotations

import pytest

from controller.pit.board.areas import Areas, AreasError


def test_a_tables_own_id_wins_over_a_glob_and_the_first_glob_wins() -> None:
    areas = Areas.parse('[areas]\n"bac-*" = "Pit 1"\n"bac-0[5-9]" = "Pit 2"\n"bac-07" = " VIP "\n')
    assert [areas.of(t) for t in ("bac-01", "bac-06", "bac-07", "tcp-01")] == ["Pit 1", "Pit 1", "VIP", None]
    assert Areas().of("bac-01") is None


@pytest.mark.parametrize(("text", "why"), [
    ("[areas\n", "not TOML"),
    ("[tables]\n", r"one table, \[areas\]"),
    ('[areas]\n"a b" = "Pit"\n', "not a table id or a glob"),
    ('[areas]\n"bac-01" = ""\n', "1 to 40 printable characters"),
    ('[areas]\n"bac-01" = 3\n', "1 to 40 printable characters"),
    ('[areas]\n"bac-01" = "a\\u0007b"\n', "1 to 40 printable characters"),
    ('[areas]\n"bac-01" = "' + "x" * 41 + '"\n', "1 to 40 printable characters"),
])
def test_a_map_that_cannot_be_used_is_refused_saying_why(text: str, why: str) -> None:
    with pytest.raises(AreasError, match=why):
        Areas.parse(text, "--areas f.toml")
