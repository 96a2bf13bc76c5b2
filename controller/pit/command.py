"""`tablectl pit`: its options, and the run from start to a clean stop (docs/pit.md).

Nothing heavy is imported until the command runs: the parser is built for every `tablectl`
command, on the Pi too, where the pit's dependencies (psycopg, the ``pit`` extra) are absent.
Every way it can fail to start ends in one line and a non-zero exit: 2 for what the operator
must change (an option, a database URL, a schema newer than this tablectl, a port in use), 1
for what may come right by itself (the broker or the database not reachable yet).
"""

from __future__ import annotations

import argparse
import re
import socket
import sys
from pathlib import Path
from typing import Any

from controller.pit.client import parse_address
from drivers.stop_signal import StopSignal

GROUP = re.compile(r"[A-Za-z0-9_.-]{1,64}")
CLIENT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 3600 seconds, not {text}")
    return value


def _default_client_id() -> str:
    host = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname())[:40] or "host"
    return f"tablectl-pit-{host}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``tablectl pit``."""
    p.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT of the pit's broker")
    p.add_argument("--db", metavar="URL",
                   help="the archive, a PostgreSQL URL such as postgresql://pit@db-host/tablectl (its password in "
                        "~/.pgpass or PGPASSFILE, not here: ps shows a command line); without it nothing is archived")
    p.add_argument("--prefix", default="casino", help="the site's topic prefix (default casino)")
    p.add_argument("--group", default="tablectl-pit",
                   help="the shared subscription's group: every pit service of one site archiving into one database "
                        "uses the same (default tablectl-pit)")
    p.add_argument("--client-id", default=None,
                   help="this service's MQTT client id, its own in the group (default: --user, else "
                        "tablectl-pit-<host name>); the broker of config/mosquitto.conf makes it the user name")
    p.add_argument("--http", metavar="ADDR:PORT", help="serve the pit board here (127.0.0.1:8080: this machine only)")
    p.add_argument("--password-file", type=Path, metavar="FILE",
                   help="the pit board's password (needed when --http is not a loopback address)")
    p.add_argument("--read-db", metavar="URL",
                   help="the archive the board finds rounds in, for disputes (default: --db); a board-only service "
                        "gives a read-only role's URL here (docs/pit.md, pit_read)")
    p.add_argument("--areas", type=Path, metavar="FILE",
                   help="the board's map of pit areas: a TOML [areas] table of table id (or glob) = \"area\" "
                        "(docs/pit-board.md); the floor is ordered and filtered by it")
    p.add_argument("--shifts", metavar="SPEC", default=None,
                   help="the board's shifts for what each poker-room table collected this shift, as tablectl report "
                        "takes them (default day=06-14,swing=14-22,grave=22-06)")
    p.add_argument("--tz", metavar="ZONE", help="the site's time zone for the shifts (default the machine's)")
    p.add_argument("--user", help="MQTT user name (config/acl: a pit-archive user)")
    p.add_argument("--mqtt-password-file", type=Path, metavar="FILE",
                   help="a file holding the MQTT password (never on the command line, where ps shows it)")
    p.add_argument("--tls", action="store_true", help="TLS to the broker, verified against the system's CAs")
    p.add_argument("--tls-ca-file", metavar="FILE", help="TLS, verified against this CA (implies --tls)")
    p.add_argument("--broker-config", type=Path, metavar="FILE",
                   help="the broker's mosquitto.conf: its settings that make the pit lose events are said at start "
                        "(default /etc/mosquitto/mosquitto.conf for a broker on this machine's port 1883)")
    p.add_argument("--grace", type=_seconds, default=3.0, metavar="SECONDS",
                   help="how long a hole in a table's seqs may last before it is a gap and asked for (default 3)")
    p.add_argument("--status-interval", type=_seconds, default=5.0, metavar="SECONDS",
                   help="how often at most the service's own status (its counters) is published (default 5)")
    p.add_argument("--users-file", type=Path, metavar="FILE",
                   help="the pit board's named users and their roles (tablectl pit user ...): each logs in as "
                        "themselves, and a void or an acknowledgement is theirs")
    p.add_argument("--trusted-proxy", metavar="ADDR[,ADDR...]", default="",
                   help="the board's TLS proxy (addresses or networks): its X-Forwarded-For names the browser the "
                        "login's brakes count, and its X-Forwarded-Proto https makes the cookies Secure")
    actions = p.add_subparsers(dest="pit_action", metavar="[user]")
    u = actions.add_parser("user", help="the pit board's users: add, password, role, remove, list")
    u_actions = u.add_subparsers(dest="user_action", required=True, metavar="ACTION")
    for name, what in (("add", "a new user with a role and a password"), ("password", "a user's new password"),
                       ("role", "a user's new role"), ("remove", "take a user out"), ("list", "every user and role")):
        a = u_actions.add_parser(name, help=what)
        a.add_argument("--users-file", type=Path, metavar="FILE", required=True, dest="user_file",
                       help="the users file (made by the first add, mode 600)")
        if name != "list":
            a.add_argument("name", help="lower case letters, digits, _ . -, starting with a letter")
        if name in ("add", "role"):
            a.add_argument("--role", required=True, help="viewer, supervisor or admin")
        if name in ("add", "password"):
            a.add_argument("--password-stdin", action="store_true",
                           help="read the password from standard input's first line (else it is asked twice)")
    u.set_defaults(func=cmd_user)


