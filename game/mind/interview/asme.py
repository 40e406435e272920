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

from game.mind.facts.fact import TownNames
from game.mind.facts.unbacked import SELF_INTRO, SENTENCES
from game.mind.planning.wording import bare_verb

_KIN = (r"husband|wife|friend|best friend|daughter|son|father|mother|partner|boss|neighbour|neighbor|landlady|"
        r"landlord|lodger|brother|sister|grandson|granddaughter|colleague")
_OBJECT = (r"for|with|to|from|about|help|helps|helping|support|supports|supporting|visit|visits|visiting|tell|"
           r"telling|ask|asking|meet|meeting|see|seeing|join|joining|call|calling|thank|thanking")
# what a subject does, said of the resident by name; the past and the modals stay as they are
_DOES = (r"is|was|has|had|does|did|will|would|can|could|should|might|must|told|asked|said|thinks|says|wants|plans|"
         r"knows|feels|needs|hopes|likes|loves|visits|goes|works|runs|lives|keeps|gets|makes|writes|walks|comes|"
         r"spends|reads|sees|takes|gives|brings|helps|talks|tells|cares|worries|enjoys|teaches|bakes|owns|manages|"
         r"admires|respects|believes|trusts|paints|appreciates|wishes|adores|misses|prefers|values|remembers|"
         r"recalls|understands|agrees|remembered|noticed|heard|saw|thought|knew|learned")  # ("Rosa admires
# Grace", by Rosa on the afternoon's save of 2026-12-02; "Yes, Nora Lindqvist remembers that ...", by Nora in play)
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


# one a "she" or "he" may stand for ("my husband", "the mayor", "the town's mayor"; not "the mayor's office")
_SOMEONE = re.compile(rf"\b(?:my|our|a|an|the|this|that) (?:\w+(?:['’]s)? )?(?:{_KIN}|dad|mum|mom|teacher|"
                      r"pupil|man|woman|boy|girl|stranger|person|customer|baker|mayor|pharmacist|barista|student|candidate|host)\b"
                      r"(?!['’]s)", re.I)
_I_AM = re.compile(r"\bI(?:'m| am| was)(?: (?:no longer|not|still|also|now))? $")
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


def _done_to(text: str) -> bool:
    """Whether ``text`` has a "him", or a "her" said of one done to ("I admire her for her leadership", Rosa
    of the mayor): someone besides its speaker."""
    return bool(re.search(rf"\bhim\b|\bher\b(?=\s*(?:[.,;!?]|$|(?:{_NOT_NOUN})\b))", text))


def _another(text: str, me: str, people: Sequence[str]) -> bool:
    """Whether ``text`` names someone a "she" or "he" may stand for: another of ``people``, or a kin or role."""
    return bool(_SOMEONE.search(text)) or any(re.search(rf"\b{re.escape(p.split()[0])}\b", text)
                                               for p in people if p != me)


def mend_orphans(answer: str, me: str, people: Sequence[str], pron: str = "") -> tuple[str, list[str]]:
    """``answer`` with each of its ``orphan_pronouns`` said as "I": "She will not have any other plans" -> "I will
    not have any other plans"; "He lives with his daughter Rosa" -> "I live with my daughter Rosa".  ``pron``:
    the speaker's own ("she" or "he", ``pronoun_of``) where known; the other is never the speaker ("excited to
    help her plan it", Samuel of his wife, had become "help my plan it")."""
    fixes = []
    for sent in orphan_pronouns(answer, me, people):
        m = _PRONOUN_LEAD.match(sent)
        if m is None or pron and sent.split()[0].lower() != pron:
            continue
        verb = m.group("v").strip()
        said = {"'s": "I'm", "'ll": "I'll"}.get(verb) or f"I{m.group('adv') or ''} {_verb(verb)}"
        rest = re.sub(r"\b(?:his|her)\b", "my", sent[m.end():])
        answer = answer.replace(sent, said + rest, 1)
        fixes.append(f"of itself as {sent.split()[0].lower()}: as I")
    # "I enjoy painting in her spare time, which she finds fulfilling", Rosa with no one else named: "my", "I find"
    if re.match(r"I\b", answer.strip()) and not _another(answer, me, people) and not _done_to(answer) \
            and all(m.group(0) in people for m in _FULL_NAME.finditer(answer)):  # ("Ezra Vance ... him or his")
        subject, whose = {"she": ("she", "her"), "he": ("he", "his")}.get(pron, ("she|he", "her|his"))
        new = re.sub(rf"\b(?:{subject}) (\w+s)\b", lambda m: f"I {_verb(m.group(1))}", answer)
        new = re.sub(rf"\b(?:{whose}) (?=[a-z])", "my ", new)
        if new != answer:
            answer = new
            fixes.append("of itself as she or he: as I")
    return answer, fixes


# whose a "she" or "he" is: the resident's own words of its relations ("her husband of 34 years") and the
# sentences of its persona that begin with one ("She is preparing for the public debate")
_SHE_KIN = r"wife|mother|mum|mom|daughter|sister|aunt|grandmother|granddaughter|girlfriend|landlady|niece"
_HE_KIN = r"husband|father|dad|son|brother|uncle|grandfather|grandson|boyfriend|landlord|nephew"
_OWN = re.compile(r"\b(?P<p>she|he)(?P<adv>\s+(?:also|still|really|often|usually|always|just|currently))?"
                  r"(?P<v>'s|'ll|\s+(?:\w+s|\w+ed|went|said|told|made|did|saw|thought|felt|knew|got|took|came|"
                  r"met|spent|will|would|can|could|should|might|must)\b)", re.I)
