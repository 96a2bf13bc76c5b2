"""What every game's options model shares: an error that names its field.

A game's options are a frozen dataclass built from the table config's
``[game]`` section (and ``table.seats``); a value the rules refuse raises
:class:`OptionError` naming the field, so the config loader reports it
under its key (``table.seats: ...``, ``game.action_wrap: ...``) without
reading the message.
"""

from __future__ import annotations

from typing import Any


class OptionError(ValueError):
    """A game option the rules refuse; ``field`` is the options model's field name."""

    def __init__(self, field: str, why: str) -> None:
        self.field = field
        self.why = why
        super().__init__(f"{field}: {why}")


def whole_number(name: str, value: Any) -> int:
    """``value`` as a whole number, or :class:`OptionError` (``True`` is not a number of seats)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise OptionError(name, f"must be a whole number, not {value!r}")
    return value


def check_round_fits(field: str, most: int, deck: int, what: str) -> None:
    """A shoe game whose full table cannot be dealt one round from the whole deck is refused
    (issue 23.5: a round is never started that the cards left cannot complete, and a full table
    could not even start the shoe). ``most``: the most cards a round of every seat can take;
    ``what`` says how that comes (for the message)."""
    if most > deck:
        raise OptionError(field, f"a full table's round can take {most} cards ({what}), more than the {deck} "
                                 "cards of the deck: no round of it could be dealt to the end")