def cmd_user(args: argparse.Namespace) -> int:
    """`tablectl pit user ...`: change the users file; one line says what was done, or why not."""
    import getpass

    from controller.pit.board.users import Users, UsersError

    def password() -> str:
        if args.password_stdin:
            return sys.stdin.readline().rstrip("\r\n")
        first = getpass.getpass(f"password for {args.name}: ")
        if getpass.getpass("again: ") != first:
            raise UsersError("the two passwords differ")
        return first

    try:
        users = Users.load(args.user_file, missing_ok=args.user_action == "add")
        action = args.user_action
        if action == "list":
            for user in sorted(users.users.values(), key=lambda u: u.name):
                print(f"{user.name} {user.role}")
            return 0
        if action == "add":
            users.add(args.name, args.role, password())
            done = f"added {args.name} ({args.role})"
        elif action == "password":
            users.set_password(args.name, password())
            done = f"new password for {args.name}"
        elif action == "role":
            users.set_role(args.name, args.role)
            done = f"{args.name} is now {args.role}"
        else:
            users.remove(args.name)
            done = f"removed {args.name}"
        users.save()
    except (UsersError, ValueError) as exc:
        return _fail(f"user {args.user_action}: {exc}", 2)
    except (EOFError, KeyboardInterrupt):
        return _fail(f"user {args.user_action}: no password given; nothing changed", 1)
    except OSError as exc:
        return _fail(f"user {args.user_action}: {args.user_file}: {exc.strerror or exc}", 1)
    print(f"tablectl pit: {done} in {args.user_file}; a running board reads it at its next start")
    return 0


def _fail(message: str, code: int) -> int:
    print(f"tablectl pit: {message}", file=sys.stderr)
    return code


