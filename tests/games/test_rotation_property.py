"""The player-dealer rule ("Player-dealer and Deal") under every order of presses, settles, voids
and restarts: a property test against a reference that reads the sheet directly.

Issue 13, defect 8: a seat could bank three consecutive rounds when the deal went round and came
back to it within one betting phase, and the game was broken when a seat that had accepted the
deal passed it on. The reference below knows nothing of the rotation's bookkeeping; it sees only
what a pit subscriber sees of the rounds (who banked each settled round) and the presses, and it
states the sheet's two conditions:

- no seat banks three consecutive settled rounds (a voided round is not a round of play);
- the game is broken exactly when, after a seat has banked two consecutive settled rounds, the
  deal has been offered to every other seat in turn and none accepted it.

Two levels: the pure rule set (``games.round.rotation``) over thousands of random sequences, and
the Commission-Free Baccarat machine itself, with rounds dealt from cards, pit voids, settles and
restarts that carry the machine's own save into a fresh machine as the table does.
"""

from __future__ import annotations

import contextlib
import json

from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from games.baccarat import BaccaratOptions, BaccaratRound
from games.cards import cards
from games.round import MAX_CONSECUTIVE, PlayerDealerRotation, Refused


class Sheet:
    """The reference: the sheet's conditions, from the settled rounds and the presses alone."""

    def __init__(self, seats: int, first: int, direction: str = "clockwise") -> None:
        self.seats = seats
        self.direction = direction
        self.holder = first
        self.bankers: list[int] = []          # the seat that banked each settled round, in order
        self.must_yield: int | None = None    # a seat that banked two in a row and is offering
        self.declined: set[int] = set()       # the seats that declined its offer so far
        self.offered: int | None = None

    def settled(self, seat: int) -> None:
        self.bankers.append(seat)
        assert self.bankers[-3:] != [seat] * 3, f"seat {seat} banked three consecutive settled rounds"
        if self.bankers[-MAX_CONSECUTIVE:] == [seat] * MAX_CONSECUTIVE:
            self.start_offer(seat)

    def start_offer(self, seat: int) -> None:
        self.must_yield, self.declined = seat, set()
        self.offered = self.after(seat)

    def after(self, seat: int) -> int:
        """The next seat round the table the way the sheet offers the deal."""
        if self.direction == "counterclockwise":
            return seat - 1 if seat > 1 else self.seats
        return seat % self.seats + 1

    def breaks_on_decline(self) -> bool:
        """Declining now leaves no other seat to intervene: every other seat has declined."""
        assert self.must_yield is not None and self.offered is not None
        return len(self.declined | {self.offered}) == self.seats - 1

    def decline(self) -> bool:
        """The offered seat passes; True when that breaks the game (the sheet's condition)."""
        broken = self.breaks_on_decline()
        assert self.offered is not None
        self.declined.add(self.offered)
        if broken:
            self.start_offer(self.must_yield)  # reopened, the offer goes round again
        else:
            self.offered = self.after(self.offered)
        return broken

    def accepted(self) -> None:
        self.must_yield = self.offered = None


# --- the pure rule set ------------------------------------------------------------------------

ACTIONS = st.lists(st.sampled_from(["settle", "settle", "deal", "pass", "pass", "restart", "void"]), max_size=150)


@settings(max_examples=1500, deadline=None)
@given(seats=st.integers(2, 8), first=st.integers(1, 8), actions=ACTIONS)
def test_the_rule_set_never_gives_a_seat_three_and_breaks_exactly_when_the_sheet_says(seats, first, actions):
    run_rule_set(seats, first, actions, "clockwise")


@settings(max_examples=800, deadline=None)
@given(seats=st.integers(2, 8), first=st.integers(1, 8), actions=ACTIONS)
def test_the_rule_set_offered_counterclockwise_keeps_the_same_rule(seats, first, actions):
    """Pai Gow Tiles offers the position "counterclockwise every two hands": the same rule, the
    offer going to the next lower seat number."""
    run_rule_set(seats, first, actions, "counterclockwise")


def run_rule_set(seats: int, first: int, actions: list[str], direction: str) -> None:
    first = (first - 1) % seats + 1
    r = PlayerDealerRotation(seats, first, direction=direction)
    sheet = Sheet(seats, first, direction)
    for action in actions:
        forced = sheet.must_yield is not None
        if action == "settle" and r.offer is None:      # a round is dealt only with no offer pending
            banker = r.seat
            r.round_played()
            sheet.settled(banker)
        elif action == "deal" and r.offer is not None:   # the offered seat accepts
            assert r.offered not in (sheet.must_yield,), "a seat that banked two was offered the deal"
            r.accept()
            if forced:
                sheet.accepted()
        elif action == "pass":
            if forced:
                assert r.offered == sheet.offered
                assert r.pass_breaks_game == sheet.breaks_on_decline()
                expected = sheet.decline()
            else:
                expected = False                         # a voluntary pass never breaks the game
            _, broken = r.pass_()
            assert broken == expected
            if broken:
                event("the game was broken")
        elif action == "restart":                        # the journal's copy, through JSON
            fresh = PlayerDealerRotation(seats, 1, direction=direction)
            assert fresh.restore(json.loads(json.dumps(r.saved()))) is None
            r = fresh
        # "void": a voided round is not seen by the rotation at all
        assert not r.barred(r.seat) or r.offer is not None, "the holder of a dealable deal is barred"


# --- the machine -------------------------------------------------------------------------------

