"""A table's integrity figures as the board shows them (issue 25.3): the dice cup's monitor
(``<prefix>/<table>/dice``, docs/schemas/dice.json) and the outcome and shuffle monitors
(``<prefix>/<table>/integrity``, integrity.json and integrity_shuffle.json).

The pit service checks them against their schemas before the picture sees them, but the picture
takes what `tablectl watch` hands it too, and never trusts a payload: each figure is read field by
field, a field of the wrong type is left out, text is cut, and every list is bounded, so a table
cannot make a page of megabytes. Only the fields named here reach a browser.

:func:`flags` is what the floor's tile says of them: which monitors flagged something since their
counts began (a die ``biased``, a wager's ``flagged`` classes, a ``suspect`` shoe or run). The
alarm itself (``dice_bias``, ``outcome_bias``, ``shuffle_suspect``) is a warning on the tile as any
alarm is, and is cleared when the table goes on; the flag stays until the counts are reset, so a
supervisor passing later still sees that this table's figures want a look.
"""

from __future__ import annotations

from typing import Any

KINDS = ("dice", "integrity")
"""The retained topics a table publishes its integrity figures on (``<prefix>/<table>/<kind>``) and
the observer kinds they are handed on as (controller.pit.service, `tablectl watch`)."""
CUPS = 8
"""Dice cups a table's figures show at most."""
DICE = 8
"""Dice a cup shows at most (dice.json: at most 8)."""
WAGERS = 32
"""Counted wagers a table's figures show at most."""
CLASSES = 64
"""Outcome classes a wager shows at most."""
SHOES = 10
"""Shuffled deals shown at most (integrity_shuffle.json keeps the last 10)."""
NAME = 64
"""Characters of a name (a cup, a wager, a class) shown."""


def dice_figures(body: dict[str, Any]) -> dict[str, Any] | None:
    """The dice topic's figures: each cup's dice, their throws, chi-square, p-value, whether they
    were flagged (``biased``) and the face most off; None when it holds no cup."""
    cups = body.get("cups")
    if not isinstance(cups, dict):
        return None
    out = []
    for name, cup in list(cups.items())[:CUPS]:
        if not isinstance(name, str) or not isinstance(cup, dict):
            continue
        dice = [d for d in (_die(x) for x in _list(cup.get("dice"), DICE)) if d is not None]
        out.append({"cup": name[:NAME], "serial": _text(cup.get("serial")), "since": _num(cup.get("since")),
                    "shakes": _int(cup.get("shakes")), "dice": dice})
    if not out:
        return None
    return {"ts": _num(body.get("ts")), "p_bias": _num(body.get("p_bias")), "min_shakes": _int(body.get("min_shakes")),
            "cups": out}


def _die(d: Any) -> dict[str, Any] | None:
    if not isinstance(d, dict) or _int(d.get("die")) is None:
        return None
    off = d.get("most_off")
    most_off = None
    if isinstance(off, dict) and _int(off.get("face")) is not None:
        most_off = {"face": _int(off.get("face")), "count": _int(off.get("count")), "expected": _num(off.get("expected"))}
    return {"die": _int(d.get("die")), "shakes": _int(d.get("shakes")), "chi_square": _num(d.get("chi_square")),
            "p_value": _num(d.get("p_value")), "flagged": d.get("biased") is True, "most_off": most_off}


def integrity_figures(body: dict[str, Any]) -> dict[str, Any] | None:
    """The integrity topic's figures: each counted wager (rounds since when, chi-square, its p-value,
    the classes flagged and pooled, and each class's count against its expected count) and the
    shuffle monitor's run and last deals; None when it holds neither."""
    wagers = []
    outcomes = body.get("outcomes")
    if isinstance(outcomes, dict):
        for name, w in list(outcomes.items())[:WAGERS]:
            if isinstance(name, str) and isinstance(w, dict):
                wagers.append(_wager(name, w))
    shuffle = _shuffle(body.get("shuffle"))
    if not wagers and shuffle is None:
        return None
    return {"ts": _num(body.get("ts")), "p_bias": _num(body.get("p_bias")), "min_rounds": _int(body.get("min_rounds")),
            "rare_below": _num(body.get("rare_below")), "wagers": wagers, "shuffle": shuffle}


