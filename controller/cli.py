"""`tablectl`: the daemon, the simulator, the pit's terminal view and the demo.

Only this module (and the benchmarks) may import hw_sim, and only inside the
functions that need it (DESIGN.md, import rule): a production table never
loads the simulator.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import signal
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from controller.broker import LocalBroker
from controller.config import Config, ConfigError, load_config
from controller.pit_client import PitClient, parse_address
from controller.pitview import PitView

REPO_CONFIG = Path(__file__).resolve().parent.parent / "config"
GAMES = ("baccarat",)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if getattr(args, "debug", False) else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablectl", description=__doc__.splitlines()[0])
    p.add_argument("--debug", action="store_true", help="log everything to stderr")
    sub = p.add_subparsers(required=True, metavar="COMMAND")

    d = sub.add_parser("demo", help="a simulated table end to end, with a broker of its own")
    d.add_argument("--game", choices=GAMES, default="baccarat")
    d.add_argument("--rounds", type=_positive, default=10)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--mqtt-port", type=int, default=0, help="broker port (default: a free one)")
    d.add_argument("--broker", choices=("auto", "mosquitto", "embedded"), default="auto")
    d.add_argument("--transport", choices=("pty", "hwsim"), default="pty")
    d.add_argument("-v", "--verbose", action="store_true", help="every card, prompt and light")
    d.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    d.set_defaults(func=cmd_demo)

    r = sub.add_parser("run", help="the production daemon for one table")
    r.add_argument("--config", required=True, type=Path)
    r.set_defaults(func=cmd_run)

    s = sub.add_parser("sim", help="simulated devices and dealer for a controller in another process")
    s.add_argument("--config", required=True, type=Path)
    s.add_argument("--seed", type=int, default=1)
    s.set_defaults(func=cmd_sim)

    w = sub.add_parser("watch", help="the pit's view of a table, in the terminal")
    w.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT")
    w.add_argument("--prefix", default="casino")
    w.add_argument("--table", default="+", help="table id (default: every table)")
    w.add_argument("-v", "--verbose", action="store_true")
    w.set_defaults(func=cmd_watch)
    return p


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


# -- demo ----------------------------------------------------------------------

def cmd_demo(args: argparse.Namespace) -> int:
    from controller.app import build_controller, mock_press
    from games.decks import SPECS
    from hw_sim.rig import SimRig

    with LocalBroker(port=args.mqtt_port, prefer=args.broker) as broker, \
            tempfile.TemporaryDirectory(prefix="tablectl-demo-") as tmp:
        print(f"broker {broker.address} ({broker.kind}); watch it with: "
              f"tablectl watch --broker {broker.address}", flush=True)
        cfg = load_config(REPO_CONFIG / f"{args.game}-sim.toml")
        rig = SimRig(SPECS[args.game], seed=args.seed, transport=args.transport,
                     pass_probability=0.2).start()
        cfg = sim_config(cfg, rig.urls, broker.host, broker.port, Path(tmp) / "journal.db")
        controller = build_controller(cfg)
        dealer = rig.attach_dealer(mock_press(cfg))
        view = PitView(verbose=args.verbose)
        finished = threading.Event()

        def on_event(topic: str, env: dict) -> None:
            dealer.on_event(env)
            for line in view.feed(env):
                print(line, flush=True)
            if view.results >= args.rounds:
                finished.set()

        topic = f"{cfg.mqtt.prefix}/{cfg.table.id}/event/#"
        pit = PitClient(broker.host, broker.port, [topic], on_event, client_id="demo-pit").start()
        started = time.monotonic()
        try:
            controller.start()
            ok = finished.wait(args.timeout)
            dealer.paused.set()
        finally:
            controller.stop()
            rig.stop()
            pit.stop()
        took = time.monotonic() - started
        seqs = view.seqs
        print(f"{view.results} rounds in {took:.1f} s; {seqs.last.get(cfg.table.id, 0)} events, "
              f"{seqs.gaps} missing, {seqs.duplicates} duplicates", flush=True)
        if not ok:
            print(f"tablectl demo: only {view.results} of {args.rounds} rounds within {args.timeout:.0f} s",
                  file=sys.stderr)
            return 1
        return 0 if seqs.gaps == 0 else 1


def sim_config(cfg: Config, urls: dict[str, str], host: str, port: int, journal: Path) -> Config:
    """The table config pointed at a simulator's devices and a local broker."""
    return replace(
        cfg,
        mqtt=replace(cfg.mqtt, host=host, port=port),
        journal=replace(cfg.journal, path=journal),
        devices={name: replace(dev, url=urls[name]) for name, dev in cfg.devices.items()},
        table=replace(cfg.table, autostart=True),
    )


