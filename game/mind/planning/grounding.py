"""Where an action happens: the places a prompt offers, and grounding what the model named in the
town (by the world's place picker, by meaning when no rule fits, or among the allowed addresses).

``Locator`` is a part of ``Mind`` (see mind.py); no state of its own.
"""

from __future__ import annotations

import logging

from game.llm.api import LLMError
from game.mind.core import MindCore
from game.mind.planning.places import resolve_place
from game.mind.schemas import clean_text
from game.mind.view import Ground, WorldView

log = logging.getLogger(__name__)

PLACE_MEANING_MIN = 0.35  # cosine below which no option is near enough in meaning to an activity


class Locator:
    """The places offered to the model and the grounding of what it named.  Takes the core (the
    persona's home and workplace, the settings, the embeddings, the counts)."""

    def __init__(self, core: MindCore) -> None:
        self.core = core

    def places_line(self, view: WorldView | None) -> str:
        """The short list of areas the model may name (sectors it knows; home and work marked)."""
        if view is not None and view.ground is not None:
            return view.ground.places_text() or "home"
        sectors = list(dict.fromkeys(a.split(":")[0] for a in self.places_for(view)))
        return ", ".join(sectors[:12]) or "home"

    async def ground(self, view: WorldView | None, activity: str, hint: str, proposal: str, block: str,
                      allowed: tuple[str, ...], fallback: str) -> tuple[str, str | None]:
        """Where an action happens and the state it leaves its object in.  With the world's place
        picker (``view.ground``) the world chooses by the town's affordances, and by meaning
        (embeddings) when no rule fits; the state is one of that object's or nothing.  Without it
        (a bare view) the hint is matched among the allowed addresses as written."""
        proposal = clean_text(proposal, 30)
        if proposal.lower() in ("none", "null", "n/a", "-", "same", "unchanged"):
            proposal = ""
        ground = view.ground if view is not None else None
        if ground is not None:
            placed = ground.place(activity, hint or "", block)
            addr = placed.address
            if placed.fits:
                self.core.count("place_fit")
            else:
                better = await self._place_by_meaning(ground, activity, hint or "", block)
                self.core.count("place_by_meaning" if better else "place_unfit")
                addr = better or addr
            state = ground.state(addr, proposal, activity)
            if proposal and state is None:
                self.core.count("state_dropped")
            return addr or fallback, state
        choice = resolve_place(hint, allowed, fallback) if allowed else None
        if choice is not None and choice.fallback:
            self.core.count("place_fallback")
        elif choice is not None and not choice.exact:
            self.core.count("place_fuzzy")
        addr = choice.address if choice else (hint or fallback)
        return addr, (proposal or None) if addr.count(":") >= 2 else None

    async def _place_by_meaning(self, ground: Ground, activity: str, hint: str, block: str) -> str | None:
        """The option whose affordances are nearest in meaning to the activity (cosine of the
        embeddings the mind already uses for memories), if near enough; None when unavailable."""
        options = list(ground.options(activity, hint, block))
        if not options:
            return None
        try:
            vecs = await self.core.embed([activity] + [t for _, t in options])
        except LLMError as e:  # no embeddings: the rule's choice stands
            self.core.count("place_embed_error")
            log.debug("place by meaning failed: %s", e)
            return None
        q = vecs[0]
        qn = sum(x * x for x in q) ** 0.5 or 1.0
        best, best_s = None, PLACE_MEANING_MIN
        for (addr, _), v in zip(options, vecs[1:]):
            vn = sum(x * x for x in v) ** 0.5 or 1.0
            sim = sum(a * b for a, b in zip(q, v)) / (qn * vn)
            if sim > best_s:
                best, best_s = addr, sim
        return best

    def places_for(self, view: WorldView | None) -> tuple[str, ...]:
        """The allowed addresses offered to the model, most useful first, at most
        ``config.places_in_prompt``: everything in the home, the workplace and the current sector,
        then other areas (sector:arena), then the rest."""
        if view is None or not view.allowed:
            return ()
        p = self.core.persona
        here_sector = view.here.split(":")[0] if view.here else ""
        roots = [r for r in (p.home, p.workplace, here_sector) if r]

        def rank(a: str) -> int:
            if any(a == r or a.startswith(r + ":") for r in roots):
                return 0
            return 1 if a.count(":") == 1 else 2

        ordered = sorted(view.allowed, key=rank)  # stable: keeps the engine's order within a rank
        return tuple(ordered[: self.core.config.places_in_prompt])

    def fallback_place(self, view: WorldView | None) -> str:
        return self.core.persona.home or (view.here if view else "")
