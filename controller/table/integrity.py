"""The table's integrity monitors as its loop keeps them (issue 25): what they see of the events the
table emits, their journaled counts (``meta.integrity``), the pit's ``cmd/integrity_reset`` and
the retained ``<prefix>/<table>/integrity`` topic (docs/schemas/integrity.json).

Two monitors share this place: the outcome monitor (:mod:`controller.table.outcome_stats`, under
``outcomes``) and the shuffle monitor (:mod:`controller.table.shuffle_stats`, under ``shuffle``;
``null`` at a table that reads no card as it is dealt). Each sees every event the table emits, in
order, through :meth:`Integrity.observe` -- the events are what the pit sees, so nothing a monitor
counts is face down -- and raises its findings as the table's warning alarms. The shuffle monitor
also sees every card as it leaves the shoe (:meth:`Integrity.device_event`), face down or not, for
the order; it counts only the faces the events make public, and publishes a deal's figures only
once the next shuffle has ended it. The counts go to the journal with the events of the same
batch, as the dice counts do (controller.table.loop), so they outlive a restart.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from controller.table.config import Config
from controller.table.outcome_stats import MIN_ROUNDS, P_BIAS, RARE_BELOW, OutcomeStats
from controller.table.publisher import Publisher
from controller.table.shuffle_stats import UNREAD_BY_FAULT, ShuffleStats
from drivers.events import CardDrawn, DeviceEvent, DeviceFault, HandDelivered
from games import registry
from games.round import Refused

if TYPE_CHECKING:
    from controller.table.loop import Table

log = logging.getLogger(__name__)


def _game(config: Config) -> tuple[Any, Any] | None:
    """The config's game entry and options, or None for a game the registry does not know (a test's
    own machine) or options that do not load (the machine's build says why, with the config's name)."""
    try:
        entry = registry.get(config.table.game)
    except KeyError:
        return None
    options = config.options
    if options is None:
        try:
            options = entry.load_options(config.game, config.table.seats)
        except Exception:
            return None
    return entry, options


def _outcome_stats(config: Config) -> OutcomeStats | None:
    """The outcome monitor of the config's game and options, or None for a game with no banked
    wager to count (the poker room) or that the registry does not know."""
    game = _game(config)
    if game is None or game[0].outcome_classes is None:
        return None
    entry, options = game
    return OutcomeStats(entry.outcome_classes(options))


def _shuffle_stats(config: Config) -> ShuffleStats | None:
    """The shuffle monitor of a table whose game plays cards and has a device that reads them as
    they are dealt (a reading shoe, a hand-forming shuffler), for its deck spec; else None."""
    game = _game(config)
    if game is None or not any(role.reads_cards for role in game[0].machine.ROLES.values()):
        return None
    entry, options = game
    spec = entry.deck(options)
    if spec.size < 4:
        return None
    return ShuffleStats({card.code: n for card, n in spec.counts.items()})


class Finding(Protocol):
    """A monitor's finding, raised as the table's warning alarm ``code``."""

    code: str
    message: str
    action: str


class ShuffleMonitor(Protocol):
    """Where the shuffle monitor (issue 25.2) plugs in, under ``shuffle``: it sees every event the
    table emits (only what the pit sees), says whether it has something new to journal and
    publish, and keeps its own JSON in ``meta.integrity["shuffle"]`` and on the topic."""

    changed: bool

    def observe(self, kind: str, data: Mapping[str, Any]) -> list[Finding]: ...

    def save(self) -> Any: ...

    def load(self, saved: Any) -> list[str]: ...

    def payload(self) -> Any: ...

    def reset(self) -> int: ...


class Integrity:
    """The monitors of one table."""

    def __init__(self, table: Table, config: Config, shuffle: ShuffleMonitor | None = None) -> None:
        self.table = table
        self.outcomes = _outcome_stats(config)
        self.shuffle = shuffle if shuffle is not None else _shuffle_stats(config)
        self.owed = False   # the retained topic changed since it was last handed to paho
        self._deck_change = False   # the table went to deck_check from an open state

    @property
    def active(self) -> bool:
        return self.outcomes is not None or self.shuffle is not None

    # --- what the devices say ------------------------------------------------------------------
    def device_event(self, event: DeviceEvent) -> None:
        """Every card that leaves the shoe or the hand-forming shuffler, in that order, whatever
        the round makes of it (called before the round machine sees it, so the card is there when
        its ``card`` event makes it public); a card that left unread (misread, two at once) is a gap."""
        shuffle = self.shuffle
        if not isinstance(shuffle, ShuffleStats):
            return
        match event:
            case CardDrawn(card=card):
                shuffle.dealt(card.code)
            case HandDelivered(cards=cards):
                for card in cards:
                    shuffle.dealt(card.code)
            case DeviceFault(code=code) if code in UNREAD_BY_FAULT:
                for _ in range(UNREAD_BY_FAULT[code]):
                    shuffle.dealt(None)

    # --- what the table emits ----------------------------------------------------------------
    def observe(self, kind: str, data: Mapping[str, Any]) -> None:
        """One event the table emitted (called from ``Table.emit``, in order). A round's
        ``result`` is counted (and a dice game's ``dice``, the throw its round used); a deck change -- a deck check that passed after the open table went
        back to ``deck_check`` (Joker Seven's rules 9-11, a wrong shuffle count) -- starts the
        counts afresh. The check a table opens with does not: a table reopens with one after every
        restart and close, and the counts are to outlive those (new decks at a shift's start are
        the same game: the pit resets the counts when it replaced cards or a device for cause)."""
        if self.shuffle is not None:
            try:
                findings = self.shuffle.observe(kind, data)
            except Exception:   # a monitor's fault must never cost the round the event belongs to
                log.exception("shuffle monitor: the %s event not taken", kind)
                findings = []
            for finding in findings:
                self.table.alarm(finding.code, "warning", finding.message, finding.action)
        if self.outcomes is None:
            return
        if self.outcomes.reads(kind) and isinstance(data, Mapping):
            try:
                findings = self.outcomes.observe(data, kind)
            except (KeyError, TypeError, ValueError) as exc:   # a result the classes cannot read
                log.error("outcome monitor: a result not counted: %s", exc)
                return
            for bias in findings:
                self.table.alarm("outcome_bias", "warning", bias.message, bias.action)
        elif kind == "transition" and data.get("to") == "deck_check":
            self._deck_change = data.get("from") != "closed"
        elif kind == "deck_check" and data.get("ok") is True and self._deck_change:
            self._deck_change = False
            discarded = self.outcomes.reset()
            log.info("outcome counts start afresh after a deck change (%d rounds set aside)", discarded)

    # --- the pit -----------------------------------------------------------------------------
    def reset(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """``cmd/integrity_reset``: every count (or one ``wager``'s) starts afresh, and may raise
        ``outcome_bias`` again; without ``wager`` the shuffle monitor's too. Refused, naming the
        wagers, for a wager the table does not count."""
        if not self.active:
            raise Refused("this table's game has no outcome counts to reset")
        wager = args.get("wager")
        if self.outcomes is None:
            if wager is not None:
                raise Refused("wager: this table's game counts no wager's outcomes")
            discarded = 0
        else:
            try:
                discarded = self.outcomes.reset(wager)
            except KeyError as exc:
                raise Refused(exc.args[0]) from None
        out: dict[str, Any] = {"wager": wager, "discarded": discarded}
        if wager is None and self.shuffle is not None:
            out["shuffle_discarded"] = self.shuffle.reset()
        log.info("outcome counts of %s reset by the pit (%d rounds set aside)", wager or "every wager", discarded)
        return out

    # --- journal and topic -------------------------------------------------------------------
    def load(self, saved: object) -> None:
        """The counts the journal kept before a restart; what could not be taken up is a warning."""
        if self.outcomes is not None:
            outcomes = saved.get("outcomes") if isinstance(saved, dict) else saved
            for problem in self.outcomes.load(outcomes):
                self.table.alarm("outcome_counts_reset", "warning", problem,
                                 "nothing to do: the rounds are counted again from now")
        if self.shuffle is not None:
            for problem in self.shuffle.load(saved.get("shuffle") if isinstance(saved, dict) else None):
                self.table.alarm("shuffle_counts_reset", "warning", problem,
                                 "nothing to do: the shoes are tested again from the next one")

    def to_save(self) -> dict[str, Any] | None:
        """``meta.integrity``, when a round changed the counts: journaled with its events (the
        whole of it, both monitors, so that neither overwrites the other's with nothing)."""
        monitors = [m for m in (self.outcomes, self.shuffle) if m is not None]
        if not any(m.changed for m in monitors):
            return None
        out: dict[str, Any] = {}
        if self.outcomes is not None:
            out["outcomes"] = self.outcomes.save()
        if self.shuffle is not None:
            out["shuffle"] = self.shuffle.save()
        return out

    def payload(self, table_id: str) -> dict[str, Any]:
        return {"table": table_id, "ts": time.time(), "p_bias": P_BIAS, "min_rounds": MIN_ROUNDS,
                "rare_below": RARE_BELOW,
                "outcomes": self.outcomes.payload() if self.outcomes is not None else {},
                "shuffle": self.shuffle.payload() if self.shuffle is not None else None}

    def publish(self, publisher: Publisher, table_id: str) -> None:
        """The retained integrity topic (docs/schemas/integrity.json): newest only, like the state.
        A table with no monitor publishes none."""
        if self.active:
            self.owed = False
            publisher.publish_integrity(self.payload(table_id))
