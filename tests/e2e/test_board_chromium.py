"""The pit board in a real browser: Debian's chromium, headless, driven by Selenium through Debian's
chromedriver, against a real Mosquitto, simulated tables and the board's own HTTP server.

Timing is taken in the page: a MutationObserver the test installs stamps (``Date.now()``) the
moment each element with a ``data-key`` first enters the DOM, and the test waits for a key with an
asynchronous script that the observer answers (no polling). The lag checked is from the moment
the pit service handed the event on (``PitFeed.handed_at``, wall clock) to that stamp, on one
machine: the board's own part. The event's ``ts`` (the table's clock when it made the event, before
its journal and its publish, which a loaded 2-core machine delays by more than the board takes) is
printed beside it, not checked. Both figures are printed (``-s``) and recorded as properties.

The screenshot of the board is kept in ``tests/artifacts/`` (ignored by git), path printed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from browser_support import STAMP, needs_chromium, screenshot, seen, stamped
from pit_support import PitFeed, Table, bac_result

from controller.pit.board.picture import Picture
from controller.pit.board.web import BoardServer, serve
from games import registry

pytestmark = needs_chromium


@pytest.fixture
def pit(broker) -> Iterator[tuple[Picture, BoardServer, PitFeed]]:
    """A picture fed from the broker as the pit service will feed it, and the board serving it."""
    picture = Picture()
    feed = PitFeed(broker.host, broker.port, "casino", picture).start()
    server = serve(picture, "127.0.0.1", 0)
    yield picture, server, feed
    server.stop()
    feed.stop()


def lags(record_property: Callable[[str, object], None], what: str, board: float, table: float) -> None:
    """Print and record a lag, so a run's figures can be reported, not only passed or failed."""
    print(f"board lag: {what}: {board * 1000:.0f} ms from the pit service handing it on to the DOM "
          f"({table * 1000:.0f} ms from the table's ts)")
    record_property(f"{what}_lag_ms", round(board * 1000))
    record_property(f"{what}_lag_from_ts_ms", round(table * 1000))


def test_three_simulated_tables_appear_and_a_result_and_an_alarm_show_within_a_second(
        table_factory, table_process, pit, browser, record_property) -> None:
    picture, server, feed = pit
    stamped(browser, server.url + "/?view=tiles")
    # baccarat misreads its 8th draw (an alarm, shoe_misread, whose action is to void the round)
    bac = table_factory(seed=41, rig={"faults": ["misread@card:8"]}).start()
    others = [table_process("joker_seven", 42), table_process("three_card_poker", 43)]
    for table in ("bac-sim-01", *others):
        assert seen(browser, f"tile:{table}")["text"].startswith(table)
    result = bac.wait_event("result")
    shown = seen(browser, f"result:bac-sim-01:{result['seq']}")
    lag = shown["at"] - feed.handed_at("bac-sim-01", result["seq"])
    lags(record_property, "result", lag, shown["at"] - result["ts"])
    assert lag < 1.0, f"a result reached the board {lag:.3f} s after the pit service handed it on"
    assert shown["text"].endswith(registry.get("baccarat").summary(result["data"]))
    alarm = bac.wait_event("alarm", lambda d: d["code"] == "shoe_misread", timeout=60)
    shown = seen(browser, f"alarm:bac-sim-01:{alarm['seq']}")
    lag = shown["at"] - feed.handed_at("bac-sim-01", alarm["seq"])
    lags(record_property, "alarm", lag, shown["at"] - alarm["ts"])
    assert lag < 1.0, f"an alarm reached the board {lag:.3f} s after the pit service handed it on"
    # loud: colour (the tile's alarm classes), words (severity, code, message, the action), and said
    assert "has-alarm" in shown["tile"] and "has-fault" in shown["tile"]
    assert shown["text"].startswith("FAULT shoe_misread: " + alarm["data"]["message"])
    assert shown["text"].endswith("Action: " + alarm["data"]["action"])
    role, said = browser.execute_script(
        "return [document.getElementById('announce').getAttribute('role'), window.__said]")
    assert role == "alert"
    assert f"Table bac-sim-01: FAULT shoe_misread: {alarm['data']['message']}. Action: {alarm['data']['action']}" \
        in said
    tiles = browser.execute_script(
        "return [...document.querySelectorAll('article.tile')].map(t => t.dataset.table)")
    assert tiles == ["bac-sim-01", "joker-seven-sim-01", "three-card-poker-sim-01"] == ["bac-sim-01", *others]
    for table in others:    # each deals, and its result is on its tile
        result = feed.wait_event(table, "result", timeout=60)
        seen(browser, f"result:{table}:{result['seq']}")
    assert feed.rejected() == 0 and picture.errors == 0
    path = screenshot(browser, "board.png")
    assert path.stat().st_size > 10_000