def _wager(name: str, w: dict[str, Any]) -> dict[str, Any]:
    classes = []
    for c in _list(w.get("classes"), CLASSES):
        if isinstance(c, dict) and isinstance(c.get("name"), str):
            classes.append({"name": c["name"][:NAME], "count": _int(c.get("count")), "expected": _num(c.get("expected")),
                            "probability": _num(c.get("probability")), "p": _num(c.get("p"))})
    return {"wager": name[:NAME], "since": _num(w.get("since")), "rounds": _int(w.get("rounds")),
            "chi_square": _num(w.get("chi_square")), "df": _int(w.get("df")), "p_value": _num(w.get("p_value")),
            "pooled": _names(w.get("pooled")), "flagged": _names(w.get("flagged")), "classes": classes}


def _shuffle(s: Any) -> dict[str, Any] | None:
    if not isinstance(s, dict):
        return None
    run = s.get("run") if isinstance(s.get("run"), dict) else {}
    shoes = []
    for x in _list(s.get("shoes"), SHOES):
        if isinstance(x, dict) and _int(x.get("shoe")) is not None:
            rounds = x.get("rounds") if isinstance(x.get("rounds"), list) else []
            shoes.append({"shoe": _int(x.get("shoe")), "rounds": [_int(r) for r in rounds[:2]],
                          "dealt": _int(x.get("dealt")), "public": _int(x.get("public")),
                          "observed": _int(x.get("observed")), "expected": _num(x.get("expected")),
                          "z": _num(x.get("z")), "p_value": _num(x.get("p_value")), "tested": x.get("tested") is True,
                          "flagged": x.get("suspect") is True})
    return {"window": _int(s.get("window")), "p_suspect": _num(s.get("p_suspect")),
            "run": {"since": _num(run.get("since")), "shoes": _int(run.get("shoes")), "observed": _int(run.get("observed")),
                    "expected": _num(run.get("expected")), "p_value": _num(run.get("p_value")),
                    "tested": run.get("tested") is True, "flagged": run.get("suspect") is True},
            "shoes": shoes}


def read(kind: str, body: dict[str, Any]) -> dict[str, Any] | None:
    """``dice`` or ``integrity`` figures read (:func:`dice_figures`, :func:`integrity_figures`)."""
    return dice_figures(body) if kind == "dice" else integrity_figures(body)


def word(kind: str, body: dict[str, Any]) -> str:
    """One topic's figures in a word or two, for a terminal: ``flagged: dice``, ``ok``, ``cleared``."""
    if not body:
        return "cleared"
    found = read(kind, body)
    said = flags({kind: found}) if found is not None else None
    return f"flagged: {', '.join(said)}" if said else "ok" if found is not None else "nothing counted"


def flags(figures: dict[str, Any]) -> list[str] | None:
    """Which monitors flagged something since their counts began (``dice``, ``outcomes``,
    ``shuffle``); None for a table that publishes no figures."""
    if not figures:
        return None
    out = []
    dice, integrity = figures.get("dice"), figures.get("integrity")
    if dice and any(d["flagged"] for c in dice["cups"] for d in c["dice"]):
        out.append("dice")
    if integrity and any(w["flagged"] for w in integrity["wagers"]):
        out.append("outcomes")
    shuffle = integrity and integrity["shuffle"]
    if shuffle and (shuffle["run"]["flagged"] or any(s["flagged"] for s in shuffle["shoes"])):
        out.append("shuffle")
    return out


def _list(value: Any, most: int) -> list[Any]:
    return value[:most] if isinstance(value, list) else []


def _names(value: Any) -> list[str]:
    return [v[:2 * NAME] for v in _list(value, CLASSES) if isinstance(v, str)]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any) -> float | int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value if value == value and abs(value) != float("inf") else None


def _text(value: Any, limit: int = NAME) -> str | None:
    return value[:limit] if isinstance(value, str) else None
