"""The broker's settings that make an archiving pit service lose events: said when it starts (issue 21.2).

Mosquitto publishes none of its limits (``$SYS`` has counters, not settings), so the service reads
the broker's own config file: ``tablectl pit --broker-config FILE``, or, for the broker on this
machine's port 1883, ``/etc/mosquitto/mosquitto.conf`` when it is there. What the file says is set beside what
docs/pit.md asks of a pit's broker (config/mosquitto.conf is that example), and each setting that
makes loss likely is one line: the setting, what the pit loses by it, and what to set.

"Loss" here is the broker's: events it acknowledged to a table and then dropped or forgot. The
tables' journals can send them again (``cmd/replay``), so the archive still fills them, but only
while the journals hold them, and only after a gap has been noticed, asked for and answered: a
floor run with these settings leaves its archive short for as long as that takes, and for good
once ``tablectl prune`` has run. So these are warnings; the service starts anyway.

Mosquitto's config format: one ``key value`` per line, ``#`` comments, ``include_dir DIR`` reading
every ``*.conf`` in DIR in name order, the last setting of a key winning (the ones checked here
are global, not per listener).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_CONFIG = Path("/etc/mosquitto/mosquitto.conf")
ONE_REPLAY = 10_000
"""The most events one ``cmd/replay`` sends (controller.table.outbox.REPLAY_LIMIT): a queue for the
pit shorter than this overflows while it takes in a single replay."""
MOSQUITTO_QUEUE = 1000
"""Mosquitto's ``max_queued_messages`` when the file does not set it."""
MOSQUITTO_INFLIGHT = 20
"""Mosquitto's ``max_inflight_messages`` when the file does not set it."""
IN_FLIGHT = 100
"""What config/mosquitto.conf sets: the messages a pit service may hold unacknowledged (0: no limit)."""
SESSION_DAY = 24 * 3600
AUTOSAVE = 300
"""Seconds of acknowledged events a crash may lose before the broker is said to lose too many."""
_UNITS = {"h": 3600, "d": 86400, "w": 7 * 86400, "m": 30 * 86400, "y": 365 * 86400}


class BrokerConfigError(ValueError):
    """The broker's config file could not be read: the operator named a wrong file."""


@dataclass(frozen=True)
class Risk:
    setting: str
    text: str

    def line(self, where: str) -> str:
        return f"broker config {where}: {self.setting}: {self.text}"


def read_config(path: Path, _seen: frozenset[Path] = frozenset()) -> dict[str, str]:
    """The settings of a Mosquitto config file and the files it includes; the last one wins."""
    path = Path(path)
    if path.resolve() in _seen:
        return {}
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise BrokerConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    settings: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, *rest = line.split(None, 1)   # a space or a tab, as Mosquitto reads it
        value = rest[0].strip() if rest else ""
        if key == "include_dir":
            folder = Path(value)
            if not folder.is_absolute():
                folder = path.parent / folder
            for part in sorted(folder.glob("*.conf")) if folder.is_dir() else ():
                settings.update(read_config(part, _seen | {path.resolve()}))
            continue
        settings[key] = value
    return settings


