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
    assert lines[1].startswith("[t1 #1]     (player-dealer: a seated player who banks the round in turn")  # told once
    assert lines[2] == "[t1 #7]   Player 2H 5C = 7   Banker KD 6S = 6   ->  Player wins"
    assert lines[3] == "[t1 #8] ALARM fault unexpected_card: 9H drawn [void]"
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
    assert view.feed(env(2, "result", joker_seven)) == ["[t1 #2]   AS AC 3S 3C 5H 6D JK  ->  two pairs pays 3 to 1"]
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


def test_device_status_is_said_once_and_again_only_when_it_changes():
    """Issue 24: every device said three times (opened, identified, again after opening). What the
    devices report before anything else of the table is one line; later, only a change."""
    view = PitView(game="baccarat")
    out: list[str] = []
    for i, (kind, data) in enumerate([
        ("device", {"device": "shoe", "status": "online", "code": None, "detail": ""}),
        ("device", {"device": "shuffler", "status": "online", "code": None, "detail": ""}),
        ("device", {"device": "shoe", "status": "online", "code": None, "detail": "SIMSHOE 1.0"}),
        ("table", {"status": "open"}),
        ("device", {"device": "shuffler", "status": "online", "code": None, "detail": "SIMSHUF 1.0"}),
        ("device", {"device": "shoe", "status": "offline", "code": "timeout", "detail": "no heartbeat for 3 s"}),
        ("device", {"device": "shoe", "status": "offline", "code": "timeout", "detail": "still nothing"}),
        ("device", {"device": "shoe", "status": "online", "code": None, "detail": "SIMSHOE 1.0"}),
    ], start=1):
        out += view.feed(env(i, kind, data))
    assert out == ["[t1 #4] devices: shoe online, shuffler online", "[t1 #4] table open",
                   "[t1 #6] device shoe OFFLINE (timeout): no heartbeat for 3 s", "[t1 #8] device shoe online"]


def test_the_tables_own_events_read_as_words():
    view = PitView(game="baccarat")
    said = [line.split("] ", 1)[1] for i, (kind, data) in enumerate([
        ("deck_check", {"ok": True, "expected": 416, "counted": 416, "missing": [], "extra": [], "unreadable": 0}),
        ("deck_check", {"ok": False, "expected": 52, "counted": 51, "missing": ["AS"], "extra": [], "unreadable": 1}),
        ("shuffle", {"ok": False, "count": 51, "expected": 52}),
        ("shoe", {"event": "cut_card", "last_round": True, "remaining": 14}),
        ("void", {"round": 4, "reason": "shoe offline", "by": "pit:alice", "cards_burned": 1}),
        ("player_dealer", {"seat": 3, "consecutive": 2, "change": "kept"}),
        ("player_dealer", {"seat": 4, "consecutive": 0, "change": "offered"}),
    ], start=1) for line in view.feed(env(i, kind, data))]
    assert said == ["deck check: 416 of 416 cards",
                    "DECK CHECK FAILED: 51 of 52 cards counted (missing AS; 1 unreadable)",
                    "SHUFFLE COUNT WRONG: 51 cards, 52 expected",
                    "the cut card is out, 14 cards left: the next round is the last of the shoe",
                    "round 4 VOIDED by pit:alice: shoe offline; 1 card(s) burned with it",
                    "player-dealer position offered to seat 4",
                    "    (player-dealer: a seated player who banks the round in turn, offered the position round the "
                    "table, never more than two rounds running; the house dealer deals and banks no wager (rule 21))"]


def test_a_poker_room_hand_reads_with_money_as_money_and_seats_as_seats():
    view = PitView(game="holdem")
    start = {"seat": 1, "dead_button": False, "small_blind": 2, "big_blind": 3, "players": [1, 2, 3, 5],
             "variant": "omaha", "collection": {"players": 4, "fee": 300, "jackpot": 100, "basis": "pot"}}
    assert view.feed(env(1, "action_button", start)) == [
        "[t1 #1]   Omaha, button seat 1, small blind seat 2, big blind seat 3: 4 players (seats 1-3 and 5); "
        "fee $3.00, jackpot drop $1.00"]
    end = {"button": 1, "small_blind": 2, "big_blind": 3, "players": [1, 2, 3, 5], "collection": start["collection"],
           "showdown": {"board": ["AS", "KD", "7C", "7H", "2S"], "high": [3], "low": []}}
    assert view.feed(env(2, "result", end)) == [
        "[t1 #2]   hand over: showdown: board AS KD 7C 7H 2S, high hand seat 3"]
    assert view.feed(env(3, "result", {**end, "showdown": None})) == ["[t1 #3]   hand over: no showdown entered"]


def test_a_result_the_games_words_cannot_read_is_shown_as_it_is():
    view = PitView(game="three_card_poker")
    assert view.feed(env(1, "result", {"dealer": "?"})) == ["[t1 #1]   result: dealer=?"]
