"""Figures for `tablectl bench`: percentiles, matching sent cards to received
events, ratios, and the three outputs (terminal table, JSON, Markdown).

Pure functions of what the workers recorded; no processes, no simulator.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any


def percentile(sorted_values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100) of already sorted values."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summary_ms(latencies_ns: Iterable[int]) -> dict[str, Any]:
    """n, p50, p99, max and mean in milliseconds."""
    values = sorted(latencies_ns)
    if not values:
        return {"n": 0, "p50_ms": None, "p99_ms": None, "max_ms": None, "mean_ms": None}
    return {"n": len(values), "p50_ms": _ms(percentile(values, 50)), "p99_ms": _ms(percentile(values, 99)),
            "max_ms": _ms(values[-1]), "mean_ms": _ms(sum(values) / len(values))}


def _ms(ns: float | None) -> float | None:
    return None if ns is None else round(ns / 1e6, 4)


def ratio(a: float | None, b: float | None, digits: int = 2) -> float | None:
    """a / b, or None when either is missing or b is zero."""
    if a is None or b is None or b == 0:
        return None
    return round(a / b, digits)


# -- what the subscriber received -------------------------------------------------------

Record = Sequence[Any]   # [t_ns, table, seq, kind, card, face, envelope ts]


def first_receipts(records: Iterable[Record]) -> dict[str, dict[int, Record]]:
    """Per table, the first receipt of each seq (QoS 1 may deliver twice)."""
    out: dict[str, dict[int, Record]] = defaultdict(dict)
    for rec in records:
        seq = rec[2]
        if isinstance(seq, int):
            out[rec[1]].setdefault(seq, rec)
    return out


def duplicates(records: Iterable[Record]) -> int:
    seen: set[tuple[str, int]] = set()
    dups = 0
    for rec in records:
        key = (rec[1], rec[2])
        if key in seen:
            dups += 1
        seen.add(key)
    return dups


def pair_cards(sent: Sequence[Sequence[Any]], received: dict[int, Record]) -> tuple[list[tuple[int, Record]], int]:
    """Pair the shoe's card frames with the table's ``card`` events in order.

    ``sent`` is [(t_ns, code)] in the order the shoe wrote them; ``received``
    maps seq -> record for one table. Both sides see the cards in the same
    order, so the k-th frame is the k-th ``card`` event. A face-up event
    names its card, which checks the pairing; a face-down one does not.
    Returns ([(t_sent_ns, record)], number of face-up pairs whose codes differ).
    """
    cards = [rec for seq, rec in sorted(received.items()) if rec[3] == "card"]
    pairs, mismatched = [], 0
    for (t_sent, code), rec in zip(sent, cards, strict=False):
        if rec[4] is not None and rec[4] != code:
            mismatched += 1
            continue
        pairs.append((t_sent, rec))
    return pairs, mismatched


def latencies(pairs: Iterable[tuple[int, Record]]) -> list[int]:
    return [rec[0] - t_sent for t_sent, rec in pairs]


def breakdown(pairs: Sequence[tuple[int, Record]], wall_minus_monotonic_s: float | None) -> dict[str, Any] | None:
    """Where the time goes, split at the moment the table emitted the event
    (its envelope ``ts``, wall clock, brought to monotonic time): before it
    the line, the reader thread, the inbox and the round machine; after it
    the journal commit, the publish, the broker and the subscriber. Wall and
    monotonic clocks may drift apart by microseconds: a diagnostic."""
    if wall_minus_monotonic_s is None:
        return None
    before, after = [], []
    for t_sent, rec in pairs:
        if len(rec) > 6 and isinstance(rec[6], (int, float)):
            emitted = (rec[6] - wall_minus_monotonic_s) * 1e9
            before.append(emitted - t_sent)
            after.append(rec[0] - emitted)
    if not before:
        return None
    return {"shoe_to_emit": summary_ms(before), "emit_to_subscriber": summary_ms(after)}


def loss_by_seq(received: dict[int, Record], journaled: int) -> int:
    """Events the journal numbered 1..journaled that never reached the subscriber."""
    return sum(1 for seq in range(1, journaled + 1) if seq not in received)


# -- output ------------------------------------------------------------------------

def _fmt(value: Any, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        text = f"{value:,.3f}" if abs(value) < 10 else f"{value:,.1f}" if abs(value) < 1000 else f"{value:,.0f}"
    else:
        text = f"{value:,}" if isinstance(value, int) else str(value)
    return f"{text} {unit}".rstrip()


def rows(result: dict[str, Any]) -> list[tuple[str, str, str, str, str, str]]:
    """(figure, controller, baseline, ratio, goal, met) for every figure measured."""
    out: list[tuple[str, str, str, str, str, str]] = []
    lat = result.get("latency")
    if lat:
        c, b, w = lat["controller"], lat["bare"], lat["wire"]
        for key, goal_key, goal in (("p50_ms", "p50", "<= 1.5x bare"), ("p99_ms", "p99", "<= 2x bare"),
                                    ("max_ms", "max", "")):
            out.append((f"latency {key[:-3]} (shoe last byte -> subscriber)", _fmt(c[key], "ms"),
                        f"bare {_fmt(b[key], 'ms')}", _fmt(lat["ratio_to_bare"][goal_key], "x"), goal,
                        _fmt(lat["goals"].get(goal_key))))
        d = lat.get("durable")
        if d:   # the bare pipeline plus the journal's durable commit per frame: what durability costs
            for key, goal_key, goal in (("p50_ms", "p50", "<= 1.3x durable"), ("p99_ms", "p99", "")):
                out.append((f"  latency {key[:-3]} / durable baseline", _fmt(c[key], "ms"),
                            f"durable {_fmt(d[key], 'ms')}", _fmt(lat["ratio_to_durable"][goal_key], "x"), goal,
                            _fmt(lat["goals"].get("p50_durable")) if goal else ""))
        out.append(("  same, / wire time of the frame", _fmt(c["p50_ms"], "ms"),
                    f"wire {_fmt(w['ms'], 'ms')} @ {w['baudrate']}", _fmt(lat["ratio_to_wire"]["p50"], "x"), "", ""))
        out.append(("  cards measured (controller / bare)", _fmt(c["n"]), _fmt(b["n"]), "", "", ""))
    thr = result.get("throughput")
    if thr:
        ctl, bare = thr["controller"], thr["bare"]
        out.append(("throughput: rounds/s, journal on", _fmt(ctl["rounds_per_s"]), "", "", ">= 300",
                    _fmt(thr["goals"]["rounds_per_s"])))
        out.append(("throughput: events/s", _fmt(ctl["events_per_s"]), f"bare {_fmt(bare['events_per_s'])}",
                    _fmt(thr["ratios"]["events_per_s_to_bare"], "x"), "", ""))
        out.append(("CPU s / 1,000 rounds, controller", _fmt(ctl["cpu_s_per_1000_rounds"]["controller"]),
                    f"bare {_fmt(bare['cpu_s_per_1000_rounds_of_events'])}",
                    _fmt(thr["ratios"]["controller_cpu_to_bare"], "x"), "", ""))
        out.append(("CPU ms / event, controller", _fmt(ctl.get("cpu_ms_per_event"), "ms"),
                    f"bare {_fmt(bare.get('cpu_ms_per_event'), 'ms')}",
                    _fmt(thr["ratios"].get("controller_cpu_per_event_to_bare"), "x"), "<= 2.5 x",
                    _fmt(thr["goals"].get("controller_cpu_per_event"))))
        dur = thr.get("durable")
        if dur:
            out.append(("  CPU ms / event / durable baseline", _fmt(ctl.get("cpu_ms_per_event"), "ms"),
                        f"durable {_fmt(dur.get('cpu_ms_per_event'), 'ms')}",
                        _fmt(thr["ratios"].get("controller_cpu_per_event_to_durable"), "x"), "<= 2.5 x",
                        _fmt(thr["goals"].get("controller_cpu_per_event_durable"))))
        out.append(("CPU s / 1,000 rounds, whole stack", _fmt(ctl["cpu_s_per_1000_rounds"]["all"]), "", "", "", ""))
        par = thr.get("parallel")
        if par:
            out.append((f"  rounds/s, {par['tables']} tables flat out together", _fmt(par["rounds_per_s"]),
                        f"1 table {_fmt(ctl['rounds_per_s'])}", _fmt(thr["ratios"].get("parallel_to_one"), "x"),
                        "", ""))
            out.append((f"  CPU s / 1,000 rounds, {par['tables']} tables, whole stack",
                        _fmt(par["cpu_s_per_1000_rounds"]["all"]), f"{_fmt(par['cpu_cores_busy'])} cores busy",
                        "", "", ""))
        tmpfs = thr.get("journal_tmpfs")
        if tmpfs:
            out.append(("  rounds/s with the journal on tmpfs", _fmt(tmpfs["rounds_per_s"]), "",
                        _fmt(thr["ratios"]["rounds_per_s_disk_to_tmpfs"], "x"), "", ""))
    for t in result.get("tables") or []:
        n = t["n"]
        out.append((f"{n} tables: events/s", _fmt(t["events_per_s"]),
                    f"1 table {_fmt(t['baseline_events_per_s'])}", _fmt(t["ratio_events_per_s"], "x"), "", ""))
        out.append((f"{n} tables: p99 latency", _fmt(t["latency"]["p99_ms"], "ms"),
                    f"1 table {_fmt(t['baseline_p99_ms'], 'ms')}", _fmt(t["ratio_p99"], "x"), "", ""))
        out.append((f"{n} tables: events lost (by seq)", _fmt(t["lost"]), f"of {_fmt(t['journaled'])}", "",
                    "0", _fmt(t["lost"] == 0)))
    fp = result.get("footprint")
    if fp:
        out.append(("peak RSS, controller", _fmt(fp["peak_rss_mb"], "MB"), f"bare {_fmt(fp['bare_peak_rss_mb'], 'MB')}",
                    _fmt(fp["ratios"]["peak_rss"], "x"), "< 60 MB", _fmt(fp["goals"]["peak_rss"])))
        out.append(("idle CPU, controller", _fmt(fp["idle_cpu_pct"], "% core"),
                    f"bare {_fmt(fp['bare_idle_cpu_pct'], '%')}", _fmt(fp["ratios"]["idle_cpu"], "x"), "< 1 %",
                    _fmt(fp["goals"]["idle_cpu"])))
        out.append(("start to READY", _fmt(fp["start_to_ready_s"], "s"), f"bare {_fmt(fp['bare_start_to_ready_s'], 's')}",
                    _fmt(fp["ratios"]["start_to_ready"], "x"), "< 1.5 s", _fmt(fp["goals"]["start_to_ready"])))
    return out


HEADERS = ("figure", "controller", "baseline (same run)", "ratio", "goal", "met")


def table_text(result: dict[str, Any]) -> str:
    """The readable terminal table."""
    body = rows(result)
    widths = [max(len(r[i]) for r in [HEADERS, *body]) for i in range(len(HEADERS))]
    line = "  ".join("-" * w for w in widths)
    fmt = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    m = result["machine"]
    head = (f"tablectl bench on {m['cpus']} x {m['cpu_model']}, Python {m['python']}, "
            f"load {m['load_average'][0]} at start")
    lines = [head]
    if body:
        lines += [fmt.format(*HEADERS), line, *(fmt.format(*r) for r in body)]
    if result.get("pit"):
        from hw_sim.bench.pit import pit_text

        lines.append(pit_text(result["pit"]))
    if result.get("floor"):
        from hw_sim.bench.pit_floor import floor_text

        lines.append(floor_text(result["floor"]))
    for note in result.get("notes", []):
        lines.append(f"note: {note}")
    return "\n".join(lines)


def table_markdown(result: dict[str, Any]) -> str:
    body = rows(result)
    out = ["| " + " | ".join(HEADERS) + " |", "|" + "|".join("---" for _ in HEADERS) + "|"]
    out += ["| " + " | ".join(c.replace("|", "/") for c in r) + " |" for r in body]
    if result.get("pit"):
        from hw_sim.bench.pit import pit_markdown

        out = ([*out, ""] if body else []) + [pit_markdown(result["pit"])]
    if result.get("floor"):
        from hw_sim.bench.pit_floor import floor_markdown

        out = ([*out, ""] if body or result.get("pit") else []) + [floor_markdown(result["floor"])]
    return "\n".join(out)
