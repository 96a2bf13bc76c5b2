"""`tablectl odds` as text: one block per wager, every outcome with its probability and pay,
then the edge, with a paytable that favours the player flagged where the eye falls."""

from __future__ import annotations

from fractions import Fraction

from games.odds import GameOdds, WagerOdds


def _pay(net: Fraction | float) -> str:
    if net == 0:
        return "push"
    if net < 0:
        return "loses"
    if isinstance(net, Fraction):
        return f"{net.numerator} to {net.denominator}"
    return f"{net:g} to 1"


def _wager(w: WagerOdds) -> list[str]:
    lines = [f"{w.wager}" + (f"  ({w.note})" if w.note else "")]
    width = max(len(o.name) for o in w.outcomes)
    for o in w.outcomes:
        lines.append(f"    {o.name:<{width}}  {float(o.probability):.8f}  {_pay(o.net)}")
    edge = float(w.house_edge) * 100
    how = "exact" if w.method == "exact" else "simulated"
    if w.interval is not None:
        lo, hi = (-float(x) * 100 for x in reversed(w.interval))
        how += f", 95 % interval {lo:.3f} % to {hi:.3f} %"
    if w.favours_player:
        lines.append(f"    !!! FAVOURS THE PLAYER: player edge {-edge:.3f} %  ({how})")
    else:
        lines.append(f"    house edge {edge:.3f} %  ({how})")
    return lines


def render(title: str, odds: GameOdds) -> str:
    if not odds.wagers:   # a game the house banks no wager of: one line (games.odds.no_house_wager)
        return f"{title}: " + " ".join(odds.notes)
    lines = [f"{title}: paytable {odds.paytable}, {odds.decks} deck{'s' if odds.decks != 1 else ''}"]
    lines += [f"  {n}" for n in odds.notes]
    for w in odds.wagers:
        lines.append("")
        lines += _wager(w)
    flagged = [w.wager for w in odds.wagers if w.favours_player]
    if flagged:
        lines += ["", f"!!! {len(flagged)} wager(s) favour the player: {', '.join(flagged)}"]
    return "\n".join(lines)
