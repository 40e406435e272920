"""``town audit SAVE [--json]`` (issue 39): every conversation line and stored answer of a save, with
the claims found in it and a verdict for each, and the totals per resident-day.

Read by rule from the save alone (no model, no world): the people a line names (a resident the
speaker knows, one it never met, someone the town does not have), the places (the town's, or
one it lacks), the gatherings (a fact the speaker holds, one only another in the talk holds, a
memory of the speaker's, or nothing), a secret told to the one it is kept from, a line copied
from another talk; and what the check did while the town ran (the line corrected, or not said:
``Conversation.checks`` and ``withheld``).  A check cannot find what it does not look for: read
the listing too.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from game.measure.records import SaveData, read_save
from game.mind.facts.claims import relation_claims, role_claims
from game.mind.facts.fact import EVENT_RE, Fact, TownNames
from game.mind.facts.factcheck import fact_in
from game.mind.facts.linechecks import misattributes
from game.mind.facts.meetat import says_an_hour, time_unheld
from game.mind.facts.unbacked import people_named, places_unknown, sentences
from game.world.knowledge import role_tables

_WORD = re.compile(r"[a-z0-9']+")
UNBACKED = ("invented person", "stranger named", "invented place", "unbacked event", "misattributed event",
            "unbacked relation", "unbacked role", "secret told", "copied", "misattributed", "unbacked hour")


@dataclass
class Claim:
    kind: str  # person, place, event, secret, copy, check
    what: str
    verdict: str  # "backed: ...", or one of UNBACKED, "corrected: ...", "not said: ..."


@dataclass
class Said:
    talk: int
    speaker: str
    text: str
    claims: list[Claim] = field(default_factory=list)

    @property
    def unbacked(self) -> bool:
        return any(c.verdict in UNBACKED for c in self.claims)


@dataclass
class Audit:
    save: str
    clock: str
    resident_days: float
    lines: list[Said] = field(default_factory=list)
    answers: list[Said] = field(default_factory=list)

    def totals(self) -> dict[str, float | int]:
        said = self.lines
        before = sum(1 for s in said if s.unbacked or any(c.kind == "check" for c in s.claims))
        after = sum(1 for s in said if s.unbacked and not any(c.kind == "check" for c in s.claims))
        kinds = Counter(c.verdict for s in said + self.answers for c in s.claims if c.verdict in UNBACKED)
        per = max(self.resident_days, 1e-9)
        return {"lines": len(said), "lines_with_unbacked_claim_before_checks": before,
                "lines_with_unbacked_claim_after_checks": sum(1 for s in said if s.unbacked),
                "lines_corrected_or_not_said": before - after if before >= after else 0,
                "secrets_kept": sum(1 for s in said for c in s.claims if "kept secret" in c.verdict),
                "answers": len(self.answers), "answers_with_unbacked_claim": sum(1 for a in self.answers if a.unbacked),
                **{k.replace(" ", "_"): v for k, v in sorted(kinds.items())},
                "lines_per_resident_day": round(len(said) / per, 2)}


def _key(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def saved_facts(save: SaveData) -> dict[str, list[Fact]]:
    """Each resident's facts as the save holds them."""
    return {name: [Fact.from_dict(d) for d in rows if isinstance(d, dict) and d.get("key")]
            for name, rows in save.facts.items()}


def memory_texts(save: SaveData) -> dict[str, str]:
    """Each resident's memories as one text (read once for the whole save, not once a line)."""
    out: dict[str, list[str]] = {}
    for r in save.memories:
        out.setdefault(r.resident, []).append(r.text)
    return {name: " ".join(texts) for name, texts in out.items()}


def _known_people(save: SaveData, name: str, memo: str) -> set[str]:
    """Whom a resident knows: its relationships and everyone its memories name."""
    return set(save.relationships.get(name, {})) | {p for p in save.residents if p in memo or p.split()[0] in memo}


