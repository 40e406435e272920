"""What the screen reads of the town at a glance: one resident as the side panel shows it
(``resident_view``) and the whole town as one ``TickResult`` (``snapshot``)."""

from __future__ import annotations

from game.engine.decisions.ledger import share
from game.engine.events import Bubble, Move, TickResult
from game.engine.state import PLAYER, Pos, Resident, ResidentView
from game.engine.towncore import TownCore


def positions(core: TownCore) -> dict[str, Pos]:
    """Where every resident (and the player) is."""
    out = {name: r.pos for name, r in core.residents.items()}
    if core.player is not None:
        out[PLAYER] = core.player.pos
    return out


def snapshot(core: TownCore, waiting: int) -> TickResult:
    """Everything as it is now, as one TickResult (moves with src == dst, every bubble)."""
    res = TickResult(step=core.step_no, clock=core.clock.text())
    for name, pos in sorted(positions(core).items()):
        res.moves.append(Move(name, pos, pos))
    for r in core.residents.values():
        if r.action is not None:
            res.bubbles.append(Bubble(r.name, r.action.emoji, r.action.description))
    res.waiting_on_model = waiting
    return res


def resident_view(core: TownCore, r: Resident, *, thinking: bool) -> ResidentView:
    """Resident ``r`` as the side panel shows it (``thinking``: a decision of its is in flight)."""
    name = r.name
    mind = core.minds[name]
    mem = mind.memory
    recent = [rec.text for rec in mem.recent(8)]
    rel = dict(mind.persona.relationships or {})
    # what it last recalled: records whose last access is later than their creation
    recs = [m for m in mem.recent(400) if m.last_access > m.created]
    recs.sort(key=lambda m: (m.last_access, m.id), reverse=True)
    retrieved = [m.text for m in recs[:6]]
    plan = r.plan.timeline(r.plan.minute_of(core.clock.now)) if r.plan is not None else []
    act = r.action
    ledger = core.ledger
    return ResidentView(
        name=name, action=act.description if act else "", emoji=act.emoji if act else "",
        place=core.describe(core.address_at(r.pos)), pos=r.pos, plan=plan, recent=recent,
        retrieved=[str(x) for x in retrieved], relationships=dict(rel), embodied=core.embodied == name,
        conversation=r.conversation, thinking=thinking, asleep=r.asleep,
        source="talk" if r.conversation else (act.source if act else ""),
        lead=share(ledger.residents[name].totals()) if name in ledger.residents else None)