# -- run -----------------------------------------------------------------------

def cmd_run(args: argparse.Namespace) -> int:
    from controller.app import build_controller
    from controller.sdnotify import notify

    cfg = load_config(args.config)
    controller = build_controller(cfg, on_ready=lambda: notify("READY=1"))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    controller.start()
    print(f"tablectl: table {cfg.table.id} ready; publishing to {cfg.mqtt.host}:{cfg.mqtt.port}", flush=True)
    # Wake on a signal or on the table thread ending by itself, whichever is first.
    threading.Thread(target=lambda: (controller.table.done.wait(), stop.set()), daemon=True).start()
    stop.wait()
    notify("STOPPING=1")
    controller.stop()
    return 1 if controller.table.error else 0


# -- sim -----------------------------------------------------------------------

def cmd_sim(args: argparse.Namespace) -> int:
    from games.decks import SPECS
    from hw_sim.rig import SimRig

    cfg = load_config(args.config)
    links = {}
    for name, dev in cfg.devices.items():
        if not dev.url.startswith("/"):
            raise ConfigError(cfg.source, [f"devices.{name}.url: tablectl sim needs a filesystem path "
                                           f"to put the simulated device at, not {dev.url!r}"])
        Path(dev.url).parent.mkdir(parents=True, exist_ok=True)
        links[name] = dev.url
    rig = SimRig(SPECS[cfg.table.game], seed=args.seed, transport="pty", links=links,
                 pass_probability=0.2).start()
    base = f"{cfg.mqtt.prefix}/{cfg.table.id}"
    ids = itertools.count(1)
    pit: PitClient | None = None

    def press(button: str) -> None:
        assert pit is not None
        pit.publish(f"{base}/cmd/button", {"id": f"sim-{next(ids)}", "button": button})

    dealer = rig.attach_dealer(press)
    pit = PitClient(cfg.mqtt.host, cfg.mqtt.port, [f"{base}/event/prompt"],
                    lambda topic, env: dealer.on_event(env), client_id=f"{cfg.table.id}-sim").start()
    print(f"tablectl sim: {', '.join(f'{n} at {u}' for n, u in rig.urls.items())}; "
          f"dealer follows {base}/event/prompt", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    rig.stop()
    pit.stop()
    return 0


# -- watch ---------------------------------------------------------------------

def cmd_watch(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.broker)
    except ValueError as exc:
        print(f"tablectl watch: {exc}", file=sys.stderr)
        return 2
    view = PitView(verbose=args.verbose)
    lock = threading.Lock()

    def on_event(topic: str, env: dict) -> None:
        if "/event/" not in topic:
            with lock:
                print(view.status_line(topic, env), flush=True)
            return
        with lock:
            for line in view.feed(env):
                print(line, flush=True)

    def on_bad(topic: str, payload: bytes) -> None:
        print(f"[{topic}] not JSON ({len(payload)} bytes)", flush=True)

    base = f"{args.prefix}/{args.table}"
    pit = PitClient(host, port, [f"{base}/event/#", f"{base}/status"], on_event, on_bad=on_bad).start()
    print(f"watching {base} on {host}:{port}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    pit.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
