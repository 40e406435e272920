"""Who has a hand in a gathering: the town's declared events say who hosts each and who helps (its
``known_by``), and a line or an answer that gives that part to someone else is not said (issue 39,
read on a whole day: "I know you're helping prepare Grace's surprise party", said by Rosa to Marcus,
who knows nothing of it; "I enjoy helping my father, Hank, prepare Grace's surprise party", of a
party Hank has no part in).  Asking someone to help is not judged: only a part said as held."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.keptfrom import kept_one_in_the_know
from game.mind.facts.relwords import KIN_WORDS
from game.mind.facts.unbacked import sentences
from game.mind.facts.when import word_list

_HELP = (r"(?:help(?:s|ed|ing)?|prepar(?:e|es|ed|ing)|organi[sz](?:e|es|ed|ing)|plann(?:ed|ing)|"
         r"decorat(?:e|es|ed|ing)|arrang(?:e|es|ed|ing)|setting up|host(?:s|ed|ing)?|throw(?:s|ing)?|"
         # a part by another verb ("you're providing feedback at the town debate", Grace to Kenji, c59f68b)
         r"provid(?:e|es|ed|ing)|moderat(?:e|es|ed|ing)|present(?:s|ed|ing)?|speak(?:s|ing)?|judg(?:e|es|ed|ing)|"
         r"cater(?:s|ed|ing)?)")
# a part said as the listener's ("you're helping ...", "thanks for helping with ..."), not asked of it
_YOU_HELP = re.compile(rf"\byou(?:'re|’re| are| were|'ve been|’ve been| have been)\s+(?:also\s+|still\s+|busy\s+)?"
                       rf"{_HELP}\b|\bthanks?(?: you)? for (?:all )?(?:your help|helping)\b", re.I)
# whom the speaker helps ("helping my father, Hank, prepare ...", "I help Samuel with the party")
_HELPING = re.compile(r"\bhelp(?:s|ed|ing)?\s+(?P<who>[^.!?;]{1,40}?)\s+(?:to\s+)?(?:prepare|plan|organi[sz]e|"
                      r"decorate|arrange|set up|get ready|with)\b", re.I)
# a third person's part ("Hank is helping with ...", "Marcus has been planning ...")
# those a sentence names, said to help ("so they can help prepare the party", Samuel of three, 0e6b5f2's save)
_THEY_CAN_HELP = re.compile(r"\bthey\s+(?:can|could|will|would|'ll|might)\s+(?:also\s+)?help\b", re.I)
_THEY_HELP = re.compile(rf"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:is|was|has been|'s) (?:also\s+)?{_HELP}\b")


def _named(text: str, people: Sequence[str]) -> str | None:
    """The first person of the town ``text`` names (a full name or a first name)."""
    caps = set(re.findall(r"\b[A-Z][a-z]+\b", text))  # (one regex for the text, not one a resident)
    for p in people:
        if p.split()[0] in caps and re.search(rf"\b(?:{re.escape(p)}|{re.escape(p.split()[0])})\b", text):
            return p
    return None


_NOT = re.compile(r"\b(?:not|won't|n't|never|no longer)\b", re.I)


# a task's verb in its forms ("make": make, makes, making, made)
_IRREGULAR = {"make": "made", "lend": "lent", "bring": "brought", "buy": "bought", "write": "wrote|written",
              "bake": "baked", "sing": "sang|sung", "give": "gave|given", "lead": "led", "send": "sent"}
_SAME = {"make": ("prepare", "bake"), "bake": ("make", "prepare"), "decorate": ("dress",)}  # a task said otherwise
_NOUN = {"decorate": "decorations?"}  # a task said by its noun
# who a clause is of: "I", "you", or a name (the nearest before the task's verb)
_SUBJECT = re.compile(r"\b(?:I|I'm|I've|I'll|you|you're|[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
_ASKED = re.compile(r"\?\s*$|\b(?:could|would|can|will) you\b|\bif you\b|\bask(?:ed|ing)?\b", re.I)


def _task_rx(task: str) -> re.Pattern[str]:
    """A task said ("make the cake": "making the cake", "made a cake", "makes Grace's cake")."""
    verb, *rest = task.lower().split()
    said: list[str] = []
    for v in (verb, *_SAME.get(verb, ())):  # ("preparing the cake" is making it: Samuel on d2ec812)
        stem = v[:-1] if v.endswith("e") else v
        said += [v, f"{v}s", f"{stem}ing", f"{stem}ed", *_IRREGULAR.get(v, "").split("|")]
    # helping another with it is doing it ("has been helping me with the cake", Samuel of Rosa, whose
    # task is to decorate; helping its holder by name, "helping Ines with the cake", is not this form)
    said.append(r"help(?:s|ed|ing)?(?:\s+(?:me|us|him|her|them|you))?\s+with")
    forms = "|".join(f for f in dict.fromkeys(said) if f)
    what = [w for w in rest if w not in ("the", "a", "an", "for", "some", "her", "his", "their")]
    obj = re.escape(what[-1]) if what else ""
    noun = _NOUN.get(verb, "")  # ("is helping with the decorations", Samuel of Ines on b61bcdc's save)
    also = rf"|\b(?:help(?:s|ed|ing)?|in charge of|do(?:es|ing)?)\s+(?:\w+\s+)?(?:with\s+)?(?:the\s+)?{noun}\b" \
        if noun else ""
    return re.compile(rf"\b(?:{forms.strip('|')})\b(?:\s+[\w'’-]+){{0,3}}?\s+{obj}s?\b{also}", re.I)


def _whose(said: str, speaker: str, listeners: Sequence[str], town: TownNames) -> str | None:
    """The resident a subject word is: "I" the speaker, "you" the one listener, a name its holder."""
    if said.split("'")[0] == "I":
        return speaker
    if said.lower().startswith("you"):
        return listeners[0] if len(listeners) == 1 else None
    return _named(said, town.people)


def task_not_theirs(sent: str, speaker: str, listeners: Sequence[str], town: TownNames) -> str:
    """Why ``sent`` gives a task the town declared for a gathering ("make the cake": Ines's) to
    another as theirs: "I also like to help others, such as lending Bluebell Cafe and making the
    cake", said by Samuel (90db376's interview); else "".  A question or a request is no claim."""
    if _ASKED.search(sent) or _NOT.search(sent):
        return ""
    for holder, task in town.tasks:
        m = _task_rx(task).search(sent)
        if m is None:
            continue
        said = [_whose(x, speaker, listeners, town) for x in _SUBJECT.findall(sent[:m.start()])]
        who = next((w for w in reversed(said) if w), None)  # the nearest one of the town before the verb
        if who is not None and who != holder:
            return f"{holder.split()[0]} is the one to {task}"
    return ""


def part_not_theirs(sent: str, speaker: str, listeners: Sequence[str], town: TownNames, facts: Iterable[Fact]) -> str:
    """Why ``sent`` gives a part in one of ``facts``' gatherings (one the town declared) to someone
    who has none, or denies its speaker's own part ("I will not be helping Samuel prepare Grace's
    surprise party", said by Rosa, who makes its decorations), or gives a declared task to another
    (``task_not_theirs``), else ""."""
    why = task_not_theirs(sent, speaker, listeners, town)
    if why:
        return why
    facts = [f for f in facts if f.kind == "gathering" and f.what.lower() in town.parts]
    hosts_none = not any(f.host == speaker for f in facts)  # (one who hosts none invites only to another's)
    for f in facts:
        hands, named = town.parts[f.what.lower()], f.speaks_of(sent)
        why = _host_part(sent, speaker, f, town, told=named) if named or hosts_none else ""
        if why:
            return why
        if not named:
            continue
        own = re.search(rf"\bI\b[^.!?]*?{_NOT.pattern}[^.!?]*?\b{_HELP}\b", sent, re.I)
        if speaker in hands and own is not None:
            return f"{speaker.split()[0]} has a hand in {f.bare_what}"
        if speaker not in hands and speaker != f.host and (m := _I_ARRANGE.search(sent)) and any(
                w in f.keywords() for w in word_list(m.group("what"))) and not (
                _NOT.search(m.group(0)) or _ASKED.search(sent)):
            return f"{speaker.split()[0]} has no part in {f.bare_what}"
        if len(listeners) == 1 and listeners[0] not in hands and _YOU_HELP.search(sent):
            return f"{listeners[0].split()[0]} has no part in {f.bare_what}"
        for m in _HELPING.finditer(sent):
            who = _named(m.group("who"), town.people)
            if who is None and re.search(r"\byou\b", m.group("who"), re.I) and len(listeners) == 1:
                who = listeners[0]
            if who is not None and who not in hands and who != speaker:
                return f"{who.split()[0]} has no part in {f.bare_what}"
        if _THEY_CAN_HELP.search(sent):  # "... Ines Moreau, Felix Adeyemi, and Rosa Brody, so they can help prepare"
            who = next((p for p in town.people if p not in hands and p != speaker and p != f.host
                        and re.search(rf"\b{re.escape(p.split()[0])}\b", sent)), None)
            if who is not None:
                return f"{who.split()[0]} has no part in {f.bare_what}"
        for m in _THEY_HELP.finditer(sent):
            who = _named(m.group("who"), town.people)
            if who is not None and who not in hands:
                return f"{who.split()[0]} has no part in {f.bare_what}"
        why = _uninvited(sent, speaker, f, {*hands, f.host, f.honoree, *f.invited}, town.people) or _tells_the_kept(
            sent, f)
        if why:
            return why
    return ""


# the speaker arranging a gathering ("I'm trying to figure out the best time to start our public debate", Ines, who
# has no part in Grace's debate, on d7d6132's day); preparing *for* it, or to go to it, is a guest's
_I_ARRANGE = re.compile(r"\bI(?:'m|’m| am| was| will|'ll| have been|'ve been)?\s+(?:\w+\s+){0,3}?(?:figur(?:e|ing) out|"
                        r"decid(?:e|ing)|schedul(?:e|ing)|plann?(?:ing)?|organi[sz](?:e|ing)|arrang(?:e|ing)|"
                        r"set(?:ting)? up|host(?:ing)?)\s+(?!for\b|to\s+(?:go|come|attend|be|join|bring|see|wear)\b)"
                        r"(?P<what>(?:the|our|my)\s+[^.!?;]{0,50})", re.I)


_TELL = re.compile(r"\b(?:tell|telling|told|inform|informing|let (?:her|him|them) know|call|calling|show)\b", re.I)


def _tells_the_kept(sent: str, f: Fact) -> str:
    """Why ``sent`` has its speaker tell a surprise to the one it is kept from ("I would call my wife Grace
    and tell her that I'm going to Bluebell Cafe tomorrow evening to surprise her", Samuel, asked what he
    would do if someone close were sick, on 82f1ab1's save), else ""."""
    if not f.secret_from or _NOT.search(sent) or not _TELL.search(sent):
        return ""
    for who in f.secret_from:
        first = re.escape(who.split()[0])
        # the one told is the kept one ("call my wife Grace and tell her", "let Grace know"), not one who told the
        # speaker of a party for her ("Samuel Okafor told me he's hosting a surprise party for Grace's 60th
        # birthday", Ines to Rosa and Nora on 4d3a658's day, was not said)
        if re.search(rf"{_TELL.pattern}\s+(?:[\w,]+\s+){{0,3}}?{first}\b(?!['’]s)|\blet {first} know\b", sent, re.I):
            return f"{f.bare_what} is kept from {who.split()[0]}: not told to {who.split()[0]}"
    return ""


# who is said to come ("Priya Raman and Nora Lindqvist ... they will be attending the party", Samuel of his
# party, to which neither is asked, c59f68b's interview); the subject is the nearest name(s) or "they"
_ATTEND = re.compile(r"\b(?P<subj>[A-Z][a-z]+|they|he|she)\s+(?:will|'ll|are|is|were|was)\s+(?:also\s+)?"
                     r"(?:be\s+)?(?:attending|attend|coming|come|going to be there|joining|join)\b")


def _uninvited(sent: str, speaker: str, f: Fact, asked: set[str], people: Sequence[str]) -> str:
    """Why ``sent`` says someone comes to ``f``, a gathering with a declared guest list, who is not on it
    (not its host, helpers, guest of honour or invited), else ""."""
    m = _ATTEND.search(sent)
    if not f.invited or m is None or _ASKED.search(sent) or _NOT.search(sent) or re.search(r"\binvit", sent, re.I):
        return ""
    before = sent[:m.start("subj")] if m.group("subj").lower() in ("they", "he", "she") else sent[:m.end("subj")]
    if m.group("subj").lower() not in ("they", "he", "she"):  # the names of the clause: "Eli and Aiko will"
        before = re.split(r"[,;:]|\b(?:that|who|which|because|while)\b", before)[-1]
    for p in people:
        if p != speaker and p not in asked and re.search(rf"\b(?:{re.escape(p)}|{re.escape(p.split()[0])})\b", before):
            return f"{p.split()[0]} is not asked to {f.bare_what}"
    return ""


_INVITES = re.compile(r"\binvit(?:e|es|ed|ing)\b(?P<whom>[^.!?]{1,80})", re.I)
# the speaker's own gathering said as helped with ("Thanks for coming to help me prepare the surprise
# party", Rosa, who helps Samuel with his, to Ines, on 8f03815's day)
_HELP_ME = re.compile(r"\bhelp(?:s|ed|ing)?\s+me\s+(?:to\s+)?(?:prepare|plan|organi[sz]e|decorate|arrange|set up|"
                      r"get ready|with)\b", re.I)
_TOLD_ME = re.compile(r"\b(?:let(?:ting)? me know|told me|telling me|tell me|heard (?:about|of)|news of|the news)\b",
                      re.I)


def _host_part(sent: str, speaker: str, f: Fact, town: TownNames, *, told: bool) -> str:
    """Why ``sent`` mixes up whose gathering ``f`` is, else "": its host invited by another, or its
    guest of honour invited to the surprise ("I'm planning to invite Samuel Okafor, Grace Okafor",
    Ines of Samuel's party for Grace), or its host thanked for telling of it ("Thanks for letting me
    know about the pub quiz", Marcus, whose quiz it is, to Hank; both on 6186d53's day), or its
    helpers' help asked as if the gathering were the speaker's (``_HELP_ME``); ``told``:
    the sentence names the gathering (an invitation may not: "I'll invite Samuel")."""
    if _ASKED.search(sent) or _NOT.search(sent):
        return ""
    m = _INVITES.search(sent)
    if m and re.search(r"\b(?:I|I'm|I'll|I've|we|we're)\b", sent[:m.start()]):
        whom = m.group("whom")
        surprised = [f.honoree] if f.honoree and f.honoree in f.secret_from else []
        if not told and not (surprised and _named(whom, [f.host]) and _named(whom, surprised)):
            return ""  # (unnamed, it is this gathering only when its host and its guest of honour are asked)
        for who in [f.host, *surprised]:
            if who and who != speaker and _named(whom, [who]):
                return (f"{f.host.split()[0]} hosts {f.bare_what}" if who == f.host else
                        f"{f.bare_what} is kept from {who.split()[0]}, not asked of {who.split()[0]}")
    if told and f.host and speaker != f.host and _HELP_ME.search(sent):
        return f"{f.host.split()[0]} hosts {f.bare_what}"
    if told and speaker == f.host and _TOLD_ME.search(sent):
        return f"{speaker.split()[0]} hosts {f.bare_what}: no one tells its host of it"
    return ""


def _kin_of(speaker: str, town: TownNames) -> dict[str, str]:
    """The speaker's kin by the word its relationships begin with ("his wife, ...": {"wife": "Grace Okafor"}),
    each word one person's."""
    words: dict[str, list[str]] = {}
    for other, rel in town.relations.get(speaker, {}).items():
        m = re.match(r"(?:his|her|their)\s+(\w+)", rel.strip(), re.I)
        if m and m.group(1).lower() in KIN_WORDS:
            words.setdefault(m.group(1).lower(), []).append(other)
    return {w: ps[0] for w, ps in words.items() if len(ps) == 1}


def _helped_named(sent: str, people: Sequence[str], speaker: str) -> str:
    """``sent`` with "help her" or "help him" said of the one named last before it."""
    def named(m: re.Match[str]) -> str:
        before = [(sent.rfind(p, 0, m.start()), p) for p in people if p != speaker and p in sent[:m.start()]]
        return f"{m.group(1)} {max(before)[1]}" if before else m.group(0)
    return re.sub(r"\b(help(?:s|ed|ing)?) (?:her|him)\b", named, sent)


def parts_unbacked(text: str, speaker: str, town: TownNames, facts: Iterable[Fact]) -> list[tuple[str, str]]:
    """The sentences of an answer (said to no one of the town) that give a part in a gathering to
    someone who has none, each with its reason."""
    facts, out, last = list(facts), [], None
    kin = _kin_of(speaker, town)
    for s in sentences(text):  # "She ..." of the one named last ("... Rosa Brody. She has been helping me")
        probe = re.sub(r"^\W*(?:She|He)\b", last, s, count=1) if last else s
        if kin:  # "my wife" is the one the speaker's relationships say; "help her" the one named just before
            probe = re.sub(rf"\bmy ({'|'.join(kin)})\b", lambda m: kin[m.group(1).lower()], probe, flags=re.I)
            probe = _helped_named(probe, town.people, speaker)
        why = part_not_theirs(probe, speaker, (), town, facts)
        if why:
            out.append((s, why))
        named = [p for p in town.people if p in s and p != speaker]
        last = max(named, key=s.rfind) if named else last  # (the one named last in the sentence)
    said = {s for s, _ in out}  # and one the gathering is kept from, said to know or talk of it (keptfrom.py)
    return out + [(s, w) for s, w in kept_one_in_the_know(sentences(text), facts, town.people) if s not in said]


# one who holds a surprise about to speak of "it" to the one it is kept from ("I was just about to talk to Grace
# about it", Samuel of his own party for her, after "It sounds like a fun party", on 160f87f's day)
_ABOUT_IT = (r"\b(?:talk|talking|speak|speaking|chat|chatting|ask|asking|mention|mentioning|tell|telling)\s+"
             r"(?:to\s+|with\s+)?{k}\s+about\s+(?:it|this|that)\b")


def tells_kept_of_it(sent: str, text: str, facts: Iterable[Fact]) -> str:
    """Why ``sent``, a sentence of ``text``, has its speaker speak of "it" to the one a surprise ``text`` tells
    of is kept from, else ""."""
    for f in facts:
        if f.kind != "gathering" or not f.secret_from or not f.speaks_of(text) \
                or _NOT.search(sent) or re.search(r"n't\b", sent):  # ("don't": no \b before its n)
            continue
        for who in f.secret_from:
            if re.search(_ABOUT_IT.format(k=re.escape(who.split()[0])), sent, re.I):
                return f"{f.bare_what} is kept from {who.split()[0]}: not told to {who.split()[0]}"
    return ""
