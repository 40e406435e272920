"""A line that puts someone to work at another's workplace, or a gathering at a place not its own,
held to where the town says each works and where each gathering is (issue 39).  Read on 1703955's
day (2026-12-01):

- Ines, who works at the Bluebell Cafe, to Kenji: "I just wanted to check on the customers at The
  Copper Kettle" (Marcus's pub);
- Marcus, at the pharmacy for an errand, to Kenji: "I'm visiting Greenway Market and Pharmacy today
  for a pub quiz" (his quiz is at his pub).

The speaker's own work somewhere else is backed only by its own words (its day, points, life, tasks)
naming that place with work in the same sentence; a resident named at work somewhere is held to its
workplace and its tasks.  A place that is no one's workplace, and a question, are not judged.

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.roleslips import head_noun
from game.mind.facts.unbacked import by_first, place_aliases

# doing a place's work: serving, a shift, its customers, behind its counter
_WORK = (r"(?:work(?:ing|ed|s)?(?=\s+(?:at|in|a|the|my|an|some|shifts?)\b)|serv(?:e|es|ing|ed)\b|help(?:ing|ed|s)? out|"
         r"cover(?:ing|ed|s)?\s+(?:a\s+|the\s+|my\s+|her\s+|his\s+)?shift|tend(?:ing|ed|s)?\s+(?:the\s+)?bar|"
         r"behind\s+the\s+(?:bar|counter|till)|stock(?:ing|ed|s)?\s+(?:the\s+)?shelves|"
         r"(?:(?:check(?:ing|ed|s)?|wait(?:ing|ed|s)?)\s+on|look(?:ing|ed|s)?\s+after)\s+(?:the\s+)?"
         r"(?:customers|patrons|tables|patients)|"
         r"(?:tak(?:e|ing)|took)\s+orders|(?:open|clos)(?:e|ing|ed)\s+up|"
         r"work(?:ing|ed|s)?\s+on\s+(?:some\s+|the\s+|an?\s+|new\s+)*orders?)")
_MINE = re.compile(r"\bI(?:'m|’m| am| was| will|'ll|’ll|'ve been|’ve been| have been| had been)?\b"
                   r"(?:\s+[a-z]+){0,4}?\s+" + _WORK, re.I)
_THEIRS = re.compile(r"\b(?P<name>[A-Z][a-z]+)(?:'s|’s| is| was| has been| will be)\s+(?:[a-z]+\s+){0,2}?" + _WORK)
_WORK_RE = re.compile(_WORK, re.I)
_IF = re.compile(r"\b(?:if|could|would|might|maybe|perhaps|wish|used to|once)\b", re.I)
_WORK_WORDS = re.compile(r"\b(?:work\w*|serv\w*|shifts?|help\w*|bar|counter|customers|staff\w*|run\w*|cook\w*)\b", re.I)


def says_work(sent: str) -> bool:
    """Whether ``sent`` has a form ``work_elsewhere`` reads (a cheap test before its inputs are gathered)."""
    return _WORK_RE.search(sent) is not None


def _place_in(text: str, places: Sequence[str]) -> str:
    """The first of ``places`` (the town's named places) ``text`` names, by any of its names, else ""."""
    low = text.lower()
    for p in sorted(places, key=len, reverse=True):  # (a word's test first: a regex each only where it may be)
        if any(a.lower() in low and re.search(rf"\b{re.escape(a)}\b", text, re.I) for a in place_aliases(p)):
            return p
    return ""


def _first_place(text: str, places: Sequence[str]) -> str:
    """The one of ``places`` that ``text`` begins with ("the cafe now"), else "": not one named after a verb
    ("use Bluebell Cafe", Samuel's "I'm going to use Bluebell Cafe" of his party, said at the cafe)."""
    low = re.sub(r"^(?:the|my|our)\s+", "", text.strip().lower())
    for p in sorted(places, key=len, reverse=True):
        if any(re.match(rf"{re.escape(re.sub(r'^the ', '', a.lower()))}\b", low) for a in place_aliases(p)):
            return p
    return ""


def _at(text: str, places: Sequence[str]) -> str:
    """The place of ``places`` named right after "at", "in" or "for" near the start of ``text``, else ""."""
    m = re.search(r"^[^.!?]{0,50}?\b(?:at|in|for)\s+(?P<p>[^.!?,;]{3,60})", text)
    return _place_in(m.group("p"), places) if m else ""


def work_elsewhere(sent: str, speaker: str, town: TownNames, own: Sequence[str]) -> str:
    """Why ``sent`` has the speaker, or a resident it names, at work at another's workplace that
    nothing backs (``own``: the speaker's day, points, life and tasks), else ""."""
    if sent.rstrip().endswith("?"):
        return ""
    works = {p: w for p, w in town.workplaces.items() if w}
    workplaces = sorted(set(works.values()))
    m = _MINE.search(sent)
    if m is not None and not _IF.search(sent[:m.start()]):
        place = _at(sent[m.end():], workplaces)
        if place and place not in (works.get(speaker), town.homes.get(speaker)):
            others = set(by_first(tuple(town.people))) - {speaker.split()[0]}  # (Marcus's serving there is his)
            backed = any(_place_in(s, [place]) and _WORK_WORDS.search(s) and not (
                set(re.findall(r"\b[A-Z][a-z]+\b", s)) & others) for t in own for s in re.split(r"[.!?;]", t))
            if not backed:
                return f"{speaker.split()[0]} does not work at {place}"
    for m in _THEIRS.finditer(sent):
        who = next(iter(by_first(tuple(town.people)).get(m.group("name"), ())), None)
        place = _at(sent[m.end():], workplaces) if who else ""
        if who and place and works.get(who) != place and not any(
                w == who and _place_in(t, [place]) for w, t in town.tasks):
            return f"{who.split()[0]} does not work at {place}"
    return ""


def gathering_misplaced(sent: str, gatherings: Sequence[tuple[str, str]], places: Sequence[str]) -> str:
    """Why ``sent`` puts one of ``gatherings`` (each what it is and its place, as the speaker holds
    them) at another of the town's ``places`` ("at P for a pub quiz", "the quiz at P"), else ""."""
    for what, place in gatherings:
        noun = head_noun(what)
        if not place or not noun or not re.search(rf"\b{re.escape(noun)}", sent, re.I):
            continue
        others = [p for p in places if p != place and not _place_in(p, [place]) and not _place_in(place, [p])]
        n = re.escape(noun)
        for m in re.finditer(rf"\b(?:at|in|to|visiting)\s+(?P<p>[^.!?,;]{{3,60}}?)\s*(?:\btoday\s+|\btonight\s+)?"
                             rf"\bfor\s+(?:a|an|the|our|my|your|his|her|their)\s+(?:[\w'-]+\s+){{0,2}}?{n}"
                             rf"|\b{n}e?s?\s+(?:at|in)\s+(?P<q>[^.!?,;]{{3,60}})", sent, re.I):
            said = _place_in(m.group("p") or m.group("q") or "", others)
            if said:
                return f"the {noun} is at {place}, not {said}"
    return ""


# what the speaker says it is doing right now, in words of a doing ("I'm cooking a salad", Kenji at lunch
# in the pharmacy on 1703955's day: his day has no cooking)
_DOING_NOW = re.compile(r"\bI(?:'m|’m| am)\s+(?:just\s+|currently\s+|busy\s+|still\s+|now\s+|right now\s+)?"
                        r"(?P<v>(?:cook|bak|read|writ|paint|garden|clean|fix|repair|stud(?:y|i)|shop|knitt|sew|jogg|"
                        r"brew|decorat|grad|practic|tun|sketch|mend|polish|sweep|water|plant)\w*ing)\b", re.I)


def doing_unheld(sent: str, own: Sequence[str]) -> str:
    """Why ``sent`` has the speaker doing now what nothing of its own (``own``: its day's doings, its
    points, its life) holds, else "": the doing's root ("bak" of "baking") starts none of their words."""
    m = _DOING_NOW.search(sent)
    if m is None or sent.rstrip().endswith("?") or _IF.search(sent[:m.start()]):
        return ""
    key = m.group("v").lower()[:-3][:4]
    held = re.findall(r"[a-z]+", " ".join(own).lower())
    return "" if any(w.startswith(key) for w in held) else f"nothing of its day has it {m.group('v').lower()}"


# where the speaker says it is ("I'm already in The Copper Kettle", Hank at his own store on 75fad48's day)
_I_AM_IN = re.compile(r"\bI(?:'m|’m| am)\s+(?:already\s+|now\s+|just\s+|currently\s+|still\s+|right\s+)?(?:here\s+)?"
                      r"(?:in|at)\s+(?P<p>[^.!?,;]{3,60})", re.I)

_ON_MY_WAY = re.compile(r"\bI(?:'m|’m| am)\s+(?:just\s+|now\s+)?(?:walking|heading|going|on my way|driving)\s+"
                        r"(?:over\s+|back\s+)?to\s+(?P<p>[^.!?,;]{3,60})", re.I)
_LATER = re.compile(r"\b(?:later|tonight|tomorrow|this (?:evening|afternoon)|after|at \d|on \w+day|next|again|"
                    r"for the)\b", re.I)


# a doing of one's home said as now ("I'm watching TV too", Eli at the college library on 2c4c6ac's day:
# his plan's next step, at home)
_HOME_DOING = re.compile(r"\bI(?:'m|’m| am)\s+(?:also\s+|just\s+|currently\s+|still\s+|now\s+)?(?P<d>watching "
                         r"(?:TV|television|a (?:movie|film|show))|napping|taking a nap|"
                         r"(?:taking|having) a (?:bath|shower)|in (?:bed|my pajamas|my pyjamas))\b", re.I)


# back from work, said at work ("Just got back from work", Rosa behind the counter of her cafe at 07:34 on
# 356ade6's day)
_BACK_FROM_WORK = re.compile(r"\b(?:got|get|getting|came|come|coming) (?:back|home) from (?:work|my shift)\b", re.I)


# a doing said as now at a place ("I'm playing the piano at Bluebell Cafe right now", Samuel in the college
# library on a0d10dc's day: his plan's block, not where he was)
_DOING_AT_NOW = re.compile(r"\bI(?:'m|’m| am)\s+(?:just\s+|currently\s+|still\s+)?[a-z]+ing\b[^.!?;]{0,50}?"
                           r"\b(?:at|in)\s+(?P<p>[^.!?,;]{3,60})", re.I)
_NOW_SAID = re.compile(r"\b(?:right now|at the moment|currently)\b", re.I)
# in the company of one who is not in the talk ("I'm sitting with Eli Moreau in the lobby", Kenji to Grace
# on a0d10dc's day: a step of his plan; Eli was at home)
_WITH_NOW = re.compile(r"\bI(?:'m|’m| am)\s+(?:just\s+|currently\s+|still\s+|here\s+)?(?:sitting|standing|talking|"
                       r"chatting|eating|having \w+|working|reading|walking|here)\s+with\s+"
                       r"(?P<n>[A-Z][a-z]+(?: [A-Z][a-z]+)?)")


def with_absent(sent: str, present: Sequence[str], people: Sequence[str]) -> str:
    """Why ``sent`` has the speaker now with a resident of ``people`` who is not ``present`` (the talk's others),
    else ""."""
    m = _WITH_NOW.search(sent)
    if m is None or sent.rstrip().endswith("?") or _LATER.search(sent):
        return ""
    said = m.group("n")
    named = by_first(tuple(people)).get(said.split()[0], ())
    who = said if said in named else next(iter(named), "") if " " not in said else ""
    return f"{who} is not here" if who and who not in present else ""


def here_elsewhere(sent: str, here: str, places: Sequence[str], home: str = "", work: str = "") -> str:
    """Why ``sent`` has the speaker at a place of the town (``places``) that is not where the talk is
    (``here``: its address, "Brody's Supply Store:shop floor"), doing there now what it does elsewhere, doing
    now what is done at home (``home``: the speaker's) away from it, or back from work at its workplace
    (``work``), else ""; a talk on no place's ground (the street) is not judged."""
    sector = here.split(":")[0]
    if not sector or sector not in places:
        return ""
    m = _DOING_AT_NOW.search(sent) if _NOW_SAID.search(sent) else None  # (the word for now first: rare, cheap)
    if m and not sent.rstrip().endswith("?") and not _LATER.search(sent):
        said = _place_in(m.group("p"), places)
        if said and said != sector and not _place_in(sector, [said]):
            return f"the talk is at {sector}, not {said}"
    if work and sector == work and _BACK_FROM_WORK.search(sent) and not sent.rstrip().endswith("?"):
        return f"back from work said at its workplace, {sector}"
    m = _HOME_DOING.search(sent)
    if home and sector != home and m and not sent.rstrip().endswith("?") and not _LATER.search(sent):
        return f"{m.group('d')} is done at home, the talk is at {sector}"
    for m in _I_AM_IN.finditer(sent):
        said = _place_in(m.group("p"), places)
        if said and said != sector and not _place_in(sector, [said]):
            return f"the talk is at {sector}, not {said}"
    for m in _ON_MY_WAY.finditer(sent):  # "I'm walking to The Copper Kettle now", said at its bar (654b82e's day)
        if _first_place(m.group("p"), places) == sector and not _LATER.search(sent):
            return f"the talk is at {sector} already"
    return ""


# a candidate's things said to be the listener's ("update your campaign posters", Hank, who runs for mayor,
# to Marcus, who does not, on 75fad48's day)
_YOUR_CAMPAIGN = re.compile(r"\byour\s+(?:[\w-]+\s+){0,2}?(?:campaign|candidacy|election|run for)\b", re.I)
_WHOSE_CAMPAIGN = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?)['’]s\s+(?:[\w-]+\s+){0,2}?"
                             r"(?:campaign|candidacy)\b")
