"""A whole simulated table for end-to-end tests: hw_sim + controller + a pit subscriber.

The controller is built exactly as `tablectl demo` builds it (controller.table.app),
the devices sit behind real pseudo-terminals (or hwsim://), and everything
the test asserts on comes from a separate MQTT subscriber: what the pit sees.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.cli import SIM_CONFIG_DIR, sim_config, sim_rig, sim_table_config
from controller.pit.client import PitClient
from controller.shared.schemas import validate_event
from controller.table.app import build_controller, mock_press
from controller.table.config import load_config, parse_config
from hw_sim.rig import SimRig

WAIT = 30.0


class SimTable:
    def __init__(self, broker, tmp_path: Path, *, seed: int = 1, transport: str = "pty",
                 pass_probability: float = 0.2, start_dealer: bool = True,
                 prepare: Callable[[SimRig], None] | None = None, rig: dict | None = None,
                 devices: dict | None = None, game: str | None = None, game_options: dict | None = None,
                 table_id: str | None = None, seats: int | None = None) -> None:
        """``rig``: more SimRig fields (``faults``, ``links``, ``heartbeat`` ...);
        ``devices``: settings for every [devices.*] of the config (``heartbeat_timeout`` ...);
        ``game``: a simulated table of that registered game, as ``tablectl demo --game`` makes
        it (controller.cli.sim_table_config), instead of the example baccarat config, with
        ``game_options`` over the demo's ``[game]``; ``table_id``: another id than the config's,
        for several tables of one game on one broker (each in its process: sim_table_process.py);
        ``seats``: another number of seats than the demo's."""
        if not isinstance(Device.pin_factory, MockFactory):
            Device.pin_factory = MockFactory()
        Device.pin_factory.reset()
        cfg = sim_table_config(game, game_options, seats) if game else load_config(SIM_CONFIG_DIR / "baccarat-sim.toml")
        self.rig: SimRig = sim_rig(cfg, seed=seed, transport=transport, pass_probability=pass_probability,
                                   **(rig or {})).start()
        if prepare:
            prepare(self.rig)
        if devices:
            cfg = replace(cfg, devices={n: replace(d, **devices) for n, d in cfg.devices.items()})
        if table_id:
            cfg = replace(cfg, table=replace(cfg.table, id=table_id))
        self.cfg = sim_config(cfg, self.rig.urls, broker.host, broker.port, tmp_path / "journal.db")
        self.base = f"{self.cfg.mqtt.prefix}/{self.cfg.table.id}"
        self.controller = build_controller(self.cfg)
        self.press = mock_press(self.cfg, self.controller.table.inbox)
        self.dealer = self.rig.attach_dealer(self.press)
        if not start_dealer:
            self.dealer.paused.set()
        self.messages: list[tuple[str, dict]] = []
        self.cond = threading.Condition()
        self.pit = PitClient(broker.host, broker.port, [f"{self.base}/#"], self._on_message,
                             client_id=f"pit-{self.cfg.table.id}-{seed}").start()

    def _on_message(self, topic: str, payload: dict) -> None:
        if "/event/" in topic:
            self.dealer.on_event(payload)
        with self.cond:
            self.messages.append((topic, payload))
            self.cond.notify_all()

    def start(self) -> SimTable:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.dealer.paused.set()
        self.controller.stop()
        self.rig.stop()
        self.pit.stop()

    # what the pit saw --------------------------------------------------------
    def events(self, kind: str | None = None) -> list[dict]:
        with self.cond:
            return [p for t, p in self.messages if "/event/" in t and (kind is None or p.get("kind") == kind)]

    def wait_for(self, predicate: Callable[[list[dict]], object], timeout: float = WAIT, what: str = "") -> object:
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                events = [p for t, p in self.messages if "/event/" in t]
                found = predicate(events)
                if found:
                    return found
                left = end - time.monotonic()
                if left <= 0:
                    kinds = [e.get("kind") for e in events[-15:]]
                    raise AssertionError(f"timed out waiting for {what or predicate}; last events: {kinds}")
                self.cond.wait(left)

    def wait_event(self, kind: str, match: Callable[[dict], bool] = lambda d: True, *,
                   after: int = 0, timeout: float = WAIT) -> dict:
        def find(events: list[dict]) -> dict | None:
            return next((e for e in events if e["kind"] == kind and e["seq"] > after and match(e["data"])), None)
        return self.wait_for(find, timeout, what=kind)  # type: ignore[return-value]

    def wait_message(self, suffix: str, timeout: float = WAIT) -> dict:
        """The first message on a topic ending in ``suffix`` (replies, state, status)."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                found = next((p for t, p in self.messages if t.endswith(suffix)), None)
                if found is not None:
                    return found
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no message on ...{suffix} within {timeout} s")
                self.cond.wait(left)

    def results(self) -> int:
        return len(self.events("result"))

    def received(self) -> tuple[list[tuple[str, dict]], list[dict]]:
        """Everything the pit received so far, as (topic, payload), and the events among it: each
        valid against the schemas of the table's game, their seqs 1, 2, 3 ... with none missing or
        repeated. (Pause the dealer first for a picture that stays put.)"""
        with self.cond:
            messages = list(self.messages)
        events = [m for t, m in messages if "/event/" in t]
        for env in events:
            validate_event(env, game=self.cfg.table.game)
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        return messages, events


def sim_config_file(tmp_path: Path, port: int, **replace: str) -> Path:
    """The example sim config, pointed at this test's broker, with its devices and
    journal under ``tmp_path``; ``replace`` swaps further text. Checked before use."""
    text = (SIM_CONFIG_DIR / "baccarat-sim.toml").read_text()
    text = text.replace("port = 1883", f"port = {port}")
    text = text.replace("/tmp/tablectl-sim/bac-sim-01", str(tmp_path / "dev"))
    text = text.replace('path = "var/bac-sim-01.db"', f'path = "{tmp_path / "journal.db"}"')
    for old, new in replace.items():
        text = text.replace(old, new)
    path = tmp_path / "table.toml"
    path.write_text(text)
    parse_config(text, str(path))  # the edited example is still valid
    return path