def publisher(broker) -> Callable[[str, dict, bool], None]:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-test-table")
    client.connect(broker.host, broker.port)
    client.loop_start()

    def send(topic: str, payload: dict, retain: bool = False) -> None:
        client.publish(topic, json.dumps(payload), qos=1, retain=retain).wait_for_publish(10)
    send.client = client  # type: ignore[attr-defined]
    return send


ROADS = {   # the shoe TT BB P BBB PP B P, worked by hand in tests/games/test_baccarat_roads.py
    "bead_plate": "TB\nTB\nBP\nBP\nPB\nBP",
    "big_road": "BPBPBP\nB.BP..\n..B...\n......\n......\n......",
    "big_eye_boy": "brbrb\nb...b\n.....\n.....\n.....\n.....",
    "small_road": "rb\n.b\n.b\n.b\n.b\n..",
    "cockroach_pig": "r\nr\nr\n.\n.\n.",
}

READ_ROADS = """
const out = {};
for (const fig of document.querySelectorAll('figure.road')) {
  const name = fig.id.replace('road-', '');
  const cells = [...fig.querySelectorAll('td[data-mark]')];
  const cols = 1 + Math.max(-1, ...cells.map(c => +c.dataset.col));
  const rows = fig.querySelectorAll('tr').length;
  const grid = Array.from({length: rows}, () => Array(cols).fill('.'));
  for (const c of cells) {
    const m = c.dataset.mark;
    grid[+c.dataset.row][+c.dataset.col] = m === 'red' ? 'r' : m === 'blue' ? 'b' : m;
  }
  out[name] = {picture: grid.map(r => r.join('')).join('\\n'),
               ties: cells.filter(c => c.dataset.ties).map(c => [+c.dataset.col, +c.dataset.row, +c.dataset.ties])};
}
return out;
"""


def test_the_baccarat_page_draws_the_roads_of_a_known_shoe_and_shows_table_text_as_text(
        broker, pit, browser) -> None:
    picture, server, feed = pit
    send = publisher(broker)
    try:
        t = Table(id="bac-known")
        send("casino/bac-known/status", t.status(), True)
        stamped(browser, server.url + "/")
        seen(browser, "tile:bac-known")
        # keyboard: the tile takes the focus and Enter opens the table's page
        browser.execute_script("document.querySelector('article[data-table=\"bac-known\"]').focus()")
        from selenium.webdriver.common.keys import Keys
        browser.switch_to.active_element.send_keys(Keys.ENTER)
        assert browser.current_url == server.url + "/table/bac-known"
        browser.execute_script(STAMP)
        hostile = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'
        send("casino/bac-known/event/prompt", t.event("prompt", {"expect": "bets", "hand": None, "buttons": [],
                                                               "text": hostile}))
        send("casino/bac-known/event/shuffle", t.event("shuffle", {"ok": True, "count": 416, "expected": 416}))
        words = {"B": "banker", "P": "player", "T": "tie"}
        for n, c in enumerate("TTBBPBBBPPBP", start=1):
            t.round = n
            send("casino/bac-known/event/result", t.event("result", bac_result(words[c])))
        seen(browser, "round:12")     # the last result's patch, roads and all
        page = browser.execute_script(READ_ROADS)
        assert {name: road["picture"] for name, road in page.items()} == ROADS
        assert page["big_road"]["ties"] == [[0, 0, 2]]
        prompt = browser.execute_script(
            "return {text: document.querySelector('[data-prompt]').textContent, xss: window.__xss === undefined,"
            " scripts: document.querySelectorAll('main script, main img').length}")
        assert prompt == {"text": "Next: " + hostile, "xss": True, "scripts": 0}
        landmarks = browser.execute_script(
            "return ['header', 'nav', 'main', '[role=alert]', '[role=status]'].map(s => !!document.querySelector(s))")
        assert all(landmarks)
        alarm = t.alarm("outbox_full", "critical", "the backlog reached journal.max_undelivered",
                        "finish the round in progress; dealing resumes when the backlog is down again")
        send("casino/bac-known/event/alarm", alarm)
        shown = seen(browser, f"alarm:bac-known:{alarm['seq']}")
        assert shown["text"].startswith("CRITICAL outbox_full") and "has-critical" in shown["tile"]
        screenshot(browser, "table-bac-known.png")
    finally:
        send.client.loop_stop()   # type: ignore[attr-defined]
        send.client.disconnect()  # type: ignore[attr-defined]
    assert feed.rejected() == 0 and picture.errors == 0


