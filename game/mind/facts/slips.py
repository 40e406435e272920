"""Slips a reader of a talk sees at once: a name said to someone who is not in the talk ("I know,
Rosa", said to Grace: Samuel's line of another talk, on c59f68b's day), and a place of the town
spoken of as one still to be opened ("thinking about opening a little cafe called Bluebell Cafe",
by Ines, who opened it twelve years ago).  game/engine/talks/facts.py does not say such a sentence.

Pure rules, no model call.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from game.mind.facts.fact import Fact
from game.mind.facts.unbacked import by_first, named_as_object

# a name said to someone: at the start ("Grace, ..."), after a greeting or a short word ("Thanks, Grace",
# "I know, Rosa"), or closing a clause (", Grace!"); a sentence's subject ("Rosa is ...") is not
VOCATIVE = (r"(?:^|[.!?]\s+)(?:(?:hi|hello|hey|thanks|thank you|oh|well|yes|yeah|no|sure|sorry|good morning|"
            r"good evening|morning|dear)[,!]?\s+)?{n}\s*[,!?]|,\s*{n}\s*(?:[.!?,]|$)")


def said_to_the_absent(sent: str, here: Sequence[str], people: Sequence[str]) -> str:
    """Why ``sent`` speaks to one of the town's ``people`` who is not in the talk (``here``), else
    ""; a first name that someone here shares is theirs."""
    firsts = {p.split()[0] for p in here}
    index = by_first(tuple(people), lower=True)  # (a thousand residents: only the names said are read)
    for word in dict.fromkeys(re.findall(r"[\w'-]+", sent.lower())):
        for p in index.get(word, ()):
            first = p.split()[0]
            if p in here or first in firsts:
                continue
            if re.search(VOCATIVE.format(n=re.escape(first)), sent, re.I):
                return f"said to {first}, who is not in the talk"
    return ""



_TO_OPEN = r"\bopen(?:s|ing)?\s+(?:a|an|my own|our own)\s+(?:[\w-]+\s+){{0,3}}?(?:called|named)\s+{place}\b"


def opens_what_is_open(sent: str, places: Sequence[str]) -> str:
    """Why ``sent`` speaks of a place the town has as one yet to be opened ("opening a little cafe
    called Bluebell Cafe"), else ""; "I'm opening Bluebell Cafe" for the day stands."""
    if not re.search(r"\bopen", sent, re.I):
        return ""
    for place in places:
        if re.search(_TO_OPEN.format(place=re.escape(place)), sent, re.I):
            return f"{place} is open already"
    return ""


# a place's days said as the speaker's to choose ("I'm trying to keep it open until the weekend", Ines of
# Bluebell Cafe on 0e6b5f2's day): the town's places keep their hours every day, and nothing closes them
_OPEN_UNTIL = re.compile(r"\b(?:keep|keeping|kept|stay|stays|staying|be|remain|remains)\s+(?:it\s+|the\s+\w+\s+)?"
                         r"(?:open|closed|shut)\s+(?:until|till|through|for)\s+(?:the\s+)?(?:weekend|next\s+\w+|"
                         r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|a\s+(?:few\s+)?(?:days?|weeks?|months?)|"
                         r"\w+\s+(?:days|weeks|months))\b", re.I)


def open_until_made_up(sent: str) -> str:
    """Why ``sent`` says a place stays open or closed for days, else "": nothing of the town says so."""
    return "a place's days nothing holds" if _OPEN_UNTIL.search(sent) else ""


# "Yes, I know about the surprise party ..." / "I've heard about it" / "Yes, I know!": knowing it before
_KNEW = re.compile(r"^(?:(?P<yes>yes|yeah|sure|of course)[,!.]?\s+|(?P<oh>oh)[,!.]?\s+)?I(?:'ve|’ve|\s+have)?\s+"
                   r"(?:already\s+|do\s+)?(?:know|knew|heard)(?:\s+(?P<of>about|of)\b|\s*(?=[.!]|$))", re.I)


_LONG_AWAITED = re.compile(r"\b(?:for|in)\s+(?:ages|years|months|weeks|so long|a long time|forever)\b"
                           r"|\ball\s+(?:week|month|year)\b|\bsince\s+(?:last|forever)\b", re.I)


def news_as_known(sent: str, new: bool) -> str:
    """``sent`` less its claim to have known before what the speaker heard in this talk (``new``:
    it speaks of a fact heard in this talk, or it is a bare "Yes, I know!" to it): Nora, asked "Do
    you know about the surprise party ...?" and told so in that line, said "Yes, I know about the
    surprise party" (talkbench, 23:32).  The record says she heard it now: "No, I hadn't heard of"."""
    if new and _LONG_AWAITED.search(sent):  # ("I've been looking forward to it for ages too", Priya, told it just now)
        return ""
    m = _KNEW.match(sent.strip())
    if not new or m is None:
        return sent
    lead = "No, I" if m.group("yes") else "Oh, I" if m.group("oh") else "I"
    rest = sent.strip()[m.end():]
    return f"{lead} hadn't heard {m.group('of') or 'of it'}{rest}"


# another described ("He's gruff and practical", "Marcus is proud")
_DESCRIBED = re.compile(r"\b(?P<who>he|she|they|[A-Z][a-z]+)(?:'s|’s| is| was| seems| sounds)\b(?P<rest>[^.!?]*)", re.I)


def own_traits_as_anothers(sent: str, mine: Sequence[str], traits: Mapping[str, Sequence[str]]) -> str:
    """Why ``sent`` gives two or more of its speaker's own traits (``mine``) to another, none of whose
    traits (``traits``: each resident's, by first name) they are, else "": Hank, asked what Marcus is like,
    "He's gruff and practical, but he's proud of his father's store" (Hank's traits and his store)."""
    words = {t.lower() for t in mine}
    for m in _DESCRIBED.finditer(sent):
        who = m.group("who")
        if who.lower() == "i" or who.lower() == "it":
            continue
        said = {w for w in re.findall(r"[a-z]+", m.group("rest").lower()) if w in words}
        if len(said) < 2:
            continue
        theirs = traits.get(who) if who.lower() not in ("he", "she", "they") else None
        if theirs is None and any(said <= {t.lower() for t in ts} for ts in traits.values() if ts is not mine):
            continue  # (a pronoun: someone else may be so too)
        if theirs is not None and said <= {t.lower() for t in theirs}:
            continue
        return f"the speaker's own traits ({', '.join(sorted(said))}) said of another"
    return ""


_TRAIT_SPLIT = re.compile(r"[,;]\s*|\s+and\s+")  # "gruff, practical, proud"


def traits_by_person(traits: Mapping[str, str]) -> dict[str, list[str]]:
    """Each resident's traits (its persona's words) as a list of words."""
    return {p: [t for t in _TRAIT_SPLIT.split(tr.lower()) if t.strip()] for p, tr in traits.items()}


def traits_given(sent: str, speaker: str, traits: Mapping[str, Sequence[str]]) -> str:
    """``own_traits_as_anothers`` for ``speaker``, ``traits`` being each resident's (``traits_by_person``)."""
    mine = traits.get(speaker, [])
    low = sent.lower()
    if sum(1 for t in mine if t in low) < 2:  # (most sentences: no map of the others built)
        return ""
    return own_traits_as_anothers(sent, mine, {p.split()[0]: ts for p, ts in traits.items() if p != speaker})


# another's going somewhere ("I know you're going to Bluebell Cafe tomorrow morning", "Nora is heading to")
_GOES = (r"(?:(?:'re|’re| are|'s|’s| is)(?: \w+)? (?:(?:going|heading|off) (?:to|over to)|visiting)"
         r"|(?:'ll|’ll| will) be (?:at|in|going to))")
_TO_PLACE = re.compile(r"^\s*(?:(?:be|go|head|stop|drop|pop|walk|come|get)\s+(?:by\s+|over\s+|down\s+)?"
                       r"(?:at|to|in)?\s*)?(?:the\s+)?")


def whereabouts_made_up(sent: str, listeners: Sequence[str], people: Sequence[str], places: Sequence[str],
                        held: Sequence[str], theirs: Mapping[str, Sequence[str]]) -> str:
    """Why ``sent`` says where another (the listener, "you", or a resident it names) is going when
    nothing the speaker holds links them with that place, else "": Grace told Samuel "I know you're
    going to Bluebell Cafe tomorrow morning" (82f1ab1's day), which nothing of hers said.  ``held``:
    the speaker's records (its relationships, its memories, each a text); ``theirs``: each person's
    own places (home, workplace), which anyone may say they go to.  A question claims nothing; what
    they said in this talk is among ``held`` ("Samuel: I'm going to the cafe")."""
    if sent.rstrip().endswith("?"):
        return ""
    who = {"you": listeners[0]} if len(listeners) == 1 else {}
    who.update({p.split()[0]: p for p in people})
    for m in re.finditer(rf"\b(?P<w>you|[A-Z][a-z]+){_GOES}\b", sent):
        person = who.get("you" if m.group("w").lower() == "you" else m.group("w"))
        if person is None:
            continue
        rest = _TO_PLACE.sub("", sent[m.end():].lower(), count=1)  # ("going to love the cafe's scones": no place)
        first = person.split()[0]
        for place in places:
            if not rest.startswith(place.lower()) or place in theirs.get(person, ()):
                continue
            if any(place.lower() in h.lower() and re.search(rf"\b{re.escape(first)}\b", h) for h in held):
                continue
            return f"{first} going to {place}, which nothing held says"
    return ""


# one who holds a gathering said not to know it ("I'll let you know when I hear about Samuel's surprise party",
# Rosa, who helps prepare it, on 0e6b5f2's day), or its host asking about it ("can you tell me more about the
# project at Bluebell Cafe?", Samuel of his own party, to a helper)
_UNHEARD = re.compile(r"\b(?:when|once|if|after) I hear\b|\bI (?:haven't|have not|hadn't|had not|never) heard\b"
                      r"|\bI (?:don't|do not) know (?:anything |much |a thing )?(?:about|of)\b|\bnot sure what\b"
                      # ("I'm curious what the party is about", Ines, who lends the cafe for it, on 2bbddfe's day)
                      r"|\b(?:curious|wondering|wonder) (?:what|whose|where|when)\b", re.I)
_HINT = re.compile(r"\b(?:project|plans?|preparations?|surprise|secret|something special)\b", re.I)


# (and "Can you let me know what the surprise is?", Samuel, its host, to Felix on 75fad48's day)
_ASKS = re.compile(r"\b(?:tell me (?:more |anything |a bit )?about|what do you know about"
                   r"|do you know (?:anything |much )?about|have you heard (?:anything )?about"
                   r"|(?:let me know|tell me) what (?:the|your|this|that) [\w' ]{2,30}? is"
                   r"|what(?:'s|’s| is) the (?:surprise|plan|secret)\b)", re.I)


_ASKS_WHEN = re.compile(r"\b(?:what time|when|where|what hour)\s+(?:is|does|will|it|the)\b", re.I)


def held_as_unheard(sent: str, speaker: str, held: Sequence[Fact], *, before: str = "") -> str:
    """Why ``sent`` has its speaker not know, or ask about, a gathering it holds from before this talk
    (``held``), or deny the one the line ``before`` it spoke of (``denied_after``), else ""."""
    for f in held:
        # (or named by its place and a plan: "the project at Bluebell Cafe", Samuel of his own party)
        if not f.speaks_of(sent) and not (f.place and f.place.lower() in sent.lower() and _HINT.search(sent)):
            continue
        if _UNHEARD.search(sent):
            return f"{f.bare_what} is known to the speaker"
        if _ASKS.search(sent) and f.host == speaker:
            return f"{f.bare_what} is the speaker's own"
        # its hours or place asked by one who holds them ("can you tell me what time the pub quiz is today?",
        # Hank, who holds it, to its host on 4151289's day)
        if sent.rstrip().endswith("?") and f.start is not None and f.place and _ASKS_WHEN.search(sent):
            return f"the hours of {f.bare_what} are known to the speaker"
    return denied_after(sent, before, held)


# a denial of what the line before spoke of ("Oh, I don't know what you're talking about!", Ines, who lends her cafe
# for the party, just after Samuel spoke of it on d7d6132's day)
_DENIES = re.compile(r"\bI (?:don't|don’t|do not|have no|haven't got an?) (?:know|idea|clue) what (?:you're|you’re|"
                     r"you are|you mean|that is|that's|it is|it's)\b|\b(?:never|not) heard of (?:it|that|this)\b", re.I)


def denied_after(sent: str, before: str, held: Sequence[Fact]) -> str:
    """Why ``sent`` denies knowing the gathering the line ``before`` it spoke of, one its speaker holds
    (``held``), else ""."""
    if not before or not _DENIES.search(sent):
        return ""
    f = next((f for f in held if f.speaks_of(before)), None)
    return "" if f is None else f"{f.bare_what} is known to the speaker"


def hints_at_the_kept(sent: str, kept: Sequence[Fact]) -> str:
    """Why ``sent``, said by one a gathering is kept from (``kept``), hints at it by its place and a
    plan ("helping us with our project at Bluebell Cafe", Grace on 0e6b5f2's day, of the party Samuel
    prepares there for her), else ""."""
    for f in kept:
        if f.place and re.search(rf"\b{re.escape(f.place)}\b", sent, re.I) and _HINT.search(sent):
            return f"{f.bare_what} is kept from the speaker"
    return ""


# what the speaker says it will do today ("I was planning to go for a walk around the park this morning")
_MY_PLAN = re.compile(r"\bI(?:'m|’m| am| was)?\s+(?:planning|going|about|hoping|meaning)\s+to\s+(?P<what>[^.!?]{3,80}?)"
                      r"\s+(?:this (?:morning|afternoon|evening)|today|tonight|later(?: today)?)\b", re.I)
_PLAN_SKIP = frozenset({"this", "that", "some", "with", "have", "going", "planning", "about", "there", "then",
                        "morning", "afternoon", "evening", "today", "tonight", "later", "around", "maybe"})


def own_plan_unheld(sent: str, plan: Sequence[str]) -> str:
    """Why ``sent`` says the speaker will do today what nothing of its plan (``plan``: today's
    activities) holds, else "": Grace, embodied Samuel's wife at 04:27 in a play of 10e7489, "I was
    planning to go for a walk around the park this morning" (her morning: breakfast, Hank, her office)."""
    m = _MY_PLAN.search(sent)
    if m is None or not plan:
        return ""
    said = {w[:4] for w in re.findall(r"[a-z]+", m.group("what").lower()) if len(w) >= 4 and w not in _PLAN_SKIP}
    held = {w[:4] for a in plan for w in re.findall(r"[a-z]+", a.lower()) if len(w) >= 4}
    return f"not in its plan today: {m.group('what')}" if said and not said & held else ""


_ENDED = re.compile(r"[.!?…\"'”’)\]]\s*$")
_HANGING = re.compile(r"(?:[,;:–-]|\b(?:a|an|the|and|but|or|to|of|for|with|I|my|your|so|because|about|at|in|on|from|"
                      r"that|if|when|into|than|is|are|was))\s*$", re.I)


def unfinished_tail(text: str, parts: Sequence[str]) -> str:
    """``text`` less a last sentence (of ``parts``, its sentences) the model broke off ("Oh, Rosa! A",
    Nora's line on 4151289's day, less what the checks took; "... I know you,", Marcus's), else ``text``:
    one that ends on a comma or a word that cannot end one.  A line of that sentence alone stays."""
    if len(parts) < 2 or _ENDED.search(parts[-1]) or not _HANGING.search(parts[-1]):
        return text
    return " ".join(parts[:-1])


# a thing the town's people call broken ("the broken park fountain", "The fountain in Willow Park stopped
# working last month"), and a sentence saying it works ("It's a bit discolored, but it's still functional",
# Priya of the fountain Grace had just called broken, on 4151289's day)
_OF_PLACE = r"(?:\s+(?:in|at|of)(?:\s+[A-Z][a-z]+)+)?"  # "the fountain in Willow Park"
_BROKEN = re.compile(r"\bbroken\s+(?:(?:park|old|town|village|square)\s+)?(?P<a>[a-z]+)|\b(?P<b>[a-z]+)" + _OF_PLACE
                     + r"\s+(?:has\s+)?(?:stopped working|is broken|was broken|broke down|is out of order)")
_STATE = r"(?:working|functional|fine|in\s+(?:good\s+)?working\s+order)"
_WORKS = re.compile(r"\b(?:it|the\s+(?:\w+\s+)??(?P<n>[a-z]+)" + _OF_PLACE + r")(?:'s|’s|\s+is|\s+was)\s+(?:still|now|"
                    r"already|" + _STATE + r")(?:\s+" + _STATE + r")?\b|\b(?:it|the\s+(?:\w+\s+)??(?P<m>[a-z]+)"
                    + _OF_PLACE + r")\s+(?:still\s+)?works\b", re.I)
_WORKING = re.compile(r"\b(?:working|functional|fine|works|in\s+(?:good\s+)?working\s+order)\b", re.I)


def broken_things(texts: Sequence[str]) -> set[str]:
    """The things ``texts`` call broken ("fountain")."""
    return {(m.group("a") or m.group("b")).lower() for t in texts for m in _BROKEN.finditer(t)} - {"is", "it", "the"}


def broken_said_to_work(sent: str, before: str, broken: set[str]) -> str:
    """Why ``sent`` says a thing of ``broken`` works, else "": the thing named in it, or its "it" the
    last of them named in ``sent`` up to there or in ``before`` (the sentence before it in the line).
    "It's still there" says nothing of its working; "it's not working" and "is it still working?" stand."""
    m = _WORKS.search(sent)
    if m is None or not broken or sent.rstrip().endswith("?") or not _WORKING.search(m.group(0)):
        return ""
    if re.search(r"\b(?:not|n't|never|no longer)\b", sent[max(0, m.start() - 12):m.end()], re.I):
        return ""
    noun = (m.group("n") or m.group("m") or "").lower()
    if noun:
        return f"the {noun} is broken" if noun in broken else ""
    ctx = f"{before} {sent[:m.start()]}".lower()
    named = sorted((ctx.rfind(b), b) for b in broken if re.search(rf"\b{b}\b", ctx))
    return f"the {named[-1][1]} is broken" if named else ""


def works_said(sent: str) -> bool:
    """Whether ``sent`` says something works (what ``broken_said_to_work`` reads further)."""
    return _WORKS.search(sent) is not None and _WORKING.search(sent) is not None


# people a scene has that the town does not: its residents are all named ("I noticed that a couple is coming
# in", Rosa at the cafe, and Aiko's "they're looking for a special drink", on 4151289's day; "a group of people
# shouting outside", Grace's answer to the paper's question, the same day)
_CROWD = (r"couple|customers?|strangers?|wom[ae]n|m[ae]n|guys?|lady|ladies|kids?|child(?:ren)?|tourists?|famil(?:y|ies)"
          r"|people|visitors?|protesters?|teenagers?|folks|regulars|patrons|passers-by")
_SCENE = re.compile(r"\b(?:a|an|some|two|three|four|a few|a couple of|a group of|a bunch of|a lot of|lots of|"
                    rf"a crowd of)\s+(?:[a-z]+\s+)?(?:{_CROWD})\s+(?:is|are|was|were|just|came|comes|coming|walked|"
                    r"walks|walking|showed up|arrived|arriving|left|asked|asking|ordered|ordering|shouting|yelling|"
                    r"protesting|waiting|sitting|standing|gathered|gathering|outside|in front)\b", re.I)


def strangers_in_scene(sent: str) -> str:
    """Why ``sent`` tells of people come, seen or heard whom the town does not have, else "": a town's
    people are its named residents (and the player); "Felix needs customers" and "a few people asked"
    of no scene stand only when no such verb follows."""
    m = _SCENE.search(sent)
    return f"no one the town has: {m.group(0)}" if m else ""


# a home beyond the town nothing it holds has ("I am the mayor of Millbrook, a small town in my home state",
# Grace on 4151289's save); one who came from somewhere ("moving to Millbrook from Lyon") has one
_HOME_AWAY = re.compile(r"\b(?:my|our) home (?:state|country|county|province|region|island)\b|\b(?:my|our) "
                        r"(?:native|home) (?:land|soil)\b", re.I)


def home_unbacked(sent: str, backing: str) -> str:
    """Why ``sent`` gives the speaker a home beyond the town that ``backing`` does not, else ""."""
    m = _HOME_AWAY.search(sent)
    if m is None or re.search(r"\b(?:from|grew up in|born in) [A-Z]", backing) or m.group(0).split()[-1] in backing:
        return ""
    return f"nothing you hold tells of {m.group(0).lower()}"


_MADE = r"wrote|written|made|baked|painted|built|composed|knitted|cooked"


def made_for_me_said_as_mine(sent: str, me: str, backing: str) -> str:
    """Why ``sent`` says the speaker made what another made for it, else "": Grace of Samuel's song on
    4151289's save, "the song I wrote for him" (what she holds: "the song he wrote for Grace")."""
    m = re.search(rf"\bI(?:'ve| have)?\s+(?P<v>{_MADE})\s+for\s+(?:him|her|them|you|[A-Z][a-z]+)\b", sent)
    first = me.split()[0] if me else ""
    if m is None or not first:
        return ""
    made = m.group("v")
    theirs = re.search(rf"\b(?:he|she|they|[A-Z][a-z]+)\s+(?:has\s+)?{made}\s+for\s+{re.escape(first)}\b", backing)
    return f"another {made} it for {first}" if theirs and theirs.group(0).split()[0] != first else ""


def self_named(sent: str, speaker: str) -> str:
    """Why ``sent`` speaks of its own speaker by first name, in the third person, else "" ("Ines Moreau
    runs the cafe Grace visits every morning", Grace's relationship line said back by Grace on
    eaef4b9's day); "I'm Grace" and "Grace here" are the speaker's own."""
    first = re.escape(speaker.split()[0])
    m = re.search(rf"(?<!\bI'm )(?<!\bI’m )(?<!\bI am )(?<!\bis )(?<!\bname's )\b{first}\s+(?:is|was|has|will|"
                  rf"visits|goes|works|runs|likes|loves|knows|thinks|wants|said|says)\b"
                  # ... or beside "you" ("I'm visiting with you and Priya", Priya to Samuel on 2bbddfe's day)
                  rf"|\b(?:you|me) and {first}\b|\b{first} and (?:you|I|me)\b", sent)
    # ... or after a word that makes it another's ("she's cooking lunch for Rosa today", Rosa's)
    return "the speaker spoken of as another" if m or named_as_object(sent, speaker.split()[0]) else ""
