"""A round machine's states and transitions as a Mermaid state diagram (docs/internals.md).

pytransitions holds the transitions; which of them a game can take depends on what its class
declares (a shoe dealt over many rounds, cards at all), so the diagram keeps a guarded transition
only where the class allows it, and labels a guard that is decided as the round goes (``[shuffle
due]``). The docs' diagrams are these, checked by a test, so they cannot drift from the code.
``python -m games.round.diagram`` prints one per family of the registered games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CLASS_GUARDS: dict[str, Callable[[type], bool]] = {
    "_plays_a_shoe": lambda cls: cls.PLAYS_A_SHOE,
    "_opens_without_deck": lambda cls: not cls.PLAYS_CARDS,
}
"""Guards a class decides once and for all (its ``PLAYS_A_SHOE``, ``PLAYS_CARDS``)."""


def unvisited(cls: type) -> set[str]:
    """States a class never enters: no shoe to load without shoe play, no deck check and no
    shuffle without cards (games.round.no_deck)."""
    states = set() if cls.PLAYS_A_SHOE else {"load_shoe"}
    return states if cls.PLAYS_CARDS else states | {"deck_check", "shuffle", "load_shoe"}


def _label(name: str) -> str:
    name = name.removeprefix("_")
    if name.startswith("resumes_to_"):
        return f"fault came from {name.removeprefix('resumes_to_')}"
    return {"shuffle_due_now": "shuffle due"}.get(name, name.replace("_", " "))


def edges(machine: Any) -> list[tuple[str, str, str]]:
    """``(source, dest, label)`` of every transition the machine's class can take, in the order
    pytransitions tries them."""
    cls = type(machine)
    never = unvisited(cls)
    out: list[tuple[str, str, str]] = []
    for trigger, event in machine.machine.events.items():
        for source, transitions in event.transitions.items():
            if source in never:
                continue
            for tr in transitions:
                if tr.dest in never:
                    continue
                runtime: list[str] = []
                possible = True
                for cond in tr.conditions:
                    name = cond.func if isinstance(cond.func, str) else getattr(cond.func, "__name__", "?")
                    if name in CLASS_GUARDS:
                        possible = possible and CLASS_GUARDS[name](cls) == cond.target
                    else:
                        runtime.append(_label(name) if cond.target else f"not {_label(name)}")
                if not possible:
                    continue
                label = trigger + (f" [{', '.join(runtime)}]" if runtime else "")
                out.append((source, tr.dest or source, label))
                if not runtime:
                    break  # the transitions after an unguarded one for this source are never tried
    return out


def mermaid(machine: Any) -> str:
    """The Mermaid ``stateDiagram-v2`` of one machine."""
    lines = ["stateDiagram-v2", f"    [*] --> {machine.machine.initial}"]
    lines += [f"    {s} --> {d}: {label}" for s, d, label in edges(machine)]
    return "\n".join(lines)


def families() -> list[tuple[list[str], str]]:
    """One diagram per family of the registered games: the games whose machines draw the same."""
    from games import registry

    groups: dict[str, list[str]] = {}
    for name in registry.PACKAGES:
        entry = registry.get(name)
        options = entry.load_options(dict(entry.demo.get("game", {})), entry.demo.get("seats", entry.seats[1]))
        machine = entry.build(options, lambda _k, _d: None, 1)
        groups.setdefault(mermaid(machine), []).append(name)
    return [(names, text) for text, names in groups.items()]


if __name__ == "__main__":
    for names, text in families():
        print(f"{', '.join(names)}:\n```mermaid\n{text}\n```\n")