def test_a_table_taken_off_the_floor_leaves_the_board_and_its_open_page_says_so(broker, pit, browser) -> None:
    """Its retained status cleared (an empty retained message): the tile goes from a board that is
    open, and a page open on the table says it has left; `tablectl watch` drops its line alike."""
    from selenium.webdriver.support.ui import WebDriverWait

    picture, server, feed = pit
    send = publisher(broker)

    def clear() -> None:
        send.client.publish("casino/bac-gone/status", b"", qos=1, retain=True).wait_for_publish(10)  # type: ignore[attr-defined]

    def shown(script: str) -> None:
        WebDriverWait(browser, 10).until(lambda d: d.execute_script(script), f"never true: {script}")

    try:
        t = Table(id="bac-gone")
        send("casino/bac-gone/status", t.status(), True)
        stamped(browser, server.url + "/")
        seen(browser, "tile:bac-gone")
        clear()
        shown("return !document.querySelector('article[data-table=\"bac-gone\"]') && "
              "document.querySelector('main').textContent.includes('No table has been heard from yet.')")
        t.birth = 2
        send("casino/bac-gone/status", t.status(), True)   # back on the floor
        stamped(browser, server.url + "/table/bac-gone")
        seen(browser, "tile:bac-gone")
        clear()
        shown("return document.querySelector('main .empty').textContent === 'Table bac-gone has left the floor.'")
    finally:
        send.client.loop_stop()   # type: ignore[attr-defined]
        send.client.disconnect()  # type: ignore[attr-defined]
    assert picture.detail("bac-gone") is None and feed.rejected() == 0 and picture.errors == 0


def test_a_page_whose_board_restarted_is_redrawn_and_says_why(broker, pit, browser) -> None:
    """The board's process went away and a new one answers on the same port: the page's stream
    reconnects by itself, and its fresh snapshot says why the page was drawn again (issue 26: a
    browser dropped or redrawn is told why)."""
    from selenium.webdriver.support.ui import WebDriverWait

    picture, server, feed = pit
    send = publisher(broker)
    try:
        send("casino/bac-again/status", Table(id="bac-again").status(), True)
        stamped(browser, server.url + "/")
        seen(browser, "tile:bac-again")
        connection = "return document.getElementById('connection').textContent"
        WebDriverWait(browser, 10).until(lambda d: d.execute_script(connection) == "Live")
        port = server.port
        server.stop()
        again = serve(Picture(), "127.0.0.1", port)   # another process's board: it has heard of no table yet
        try:
            WebDriverWait(browser, 30).until(
                lambda d: d.execute_script(connection) == "Live: redrawn, the pit board restarted",
                "the page never said why it was redrawn")
            assert browser.execute_script("return document.querySelector('main .empty').textContent") == \
                "No table has been heard from yet."
        finally:
            again.stop()
    finally:
        send.client.loop_stop()   # type: ignore[attr-defined]
        send.client.disconnect()  # type: ignore[attr-defined]
    assert feed.rejected() == 0 and picture.errors == 0


def test_the_pictures_here_are_the_hand_worked_ones() -> None:
    """ROADS above is the shoe of the roads' own tests, drawn the same way by the module."""
    from games.baccarat.roads import Outcome, roads
    assert {g.name: g.text() for g in roads(Outcome.parse("TTBBPBBBPPBP"))} == ROADS
