"""Two slips of time in what a resident says of itself, each read against what it holds.

- **The past said as now.**  Rosa's persona says "She took piano lessons from Samuel Okafor as a
  child"; asked of her free time she said "I enjoy painting ... and also taking piano lessons from
  Samuel Okafor" (75fad48's save).  What its own texts hold only with a mark of the past ("as a
  child", "used to", "retired", "former") is not said of itself as now, unless a text holds it as now
  too (Samuel "still gives lessons").
- **A routine made part of an event.**  Samuel, asked of tomorrow: "I plan to play the piano at
  Bluebell Cafe from 14:00 to 16:00 tomorrow as part of my surprise party" (the party is from 18:00).
  "as part of" a gathering it holds, said of hours outside the gathering's, is cut from the answer;
  with no hours said, it stands only when a text it holds speaks of the gathering and the doing together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from game.mind.facts.fact import EVENT_RE, Fact
from game.mind.facts.hours import clock_times
from game.mind.facts.owned import stem
from game.mind.facts.unbacked import sentences

_PAST_MARK = re.compile(
    r"\b(?:as an? (?:child|girl|boy|kid|teen(?:ager)?|student|young (?:girl|boy|man|woman))|when (?:s?he|I|they|we) "
    r"(?:was|were) (?:young|little|small|a child|a girl|a boy|a student|a teenager)|in (?:her|his|my|their) youth|"
    r"used to|retired|former(?:ly)?|no longer)\b", re.I)
# a past verb of doing and its base ("took piano lessons" -> "take")
_IRREGULAR = {"took": "take", "had": "have", "taught": "teach", "sang": "sing", "gave": "give", "went": "go",
              "ran": "run", "wrote": "write", "learnt": "learn", "rode": "ride", "swam": "swim", "did": "do",
              "made": "make", "led": "lead", "drove": "drive", "built": "build", "sold": "sell"}
_REGULAR = {"learned": "learn", "studied": "study", "played": "play", "worked": "work", "attended": "attend",
            "coached": "coach", "painted": "paint", "trained": "train", "managed": "manage", "owned": "own",
            "practised": "practise", "practiced": "practice", "danced": "dance", "cooked": "cook", "baked": "bake",
            "volunteered": "volunteer", "served": "serve", "lived": "live"}
_PAST_VERB = re.compile(rf"\b(?:has |have |had )?(?P<v>{'|'.join([*_IRREGULAR, *_REGULAR])})\s+"
                        r"(?P<obj>(?:(?:the|a|an|some) )?[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2}?)"
                        r"(?=\s+(?:from|at|with|for|in|as|when|and|under|until)\b|[,.;]|$)(?P<tail>[^,.;]*)")
# of the one spoken to, not the speaker ("Are you still taking piano lessons?"; "from you" is no subject)
_OF_YOU = re.compile(r"\byou(?:'re|’re| are| were|'ve| have| still| take| play)\b|\b(?:are|do|did|have|were) you\b|"
                     r"\byour\b", re.I)
_NAME = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*\b")
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|my|me)\b")
_PAST_SAID = re.compile(r"\b(?:took|taught|was|were|used to|when I|years ago|back then|childhood|as an? (?:child|kid|"
                        r"girl|boy|teen\w*|student))\b", re.I)


def _base(verb: str) -> str:
    low = verb.lower()
    return _IRREGULAR.get(low) or _REGULAR.get(low, low)


def _now_forms(base: str) -> str:
    """"take|takes|taking", "teach|teaches|teaching" as a pattern."""
    ing = base[:-1] + "ing" if base.endswith("e") and not base.endswith("ee") else base + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", base):  # run -> running, swim -> swimming
        ing = base + base[-1] + "ing"
    s = base + ("es" if base.endswith(("ch", "sh", "s", "x", "o")) else "s")
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        s = base[:-1] + "ies"
    return "|".join(dict.fromkeys(map(re.escape, (base, s, ing))))


@lru_cache(maxsize=512)
def _past_in(text: str) -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """What ``text`` holds only as past: (base verb, object, the whole clause, the names in it); read once a
    text (a persona's own text is read for every sentence its resident says)."""
    out = []
    for sent in sentences(text) or [text]:
        if not _PAST_MARK.search(sent):
            continue
        for m in _PAST_VERB.finditer(sent):
            obj = re.sub(r"^(?:the|a|an|some) ", "", m.group("obj"))
            out.append((_base(m.group("v")), obj, m.group(0).strip(), tuple(_NAME.findall(m.group("tail")))))
    return tuple(out)


def _past_only(texts: Sequence[str]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """What the texts hold only as past (``_past_in`` of each)."""
    return [c for text in texts if _PAST_MARK.search(text) for c in _past_in(text)]


def past_as_now(sent: str, texts: Sequence[str]) -> str:
    """Why ``sent``, of the speaker itself, says as now what its ``texts`` hold only as past ("taking
    piano lessons from Samuel Okafor", held as "took piano lessons from Samuel Okafor as a child"), else ""."""
    if not _FIRST_PERSON.search(sent) or _OF_YOU.search(sent) or sent.rstrip().endswith("?") \
            or _PAST_SAID.search(sent) or _PAST_MARK.search(sent):
        return ""
    for base, obj, clause, names in _past_only(texts):
        said = re.compile(rf"\b(?:{_now_forms(base)})\s+(?:(?:the|a|an|some|my|more) )?{re.escape(obj)}\b", re.I)
        if not said.search(sent) or not (len(obj.split()) > 1 or any(n in sent for n in names)):
            continue
        now_held = any(said.search(s) and not _PAST_MARK.search(s) for t in texts for s in sentences(t) or [t])
        if not now_held:
            return f"'{clause}' is held only as the past, not as now"
    return ""


_PART_OF = re.compile(r",?\s*\bas (?:a |one )?part of (?P<what>(?:(?!as part)[\w'’-]+\s+){0,5}?"
                      rf"(?P<noun>{EVENT_RE.pattern})(?:\s+for (?:[\w'’-]+\s?){{1,4}})?)", re.I)
_PLAIN = {"plan", "plans", "planning", "will", "going", "tomorrow", "today", "tonight", "also", "there", "then",
          "help", "helping", "want", "would", "like", "some", "with", "from", "this", "that", "have", "been"}


def _doing_words(clause: str, names: Sequence[str]) -> set[str]:
    """The words of doing in ``clause`` ("play", "piano"), not its names, days, hours or filler."""
    for n in names:
        clause = re.sub(re.escape(n), " ", clause, flags=re.I)
    clause = re.sub(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|"
                    r"May|June|July|August|September|October|November|December)\b|\d[\d:.]*\s*(?:[ap]\.?m\.?)?",
                    " ", clause, flags=re.I)
    return {stem(w) for w in re.findall(r"[a-z]{4,}", clause.lower()) if w not in _PLAIN}


def part_of_unheld(sent: str, facts: Sequence[Fact], texts: Sequence[str], names: Sequence[str] = ()) -> str:
    """The "as part of <gathering>" phrase of ``sent`` that nothing backs, else "": said with hours outside
    the gathering's, or with no text of ``texts`` speaking of the gathering and the doing together."""
    m = _PART_OF.search(sent)
    if m is None:
        return ""
    before = sent[:m.start()]
    fact = next((f for f in facts if f.speaks_of(m.group("what"))), None)
    times = clock_times(before)
    if fact is not None and fact.start is not None and times:
        end = fact.end if fact.end is not None else fact.start + 120
        return m.group(0) if any(not fact.start <= t <= end for t in times) else ""
    doing = _doing_words(before.split(",")[-1], [*names, *((fact.place,) if fact and fact.place else ())])
    noun = stem(m.group("noun"))
    held = any(noun in {stem(w) for w in re.findall(r"[a-z]+", s.lower())}
               and doing & {stem(w) for w in re.findall(r"[a-z]{4,}", s.lower())}
               for t in texts for s in sentences(t) or [t])
    return "" if held or not doing else m.group(0)


def part_of_mended(text: str, facts: Sequence[Fact], texts: Sequence[str], names: Sequence[str] = ()
                   ) -> tuple[str, list[str]]:
    """``text`` without the "as part of <gathering>" phrases nothing backs (``part_of_unheld``)."""
    fixes = []
    for sent in sentences(text):
        cut = part_of_unheld(sent, facts, texts, names)
        if cut:
            text = text.replace(sent, sent.replace(cut, "", 1), 1)
            fixes.append(f"not part of it:{cut.lstrip(',')}")
    return text, fixes
