"""The pit's terminal view: de-duplication and gaps by seq, and what it prints."""

from controller.pit.lines import PitView, SeqTracker


def env(seq: int, kind: str, data: dict, table: str = "t1") -> dict:
    return {"seq": seq, "table": table, "round": 1, "kind": kind, "ts": 0.0, "data": data}


def test_seq_tracker_counts_duplicates_and_gaps_per_table():
    t = SeqTracker()
    # 3 and 4 are missing when 5 comes; 3 arrives late and fills its place; 3 again is a duplicate
    assert [t.accept("a", s) for s in (1, 2, 2, 5, 3, 6, 3)] == [True, True, False, True, True, True, False]
    assert t.accept("b", 7)  # another table has its own sequence
    assert (t.duplicates, t.gaps, t.filled) == (2, 2, 1)
    assert (t.missing("a"), t.missing("b"), t.missing()) == (1, 0, 1)
    assert t.take_gaps() == [("a", 3, 4)]
    assert t.take_gaps() == []  # each gap is handed over once
    assert t.accept("a", 4) and t.missing() == 0


def test_a_long_gap_is_handed_over_whole_and_fills_split_it():
    """How much of a gap to ask for, and in which requests, is the asker's (controller.pit.watch.command):
    split here, a gap of 1e9 seqs was 100,000 tuples."""
    t = SeqTracker()
    t.accept("a", 1)
    t.accept("a", 25_002)  # 2 .. 25001 missing: 25,000 seqs
    assert t.take_gaps() == [("a", 2, 25_001)]
    t.accept("b", 1)
    t.accept("b", 10**9)
    assert t.take_gaps() == [("b", 2, 10**9 - 1)]
    # a fill in the middle splits the range
    assert t.accept("a", 500) and t.missing("a") == 24_999
    assert t.accept("a", 499) and t.accept("a", 501) and not t.accept("a", 500)
    assert t.missing("a") == 24_997


def test_missing_in_is_what_a_replay_request_still_needs():
    t = SeqTracker()
    for seq in (1, 10, 3, 20):     # missing: 2, 4-9, 11-19
        t.accept("a", seq)
    assert t.missing_in("a", 1, 10) == (2, 9)
    assert t.missing_in("a", 5, 12) == (5, 12)
    assert t.missing_in("a", 3, 3) is None and t.missing_in("a", 20, 30) is None
    assert t.missing_in("b", 1, 100) is None


def test_forget_starts_a_table_afresh():
    t = SeqTracker()
    t.accept("a", 1)
    t.accept("a", 50_000)          # a seq the table never reached
    t.accept("b", 1)
    t.accept("b", 3)
    t.forget("a")
    assert t.take_gaps() == [("b", 2, 2)]      # a's gap is not asked for any more
    assert t.missing("a") == 0 and t.accept("a", 2) and t.accept("a", 3)   # a's own seqs are new again
    assert t.missing("b") == 1


def test_a_round_prints_with_the_face_down_card_unknown_until_revealed():
    view = PitView(game="baccarat")
    lines = []
    for i, (kind, data) in enumerate([
        ("round_start", {"round": 1, "player_dealer": 3, "last_of_shoe": True}),
        ("card", {"hand": "player", "position": 1, "face": "up", "card": "2H"}),
        ("card", {"hand": "banker", "position": 1, "face": "up", "card": "KD"}),
        ("card", {"hand": "player", "position": 2, "face": "up", "card": "5C"}),
        ("card", {"hand": "banker", "position": 2, "face": "down"}),
        ("reveal", {"hand": "banker", "position": 2, "card": "6S"}),
        ("result", {"player": {"cards": ["2H", "5C"], "total": 7}, "banker": {"cards": ["KD", "6S"], "total": 6},
                    "winner": "player", "banker_six": False}),
        ("alarm", {"severity": "fault", "code": "unexpected_card", "message": "9H drawn", "action": "void"}),
    ], start=1):
        lines += view.feed(env(i, kind, data))
    assert lines[0] == "[t1 #1] round 1: player-dealer seat 3 (last of the shoe)"
    assert "P 2H 5C = 7  |  B KD 6S = 6  ->  PLAYER" in lines[1]
    assert lines[2] == "[t1 #8] ALARM fault unexpected_card: 9H drawn [void]"
    assert view.feed(env(8, "alarm", {})) == []  # a duplicate prints nothing
    assert view.results == 1


def test_a_result_reads_as_its_game_learnt_from_the_birth():
    view = PitView()
    joker_seven = {"cards": ["AS", "AC", "3S", "3C", "5H", "6D", "JK"], "paytable": "generic",
                   "wagers": [{"wager": "two_pairs", "outcome": "win", "pays": "3 to 1", "why": ""},
                              {"wager": "no_pair", "outcome": "lose", "pays": None, "why": ""}]}
    assert view.feed(env(1, "result", joker_seven)) == [
        "[t1 #1]   result: cards=['AS', 'AC', '3S', '3C', '5H', '6D', 'JK'], paytable=generic, wagers=["
        "{'wager': 'two_pairs', 'outcome': 'win', 'pays': '3 to 1', 'why': ''}, "
        "{'wager': 'no_pair', 'outcome': 'lose', 'pays': None, 'why': ''}]"]
    view.status_line("casino/t1/status", {"online": True, "birth": 1, "game": "joker_seven"})
    assert view.feed(env(2, "result", joker_seven)) == ["[t1 #2]   AS AC 3S 3C 5H 6D JK  ->  two_pairs 3 to 1"]
    view.status_line("casino/t1/status", {"online": True, "birth": 2, "game": "baccarat"})
    assert view.feed(env(3, "result", joker_seven))[0].startswith("[t1 #3]   result: cards=")  # unreadable: as is


def test_status_lines():
    assert PitView().status_line("casino/t1/status", {"online": True, "birth": 4, "game": "baccarat",
                                                    "version": "0.1.0", "next_seq": 10,
                                                    "devices": {"shoe": "online"}}) == \
        "[t1] ONLINE birth 4: baccarat 0.1.0, next seq 10, devices shoe=online"
    assert PitView().status_line("casino/t1/status", {"online": False, "birth": 4}) == "[t1] OFFLINE (birth 4)"


def test_a_ruling_on_a_seats_hand_prints_as_the_seat_its_status_and_why():
    """``hand_status`` (Panguingue's counts and winner): a ruling the floor acts on, so shown
    without --verbose."""
    view = PitView()
    line = view.feed(env(1, "hand_status", {"seat": 4, "status": "dead", "cards": 12,
                                            "reason": "12 cards before touching the deck", "rule": "r", "action": "a"}))
    assert line == ["[t1 #1]   seat 4 dead: 12 cards before touching the deck"]