_MY_CAMPAIGN = re.compile(r"\bmy\s+(?:own\s+|new\s+|mayoral\s+)?(?:campaign|candidacy)\b", re.I)


def campaign_given(sent: str, listeners: Sequence[str], town: TownNames, speaker: str = "") -> str:
    """Why ``sent`` gives a listener who runs for nothing a campaign of its own, or has a ``speaker`` who
    runs for nothing speak of its own ("it was important for my campaign posters to be up there", Marcus
    of Hank's posters on 74bd764's day), else ""."""
    def runs(who: str) -> bool:
        return any(r.startswith("candidate") for r in town.roles.get(who, ()))
    if speaker and _MY_CAMPAIGN.search(sent) and not runs(speaker):
        return f"{speaker.split()[0]} runs for nothing"
    for m in _WHOSE_CAMPAIGN.finditer(sent):  # "put Marcus's campaign posters up", Hank asked of the quiz (654b82e)
        who = next((p for p in town.people if m.group("who") in (p, p.split()[0])), None)
        if who is not None and not runs(who):
            return f"{who.split()[0]} runs for nothing"
    if not listeners or not _YOUR_CAMPAIGN.search(sent) or any(runs(p) for p in listeners):
        return ""
    return f"{', '.join(p.split()[0] for p in listeners)} runs for nothing"


