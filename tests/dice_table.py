"""A Dice High table (tests/dice_game.py) in the real table loop, on a real broker, as the dice and
the integrity tests drive it: device events go on the inbox as the drivers put them, and a pit
subscriber on ``casino/<table>/#`` sees what the table publishes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dice_game import SPEC
from mqtt_support import WAIT, Subscriber

from controller.shared.schemas import validate, validate_event
from controller.table.config import parse_config
from controller.table.inbox import Inbox
from controller.table.journal import Journal
from controller.table.loop import Table
from controller.table.publisher import Publisher
from drivers.events import ButtonPressed, CupClosed, CupShaken, DeckVerified, DiceRead, ShuffleComplete

CONFIG = """
[table]
id = "{table}"
game = "dice_high"
seats = 3

[mqtt]
host = "127.0.0.1"
port = {port}
prefix = "casino"

[journal]
path = "{journal}"

[devices.cup]
kind = "dice_cup"
vendor_id = 0x1209
product_id = 0xd1ce
dice = 2

[devices.shuffler]
kind = "shuffler"
url = "socket://127.0.0.1:9"
"""


def config_text(table: str, port: int, journal: Path) -> str:
    return CONFIG.format(table=table, port=port, journal=journal)


class Harness:
    def __init__(self, table: str, port: int, journal: Path, pit: Subscriber) -> None:
        config = parse_config(config_text(table, port, journal), "dh.toml")
        self.topic = f"casino/{table}"
        self.inbox = Inbox()
        self.pit = pit
        self.table = Table(config, inbox=self.inbox, journal=Journal(config.journal.path, table),
                           publisher=Publisher(config.mqtt, table, self.inbox, game="dice_high"))
        self.table.start().wait_ready(WAIT)
        self.stopped = False

    def open(self, rid: str = "open") -> None:
        """Open the table as the pit and the shuffler would: a round's betting is open (an id used
        again is answered, not carried out)."""
        assert self.command("open", {"id": rid})["ok"]
        self.inbox.put(DeckVerified("shuffler", SPEC.all_cards(), 0))
        self.inbox.put(ShuffleComplete("shuffler", SPEC.size))

    def throw(self, *values: int) -> None:
        """A round of Dice High: no more bets, the shaker's throw, settled."""
        self.inbox.put(ButtonPressed("buttons", "deal"))
        self.inbox.put(CupShaken("cup"))
        self.inbox.put(DiceRead("cup", tuple(values)))
        self.inbox.put(CupClosed("cup"))
        self.inbox.put(ButtonPressed("buttons", "deal"))

    def retained(self, name: str, where: Callable[[dict], bool] = lambda d: True, timeout: float = WAIT) -> dict:
        """The next ``dice`` or ``integrity`` payload that matches, checked against its schema."""
        payload = self.pit.wait_for(lambda m: m.topic == f"{self.topic}/{name}" and where(m.json()), timeout).json()
        validate(name, payload)
        return payload

    def dice(self, where: Callable[[dict], bool] = lambda d: True, timeout: float = WAIT) -> dict:
        return self.retained("dice", where, timeout)

    def integrity(self, where: Callable[[dict], bool] = lambda d: True, timeout: float = WAIT) -> dict:
        return self.retained("integrity", where, timeout)

    def alarm(self, code: str, timeout: float = WAIT) -> dict:
        env = self.pit.wait_for(lambda m: m.topic == f"{self.topic}/event/alarm" and m.json()["data"]["code"] == code,
                                timeout).json()
        validate_event(env, game="dice_high")
        return env["data"]

    def command(self, name: str, payload: dict) -> dict:
        self.pit.publish(f"{self.topic}/cmd/{name}", payload)
        return self.pit.wait_topic(f"/cmd/{name}/reply").json()

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.table.stop()