def check_line(text: str, speaker: str, others: list[str], save: SaveData, town: TownNames,
               facts: dict[str, list[Fact]], now: datetime | None, memos: dict[str, str]) -> list[Claim]:
    """The claims in one line and their verdicts (no model)."""
    out: list[Claim] = []
    memo = memos.get(speaker, "")
    known = _known_people(save, speaker, memo) | set(others)
    for who in people_named(text, [*town.people, *others], town, speaker):
        out.append(Claim("person", who, "invented person"))
    for who in (p for p in town.people if p != speaker and (p in text)):
        out.append(Claim("person", who, "backed: known" if who in known else "stranger named"))
    for place in places_unknown(text, town):
        out.append(Claim("place", place, "invented place"))
    held = facts.get(speaker, [])
    nouns = {m.group(0).lower() for m in EVENT_RE.finditer(text)}
    if nouns:
        mine = fact_in(text, held)
        theirs = fact_in(text, [f for o in others for f in facts.get(o, [])])
        for noun in sorted(nouns):
            if mine is not None:
                out.append(Claim("event", noun, f"backed: fact {mine.key}"))
            elif noun.rstrip("s") in memo.lower():
                out.append(Claim("event", noun, "backed: memory"))
            elif theirs is not None:
                out.append(Claim("event", noun, "misattributed event"))
            else:
                out.append(Claim("event", noun, "unbacked event"))
    for c in relation_claims(text, speaker, others, list(town.people), town.relations) + role_claims(
            text, list(town.people), town.roles, speaker):
        out.append(Claim(c.kind, f"{c.who}: {c.what}", "backed: declared" if c.backed else f"unbacked {c.kind}"))
    blocks = (save.plans.get(speaker) or {}).get("blocks") or []
    starts = [int(b[0]) for b in blocks if isinstance(b, list) and b] + [
        t for f in held for t in (f.start, f.end) if t is not None]
    persona = save.personas.get(speaker) or {}
    own = " ".join(str(persona.get(k, "")) for k in ("background", "currently", "seed_memories"))
    for sent in sentences(text) or [text]:
        why = misattributes(sent, speaker, others, town, held)
        if why:
            out.append(Claim("misattribution", why, "misattributed"))
        hour = says_an_hour(sent) and time_unheld(sent, starts, [own, memo.replace(sent, "")])  # (not its own saying)
        if hour:
            out.append(Claim("hour", hour, "unbacked hour"))
    everyone = [speaker, *others]
    for f in {f.key: f for p in everyone for f in facts.get(p, [])}.values():
        kept = f.kept_from(everyone)
        if kept and f.speaks_of(text):
            out.append(Claim("secret", f.what, "secret told"))
    return out


def audit(save: SaveData, town: TownNames) -> Audit:
    now = save.now
    facts = saved_facts(save)
    memos = memory_texts(save)
    start = save.meta.get("clock", {}).get("start")
    days = ((now - datetime.fromisoformat(start)).total_seconds() / 86400) if (now and start) else 1.0
    out = Audit(save=save.path, clock=save.clock_text, resident_days=round(max(days, 1 / 24) * len(save.residents), 2))
    seen: dict[str, int] = {}
    for n, conv in enumerate(save.conversations):
        people = [str(p) for p in conv.get("participants", [])]
        checks = conv.get("checks") or {}
        joined: dict = conv.get("joined") or {}
        for i, (speaker, text) in enumerate(conv.get("lines", [])):
            # those there to hear it: one who joined later did not (a save from before ``joined``: all)
            others = [p for p in people if p != speaker
                      and not (isinstance(joined, dict) and isinstance(joined.get(p), int) and joined[p] > i)]
            said = Said(n, speaker, text, check_line(text, speaker, others, save, town, facts, now, memos))
            for sent in sentences(text):  # a sentence of five words or more said in another talk
                k = _key(sent)
                if len(k.split()) >= 5 and seen.setdefault(k, n) != n:
                    said.claims.append(Claim("copy", sent[:60], "copied"))
            for note in checks.get(str(i), []):
                said.claims.append(Claim("check", note[:120], f"corrected: {note[:120]}"))
            out.lines.append(said)
        for speaker, text, why in conv.get("withheld") or []:
            out.lines.append(Said(n, speaker, text, [Claim("check", why[:120], f"not said: {why[:120]}")]))
    for r in save.memories:
        if r.kind == "player" and "I answered:" in r.text:
            answer = r.text.split("I answered:", 1)[1].strip()
            out.answers.append(Said(-1, r.resident, answer, check_line(answer, r.resident, [], save, town, facts, now,
                                                                     memos)))
    return out


