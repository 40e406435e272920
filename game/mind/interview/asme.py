"""The resident's own name in its answer, said as of someone else, put in its own voice (issue 39):
Grace, asked of Samuel on 75fad48's save, said "He is the husband of Grace" and "Ines Moreau, who
runs the cafe Grace visits every morning"; such a sentence was dropped, and asking it again emptied
answers whose only fault it was ("Hank Brody runs the hardware store", said by Hank).  Mended, it
says what it said: "He is my husband", "the cafe I visit every morning", "I run the hardware store".

A sentence in the records' own form ("... (Ada Ito told Cy)": a held fact said back) stays as it is,
as does one where the name is called ("Thanks for asking, Rosa!") or given ("I'm Rosa Brody").

Pure rules: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.unbacked import SELF_INTRO, SENTENCES
from game.mind.planning.wording import bare_verb

_KIN = (r"husband|wife|friend|best friend|daughter|son|father|mother|partner|boss|neighbour|neighbor|landlady|"
        r"landlord|lodger|brother|sister|grandson|granddaughter|colleague")
_OBJECT = (r"for|with|to|from|about|help|helps|helping|support|supports|supporting|visit|visits|visiting|tell|"
           r"telling|ask|asking|meet|meeting|see|seeing|join|joining|call|calling|thank|thanking")
# what a subject does, said of the resident by name; the past and the modals stay as they are
_DOES = (r"is|was|has|had|does|did|will|would|can|could|should|might|must|told|asked|said|thinks|says|wants|plans|"
         r"knows|feels|needs|hopes|likes|loves|visits|goes|works|runs|lives|keeps|gets|makes|writes|walks|comes|"
         r"spends|reads|sees|takes|gives|brings|helps|talks|tells|cares|worries|enjoys|teaches|bakes|owns|manages")
_RECORDS_FORM = re.compile(r"\([^()]*\btold\b[^()]*\)")


def _verb(v: str) -> str:
    """The verb said of "I": "is" -> "am", "runs" -> "run" ("has", "does", "lives", "worries" too); the past and
    modals as they are."""
    low = v.lower()
    if low == "is" or not low.endswith("s") or low == "was":
        return "am" if low == "is" else low
    return bare_verb(low) or re.sub(r"(?:(?<=[cs]h)|(?<=ss)|(?<=[xo]))es$|s$", "", re.sub(r"ies$", "y", low))


def as_me(text: str, me: str) -> str:
    """``text`` with its speaker ``me`` named as another put as "I", "me" and "my" (see above)."""
    if " " not in me:
        return text
    name = rf"(?:{re.escape(me.split()[0])}(?: {re.escape(me.split()[-1])})?)"
    out = []
    for sent in SENTENCES.split(text):
        if not _RECORDS_FORM.search(sent):
            sent = re.sub(rf"\b(?:(?:the|a) )?({_KIN}) of {name}\b(?!['’])", r"my \1", sent)
            sent = re.sub(rf"\b({_OBJECT}) {name}\b(?!['’])(?!\s*[,!?])", r"\1 me", sent)
            sent = _subject(sent, name)
            sent = _i_said(sent)
        out.append(sent)
    return " ".join(out)


def _subject(sent: str, name: str) -> str:
    for m in reversed(list(re.finditer(rf"\b{name} ({_DOES})\b", sent))):
        if SELF_INTRO.search(sent[:m.start()]):
            continue
        sent = f"{sent[:m.start()]}I {_verb(m.group(1))}{sent[m.end():]}"
    return sent


def _i_said(sent: str) -> str:
    """A sentence of "I" with a verb of another ("I lives with her husband Samuel", Grace on 2c4c6ac's
    save): "I live", and "her" or "his" before a kin word ahead of anyone else named, "my"."""
    sent = re.sub(rf"\bI ({_DOES})\b", lambda m: f"I {_verb(m.group(1))}", sent)
    return re.sub(rf"^(\W*I\b[^A-Z]*?)\b(?:her|his) ({_KIN})\b", r"\1my \2", sent)


# one a "she" or "he" may stand for ("my husband", "the mayor"; not "the mayor's office")
_SOMEONE = re.compile(rf"\b(?:my|our|a|an|the|this|that) (?:\w+ )?(?:{_KIN}|dad|mum|mom|teacher|pupil|man|woman|boy|"
                      r"girl|stranger|person|customer|baker|mayor|pharmacist|barista|student|candidate|host)\b"
                      r"(?!['’]s)", re.I)
_PRONOUN_LEAD = re.compile(r"^(?:She|He)(?P<adv>\s+(?:also|still|really|often|usually|always|just))?"
                           r"(?P<v>'s|'ll|\s+(?:is|was|will|has|had|does|did|would|can|\w+s)\b)")


def orphan_pronouns(answer: str, me: str, people: Sequence[str]) -> list[str]:
    """The sentences of an answer in the first person that begin with "She" or "He" when no one else has
    been named before them: the speaker speaking of itself as another ("Tomorrow, I plan to run the town from
    the mayor's office. She will not have any other plans scheduled.", Grace on 654b82e's save)."""
    parts = [s for s in SENTENCES.split(answer.strip()) if s]
    out = []
    for i, sent in enumerate(parts):
        before = " ".join(parts[:i])
        mine = re.search(r"\b(?:I|my|me)\b", before)
        if i and _PRONOUN_LEAD.match(sent) and mine and not _another(before, me, people):
            out.append(sent)
    return out


def _another(text: str, me: str, people: Sequence[str]) -> bool:
    """Whether ``text`` names someone a "she" or "he" may stand for: another of ``people``, or a kin or role."""
    return bool(_SOMEONE.search(text)) or any(re.search(rf"\b{re.escape(p.split()[0])}\b", text)
                                               for p in people if p != me)


def mend_orphans(answer: str, me: str, people: Sequence[str]) -> tuple[str, list[str]]:
    """``answer`` with each of its ``orphan_pronouns`` said as "I": "She will not have any other plans" -> "I will
    not have any other plans"; "He lives with his daughter Rosa" -> "I live with my daughter Rosa"."""
    fixes = []
    for sent in orphan_pronouns(answer, me, people):
        m = _PRONOUN_LEAD.match(sent)
        if m is None:
            continue
        verb = m.group("v").strip()
        said = {"'s": "I'm", "'ll": "I'll"}.get(verb) or f"I{m.group('adv') or ''} {_verb(verb)}"
        rest = re.sub(r"\b(?:his|her)\b", "my", sent[m.end():])
        answer = answer.replace(sent, said + rest, 1)
        fixes.append(f"of itself as {sent.split()[0].lower()}: as I")
    # "I enjoy painting in her spare time, which she finds fulfilling", Rosa with no one else named: "my", "I find"
    if re.match(r"I\b", answer.strip()) and not _another(answer, me, people):
        new = re.sub(r"\b(?:she|he) (\w+s)\b", lambda m: f"I {_verb(m.group(1))}", answer)
        new = re.sub(r"\b(?:her|his) (?=[a-z])", "my ", new)
        if new != answer:
            answer = new
            fixes.append("of itself as she or he: as I")
    return answer, fixes
