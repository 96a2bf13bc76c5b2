"""`tablectl`: the daemon, the simulator, the pit's terminal view and the demo.

Only this module may import hw_sim, and only inside the functions that need
it (DESIGN.md, import rule): a production table never loads the simulator,
the demo's broker (hw_sim.broker) or the benchmark (hw_sim.bench).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.demo_end import DemoEnd
from controller.pit.client import PitClient, parse_address
from controller.pit.lines import PitView
from controller.table.config import Config, ConfigError, DeviceSection, load_config, parse_raw
from controller.table.instance_lock import AnotherController, TableLocked
from controller.table.journal_check import DiskFull, JournalError
from drivers.kinds import KINDS
from drivers.stop_signal import StopSignal
from games import registry

if TYPE_CHECKING:
    from controller.table.loop import Health

SIM_CONFIG_DIR = Path(__file__).resolve().parent / "data"
"""The simulated table's example config, shipped in the package (config/ links to it), so the
example of `tablectl sim` works from an installed wheel too, not only from a checkout."""

def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if getattr(args, "debug", False) else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    except TableLocked as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    except JournalError as exc:  # a journal no restart can fix: one line, and systemd does not retry 2
        print(f"tablectl: {exc.explain(getattr(args, 'config', None))}", file=sys.stderr)
        return 1 if isinstance(exc, DiskFull) else 2   # a full disk: a restart works once space is freed
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablectl", description=__doc__.splitlines()[0])
    p.add_argument("--debug", action="store_true", help="log everything to stderr")
    sub = p.add_subparsers(required=True, metavar="COMMAND")

    d = sub.add_parser("demo", help="a simulated table end to end, with a broker of its own")
    d.add_argument("--game", choices=registry.names(), default=None, help="the game (default baccarat)")
    d.add_argument("--variant", metavar="V",
                   help="the game's variant or paytable (Hold'em: omaha, pineapple ...; Stud: razz, stud_hi_lo; "
                        "Draw: draw, lowball; Joker Seven: its paytables; Three Card Poker: deal_from shoe or "
                        "shuffler); an unknown one is refused with the list")
    d.add_argument("--config", type=Path, metavar="FILE",
                   help="deal the table a tablectl run config describes (its game, options and device kinds), "
                        "on simulated devices and the demo's broker")
    d.add_argument("--rounds", type=_positive, default=10)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--mqtt-port", type=_port, default=0,
                   help="the demo's broker's port (default: a free one); one in use is refused")
    d.add_argument("--broker", choices=("auto", "mosquitto", "embedded", "external"), default="auto",
                   help="the broker the demo starts (auto: Mosquitto if installed, else embedded amqtt), "
                        "or external: the one already listening on 127.0.0.1:--mqtt-port")
    d.add_argument("--transport", choices=("pty", "hwsim"), default="pty")
    d.add_argument("-v", "--verbose", action="store_true", help="every card, prompt and light")
    d.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    d.add_argument("--fault", action="append", default=[], type=_fault_spec, metavar="NAME@WHEN",
                   help="inject a device fault (repeatable), as tablectl sim --fault")
    d.add_argument("--pace", type=_pace, default="fast", metavar="human|fast|SECONDS",
                   help="the simulated dealer's pace: fast (default: as fast as the table answers), SECONDS "
                        "before each action, or human (a baccarat round in about a minute)")
    d.add_argument("--pass-probability", type=_probability, default=0.2, metavar="P",
                   help="how often a simulated player declines the player-dealer position when offered "
                        "(the holder gives it up a quarter as often); 1: nobody ever takes it, and the "
                        "game breaks (default 0.2)")
    d.set_defaults(func=cmd_demo)

    r = sub.add_parser("run", help="the production daemon for one table")
    r.add_argument("--config", required=True, type=Path)
    r.add_argument("--check", action="store_true",
                   help="check the config and the devices it names (ports that open, the dice cup found), "
                        "say every problem, and exit: 0 all good, 2 not")
    r.set_defaults(func=cmd_run)

    s = sub.add_parser("sim", help="simulated devices and dealer for a controller in another process")
    what = s.add_mutually_exclusive_group(required=True)
    what.add_argument("--config", type=Path, help="the table to simulate (the file its tablectl run reads)")
    what.add_argument("--write-config", type=Path, metavar="FILE",
                      help="write a simulated table's config for --game to FILE (for a tablectl sim and a "
                           "tablectl run side by side) and exit")
    s.add_argument("--game", choices=registry.names(), help="with --write-config: the table's game")
    s.add_argument("--table-id", metavar="ID", help="with --write-config: the table's id (default GAME-sim-01)")
    s.add_argument("--broker", type=_broker_address, metavar="HOST:PORT",
                   help="with --write-config: the broker the table publishes to (default 127.0.0.1:1883)")
    s.add_argument("--dir", type=Path, metavar="DIR",
                   help="with --write-config: where the devices appear and the journal goes "
                        "(default: devices under /tmp/tablectl-sim/ID, the journal at var/ID.db)")
    s.add_argument("--force", action="store_true", help="with --write-config: replace FILE if it exists")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--pace", type=_pace, default="human", metavar="human|fast|SECONDS",
                   help="the simulated dealer's pace: human (default: a baccarat round in about a minute, "
                        "jittered by the seed), fast (as fast as the table answers), or SECONDS before each action")
    s.add_argument("--fault", action="append", default=[], type=_fault_spec, metavar="NAME@WHEN",
                   help="inject a device fault (repeatable), e.g. jam@shuffle, misread@card:12, "
                        "unplug@round:3, heartbeat@round:2+5s, garbage@5s, shuffler.door_open@deck_check")
    s.set_defaults(func=cmd_sim)

    pr = sub.add_parser("prune", help="delete delivered events older than N days from a table's journal")
    pr.add_argument("--config", required=True, type=Path)
    pr.add_argument("--keep-days", required=True, type=_positive_days, metavar="DAYS",
                    help="keep this many days of events (at least 1); undelivered events are always kept")
    pr.add_argument("--dry-run", action="store_true", help="say what would go, delete nothing")
    pr.set_defaults(func=cmd_prune)

    j = sub.add_parser("journal", help="check a table's journal, or start a new one in place of a damaged one")
    jsub = j.add_subparsers(required=True, metavar="ACTION")
    jc = jsub.add_parser("check", help="read every page of the journal and say whether the table can use it")
    jc.add_argument("--config", required=True, type=Path)
    jc.set_defaults(func=cmd_journal_check)
    jn = jsub.add_parser("new", help="move a damaged journal aside (kept, never deleted) and start a new one")
    jn.add_argument("--config", required=True, type=Path)
    jn.add_argument("--first-seq", type=_positive, metavar="SEQ",
                    help="number the new journal's events from SEQ (default: after the old journal's last seq "
                         "when it can be read, else 1); the table's retained status on the broker has next_seq")
    jn.add_argument("--force", action="store_true",
                    help="replace a journal that is not damaged: a sound one, or a file that is not a journal")
    jn.set_defaults(func=cmd_journal_new)

    from controller.pit.watch import command as watch  # the pit's view in a terminal
    w = sub.add_parser("watch", help="the pit's view in the terminal: every table at a glance, or each event")
    watch.add_arguments(w)
    w.set_defaults(func=watch.cmd_watch)

    from controller.pit.report import (
        command as report_cli,  # reads the pit archive; psycopg only when it runs
    )
    rp = sub.add_parser("report", help="hands, hands per hour, results and collections by shift, alarms and "
                                       "voids, player-dealer rotation and gaps, from the pit archive")
    report_cli.add_arguments(rp)
    rp.set_defaults(func=report_cli.cmd_report)
    # the pit service's options only: the service (and psycopg) is imported when it runs
    from controller.pit import command as pit_command
    pt = sub.add_parser("pit", help="the pit service: every table's events archived in PostgreSQL, and the pit board")
    pit_command.add_arguments(pt)
    pt.set_defaults(func=pit_command.cmd_pit)

    o = sub.add_parser("odds", help="each wager's probabilities and house edge, as a pit manager checks a paytable")
    o.add_argument("game", choices=registry.names(), metavar="GAME", help=f"one of {', '.join(registry.names())}")
    o.add_argument("--paytable", help="the paytable to price (the game's own names; default: its sheet's)")
    o.add_argument("--decks", type=_positive, help="decks in the shoe (default: the game's sheet)")
    o.add_argument("--json", action="store_true", help="the figures as JSON")
    o.set_defaults(func=cmd_odds)

    fl = sub.add_parser("floor", help="many simulated tables on one broker, each a real controller with its own "
                                      "journal behind simulated devices, until stopped")
    fl.add_argument("--broker", metavar="HOST:PORT",
                    help="the pit's broker (default: the floor starts a broker of its own and prints its address)")
    fl.add_argument("--tables", type=_positive, default=12, help="how many tables (default 12)")
    fl.add_argument("--game", action="append", default=[], metavar="GAME[:KEY=VALUE/...]", dest="games",
                    help="a kind of table, repeatable: the tables take them in turn (default: every game); "
                         "options over the demo's make a variant: holdem:variant=omaha, draw:variant=lowball")
    fl.add_argument("--pace", default="human", metavar="human|fast|SECONDS",
                    help="how fast the simulated dealers deal (default human: a baccarat round in about a minute)")
    fl.add_argument("--seed", type=int, default=1, help="table N is seeded SEED+N-1 (default 1)")
    fl.add_argument("--prefix", default="casino", help="the site's topic prefix (default casino)")
    fl.add_argument("--dir", type=Path, help="where the tables' configs, journals and logs go (default: a new "
                                             "directory under /tmp, kept after the floor stops)")
    fl.add_argument("--fault", action="append", default=[], metavar="TABLE:NAME@WHEN",
                    help="a device fault for one table, as tablectl sim --fault (repeatable): "
                         "baccarat-01:unplug@round:5")
    fl.add_argument("--duration", type=float, metavar="SECONDS", help="stop by itself after this long")
    fl.set_defaults(func=cmd_floor)

    b = sub.add_parser("bench", help="what the controller costs and how fast it is, against baselines")
    _bench_arguments(b)
    b.set_defaults(func=cmd_bench)
    return p


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 1:  # nan fails this too
        raise argparse.ArgumentTypeError(f"a probability is 0 to 1, not {text}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number 1-65535, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number 1-65535, not {value}")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


# -- odds ----------------------------------------------------------------------

def cmd_odds(args: argparse.Namespace) -> int:
    """Exact figures where the game's odds module can count them; a simulation says so, with its
    95 % interval. A wager that favours the player is flagged on stdout and stderr."""
    import json

    from controller.odds_report import render

    entry = registry.get(args.game)
    if entry.odds is None:
        print(f"tablectl odds: {entry.title} has no odds module yet", file=sys.stderr)
        return 2
    try:
        table = entry.odds(args.paytable, args.decks)
    except ValueError as exc:
        print(f"tablectl odds: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(table.to_dict(), indent=2))
    else:
        print(render(entry.title, table))
    for wager in table.wagers:
        if wager.favours_player:
            print(f"tablectl odds: WARNING: the {wager.wager} wager favours the player: "
                  f"{float(wager.expected) * 100:+.3f} % of each unit staked", file=sys.stderr)
    return 0


# -- demo ----------------------------------------------------------------------

def sim_table_config(game: str, options: Mapping[str, Any] | None = None, seats: int | None = None) -> Config:
    """A simulated table of ``game``, from the registry alone (hw_sim.table_config builds the
    raw config: the game's device roles with their first kind, its buttons and light groups on
    mock GPIO pins, the demo's seats and options, ``options`` overriding some of them). Checked
    like any config, so the demo deals exactly what a config file would."""
    from hw_sim.table_config import sim_table_raw

    return parse_raw(sim_table_raw(game, options, seats), f"<simulated {game} table>")


def sim_rig(cfg: Config, **kw: object):  # -> hw_sim.rig.SimRig (hw_sim is imported here only)
    """The simulated devices of ``cfg``: the game's deck, each device by its kind."""
    from hw_sim.rig import SimRig

    spec = registry.get(cfg.table.game).deck(cfg.options)
    return SimRig(spec, kinds={name: dev.kind for name, dev in cfg.devices.items()},  # type: ignore[arg-type]
                  settings={name: dict(dev.settings) for name, dev in cfg.devices.items()}, game=cfg.table.game, **kw)


def sim_faults_refused(cfg: Config, faults: list, command: str) -> bool:
    """Say (one line on stderr) why a fault could never fire at this table -- a device it lacks, a
    step its game never prompts for -- before anything starts; True when one could not."""
    from hw_sim.faults import FaultSpecError, check_table_faults

    try:
        check_table_faults(faults, cfg.table.game, {name: dev.kind for name, dev in cfg.devices.items()})
    except FaultSpecError as exc:
        print(f"tablectl {command}: {exc}", file=sys.stderr)
        return True
    return False


def cmd_demo(args: argparse.Namespace) -> int:
    from controller.table.app import build_controller, mock_press
    from hw_sim.broker import LocalBroker, PortBusy

    cfg = _demo_table(args)
    if cfg is None:
        return 2
    if sim_faults_refused(cfg, list(args.fault), "demo"):
        return 2
    if args.broker == "external" and not args.mqtt_port:
        print("tablectl demo: --broker external needs --mqtt-port: the port the broker listens on", file=sys.stderr)
        return 2
    broker = LocalBroker(port=args.mqtt_port, prefer=args.broker)
    try:
        broker.start()
    except PortBusy as exc:
        print(f"tablectl demo: {exc}: give another --mqtt-port, leave it out for a free one, or --broker "
              "external to deal on the broker there", file=sys.stderr)
        return 2
    except RuntimeError as exc:   # no broker at an external port, or none could be started
        print(f"tablectl demo: {exc}", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as started, tempfile.TemporaryDirectory(prefix="tablectl-demo-") as tmp:
        started.callback(broker.stop)
        print(f"broker {broker.address} ({broker.kind}); watch it with: "
              f"tablectl watch --broker {broker.address}", flush=True)
        rig = sim_rig(cfg, seed=args.seed, transport=args.transport, pass_probability=args.pass_probability,
                      faults=list(args.fault), pace=args.pace).start()
        cfg = sim_config(cfg, rig.urls, broker.host, broker.port, Path(tmp) / "journal.db")
        controller = build_controller(cfg)
        dealer = rig.attach_dealer(mock_press(cfg, controller.table.inbox))
        view = PitView(verbose=args.verbose, game=cfg.table.game)
        end = DemoEnd(resolves=(dealer.on_fault,))
        finished = threading.Event()

        def on_event(topic: str, env: dict) -> None:
            dealer.on_event(env)
            if finished.is_set():
                return
            if view.results >= args.rounds and env.get("kind") == "round_start":
                # The rounds asked for are over, with everything they published after their result
                # (an action button, the player-dealer's next holder): the next round is not shown.
                finished.set()
                return
            for line in view.feed(env):
                print(line, flush=True)
            if end.feed(env) is not None:
                finished.set()

        topic = f"{cfg.mqtt.prefix}/{cfg.table.id}/event/#"
        pit = PitClient(broker.host, broker.port, [topic], on_event, client_id="demo-pit").start()
        started = time.monotonic()
        try:
            controller.start()
            table = controller.table  # a controller that stops by itself ends the demo too
            threading.Thread(target=lambda: (table.done.wait(), end.stopped(table.error), finished.set()),
                             daemon=True, name="demo-controller-watch").start()
            ok = finished.wait(args.timeout) and view.results >= args.rounds
            dealer.paused.set()
        finally:
            controller.stop()
            rig.stop()
            pit.stop()
        took = time.monotonic() - started
        seqs = view.seqs
        print(f"{view.results} rounds in {took:.1f} s; {seqs.last.get(cfg.table.id, 0)} events, "
              f"{seqs.missing()} missing, {seqs.duplicates} duplicates", flush=True)
        if not ok:
            why = end.why or f"only {view.results} of {args.rounds} rounds within {args.timeout:.0f} s"
            print(f"tablectl demo: stopped after {view.results} of {args.rounds} rounds: {why}", file=sys.stderr)
            return 1
        return 0 if seqs.missing() == 0 else 1


def _demo_table(args: argparse.Namespace) -> Config | None:
    """The table the demo deals: ``--config``'s, or a simulated table of ``--game`` with
    ``--variant`` set; None after saying (one line) why neither can be dealt."""
    if args.config is not None:
        if args.variant:
            print("tablectl demo: --variant goes with --game; with --config the file's [game] says it",
                  file=sys.stderr)
            return None
        cfg = load_config(args.config)   # every error of the file at once (ConfigError: exit 2)
        if args.game and args.game != cfg.table.game:
            print(f"tablectl demo: --game {args.game}, but {args.config} is a {cfg.table.game} table",
                  file=sys.stderr)
            return None
        # The demo drives no real pin: the simulated dealer presses the file's buttons on mock pins.
        return cfg if cfg.gpio is None else replace(cfg, gpio=replace(cfg.gpio, pin_factory="mock", bounce_time=0))
    game = args.game or "baccarat"
    options: dict[str, Any] = {}
    if args.variant:
        entry = registry.get(game)
        if entry.variant_key is None:
            print(f"tablectl demo: --variant: {game} has no variants", file=sys.stderr)
            return None
        known = list(entry.options_schema.get("properties", {}).get(entry.variant_key, {}).get("enum", []))
        if known and args.variant not in known:
            print(f"tablectl demo: --variant {args.variant}: {game}'s are {', '.join(known)}", file=sys.stderr)
            return None
        options[entry.variant_key] = args.variant
    return sim_table_config(game, options)


def sim_config(cfg: Config, urls: dict[str, str], host: str, port: int, journal: Path) -> Config:
    """The table config pointed at a simulator's devices and a local broker."""
    return replace(
        cfg,
        mqtt=replace(cfg.mqtt, host=host, port=port),
        journal=replace(cfg.journal, path=journal),
        devices={name: _pointed(dev, urls[name]) for name, dev in cfg.devices.items()},
        table=replace(cfg.table, autostart=True),
    )


def _pointed(dev: DeviceSection, address: str) -> DeviceSection:
    """A simulator's address goes where the device's kind takes it: a serial line's ``url``, a USB
    device's pyusb ``backend`` (the simulated bus, ``hwsim://...``)."""
    if "backend" in KINDS[dev.kind].settings.get("properties", {}):
        return replace(dev, settings={**dev.settings, "backend": address})
    return replace(dev, url=address)


# -- run -----------------------------------------------------------------------

def cmd_run(args: argparse.Namespace) -> int:
    """The daemon. Under systemd (systemd/tablectl@.service, ``Type=notify``):
    ``READY=1`` once the table loop is up, ``WATCHDOG=1`` from the table loop
    every half ``WatchdogSec`` while the devices and the MQTT client are alive
    (:class:`_Watchdog`), ``STATUS=`` when that changes, ``STOPPING=1``."""
    from controller.table.app import build_controller
    from controller.table.sdnotify import watchdog_interval

    cfg = load_config(args.config)   # every error of the file at once (ConfigError: exit 2)
    if args.check:
        from controller.table.check import problems

        found = problems(cfg)
        for line in found:
            print(f"tablectl run --check: {line}", file=sys.stderr)
        if found:
            return 2
        print(f"tablectl run --check: {args.config} is good: table {cfg.table.id} ({cfg.table.game}), "
              f"{len(cfg.devices)} device(s) found and opened, journal at {cfg.journal.path}")
        return 0
    interval = watchdog_interval()
    watchdog = None if interval is None else _Watchdog(cfg.table.id)
    where = f"{cfg.mqtt.host}:{cfg.mqtt.port}"
    # Without a watchdog the table loop needs no tick: it wakes only for its inbox.
    controller = build_controller(
        cfg, on_ready=lambda: _notify("READY=1", f"STATUS=table {cfg.table.id} ready; MQTT {where}"),
        on_tick=None if watchdog is None else watchdog.tick, tick=interval or 10.0)
    stop = StopSignal()   # before any thread starts: a SIGTERM from now on is never lost
    controller.start()
    pings = "" if interval is None else f"; watchdog ping every {interval:g} s while devices and MQTT are alive"
    print(f"tablectl: table {cfg.table.id} ready; publishing to {where}{pings}", flush=True)
    # Wake on a signal or on the table thread ending by itself, whichever is first.
    threading.Thread(target=lambda: (controller.table.done.wait(), stop.wake()), daemon=True).start()
    stop.wait()   # left installed: a second SIGTERM while the table stops must not kill it half-way
    _notify("STOPPING=1", f"STATUS=table {cfg.table.id} stopping")
    controller.stop()
    if isinstance(controller.table.error, JournalError):  # damaged or read-only while running: no restart fixes it
        print(f"tablectl: {controller.table.error.explain(args.config)}", file=sys.stderr)
        return 1 if isinstance(controller.table.error, DiskFull) else 2   # a full disk: once space is freed
    if isinstance(controller.table.error, AnotherController):  # a restart would only take the table over again
        print(f"tablectl: {controller.table.error}", file=sys.stderr)
        return 2
    return 1 if controller.table.error else 0


def _notify(*states: str) -> None:
    """sd_notify that never raises: a notify socket that went away must not
    stop the table (the watchdog then does its job)."""
    from controller.table.sdnotify import notify

    try:
        notify(*states)
    except OSError as exc:
        logging.getLogger("tablectl.sdnotify").warning("sd_notify %s failed: %s", states[0], exc)


def watchdog_problems(health: Health) -> list[str]:
    """Why the table is not healthy enough for a watchdog ping; empty when it is.

    Checked: the table loop (it is the caller, and the one thread that also serves the MQTT
    socket: if it hangs, no ping goes out at all), the MQTT client, and each driver's own ``alive`` (port
    open, device heard within its heartbeat timeout). Not checked: whether
    the broker is reachable. An outage is store and forward (the journal is
    the outbox) and a restart would only void the round in progress, so a
    broker outage shows in ``STATUS=`` and on the pit, never as a restart.
    """
    problems = []
    if not health.running:
        problems.append("table loop stopped")
    if not health.publisher_alive:
        problems.append("MQTT client stopped")
    for name, alive in sorted(health.drivers_alive.items()):
        if not alive:
            problems.append(f"{name} not heard ({health.devices.get(name, 'unknown')})")
    return problems


class _Watchdog:
    """``on_tick`` of the table loop: ``WATCHDOG=1`` only while
    :func:`watchdog_problems` finds none. Runs on the table thread, so a
    wedged loop stops the pings too. ``STATUS=`` (``systemctl status``) is
    sent only when it changes; so is the log line, a warning once the table
    has been healthy (before that, at start, the devices are still to be heard)."""

    def __init__(self, table: str) -> None:
        self.table = table
        self._status: str | None = None
        self._pinged = False
        self._log = logging.getLogger("tablectl.watchdog")

    def tick(self, health: Health) -> None:
        try:
            problems = watchdog_problems(health)
            if problems:
                status = f"{self.table}: watchdog withheld: {'; '.join(problems)}"
            else:
                devices = ", ".join(f"{n} {s}" for n, s in sorted(health.devices.items())) or "no devices"
                mqtt = ("MQTT connected" if health.mqtt_connected
                        else f"MQTT reconnecting; {health.undelivered} events journaled, waiting for the broker")
                status = f"{self.table}: {devices}; {mqtt}"
            states = [] if problems else ["WATCHDOG=1"]
            if status != self._status:
                (self._log.warning if problems and self._pinged else self._log.info)("%s", status)
                self._status = status
                states.append(f"STATUS={status}")
            if states:
                _notify(*states)
            self._pinged = self._pinged or not problems
        except Exception:  # never let the watchdog end the table loop
            self._log.exception("watchdog tick failed")


# -- sim -----------------------------------------------------------------------

def _fault_spec(text: str) -> object:
    """argparse type of ``sim --fault``: a parsed hw_sim fault spec (imported only here)."""
    from hw_sim.faults import FaultSpecError, parse_fault

    try:
        return parse_fault(text)
    except FaultSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _pace(text: str) -> object:
    """argparse type of ``--pace``: a parsed hw_sim pace (imported only here)."""
    from hw_sim.pace import PaceError, parse_pace

    try:
        return parse_pace(text)
    except PaceError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _broker_address(text: str) -> tuple[str, int]:
    from controller.pit.client import parse_address

    try:
        return parse_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


WRITE_CONFIG_ONLY = ("game", "table_id", "broker", "dir", "force")
"""``tablectl sim`` options that only --write-config takes."""


def cmd_sim_write_config(args: argparse.Namespace) -> int:
    """A simulated table's config from the registry (hw_sim.table_config), checked as ``tablectl
    run`` will check it, then written: a floor of simulated tables writes one per table."""
    from hw_sim.table_config import sim_table_raw, to_toml

    if args.game is None:
        print("tablectl sim: --write-config needs --game (one of " + ", ".join(registry.names()) + ")",
              file=sys.stderr)
        return 2
    target: Path = args.write_config
    if target.exists() and not args.force:
        print(f"tablectl sim: {target} exists; --force replaces it", file=sys.stderr)
        return 2
    host, port = args.broker or ("127.0.0.1", 1883)
    folder = str(args.dir.resolve()) if args.dir is not None else None
    raw = sim_table_raw(args.game, table_id=args.table_id, host=host, port=port, folder=folder)
    parse_raw(raw, str(target))   # a ConfigError (a bad id, a socket path too long) names the key: exit 2
    title = registry.get(args.game).title
    header = (f"# A simulated {title} table, written by tablectl sim --write-config. Run the two side by side:\n"
              f"#   tablectl sim --config {target}\n#   tablectl run --config {target}\n\n")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.write_text(header + to_toml(raw))
    partial.replace(target)
    print(f"tablectl sim: wrote {target} (table {raw['table']['id']}, {title})", flush=True)
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    from hw_sim.remote_buttons import RemoteButtons

    if args.write_config is not None:
        return cmd_sim_write_config(args)
    given = [f"--{name.replace('_', '-')}" for name in WRITE_CONFIG_ONLY if getattr(args, name) not in (None, False)]
    if given:
        print(f"tablectl sim: {', '.join(given)} only with --write-config (--config names the table)", file=sys.stderr)
        return 2
    cfg = load_config(args.config)
    links = {}
    for name, dev in cfg.devices.items():
        if "backend" in KINDS[dev.kind].settings.get("properties", {}):
            backend = str(dev.settings.get("backend", "libusb1"))
            if not backend.startswith("unix:/"):
                raise ConfigError(cfg.source, [
                    f"devices.{name}.backend: tablectl sim serves a {dev.kind} to the controller on a Unix socket: "
                    f'backend = "unix:/PATH" (e.g. "unix:/tmp/tablectl-sim/{cfg.table.id}/{name}.sock"), not {backend!r}'])
            links[name] = backend   # the simulated bus is served there (hw_sim.usb_socket)
            continue
        if not (dev.url or "").startswith("/"):
            raise ConfigError(cfg.source, [f"devices.{name}.url: tablectl sim needs a filesystem path "
                                           f"to put the simulated device at, not {dev.url!r}"])
        Path(dev.url).parent.mkdir(parents=True, exist_ok=True)  # type: ignore[arg-type]
        links[name] = dev.url
    from hw_sim.usb_socket import UsbSocketError

    if sim_faults_refused(cfg, list(args.fault), "sim"):
        return 2
    rig = sim_rig(cfg, seed=args.seed, transport="pty", links=links, pass_probability=0.2,
                  faults=list(args.fault), pace=args.pace)
    base = f"{cfg.mqtt.prefix}/{cfg.table.id}"
    feed = _DealerFeed(base)
    pit = PitClient(cfg.mqtt.host, cfg.mqtt.port, [f"{base}/status", f"{base}/state", f"{base}/event/prompt"],
                    lambda topic, message: feed.on_message(topic, message, pit), client_id=f"{cfg.table.id}-sim")
    buttons = RemoteButtons(base, pit.publish)
    feed.buttons = buttons
    # Listening first, the devices after: a prompt the table publishes as soon as a device appears
    # (the dice again when the cup is back) must reach this dealer, never go out before it listens.
    try:
        pit.start()
    except RuntimeError as exc:
        print(f"tablectl sim: {exc}", file=sys.stderr)
        return 1
    try:
        rig.start()
    except UsbSocketError as exc:   # another simulator serves the cup's socket: nothing was started
        pit.stop()
        print(f"tablectl sim: {exc}", file=sys.stderr)
        return 2
    feed.attach(rig.attach_dealer(buttons.press))
    print(f"tablectl sim: {', '.join(f'{n} at {u}' for n, u in rig.urls.items())}; "
          f"dealer follows {base}/event/prompt at {args.pace} pace", flush=True)
    if args.fault:
        print(f"tablectl sim: faults {', '.join(map(str, args.fault))}", flush=True)
    StopSignal().wait()   # left installed while the simulator stops
    rig.stop()
    pit.stop()
    return 0


# -- floor ---------------------------------------------------------------------

def cmd_floor(args: argparse.Namespace) -> int:
    """`tablectl floor`: hw_sim.floor's tables, each a ``tablectl run`` and a ``tablectl sim`` in
    processes of their own, until SIGTERM, Ctrl-C or ``--duration``; a table whose process ends
    on its own is said at once, and the floor goes on with the others."""
    from hw_sim.broker import LocalBroker
    from hw_sim.floor import Floor, FloorError, default_specs, parse_spec, plan

    def fail(why: str) -> int:
        print(f"tablectl floor: {why}", file=sys.stderr)
        return 2

    try:
        specs = [parse_spec(text) for text in args.games] or default_specs()
    except ValueError as exc:
        return fail(f"--game {exc}")
    faults: dict[str, list[str]] = {}
    for text in args.fault:
        table, colon, spec = text.partition(":")
        if not colon or not spec:
            return fail(f"--fault {text!r}: TABLE:NAME@WHEN, as in baccarat-01:unplug@round:5")
        try:
            _fault_spec(spec)
        except argparse.ArgumentTypeError as exc:
            return fail(f"--fault {text!r}: {exc}")
        faults.setdefault(table, []).append(spec)
    if args.pace not in ("human", "fast"):
        try:
            if not float(args.pace) >= 0:
                raise ValueError
        except ValueError:
            return fail(f"--pace: human, fast or a number of seconds, not {args.pace!r}")
    try:
        tables = plan(specs, args.tables, args.seed, faults)
    except FloorError as exc:
        return fail(str(exc))
    directory = args.dir or Path(tempfile.mkdtemp(prefix="tablectl-floor-"))
    directory.mkdir(parents=True, exist_ok=True)
    broker = None
    if args.broker:
        try:
            host, port = parse_address(args.broker)
        except ValueError as exc:
            return fail(str(exc))
    else:
        broker = LocalBroker(prefer="auto").start()
        host, port = broker.host, broker.port
    print(f"floor: broker {host}:{port}, {len(tables)} tables, pace {args.pace}, seed {args.seed}; "
          f"configs, journals and logs in {directory}", flush=True)
    floor = Floor(tables, directory, host, port, prefix=args.prefix, pace=args.pace,
                  say=lambda line: print(line, flush=True))
    stop = StopSignal()
    try:
        try:
            floor.start()
        except FloorError as exc:
            print(f"tablectl floor: {exc}", file=sys.stderr)
            return 1
        print(f"floor: {len(tables)} tables dealing; watch them with: tablectl watch --broker {host}:{port}"
              + (f"; it stops by itself after {args.duration:g} s" if args.duration else "; Ctrl-C stops it"),
              flush=True)
        if args.duration:
            timer = threading.Timer(args.duration, stop.wake)
            timer.daemon = True
            timer.start()
        dealing_at, cpu_at = time.monotonic(), floor.cpu_seconds()
        stop.wait()   # left installed while the floor stops: a second Ctrl-C must not cut it short
        took, cpu = time.monotonic() - dealing_at, floor.cpu_seconds() - cpu_at
        if took > 0:   # what the floor costs, its own figure (docs/pit.md, "A simulated floor")
            print(f"floor: {len(tables)} tables dealt {took:.0f} s using {cpu:.1f} CPU s, "
                  f"{100 * cpu / took:.1f} % of one core", flush=True)
    finally:
        for line in floor.stop():
            print(line, flush=True)
        if broker is not None:
            broker.stop()
    print(f"floor: stopped; journals kept in {directory}" + (f"; {len(floor.deaths)} process(es) had ended on "
                                                              "their own (above)" if floor.deaths else ""),
          flush=True)
    return 1 if floor.deaths else 0


class _DealerFeed:
    """What ``tablectl sim``'s dealer hears of the table, in order: the table's status and each
    prompt, through the remote buttons first (they must see a prompt before the dealer answers
    it); prompts that come before the dealer is attached wait for him.

    A simulator that starts beside a table already dealing (it was restarted) has missed the
    prompt the table waits on; the table's retained ``state`` holds it. So the first state
    received, if the retained status says the table is online, is taken as that prompt (with the
    state's seq, which no older prompt exceeds), and the state is not followed after that: it
    changes with every event."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.buttons: Any = None
        self._dealer: Any = None
        self._early: list[dict] = []
        self._lock = threading.Lock()
        self._online = False
        self._took_state = False

    def attach(self, dealer: Any) -> None:
        with self._lock:
            self._dealer, early, self._early = dealer, self._early, []
        for envelope in early:
            dealer.on_event(envelope)

    def on_message(self, topic: str, message: dict, pit: PitClient) -> None:
        self.buttons.on_message(topic, message)
        if topic == f"{self.base}/status":
            self._online = message.get("online") is True
        elif topic == f"{self.base}/state":
            if self._took_state:
                return
            self._took_state = True
            pit.client.unsubscribe(topic)
            prompt, seq = message.get("prompt"), message.get("seq")
            if self._online and isinstance(prompt, dict) and isinstance(seq, int):
                self._give({"kind": "prompt", "seq": seq, "round": message.get("round"), "data": prompt})
        elif topic == f"{self.base}/event/prompt":
            self._give(message)

    def _give(self, envelope: dict) -> None:
        with self._lock:
            if self._dealer is None:
                self._early.append(envelope)
                return
            dealer = self._dealer
        dealer.on_event(envelope)


# -- prune ---------------------------------------------------------------------

def _positive_days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from None
    if not days >= 1:
        raise argparse.ArgumentTypeError(f"keep at least 1 day, not {text}: the pit may still ask for a replay")
    return days


def cmd_prune(args: argparse.Namespace) -> int:
    """Delivered history out of the journal, oldest first; safe beside a running table
    (short transactions; the daemon waits for the lock). Records the card room must
    keep should be archived from the pit (or with ``sqlite3 .backup``) before."""
    import datetime as dt
    import sqlite3

    from controller.table.journal import Journal

    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        print(f"tablectl prune: {exc}", file=sys.stderr)
        return 2
    path = cfg.journal.path
    if not path.is_file():
        print(f"tablectl prune: no journal at {path}", file=sys.stderr)
        return 2
    now, keep = time.time(), args.keep_days * 86400
    try:
        journal = Journal(path, cfg.table.id)  # JournalError: exit 2 (main)
        try:
            # Aged by the journal's order and receipt times, not by ts alone (controller/table/journal.py, "Pruning").
            cutoff = journal.prune_cutoff(keep, now)
            n, first, last = journal.prunable(cutoff) if args.dry_run else journal.prune(cutoff)
            kept = journal.undelivered_count
        finally:
            journal.close()
    except sqlite3.Error as exc:
        print(f"tablectl prune: {path}: {exc}", file=sys.stderr)
        return 1
    when = dt.datetime.fromtimestamp(cutoff).isoformat(timespec="seconds")
    basis = f" ({args.keep_days:g} days before the journal's newest event, which is older than now)" \
        if cutoff < now - keep - 1 else ""
    what = "would delete" if args.dry_run else "deleted"
    span = f" (seq {first}..{last})" if n else ""
    print(f"{path}: {what} {n} delivered events older than {when}{basis}{span}; "
          f"{kept} undelivered events kept whatever their age", flush=True)
    return 0


def cmd_journal_check(args: argparse.Namespace) -> int:
    """Every page read (PRAGMA quick_check) and the checks of a start; exit 2 when the table
    could not use the journal (the line says what to do), 0 otherwise (with warnings)."""
    from controller.table.journal_admin import check_journal

    cfg = load_config(args.config)
    for line in check_journal(cfg.journal.path, cfg.table.id).lines():
        print(f"{cfg.journal.path}: {line}", flush=True)
    return 0


def cmd_journal_new(args: argparse.Namespace) -> int:
    """The operator's explicit command for a damaged journal (docs/operations.md, "A damaged
    journal"): the old file is renamed aside, never deleted; the new one says so at first start."""
    from controller.table.journal_admin import new_journal

    cfg = load_config(args.config)
    done = new_journal(cfg.journal.path, cfg.table.id, first_seq=args.first_seq, force=args.force)
    last = done.survivors.last_seq
    print(f"tablectl journal new: {cfg.journal.path} ({done.why}) moved to {done.kept_at} "
          f"(kept; {len(done.moved)} file(s), nothing deleted)", flush=True)
    print(f"tablectl journal new: a new journal is at {cfg.journal.path}; its first seq is {done.first_seq} "
          f"(the old journal's last: {last if last is not None else 'unreadable'}); carried over: "
          f"{', '.join(sorted(done.survivors.meta)) or 'nothing'}", flush=True)
    if last is None and args.first_seq is None:
        print("tablectl journal new: WARNING: seq starts again at 1: subscribers that drop duplicates by seq "
              "must forget this table's seqs (the table's journal_restarted alarm tells the pit)", file=sys.stderr)
    return 0


# -- bench ---------------------------------------------------------------------

BENCH_PHASES = ("latency", "throughput", "tables", "footprint", "pit", "floor")
"""The benchmark's parts, in the order it runs them (hw_sim.bench.harness.PHASES)."""
BENCH_DEFAULT = BENCH_PHASES[:-2]
"""All but ``pit``, which needs PostgreSQL."""


def _bench_arguments(p: argparse.ArgumentParser) -> None:
    """`tablectl bench`'s arguments, here so that building the parser (for ``run`` too) loads
    nothing of the benchmark: hw_sim.bench is imported only when the command runs."""
    p.add_argument("--cards", type=int, default=2000, help="cards for the latency figure (default 2000)")
    p.add_argument("--rounds", type=int, default=1000, help="rounds for the throughput figure (default 1000)")
    p.add_argument("--tables", default="1,8,32", help="table counts for the many-tables figure (default 1,8,32)")
    p.add_argument("--pace", type=float, default=0.05,
                   help="seconds the simulated dealer takes per action in the latency run (default 0.05)")
    p.add_argument("--tables-pace", type=float, default=0.2,
                   help="seconds per dealer action at each of the many tables (default 0.2)")
    p.add_argument("--tables-seconds", type=float, default=20.0,
                   help="how long the many tables deal, once all are dealing (default 20)")
    p.add_argument("--idle-seconds", type=float, default=10.0, help="the idle-CPU window (default 10)")
    p.add_argument("--bare-events", type=int, default=20000,
                   help="frames through the bare pipeline at full speed (default 20000)")
    p.add_argument("--footprint-rounds", type=int, default=200,
                   help="rounds dealt at full speed before the idle and RSS figures (default 200)")
    p.add_argument("--journal-dir", type=Path, default=None,
                   help="where the journals go: the disk the table's journal lives on (default: the temp dir)")
    p.add_argument("--parallel", type=int, default=4,
                   help="tables dealing flat out at once for the capacity figure (default 4; 0 or 1: skip)")
    p.add_argument("--parallel-seconds", type=float, default=10.0, help="how long they deal (default 10)")
    p.add_argument("--no-tmpfs-baseline", action="store_true",
                   help="skip the throughput run with the journal on tmpfs")
    p.add_argument("--only", default=",".join(BENCH_DEFAULT),
                   help=f"a comma list of {', '.join(BENCH_DEFAULT)} (the default), and pit: the pit service archiving "
                        f"while browsers hold the board's streams, and floor: the pit at a floor's scale, 1 and 2 "
                        f"services (both need PostgreSQL; docs/performance.md)")
    p.add_argument("--pit-streams", default="0,50,200,500,2000",
                   help="pit: board streams held open in turn, each count reading and not reading (default "
                        "0,50,200,500,2000)")
    p.add_argument("--pit-seconds", type=float, default=30.0, help="pit: the window of each run (default 30)")
    p.add_argument("--pit-warmup", type=float, default=5.0, help="pit: seconds before each window (default 5)")
    p.add_argument("--pit-rate", type=float, default=100.0,
                   help="pit: events a second the simulated tables publish together (default 100)")
    p.add_argument("--pit-tables", type=int, default=4, help="pit: simulated tables (default 4)")
    p.add_argument("--pit-record", type=int, default=3000,
                   help="pit: events a real simulated table deals first, which the tables then publish (default 3000)")
    p.add_argument("--floor-tables", default="16,64,256",
                   help="floor: table counts dealing at a human pace, in turn (default 16,64,256)")
    p.add_argument("--floor-round-seconds", type=float, default=60.0,
                   help="floor: a human pace, seconds a round at each table (default 60)")
    p.add_argument("--floor-rates", default="250,500,1000,2000,4000",
                   help="floor: events a second together, rising until the archive falls behind "
                        "(default 250,500,1000,2000,4000)")
    p.add_argument("--floor-rate-tables", type=int, default=64, help="floor: tables of the rate runs (default 64)")
    p.add_argument("--floor-services", default="1,2", help="floor: archiving services sharing the subscription (default 1,2)")
    p.add_argument("--floor-seconds", type=float, default=20.0, help="floor: the window of each run (default 20)")
    p.add_argument("--floor-warmup", type=float, default=3.0, help="floor: seconds before each window (default 3)")
    p.add_argument("--floor-settle", type=float, default=60.0,
                   help="floor: seconds a run waits at its end for the archive to hold everything (default 60)")
    p.add_argument("--db", metavar="URL",
                   help="pit: a PostgreSQL the bench may create databases in (default: one of its own, initdb)")
    p.add_argument("--pit-source", type=Path, metavar="DIR",
                   help="pit: run `tablectl pit` from this source tree (an A/B against another checkout)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    p.add_argument("--markdown", type=Path, help="also write the figures as a Markdown table to this file")
    p.add_argument("--smoke", action="store_true",
                   help="tiny counts (CI): checks that every figure is produced; the numbers mean nothing")
    p.add_argument("--keep", action="store_true", help="keep the work directory (worker logs, journals)")


def cmd_bench(args: argparse.Namespace) -> int:
    """The benchmark is a tool in hw_sim (hw_sim/bench/): it drives the simulated table and times
    this daemon from outside, as child processes (``controller.cli run``), importing nothing of it."""
    from hw_sim.bench.harness import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