def task_taken(sent: str, before: str, speaker: str, tasks: Sequence[tuple[str, str]]) -> str:
    """Why ``sent`` (``before``: the sentence before it, which "it" may name) has the speaker do a
    gathering's task the town gives another ("I'll make it for Grace", Samuel of the cake Ines makes, on
    75fad48's day), else ""."""
    for who, task in tasks:
        verb, *_, thing = task.lower().split()
        if who == speaker or len(thing) < 3 or any(w == speaker and t.lower() == task.lower() for w, t in tasks):
            continue
        root = verb[:-1] if verb.endswith("e") else verb
        mine = re.search(rf"\bI(?:'ll|’ll| will|'m|’m| am)?\s+(?:going to\s+|gonna\s+)?(?:also\s+)?{root}\w*"
                         rf"(?!\s+sure\b)\s+(?:[\w'’]+\s+){{0,2}}?(?P<o>{re.escape(thing)}|it)\b", sent, re.I)
        if mine and (mine.group("o").lower() != "it" or re.search(rf"\b{re.escape(thing)}\b", before, re.I)):
            return f"{who.split()[0]} is to {task}"
    return ""


# one's own work or gathering denied ("No, I'm not running this pub.", Marcus at The Copper Kettle, asked by the
# player on 48faeb3 whether he hosts tonight's quiz)
_NOT_MINE = re.compile(r"\bI(?:'m|’m| am)\s+not\s+(?:the one\s+)?(?P<v>running|working(?: at| in)?|the owner of|"
                       r"in charge of|managing|hosting|holding|throwing|organi[sz]ing)\s+(?P<what>[^.!?,;]{1,40})",
                       re.I)


def work_denied(sent: str, speaker: str, here: str, work: str, held: Sequence[Fact]) -> str:
    """Why ``sent`` denies the speaker's own workplace (said as "this pub", "here" or by name, where ``here``, the
    talk's place, is it) or a gathering it hosts (by the gathering's noun or "it"), else ""."""
    m = _NOT_MINE.search(sent)
    if m is None:
        return ""
    what, sector = m.group("what").lower(), work.split(":")[0]
    room = (here.split(":") + [""])[1].lower()  # ("the pub", where the talk is in its pub)
    if sector and (sector.lower() in what or here.split(":")[0] == sector and (
            re.match(r"this\s+\w+|here\b", what) or room and re.match(rf"the\s+{re.escape(room)}\b", what))):
        return f"{sector} is where {speaker.split()[0]} works"
    hosting = m.group("v").lower() in ("hosting", "holding", "throwing", "organizing", "organising", "running")
    for f in held:
        if hosting and f.kind == "gathering" and f.host == speaker and re.search(
                rf"\b(?:{re.escape(head_noun(f.what))}|it)\b", what):
            return f"{speaker.split()[0]} hosts {f.bare_what}"
    return ""