def cmd_pit(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.broker)
    except ValueError as exc:
        return _fail(str(exc), 2)
    prefix = args.prefix
    if not prefix or any(c in prefix for c in "+#\0") or prefix.startswith("/") or prefix.endswith("/"):
        return _fail(f"--prefix {prefix!r}: must be a topic such as casino or site/floor1, without + or # and not "
                     f"starting or ending with /", 2)
    if not GROUP.fullmatch(args.group):
        return _fail(f"--group {args.group!r}: letters, digits, '.', '_' and '-', at most 64", 2)
    client_id = args.client_id or args.user or _default_client_id()
    if not CLIENT_ID.fullmatch(client_id):
        return _fail(f"--client-id {client_id!r}: letters, digits, '.', '_' and '-', at most 64", 2)
    if args.db is None and args.http is None:
        return _fail("nothing to do: give --db URL (the archive), --http ADDR:PORT (the board), or both", 2)
    if args.http is None and (args.users_file or args.areas or args.trusted_proxy or args.password_file
                              or args.read_db or args.shifts or args.tz):
        return _fail("--users-file, --password-file, --areas, --trusted-proxy, --read-db, --shifts and --tz are the "
                     "board's: give --http too", 2)
    from controller.pit.board.throttle import parse_trusted
    try:
        trusted = parse_trusted(args.trusted_proxy)
    except ValueError as exc:
        return _fail(f"--trusted-proxy: {exc}", 2)
    http = None
    if args.http is not None:
        try:
            http = parse_address(args.http, default_port=8080)
        except ValueError as exc:
            return _fail(f"--http: {str(exc).replace('broker address', 'address')}", 2)
    password = None
    if args.mqtt_password_file is not None:
        try:
            password = args.mqtt_password_file.read_text().strip()
        except OSError as exc:
            return _fail(f"--mqtt-password-file: {exc.strerror}: {args.mqtt_password_file}", 2)
    tls = None
    if args.tls or args.tls_ca_file:
        from controller.shared.mqtt_tls import TlsError, tls_context
        try:
            tls = tls_context(args.tls_ca_file, None, None)
        except TlsError as exc:
            return _fail(f"--tls-ca-file: {exc.reason}", 2)
    from controller.pit.broker_check import BrokerConfigError
    from controller.pit.broker_check import check as check_broker
    try:
        broker_file, broker_risks = check_broker(args.broker_config, host, port)
    except BrokerConfigError as exc:
        return _fail(f"--broker-config: {exc}", 2)
    try:
        from controller.pit.service import PitError, PitService, Tuning
    except ImportError as exc:
        return _fail(f"the pit service needs the pit extra (pip install 'tablectl[pit]'): {exc}", 2)

    service = PitService(host, port, prefix, args.db, args.group if args.db else None, client_id,
                         username=args.user, password=password, tls=tls,
                         tuning=Tuning(grace=args.grace, status_interval=args.status_interval))
    service.broker_risks = broker_risks
    picture = None
    if http is not None:
        from controller.pit.board.areas import Areas, AreasError
        from controller.pit.board.collected import Collected
        from controller.pit.board.picture import Picture
        from controller.pit.report.shifts import DEFAULT_SHIFTS, ShiftError, Shifts, site_zone

        try:
            areas = Areas.load(args.areas) if args.areas is not None else None
        except AreasError as exc:
            return _fail(str(exc), 2)
        try:
            shifts = Shifts.parse(args.shifts or DEFAULT_SHIFTS)
        except ShiftError as exc:
            return _fail(f"--shifts {args.shifts!r}: {exc}", 2)
        try:
            zone = site_zone(args.tz)[0]
        except ShiftError as exc:
            return _fail(str(exc), 2)
        picture = Picture(areas=areas, collected=Collected(shifts, zone))
        service.add_observer(picture)
    stop = StopSignal()   # before any thread starts; left installed while the service stops
    server: Any = None
    if picture is not None and http is not None:
        # The board first: a port in use or a missing password is the operator's to fix, said before
        # anything connects.
        from controller.pit.board import web
        try:
            server = web.serve(picture, http[0], http[1], args.password_file, users_file=args.users_file,
                               link=service, trusted_proxies=tuple(trusted), read_db=args.read_db or args.db)
        except web.BoardError as exc:
            return _fail(f"--http: {exc}", 2)
    try:
        service.start()
    except PitError as exc:
        if server is not None:
            server.stop()
        return _fail(str(exc), exc.exit_code)
    try:
        migrated = f", migrated now from {service.migrated[0].version - 1}" if service.migrated else ""
        archive = (f"archiving into {service.archive.where} (schema version {service.schema_version}{migrated}; "
                   f"group {args.group})" if service.archive else "not archiving")
        board_at = f"; the pit board on http://{http[0]}:{http[1]}/" if http else ""
        print(f"tablectl pit: {prefix}/+ on {host}:{port}, {archive}{board_at}; client id {client_id}, "
              f"status on {service.status_topic}", flush=True)
        if broker_file is not None and not broker_risks:
            print(f"tablectl pit: broker config {broker_file}: nothing in it makes the pit lose events", flush=True)
        for line in broker_risks:   # the log has each too (PitService.start)
            print(f"tablectl pit: warning: {line}", file=sys.stderr, flush=True)
        stop.wait()
    finally:
        if server is not None:
            server.stop()
        service.stop()
    counts = service.counters()
    print(f"tablectl pit: stopped; {counts['events_archived']} events archived, {counts['events_duplicate']} "
          f"duplicates, {counts['rejected']} rejected, {counts['gaps_opened']} gaps found, {counts['gaps_filled']} "
          f"filled, {counts['gaps_unfillable']} unfillable", flush=True)
    return 0