def render(a: Audit) -> str:
    lines = [f"Audit of {a.save} at {a.clock} ({a.resident_days} resident-days)", ""]
    talk = None
    for s in a.lines:
        if s.talk != talk:
            talk = s.talk
            lines.append(f"-- talk {talk + 1}")
        lines.append(f"{s.speaker}: {s.text}")
        lines += [f"    [{c.verdict}] {c.kind}: {c.what}" for c in s.claims]
    if a.answers:
        lines += ["", "-- stored answers"]
        for s in a.answers:
            lines.append(f"{s.speaker}: {s.text}")
            lines += [f"    [{c.verdict}] {c.kind}: {c.what}" for c in s.claims]
    lines += ["", "Totals:"] + [f"  {k}: {v}" for k, v in a.totals().items()]
    return "\n".join(lines)


def _town_path(save: SaveData) -> str | None:
    """The town a save was made from: its path, or a built-in town of that name where the save came
    from another checkout (a save made in a worktree since removed still has its places)."""
    path = save.meta.get("town_path")
    if not path:
        return None
    if Path(path).exists():
        return str(path)
    from game.world import default_town_path

    here = default_town_path().parent / Path(path).name
    return str(here) if here.exists() else None


def town_names(save: SaveData) -> TownNames:
    """The town's places and people for a save: its map's sectors (the town it was made from)."""
    places: tuple[str, ...] = ()
    arenas: tuple[str, ...] = ()
    rooms: dict[str, tuple[str, ...]] = {}
    path = _town_path(save)
    if path:
        from game.world import load_town
        from game.world.tree import arena_names, rooms_by_place

        tree = load_town(path, residents=False).tree
        places, arenas, rooms = tuple(tree.sectors()), arena_names(tree), rooms_by_place(tree)
    roles = role_tables(())
    works: dict[str, str] = {}
    ages: dict[str, int] = {}
    parts: dict[str, tuple[str, ...]] = {}
    folk: frozenset[str] = frozenset()
    people = set(save.residents)
    if path:
        from game.world.residents import read_residents

        res = Path(path).parent / "residents.json" if str(path).endswith(".tmx") else Path(path) / "residents.json"
        if res.exists():
            rf = read_residents(res)
            people |= {r.name for r in rf.residents}  # the whole town (a small cast speaks of the others)
            roles = role_tables(rf.roles)
            works = {r.name: r.workplace.split(":")[0] for r in rf.residents if r.workplace}
            ages = {r.name: r.age for r in rf.residents if r.age}
            parts = {e.what.lower(): (e.host, *e.known_by) for e in rf.events}
            folk = frozenset(r.name for r in rf.residents if not r.newcomer) if rf.small_town else frozenset()
    return TownNames(places=places, arenas=arenas, rooms=rooms, people=tuple(sorted(people)),
                     relations=save.relationships,
                     roles=roles.public, secret_roles=roles.secret, former_roles=roles.former,
                     workplaces=works, ages=ages, parts=parts, townsfolk=folk)


def cli_audit(args: argparse.Namespace) -> int:
    """``town audit SAVE [--json]``."""
    from game.engine.saves import SaveError

    try:
        save = read_save(str(args.save))
    except SaveError as e:
        print(f"town audit: {e}", file=sys.stderr)
        return 2
    a = audit(save, town_names(save))
    if args.json:
        print(json.dumps({"save": a.save, "clock": a.clock, "resident_days": a.resident_days,
                          "totals": a.totals(), "lines": [asdict(s) for s in a.lines],
                          "answers": [asdict(s) for s in a.answers]}, ensure_ascii=False, indent=1))
    else:
        print(render(a))
    return 0
