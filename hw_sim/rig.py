"""One simulated table: the physical cards, the shuffler and the shoe on
their cables, a dice cup on a simulated USB bus, and the dealer. The demo, `tablectl sim`, the benchmarks and
the end-to-end tests all build the simulated side with this, so they all
exercise the same thing.

A cup's bus is registered in this process (``hwsim://...``, for a controller
in the same process), or, when ``links`` names a ``unix:/PATH`` for the cup,
served on that Unix socket (hw_sim.usb_socket) for a controller in another
process (``tablectl sim`` beside ``tablectl run``).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from drivers.usb_socket import socket_path
from games.decks import DeckSpec
from hw_sim.dealer import SimDealer
from hw_sim.devices import SimDevice, SimShoe, SimShuffler
from hw_sim.faults import FaultScheduler, FaultSpec, check_faults, check_table_faults
from hw_sim.kinds import SIM_KINDS, on_usb
from hw_sim.pace import Pace, as_pace
from hw_sim.physical import Table
from hw_sim.transport import hwsim_port, open_pty
from hw_sim.usb_backend import SimUsbBus
from hw_sim.usb_socket import UsbSocketServer, check_path

_rig_ids = itertools.count(1)


@dataclass
class SimRig:
    """Build with the table's deck spec; ``start()``; hand ``urls`` to the controller."""

    spec: DeckSpec
    seed: int = 0
    kinds: dict[str, str] = field(default_factory=lambda: {"shoe": "card_shoe", "shuffler": "shuffler"})
    """Each device's name (its role in the game) and kind, as the table's config has them."""
    settings: dict[str, dict] = field(default_factory=dict)
    """Each device's other config settings, where the simulated device follows them (a cup's ``dice``)."""
    transport: str = "pty"            # "pty" (real pseudo-terminals) or "hwsim" (in-process)
    links: dict[str, str] = field(default_factory=dict)
    """pty: the symlink path per serial device; ``unix:/PATH`` for a USB device served on that socket."""
    heartbeat: float | None = 1.0
    retransmit: float = 0.25
    cut_from_end: int = 16
    pass_probability: float = 0.0
    pace: Pace | str | float = 0.0
    """The dealer's pace (hw_sim.pace): ``fast`` (0), seconds before each action, or ``human``."""
    faults: list[FaultSpec | str] = field(default_factory=list)
    """``NAME@WHEN`` specs (hw_sim.faults), fired from the dealer's prompts and the rig's start."""
    game: str | None = None
    """The table's game, when known: a fault at a step it never prompts for is refused at start."""
    table: Table = field(init=False)
    devices: dict[str, SimDevice] = field(default_factory=dict, init=False)
    dealer: SimDealer | None = field(default=None, init=False)
    urls: dict[str, str] = field(default_factory=dict, init=False)
    """Where the controller finds each device: a pty path or ``hwsim://`` line, or the USB bus."""
    scheduler: FaultScheduler | None = field(default=None, init=False)
    usb: SimUsbBus | None = field(default=None, init=False)
    usb_servers: dict[str, UsbSocketServer] = field(default_factory=dict, init=False)
    """The buses served on Unix sockets, by path."""

    def start(self) -> SimRig:
        if self.transport not in ("pty", "hwsim"):
            raise ValueError(f"transport must be 'pty' or 'hwsim', not {self.transport!r}")
        # A bad spec, or one that could never fire at this table, fails here, before anything starts.
        specs = (check_table_faults(self.faults, self.game, self.kinds) if self.game is not None
                 else check_faults(self.faults, self.kinds))
        sockets = {name: socket_path(link) for name, link in self.links.items()
                   if on_usb(self.kinds.get(name, "")) and link.startswith("unix:")}
        for path in set(sockets.values()):
            check_path(path)   # served by another simulator, or not a socket: refused before anything starts
        self.table = Table(self.spec, seed=self.seed)
        unknown = sorted(k for k in self.kinds.values() if k not in SIM_KINDS)
        if unknown:
            raise ValueError(f"no simulated device of kind {', '.join(unknown)}; known: {', '.join(SIM_KINDS)}")
        rig = f"{os.getpid()}-{next(_rig_ids)}"
        common = {"heartbeat": self.heartbeat, "retransmit": self.retransmit}
        for offset, (name, kind) in enumerate(sorted(self.kinds.items(), key=_device_order), start=1):
            if on_usb(kind):
                dice = self.settings.get(name, {}).get("dice", 3)
                cup = SIM_KINDS[kind](  # type: ignore[call-arg]
                    dice=dice, seed=self.seed + offset, serial=f"SIMCUP-{self.seed + offset}", name=name)
                if name in sockets:
                    server = self.usb_servers.get(sockets[name])
                    if server is None:
                        server = self.usb_servers[sockets[name]] = UsbSocketServer(
                            SimUsbBus(f"usb-{rig}-{len(self.usb_servers) + 1}"), sockets[name])
                    self.devices[name] = server.backend.attach(cup)
                    self.urls[name] = server.url
                    continue
                if self.usb is None:
                    self.usb = SimUsbBus(f"usb-{rig}").register()
                self.devices[name] = self.usb.attach(cup)
                self.urls[name] = self.usb.url
                continue
            if self.transport == "pty":
                port = open_pty(self.links.get(name))
                self.urls[name] = port.path
            else:
                port = hwsim_port(f"{name}-{rig}")
                self.urls[name] = port.url
            self.devices[name] = SIM_KINDS[kind](self.table, port, seed=self.seed + offset,  # type: ignore[call-arg]
                                                 **common)
        for device in self.devices.values():
            device.start()
        for server in self.usb_servers.values():
            server.start()
        self.scheduler = FaultScheduler(specs, dict(self.devices)).start()
        return self

    @property
    def shoe(self) -> SimShoe:
        """The card reader (the device named ``shoe``), for tests that reach into it."""
        return self.devices["shoe"]  # type: ignore[return-value]

    @property
    def shuffler(self) -> SimShuffler:
        return self.devices["shuffler"]  # type: ignore[return-value]

    def attach_dealer(self, press: Callable[[str], None]) -> SimDealer:
        """The dealer presses buttons through ``press`` (mock GPIO pins or ``cmd/button``)."""
        self.dealer = SimDealer(self.table, self.devices, dict(self.kinds), press,
                                cut_from_end=self.cut_from_end, seed=self.seed + 3,
                                pass_probability=self.pass_probability,
                                pace=as_pace(self.pace).for_table(seed=self.seed + 4, cards=self.spec.size))
        if self.scheduler is not None:
            self.dealer.before_act.append(self.scheduler.before_prompt)
        for device in self.devices.values():
            device.on_back.append(self.dealer.poke)   # a dead device is back: act on the held prompt
        return self.dealer.start()

    def stop(self) -> None:
        if self.scheduler is not None:
            self.scheduler.stop()
        if self.dealer is not None:
            self.dealer.stop()
        for dev in self.devices.values():
            dev.stop()
            close = getattr(dev.port, "close", None)
            if close:
                close()
        for server in self.usb_servers.values():
            server.stop()
        if self.usb is not None:
            self.usb.unregister()


def _device_order(item: tuple[str, str]) -> tuple[int, str]:
    """Seeds follow a fixed order (the shoe's first), so a seeded run stays what it was."""
    return ({"shoe": 0, "shuffler": 1}.get(item[0], 2), item[0])
