"""The site's shifts and clock: which shift a moment belongs to, in the site's own time zone.

Accounting counts by shift as the floor works it, so a shift is wall-clock time in the site's
zone (a grave shift 22-06 is 22:00 to 06:00 local, 7 or 9 hours on the nights the clocks
change), and a shift that crosses midnight belongs to the day it started: a hand at 02:00 on
2 March is in the grave shift of 1 March.

A local time is ambiguous twice a year (the hour the clocks go back happens twice; the hour they
go forward does not happen), so a time is never shown by its offset alone (``03:00-08:00`` reads
as a range): :func:`zone_label` names it (``PST``), and a ``--since`` or ``--until`` given
without an offset that happens twice or never is refused rather than guessed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DEFAULT_SHIFTS = "day=06-14,swing=14-22,grave=22-06"
"""Three 8-hour shifts, the usual casino split."""

_DAY = 24 * 60
_PART = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9_-]{0,31})=(?P<start>\d{1,2}(?::\d{2})?)-(?P<end>\d{1,2}(?::\d{2})?)")


class ShiftError(ValueError):
    """A --shifts, --tz, --since or --until the report cannot use; the message says why."""


@dataclass(frozen=True)
class Shift:
    name: str
    start: int
    """Minutes after local midnight."""
    end: int
    """Minutes after local midnight; below ``start`` when the shift crosses midnight."""

    def __str__(self) -> str:
        return f"{self.name} {_hhmm(self.start)}-{_hhmm(self.end)}"


@dataclass(frozen=True)
class Shifts:
    """A day cut into shifts that cover it once, with no gap and no overlap."""

    shifts: tuple[Shift, ...]

    @classmethod
    def parse(cls, spec: str) -> Shifts:
        """``NAME=HH[:MM]-HH[:MM],...`` (``day=06-14,swing=14-22,grave=22-06``)."""
        found: list[Shift] = []
        for part in (p.strip() for p in spec.split(",")):
            m = _PART.fullmatch(part)
            if m is None:
                raise ShiftError(f"{part!r} is not NAME=HH-HH (such as day=06-14 or grave=22:30-06:30)")
            if any(s.name == m["name"] for s in found):
                raise ShiftError(f"shift {m['name']!r} is named twice")
            found.append(Shift(m["name"], _minutes(m["start"], part), _minutes(m["end"], part)))
        if len(found) == 1 and found[0].start == found[0].end:
            return cls(tuple(found))  # one shift the whole day round, from its start
        if any(s.start == s.end for s in found):
            raise ShiftError("a shift that starts when it ends is the whole day: it must be the only one")
        ordered = sorted(found, key=lambda s: s.start)
        for here, after in zip(ordered, ordered[1:] + ordered[:1], strict=True):
            if here.end == after.start:
                continue
            room = (after.start - here.start) % _DAY or _DAY
            if (here.end - here.start) % _DAY < room:
                raise ShiftError(f"the shifts must cover the day once: nothing covers "
                                 f"{_hhmm(here.end)}-{_hhmm(after.start)}")
            raise ShiftError(f"the shifts must cover the day once: {here} overlaps {after}")
        return cls(tuple(found))

    def of(self, local: datetime) -> tuple[date, Shift]:
        """The shift ``local`` (an aware datetime in the site's zone) falls in, and the day it started."""
        minute = local.hour * 60 + local.minute
        for shift in self.shifts:
            if (minute - shift.start) % _DAY < ((shift.end - shift.start) % _DAY or _DAY):
                started = local.date() if minute >= shift.start else local.date() - timedelta(days=1)
                return started, shift
        raise AssertionError("shifts cover the day")  # parse() proved it

    def bounds(self, day: date, shift: Shift, zone: tzinfo) -> tuple[datetime, datetime]:
        """The instants (UTC) ``shift`` of ``day`` starts and ends: its wall-clock times in ``zone``,
        so a 22-06 grave shift lasts 9 hours the night the clocks go back and 7 the night they go
        forward. A wall time the clocks skip (02:30 when they jump from 02:00 to 03:00) is taken
        on the old offset, which is the instant they jumped at for a boundary on the hour."""
        crosses = shift.end <= shift.start            # past midnight, or the whole day round
        start = datetime.combine(day, _clock(shift.start), tzinfo=zone)
        end = datetime.combine(day + timedelta(days=1) if crosses else day, _clock(shift.end), tzinfo=zone)
        return start.astimezone(UTC), end.astimezone(UTC)

    def __str__(self) -> str:
        return ", ".join(str(s) for s in self.shifts)


def _clock(minutes: int) -> time:
    return time(minutes // 60, minutes % 60)


def _minutes(text: str, part: str) -> int:
    hours, _, minutes = text.partition(":")
    h, m = int(hours), int(minutes or 0)
    if h > 24 or m > 59 or (h == 24 and m):
        raise ShiftError(f"{part!r}: {text} is not a time of day")
    return (h * 60 + m) % _DAY


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def site_zone(name: str | None) -> tuple[tzinfo, str]:
    """The zone called ``name`` (IANA, ``Europe/Berlin``), or the machine's: ``TZ``, else
    /etc/localtime (its own rules, so the clock changes are right), else UTC. Returns the zone and
    the name the report prints."""
    if name is not None:
        try:
            return ZoneInfo(name), name
        except (ZoneInfoNotFoundError, ValueError):
            raise ShiftError(f"--tz {name!r}: not a time zone name (an IANA name such as Europe/Berlin "
                             f"or America/New_York)") from None
    env = os.environ.get("TZ", "").lstrip(":")
    if env:
        try:
            return ZoneInfo(env), env
        except (ZoneInfoNotFoundError, ValueError):
            pass  # a POSIX TZ string zoneinfo does not read: the machine's file decides
    local = Path("/etc/localtime")
    try:
        with local.open("rb") as f:
            zone = ZoneInfo.from_file(f)
    except (OSError, ValueError):
        return ZoneInfo("UTC"), "UTC"
    target = str(local.resolve())
    key = target.split("/zoneinfo/", 1)[1] if "/zoneinfo/" in target else "local"
    return zone, key


def parse_moment(text: str, zone: tzinfo, option: str) -> datetime:
    """An ISO 8601 date or date and time; without an offset it is the site's local time."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ShiftError(f"{option} {text!r}: not an ISO 8601 date or time (such as 2024-03-01, "
                         f"2024-03-01T06:00 or 2024-03-01T06:00+01:00)") from None
    if moment.tzinfo is None:
        moment = _local(moment, zone, option, text)
    return moment


def _local(wall: datetime, zone: tzinfo, option: str, text: str) -> datetime:
    """``wall`` in ``zone``, refused when the clocks make it happen twice or never: a report from
    "01:30" the night the clocks go back could mean either 01:30, an hour apart."""
    first, second = wall.replace(tzinfo=zone, fold=0), wall.replace(tzinfo=zone, fold=1)
    if first.utcoffset() == second.utcoffset():
        return first
    name = getattr(zone, "key", str(zone))
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != wall:
        raise ShiftError(f"{option} {text!r}: that time does not happen in {name} (the clocks went forward "
                         f"from {zone_label(first)} to {zone_label(second)} then): give another time or an offset")
    readings = " or ".join(f"{text}{_offset(m)} ({zone_label(m)})" for m in (first, second))
    raise ShiftError(f"{option} {text!r}: that time happens twice in {name} (the clocks went back): "
                     f"give its offset, {readings}")


def zone_label(moment: datetime) -> str:
    """The zone's name for an aware moment as people say it (``PST``, ``CEST``), or where the zone
    has none (many give a number, ``-03``) its offset from UTC (``UTC-03:00``), which never reads
    as the end of a range the way ``03:00-03:00`` does."""
    name = moment.tzname() or ""
    if name.isalpha():
        return name
    return "UTC" + _offset(moment)


def _offset(moment: datetime) -> str:
    """``+01:00``, ``-08:00``, ``+05:30``: the moment's offset from UTC."""
    delta = moment.utcoffset() or timedelta(0)
    sign = "-" if delta < timedelta(0) else "+"
    minutes = abs(int(delta.total_seconds())) // 60
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def utc_offset(moment: datetime) -> str:
    """``UTC-08:00``: what a zone name stands for, in the report's legend."""
    return "UTC" + _offset(moment)