def risks(settings: Mapping[str, str]) -> list[Risk]:
    """What in ``settings`` makes an archiving service lose events (docs/pit.md, "The broker")."""
    found: list[Risk] = []
    if settings.get("persistence", "false").lower() not in ("true", "1", "yes", "on"):
        found.append(Risk("persistence " + settings.get("persistence", "false (not set)"),
                          "a broker restart forgets the pit services' sessions and the tables' retained status and "
                          "state: what it held for the pit is lost, and every event published meanwhile is a gap the "
                          "tables' journals must fill; set persistence true"))
    queued = _int(settings.get("max_queued_messages"))
    if "max_queued_messages" not in settings:
        found.append(Risk(f"max_queued_messages not set (Mosquitto's default {MOSQUITTO_QUEUE})",
                          _queue_text(MOSQUITTO_QUEUE)))
    elif queued is None:
        found.append(Risk(f"max_queued_messages {settings['max_queued_messages']}", "not a whole number: the broker "
                          "will not start with it, or keeps its default of 1000"))
    elif queued == 0:
        found.append(Risk("max_queued_messages 0", "some Mosquitto 2.0 releases read 0 as no queue rather than no "
                          "limit; set the limit itself (100000 in config/mosquitto.conf)"))
    elif queued < ONE_REPLAY:
        found.append(Risk(f"max_queued_messages {queued}", _queue_text(queued)))
    inflight = _int(settings.get("max_inflight_messages", str(MOSQUITTO_INFLIGHT)))
    if inflight is not None and 0 < inflight < IN_FLIGHT:
        said = settings.get("max_inflight_messages")
        found.append(Risk(f"max_inflight_messages {said}" if said else
                          f"max_inflight_messages not set (Mosquitto's default {MOSQUITTO_INFLIGHT})",
                          f"the broker sends a pit service at most {inflight} events it has not acknowledged, and "
                          f"it acknowledges each once committed: {inflight} events a commit at most (with 20, one "
                          "service fell behind at 1,000 events a second on the bench, docs/performance.md), and "
                          "what it cannot take waits in the queue above, then is dropped; set 100 "
                          "(config/mosquitto.conf)"))
    queued_bytes = _int(settings.get("max_queued_bytes"))
    if queued_bytes is not None and 0 < queued_bytes < ONE_REPLAY * 1024:
        found.append(Risk(f"max_queued_bytes {queued_bytes}",
                          f"a queue of {queued_bytes:,} bytes holds fewer than one replay's {ONE_REPLAY:,} events "
                          "(about 1 kB each): past it the broker drops what it queued for a pit service that is "
                          "away or behind; set 0 (no byte limit) and bound max_queued_messages instead"))
    expiry = _duration(settings.get("persistent_client_expiration"))
    if expiry is not None and expiry < SESSION_DAY:
        found.append(Risk(f"persistent_client_expiration {settings['persistent_client_expiration']}",
                          "a pit service away longer than that loses its session and everything queued for it; "
                          "leave it unset, or at least a day (1d)"))
    autosave = _int(settings.get("autosave_interval"))
    on_changes = settings.get("autosave_on_changes", "false").lower() in ("true", "1", "yes", "on")
    if autosave is not None and not on_changes and (autosave == 0 or autosave > AUTOSAVE):
        found.append(Risk(f"autosave_interval {autosave}",
                          ("a crash loses everything acknowledged since the broker started" if autosave == 0 else
                           f"a crash loses up to {autosave} s of what the broker acknowledged")
                          + f": each a gap the tables' journals must fill; set it at most {AUTOSAVE} (60 in "
                            "config/mosquitto.conf)"))
    return found


def _queue_text(limit: int) -> str:
    return (f"the broker queues at most {limit:,} events for a pit service that is away or behind (a restart, "
            f"the database away, one replay of up to {ONE_REPLAY:,}) and drops the rest, each a gap the tables' "
            "journals must fill; set it to the floor's events of the longest absence (100000 in "
            "config/mosquitto.conf)")


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _duration(text: str | None) -> int | None:
    """Mosquitto's ``persistent_client_expiration``: a number and a unit h, d, w, m or y."""
    if not text or text[-1].lower() not in _UNITS:
        return None
    number = _int(text[:-1])
    return None if number is None else number * _UNITS[text[-1].lower()]


def check(path: Path | None, host: str, port: int, default: Path = DEFAULT_CONFIG) -> tuple[str | None, list[str]]:
    """The file checked (None: none) and a line per risk. ``path`` None: the system broker's file
    (``default``), only for a broker on this machine's port 1883 (where the system's Mosquitto
    listens) and only when it can be read: a broker of its own elsewhere (a test's, a demo's) is
    not judged by another's file. :class:`BrokerConfigError` for a named file that cannot be read."""
    if path is None:
        if host not in ("127.0.0.1", "localhost", "::1") or port != 1883 or not default.is_file():
            return None, []
        try:
            settings = read_config(default)
        except BrokerConfigError:
            return None, []
        return str(default), [r.line(str(default)) for r in risks(settings)]
    return str(path), [r.line(str(path)) for r in risks(read_config(path))]