HANDS = [("4", "Q", "3", "6"), ("5", "J", "2", "6"), ("A", "3", "6", "3"), ("2", "2", "5", "4"), ("3", "A", "4", "5")]
"""P, B, P, B (rule 11): the player makes 7 and the banker 6, both stand (rules 13, 16)."""


class Harness:
    """A Commission-Free Baccarat machine as the table drives it, restarts included."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.events: list[tuple[str, dict]] = []
        self.dealt = 0
        self.m: BaccaratRound | None = None
        self.m = self._fresh(first_round=1)
        self.to_play()

    def _fresh(self, first_round: int) -> BaccaratRound:
        return BaccaratRound(BaccaratOptions(seats=self.seats), self._emit, first_round=first_round)

    def _emit(self, kind: str, data: dict) -> None:
        """As the table does: the envelope's round is the data's, else the machine's."""
        rnd = data.get("round", self.m.round if self.m is not None else None)
        self.events.append((kind, {**data, "round": rnd}))

    def to_play(self) -> None:
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(m.spec.size)
        m.button("shuffle_ack")
        self.dealt = 0  # a fresh shoe

    def deal_round(self) -> None:
        n = self.dealt
        self.dealt += 1
        suit = "CDHS"[n % 4]
        for c in cards(" ".join(f"{rank}{suit}" for rank in HANDS[(n // 4) % len(HANDS)])):
            self.m.card(c)

    def restart(self) -> None:
        """What controller.table.loop does: journal the machine's save, void an open round, start a
        fresh machine closed, restore, open again."""
        saved, state, open_round = json.loads(json.dumps(self.m.save())), self.m.state, self.m.round_open
        rnd = self.m.round
        if open_round:
            self.events.append(("void", {"round": rnd, "reason": "restart", "by": "controller"}))
        last = max((d["round"] for _, d in self.events if isinstance(d["round"], int)), default=0)
        self.m = self._fresh(first_round=last + 1)  # the journal's last round + 1
        self.m.restore(saved, state)
        self.to_play()


ROUND = ["deal"] * 3
"""No more bets, the round's four cards (one action), the settle: a round banked from betting."""


@settings(max_examples=600, deadline=None)
@given(seats=st.integers(2, 6),
       actions=st.lists(st.sampled_from(["deal"] * 8 + ["pass"] * 3 + ["void", "restart"]), min_size=10, max_size=120))
# Issue 13, defect 8, as reported: seat 1 banks A; in B's betting seat 1 passes, seat 2 accepts
# then passes, seat 1 takes the deal back and banks B, then C (three in a row before the fix).
@example(seats=2, actions=[*ROUND, "pass", "deal", "pass", "deal", *ROUND, "deal", *ROUND])
# ... and the game broken when it should not be: seat 2 accepts from seat 1 (two banked) and passes.
@example(seats=3, actions=[*ROUND, *ROUND, "deal", "pass", "pass", *ROUND])
def test_the_baccarat_machine_under_random_presses_voids_and_restarts(seats, actions):
    h = Harness(seats)
    sheet = Sheet(seats, 1)
    results: dict[int, int] = {}     # round -> the seat that banked it
    voided: set[int] = set()
    seen = 0

    def take_events() -> list[tuple[str, dict]]:
        nonlocal seen
        new, seen = h.events[seen:], len(h.events)
        for kind, data in new:
            if kind == "result":
                results[data["round"]] = data["player_dealer"]
            elif kind == "void":
                voided.add(data["round"])
        return new

    def settled_so_far() -> None:
        """Settled rounds (a result that no void withdrew) go to the sheet in round order."""
        done = sorted(r for r in results if r not in voided and r not in counted)
        for rnd in done:
            counted.add(rnd)
            sheet.settled(results[rnd])

    counted: set[int] = set()
    for action in actions:
        m = h.m
        if h.dealt >= 38:
            break  # 8 decks hold 8 of each card: the hands above last 40 rounds a shoe
        if m.state in ("ready", "betting", "closed"):
            offer = m.rotation.offer
            assert (sheet.must_yield is not None) == (offer is not None and offer.forced), \
                "the machine's forced offer differs from the sheet's"
        forced = sheet.must_yield is not None and m.state in ("ready", "betting")
        if action == "deal":
            if m.state == "dealing":
                h.deal_round()
            elif m.state == "closed":          # broken: the pit reopens
                h.to_play()
            else:
                if forced:
                    sheet.accepted()
                m.button("deal")
        elif action == "pass":
            verdict = m.press("pass")
            if verdict.accepted and forced:
                expected = sheet.decline()
                broken = any(k == "alarm" and d["code"] == "game_broken" for k, d in take_events())
                assert broken == expected, "game_broken differs from the sheet's condition"
                if broken:
                    event("the game was broken")
        elif action == "void":
            with contextlib.suppress(Refused):   # nothing to void: refused, and nothing changes
                m.void("the pit", "pit")
        elif action == "restart":
            settled_so_far()  # the restarted machine counts a round stopped in result, as the sheet does
            h.restart()
        take_events()
        if h.m.state != "result":  # a result is settled by the next deal (or a restart)
            settled_so_far()
    alarms = [d for k, d in h.events if k == "alarm"]
    assert all(a["code"] == "game_broken" for a in alarms), alarms
    event(f"settled rounds: {min(len(counted) // 4 * 4, 12)}+")   # --hypothesis-show-statistics
    if len(set(sheet.bankers)) > 1:
        event("the deal changed hands")