_NOT_NOUN = (r"to|and|or|a|an|the|on|at|in|with|for|about|from|by|as|that|this|too|again|now|today|tonight|"
             r"tomorrow|soon|up|out|know|if|when|so|but|because|be|is|was|there|here|more|very")


_FULL_NAME = re.compile(r"(?<![.!?] )(?<!^)\b[A-Z][a-z]+ [A-Z][a-z]+\b")


def _possessive(pron: str) -> str:
    return r"his" if pron == "he" else rf"her(?= (?!(?:{_NOT_NOUN})\b)[a-z])"


def pronoun_of(who: str, town: TownNames) -> str:
    """"she" or "he" for ``who`` by what the town holds of it (see above), or "" where it does not say or says
    both."""
    rel = [v.lower() for v in town.relations.get(who, {}).values()]
    text = [*rel, *(d.lower() for d in town.doings.get(who, ()))]
    she = sum(bool(re.match(r"(?:she|her)\b", t)) for t in text)
    he = sum(bool(re.match(r"(?:he|his)\b", t)) for t in text)
    return "she" if she and not he else "he" if he and not she else ""


def _other_as(text: str, pron: str, me: str, town: TownNames) -> bool:
    """Whether ``text`` names someone besides ``me`` whom ``pron`` may stand for: a person of the town not
    known to be of the other (by ``pronoun_of``), a kin word of its own, or anyone else a pronoun may stand for."""
    other_kin = re.compile(rf"\b(?:{_HE_KIN if pron == 'she' else _SHE_KIN})\b", re.I)
    if re.search(r"\b(?:he|him)\b" if pron == "he" else r"\bshe\b", text, re.I) or _done_to(text):
        return True  # ("about him or his presence", "I admire her for": another, named or not)
    known = {*town.people, *town.places}
    if any(m.group(0) not in known for m in _FULL_NAME.finditer(text)):
        return True  # one the town does not know ("Ezra Vance")
    if any(not other_kin.search(m.group(0)) and not _I_AM.search(text[:m.start()])
           for m in _SOMEONE.finditer(text)):  # (not the speaker's own: "I am no longer a civics teacher")
        return True
    return any(re.search(rf"\b{re.escape(p.split()[0])}\b", text) and pronoun_of(p, town) in ("", pron)
               for p in town.people if p != me)


def mend_own_pronoun(answer: str, me: str, town: TownNames) -> tuple[str, list[str]]:
    """``answer`` in the first person with a "she" or "he" that can stand for no one but its speaker said as
    "I": Rosa's "I am a volunteer for Samuel Okafor's surprise party. Today, however, she is doing the laundry"
    and Samuel's "a surprise party for Grace's 60th birthday. He is currently planning to invite people" on
    356ade6's save (no one of the speaker's own pronoun named before it): "I am doing", "I am currently
    planning", and "his" or "her" before a noun in the rest of its sentence, "my"."""
    pron = pronoun_of(me, town)
    if not pron:
        return answer, []
    fixes, pos = [], 0
    while m := _OWN.search(answer, pos):
        pos = m.end()
        before = answer[:m.start()]
        if m.group("p").lower() != pron or not re.search(r"\b(?:I|[Mm]y|me)\b", before) or \
                _other_as(before, pron, me, town):
            continue
        verb = m.group("v").strip()
        said = {"'s": "I'm", "'ll": "I'll"}.get(verb) or f"I{m.group('adv') or ''} {_verb(verb)}"
        end = re.search(r"[.!?;]|$", answer[m.end():])
        stop = m.end() + (end.start() if end else 0)
        rest = re.sub(rf"\b(?:{_possessive(pron)})\b", "my", answer[m.end():stop])
        rest = re.sub(rf"^([^,]*?\band) ({_DOES})\b", lambda a: f"{a.group(1)} {_verb(a.group(2))}", rest)
        rest = re.sub(r"\b(?:him|her)self\b", "myself", rest)
        answer = answer[:m.start()] + said + rest + answer[stop:]
        pos = m.start() + len(said)
        fixes.append(f"of itself as {m.group('p').lower()}: as I")
    return _own_possessive(answer, pron, me, town, fixes)


def _own_possessive(answer: str, pron: str, me: str, town: TownNames, fixes: list[str]) -> tuple[str, list[str]]:
    """A sentence of "I" with its speaker's own "his" or "her" before a noun, with no one else it may stand for
    named before it: "my" ("I am preparing for the debate and is worried about her town's budget", Grace)."""
    own = _possessive(pron)
    out, before = [], ""
    for sent in SENTENCES.split(answer):
        if re.match(r"\W*I\b", sent) and not _other_as(before + sent, pron, me, town):
            new = re.sub(r"^(\W*I (?:am|was)\b[^,.;]*? and) is\b", r"\1 am", sent)
            new = re.sub(rf"\b(?:{own})\b", "my", new)
            if new != sent:
                fixes.append(f"of itself as {pron}: as I")
            sent = new
        out.append(sent)
        before += " " + sent
    return " ".join(out), fixes


def mend_voice(answer: str, me: str, town: TownNames) -> tuple[str, list[str]]:
    """``answer`` with the speaker's "she" or "he" of itself said as "I" (``mend_orphans``, then
    ``mend_own_pronoun``)."""
    answer, fixes = mend_orphans(answer, me, town.people, pronoun_of(me, town))
    answer, more = mend_own_pronoun(answer, me, town)
    return answer, fixes + more
