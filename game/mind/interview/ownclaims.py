"""What an interview answer claims of the resident itself (issue 39): the meals it shares and
with whom, its age, what it does at an hour of today, the office it or one it knows holds.  Each
is held to the records (the town's homes and roles, the persona, today's plan); backing.py and
answerdata.py ask these."""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.fact import TownNames
from game.mind.facts.hours import clock_times, merged, stems
from game.mind.facts.unbacked import SENTENCES, sentences
from game.mind.interview.asme import as_me
from game.mind.planning.daycheck import meals_eaten
from game.mind.view import PlanBlock, hhmm

_MEAL_WITH = re.compile(r"\b(?P<meal>breakfast|lunch|dinner|supper|coffee|tea|a meal|drinks?|a drink) with "
                        r"(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?(?:(?:,| and|, and) [A-Z][a-z]+(?: [A-Z][a-z]+)?)*)")
_MEALS = re.compile(r"\b(?:breakfast|lunch|dinner|supper|coffee|tea|meal|drinks?|eat|ate|eating)\b", re.I)


def meals_unbacked(answer: str, me: str, town: TownNames, backing: str) -> list[str]:
    """The people ``answer`` has the resident share a meal with ("dinner with Grace and Priya")
    who neither live with it nor share a meal with it in a line of what it holds."""
    home = town.homes.get(me)
    meal_lines = [ln for ln in backing.splitlines() if _MEALS.search(ln)]
    out = []
    for m in _MEAL_WITH.finditer(answer):
        for name in re.split(r",? and |, ", m.group("who")):
            full = next((p for p in town.people if name in (p, p.split()[0])), None)
            if full is None or full == me or (home and town.homes.get(full) == home):
                continue
            if not any(re.search(rf"\b{re.escape(full.split()[0])}\b", ln) for ln in meal_lines):
                out.append(f"{m.group('meal')} with {full}")
    return out


_SELF_SPOKEN = re.compile(r"\b(?:I am|I'm|I was|I have|I've|I will|I'll|me|my|myself)\b")


def of_self_as_another(answer: str, me: str) -> bool:
    """Whether ``answer`` speaks of its own speaker by name and never as itself ("I think Grace Okafor
    is a dedicated leader", by Grace)."""
    return bool(re.search(rf"\b{re.escape(me)}\b", answer)) and not _SELF_SPOKEN.search(answer)


def office_line(question: str, me: str, town: TownNames) -> str:
    """Who holds the office a question names ("the town's mayor"), said by ``me`` from the records
    ("I am the town's mayor.", "Grace Okafor, my wife, is the town's mayor."); "" when it asks of none
    or ``me`` knows nobody who holds it."""
    for who, roles in town.roles.items():
        for role in roles:
            if role.startswith("candidate for ") or not re.search(
                    rf"\bthe (?:town'?s? )?{re.escape(role)}\b", question, re.I):
                continue
            if who == me:
                return f"I am the town's {role}."
            rel = town.relations.get(me, {}).get(who, "")
            if rel:
                mine = re.sub(r"^(?:his|her|their)\b", "my", rel.split(";")[0].split(",")[0].strip(), flags=re.I)
                return f"{who}, {mine}, is the town's {role}."
    return ""


_MY_AGE = re.compile(r"\b(?:I(?:'m| am)(?: (?:a|an|now))? (?P<a>\d{1,3})(?:-| )years?(?:-| )old\b"
                     r"|I(?:'m| am) (?P<b>\d{1,3})\b"
                     r"(?! (?:minutes|hours|days|weeks|months|pm|am|o'clock|:))|\b(?:a|an) (?P<c>\d{1,3})-year-old\b)")


def age_unbacked(answer: str, age: int | None) -> list[str]:
    """The sentences of ``answer`` that give the resident an age not its own ("a 60-year-old mayor",
    said by Grace, 59, whose sixtieth birthday is tomorrow)."""
    if not age:
        return []
    out = []
    for sent in sentences(answer):
        for m in _MY_AGE.finditer(sent):
            said = int(m.group("a") or m.group("b") or m.group("c"))
            if said != age and (m.group("c") is None or re.match(r"^\W*I\b", sent)):
                out.append(sent)
                break
    return out


# one it would meet, as a stranger ("I look forward to meeting her and learning more about her", said
# by Rosa of the mayor she talked with that morning)
_TO_MEET = re.compile(r"\b(?:look(?:ing)? forward to|hope to|hoping to|(?:would|'d) (?:like|love) to|want to|"
                      r"can't wait to)\s+"
                      r"(?:finally\s+)?(?:meet(?:ing)?|get(?:ting)? to know)\s+(?P<who>him|her|them|[A-Z][a-z]+"
                      r"(?: [A-Z][a-z]+)?)\b")


def strangers_known(answer: str, known: Sequence[str], people: Sequence[str]) -> list[tuple[str, str]]:
    """The sentences of ``answer`` that would meet as a stranger one the resident knows (its
    relationships, those it talked with): each with whom, by name or the last person named before."""
    out: list[tuple[str, str]] = []
    last: str | None = None
    for sent in sentences(answer):
        for m in _TO_MEET.finditer(sent):
            said = m.group("who")
            who = last if said in ("him", "her", "them") else next(
                (p for p in people if said in (p, p.split()[0])), None)
            if who is not None and who in known:
                out.append((sent, who))
                break
        named = [(sent.find(p.split()[0]), p) for p in people if re.search(rf"\b{re.escape(p.split()[0])}\b", sent)]
        last = max(named)[1] if named else last
    return out


# a plan to meet someone ("I will also have a conversation with Hank", "I plan to catch up with Ines")
_TO_SEE = re.compile(r"\b(?:will|'ll|plan(?:ning)? to|going to|include)\b[^.!?]*?\b(?:catch(?:ing)? up|meet|"
                     r"talk|conversation|visit|dinner|lunch|breakfast|see|spend)", re.I)


def self_claims(answer: str, me: str, age: int | None, known: Sequence[str], people: Sequence[str],
                question: str = "", tomorrow: str = "") -> list[tuple[str, str]]:
    """What an answer says of the resident that its records deny, each with the hint for asking
    again: an age not its own, one it knows met as a stranger, and, asked of tomorrow, people to
    meet that nothing it holds of tomorrow names (``tomorrow``: what it holds, answerdata.tomorrow_line;
    Grace listed six talks for a day not planned yet)."""
    first = me.split()[0]
    out = [(sent, f"{first} is {age}.") for sent in age_unbacked(answer, age)]
    out += [(sent, f"{first} already knows {who}: say what {first} holds of them.")
            for sent, who in strangers_known(answer, known, people)]
    # another's name as its own (Grace on 0e6b5f2's save: "Hi Grace! I'm Felix Adeyemi, a baker who ...")
    out += [(sent, f"You are {me}: answer as {first}, of {first}'s own life.") for sent in sentences(answer)
            if any(re.search(rf"\bI(?:'m|’m| am)\s+{re.escape(p)}\b(?!['’])", sent) for p in people if p != me)]
    if tomorrow and re.search(r"\btomorrow\b", question, re.I):
        out += [(sent, f"Say only what {first} holds of tomorrow: {tomorrow}") for sent in sentences(answer)
                if _TO_SEE.search(sent) and any(re.search(rf"\b{re.escape(p.split()[0])}\b", sent)
                                                and p.split()[0] not in tomorrow for p in people if p != me)]
    return out


_AT_Q = re.compile(r"\bwhat (?:will|are) you (?:be )?(?:doing|do) at (?P<t>[^?]+?)"
                   r"(?P<day> today| tonight| this \w+)?\s*\?",
                   re.I)


_AT_HOUR = re.compile(r"\bat\s+\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?", re.I)


def at_time(question: str, blocks: Sequence[PlanBlock]) -> tuple[str, str] | None:
    """Asked what it will be doing at a time today ("What will you be doing at 10am today?"): (the
    answer from today's plan, in its voice, and that block's activity); None otherwise."""
    m = _AT_Q.search(question)
    times = clock_times(m.group("t")) if m else []
    if not times or re.search(r"\btomorrow\b", question, re.I):
        return None
    at = times[0]
    b = next((b for b in merged(blocks) if b.start <= at < b.end), None)  # a block cut in two is one
    if b is None:
        return None
    sector = b.place.split(":")[0]
    where = f" at {sector}" if sector and sector.lower() not in b.activity.lower() else ""
    return f"At {hhmm(at)} my plan is: {b.activity}{where} ({hhmm(b.start)} to {hhmm(b.end)}).", b.activity


def on_the_hour(text: str, at: tuple[str, str], lost: bool, fixes: list[str], me: str = "",
                places: Sequence[str] = ()) -> tuple[str, bool]:
    """An answer to what it does at an hour (``at``: from ``at_time``), and whether it is the
    record's: the plan's block when the words lost it, else the sentences on it (half the block's
    words), not what else it can think of (Rosa's 18:00 on 90db376 went on with her persona's brief
    and an invented lesson).  A sentence on it with an hour outside the block, or with the speaker's
    own name (Samuel's 10am on d2ec812: "... without Grace's surprise party is at 18:00, and Rosa is
    helping Samuel Okafor prepare it"), or with a place of the town (``places``) the record does not give it
    (Rosa's 6pm on 356ade6's save: "painting in the evening from 17:00 to 19:30 at Bluebell Cafe", her plan's
    "paint in the evening" with no place), is garbled: the record is said.  Mended: in ``fixes``."""
    keys = stems(at[1], set())
    keys = keys - {"home"} or keys  # the doing, not where ("reading at home" for "relaxing at home", Samuel's 6pm)
    on_it = [x for x in sentences(text) if len(keys & stems(x, set())) >= max(1, len(keys) // 2)]
    start, end = clock_times(at[0])[-2:]  # (the block's hours: "... (08:00 to 10:30).")
    meal = meals_eaten(at[1])  # a meal the block is not ("having breakfast at Bluebell Cafe" at 10:00, Samuel's
    garbled = [x for x in on_it if any(not start <= t <= end for t in clock_times(x)) or (me and me in x)
               or any(w not in meal for w in meals_eaten(x))  # "some time at Bluebell Cafe", 8f03815's day)
               # "at" its end: the next block's hour (Grace's 6pm on 4151289's day: "catching up with Samuel at 7 pm")
               or any(t == end for t in clock_times(" ".join(_AT_HOUR.findall(x))))
               or any(p.lower() in x.lower() and p.lower() not in at[0].lower() for p in places)]
    if lost or not on_it or garbled:
        fixes.append("told from the record: the plan at that hour")
        return at[0], True
    if len(on_it) < len(sentences(text)):
        fixes.append("kept to the plan at that hour")
        return " ".join(on_it), False
    return text, False


def addressed(text: str, people: Sequence[str], me: str) -> list[str]:
    """The sentences of an answer that speak to a neighbour by name, as in a talk ("I understand,
    Samuel.", "Hello Rosa, ..."; not "Grace, my wife, is ..."): Grace's answer on 90db376 said a
    line of her talk with Samuel back, "just like you did when I was your mayor" and all."""
    firsts = "|".join(re.escape(p.split()[0]) for p in {*people, me})  # (its own name too: "Hi Grace!", by Grace)
    if not firsts:
        return []
    rx = re.compile(rf"^\W*(?:hi|hello|hey|thanks|thank you|oh|well|yes|no|sure|okay|ok|dear),?\s+(?:{firsts})[,!]"
                    rf"|,\s+(?:{firsts})\s*[.!?]+\W*$", re.I)
    return [x for x in sentences(text) if (m := rx.search(x)) and not re.search(  # ("I live with my father, Hank.":
        r"\b(?:my|our|your|his|her|their)\s+(?:[\w-]+\s+){0,2}[\w-]+$", x[:m.start()])]  # no one spoken to)


def after_work_line(first: str, blocks: Sequence[PlanBlock], minute: int, *, mine: bool = False) -> str:
    """What the plan has after today's work ends ("" when it has no work today or it is over);
    ``mine``: in the resident's own voice ("After work today my plan is: ...")."""
    work = [b for b in blocks if b.kind == "work"]
    if not work:
        return ""
    end = max(b.end for b in work)
    later = [b for b in blocks if b.start >= end and b.kind != "work"]
    if not later:
        return ""
    said: list[str] = []
    last = ""
    for b in later:
        if b.activity != last:  # a block cut in two is one thing to do
            said.append(f"{b.activity} at {hhmm(b.start)}")
        last = b.activity
    if mine:
        return f"After work today (it ends at {hhmm(end)}) my plan is: {'; '.join(said[:5])}."
    return f"After work today (it ends at {hhmm(end)}) {first}'s plan is: {'; '.join(said[:5])}."


_SELF_DID = r"(?P<v>talked|spoke|met|caught up|went|played|worked|visited)\b"


_KIN = re.compile(r"\b(?:her|his) (?=(?:father|mother|dad|mum|mom|husband|wife|son|daughter|brother|sister|"
                  r"partner|parents|family|boss|grandson|granddaughter)\b)")


def _own_kin(text: str, own: str) -> str:
    """"my" for the "her"/"his" of the resident's own kin its persona's words give it ("I ... have not
    dared to tell her father", Rosa on 0e6b5f2's save, of her own father: her persona's "has not dared
    to tell her father"), in a sentence it says as "I"."""
    low = " ".join(own.lower().split())
    out = []
    for sent in SENTENCES.split(text):
        for m in reversed(list(_KIN.finditer(sent))) if re.match(r"^\W*I\b", sent) else ():
            said = " ".join(re.findall(r"[\w']+", sent[:m.end()].lower())[-3:] + [sent[m.end():].split()[0].lower()])
            if said.strip(".,!?") in low:
                sent = sent[:m.start()] + "my " + sent[m.end():]
        out.append(sent)
    return " ".join(out)


def own_voice(text: str, me: str, own: str = "") -> str:
    """Its own name said as another's by the resident: "my" for "Rosa's father", said by Rosa; "I"
    for an answer that begins with its own name doing something ("Samuel talked with Grace Okafor,
    who told him: ...", said by Samuel, the prompt's record said back); its own kin as its persona's
    words (``own``) give them, "her father" said as "my father" (``_own_kin``)."""
    if " " not in me:
        return text
    first, last = re.escape(me.split()[0]), re.escape(me.split()[-1])
    text = as_me(text, me)  # "the husband of Grace", "the cafe Grace visits", said by Grace
    text = _own_kin(re.sub(rf"\b{first}(?: {last})?['’]s\b", "my", text), own) if own else \
        re.sub(rf"\b{first}(?: {last})?['’]s\b", "my", text)
    m = re.match(rf"^(?P<pre>\W*){first}(?: {last})? {_SELF_DID}", text)
    if m is None:
        return text
    return re.sub(r"\btold (?:him|her)\b", "told me", f"{m.group('pre')}I {m.group('v')}{text[m.end():]}", count=1)


WHERE_DENIED = re.compile(r"\b(?:do(?:n't|n’t| not) know (?:where|the way)|not sure (?:where|of the way)|no idea where|"
                          r"never heard of)\b", re.I)  # ("I don't know the way to the Town Hall": the mayor)
_WAY_Q = re.compile(r"\b(?:the way to|where is|where's|how (?:do|can|would) (?:I|we|you|one) get to)\b", re.I)
_DIRECTIONS = re.compile(r"\b(?:next to|near|north|south|east|west|street|road|left|right|past|across|behind|"
                         r"opposite|beside|corner|straight)\b", re.I)

# what a way said from the map cannot hold (Rosa on d2ec812: "I'll take the right turn and go straight to
# Town Hall. It's just a few blocks away from Bluebell Cafe."): the map gives neighbours and a side of town
_UNMAPPED = re.compile(r"\b(?:turn\w*|left|right|straight|blocks?|miles?|minutes?|corner|intersection|"
                       r"traffic lights?|roundabout|crossroads)\b", re.I)
_COMPASS = re.compile(r"\b(?:north|south|east|west)\b", re.I)


def way_answer(answer: str, question: str, town: TownNames) -> str | None:
    """Where the place the question asks the way to is, from the map, for an answer that still
    says it does not know, or that asked the way says nothing of where it is; else None."""
    asked = [p for p in town.places if p in town.near and re.search(rf"\b{re.escape(p)}\b", question, re.I)]
    if not asked:
        return None
    lost = _WAY_Q.search(question) and not _DIRECTIONS.search(answer) and not any(
        p.lower() in answer.lower() for p in town.places if p != asked[0])
    near = town.near[asked[0]].lower()  # turns and distances the map does not give, or a side it does not say
    made_up = _WAY_Q.search(question) and (_UNMAPPED.search(answer) or any(
        w.lower() not in near for w in _COMPASS.findall(answer)))
    if not WHERE_DENIED.search(answer) and not lost and not made_up:
        return None
    return f"{asked[0]} is {town.near[asked[0]]}."


def a_place(tag: str, places: set[str]) -> bool:
    """A place of the town, or a room of one ("the living room of the Okafor house")."""
    return tag in places or any(re.search(rf"\b(?:of|in) (?:the )?{re.escape(p)}$", tag) for p in places)


_GOES_ON = re.compile(r"^\W*(?:However|But|Still|Also|Moreover|Besides|Additionally|Furthermore|In addition|That said|"
                      r"On the other hand),\s+")
_HOSTS_IT = re.compile(r"^\W*(?:The [a-z]+, )?[A-Z][a-z]+(?: [A-Z][a-z]+)?,? is hosting "
                       r"(?:it|the event|the gathering)\b[^.!?]*\.$")
_PLACE_TAG = re.compile(r"\s*\((?P<p>[^()]{2,80})\)")
_AS_ME = re.compile(r"^As (?:[A-Z][a-z]+)(?: [A-Z][a-z]+)?,\s*")
_HINT_ECHO = re.compile(r"\s*Plans for other days are not for today\.?", re.I)


_NAME = r"[A-Z][a-z]+(?: [A-Z][a-z]+)?"
_NEXT = rf"(?=\s+(?:{_NAME} (?:told|said to|asked) me\b|I talk(?:ed)? with\b)|\s*$)"
_OWN_PART = re.compile(rf"\bI talk(?:ed)? with (?P<who>[^;.!?]{{1,120}}); I said:\s*(?P<said>.+?){_NEXT}", re.S)
_HEARD = re.compile(rf"\b(?P<who>{_NAME}) (?P<v>told me|said to me|asked me):\s*(?P<said>[^\"“\s].*?){_NEXT}", re.S)


def memory_form(text: str) -> str:
    """A memory said back in the form it is stored ("I talked with Ines Moreau; I said: Hi Ines! I'm
    going to meet Grace ... Ines Moreau told me: Oh, yes!", Kenji's answer on 19282ee), with the words
    said in a talk as quotes, so that a reader takes them as what was said then, not as the answer."""
    text = _OWN_PART.sub(lambda m: f"I talked with {m['who']} and said: “{m['said'].strip()}”", text)
    return _HEARD.sub(lambda m: f"{m['who']} {m['v']}: “{m['said'].strip()}”", text)


AGAIN = 0.7  # the share of its words a sentence shares with one before it to be that one again


def tidy(answer: str, places: Sequence[str], again: float = 1.0) -> str:
    """The answer as a reader should get it: no prompt's words said back, no "(Town Hall)" tag
    after an action, no sentence said twice, no last sentence cut off by the length limit."""
    text = _HINT_ECHO.sub("", answer)
    if again < 1.0:  # the final tidy, once the checks have read the answer as the model wrote it
        text = memory_form(text)
    text = _AS_ME.sub("", text)  # "As Rosa, I think ..." -> "I think ..."
    text = re.sub(r",?\s+naming (?:him|her|them)\b", "", text)  # the prompt's rule said back
    # an answer that begins as going on from a sentence not said ("However, I am also aware of ...", Grace of the mayor)
    text = _GOES_ON.sub("", text.strip())
    text = text[:1].upper() + text[1:]
    text = re.sub(r"\b(1[3-9]|2[0-3]):([0-5]\d)\s*(?:PM|pm|p\.m\.)", r"\1:\2", text)  # "13:30 PM"
    low = {p.lower() for p in places}
    text = _PLACE_TAG.sub(lambda m: "" if a_place(m.group("p").strip().lower(), low) else m.group(0), text)
    out: list[str] = []
    seen: list[set[str]] = []
    parts = sentences(text)
    if len(parts) > 1 and _HOSTS_IT.match(parts[0]):  # "Grace Okafor is hosting it." first: "it" is nothing
        parts = parts[1:]  # the answer names ("The mayor, Grace Okafor, is hosting the event.", Rosa of the party)
    for s in parts:  # a sentence said again, or again with a word or two changed, goes
        key = set(re.findall(r"[a-z']{3,}", s.lower())) or {s}
        if any(len(key & k) >= again * len(key | k) for k in seen):
            continue
        seen.append(key)
        out.append(s)
    if len(out) > 1 and not re.search(r"[.!?\"')”’]$", out[-1]):
        out.pop()  # cut off mid-sentence
    return " ".join(out).strip() or answer.strip()


JOB_Q = re.compile(r"\bwhat(?: is|'s) your (?:job|work|occupation)\b|\bwhat do you do for (?:a living|work)\b", re.I)


def job_line(me: str, town: TownNames, shifts: Sequence[str]) -> str:
    """What the resident does, from the records: its offices, its shifts' words ("work behind the
    counter at Bluebell Cafe"), the roles it held once; "" when they hold nothing."""
    said = [f"I am the town's {r}." for r in town.roles.get(me, ()) if not r.startswith("candidate")]
    said += [f"I {w[0].lower()}{w[1:]}." for w in dict.fromkeys(shifts) if w]
    said += [f"I was the {r}{f' at {at}' if at else ''}." for r, at in town.former_roles.get(me, ())]
    return " ".join(said)


# pastimes a small model gives a resident whose records hold none ("taking photos, which I do on
# weekends", Rosa on 136a191): each with the stem its records would hold it by
_PASTIMES = {"photo": r"photo\w*|taking pictures|camera", "garden": r"garden\w*", "fish": r"fishing",
             "hik": r"hik(?:e|es|ing)", "knit": r"knit\w*", "sew": r"sewing", "yoga": r"yoga", "golf": r"golf\w*",
             "tennis": r"tennis", "chess": r"chess", "jog": r"jog(?:s|ging)?", "swim": r"swim\w*",
             "cycl": r"cycling|bik(?:e|es|ing)", "camp": r"camping", "bird": r"bird ?watching",
             "potter": r"pottery", "crossword": r"crosswords?", "puzzle": r"puzzles?", "danc": r"danc(?:e|es|ing)",
             "sing": r"singing|choir", "guitar": r"guitar", "violin": r"violin", "poe": r"poems?|poetry",
             "wood": r"woodworking|carving", "paint": r"paint(?:s|ing)?", "ski": r"skiing", "bowl": r"bowling",
             "hunt": r"hunting", "film": r"movies|films?", "video game": r"video games?",
             "histor": r"(?:the town'?s|local|Millbrook'?s) history",  # ("exploring the town's history", Samuel)
             "cook": r"cooking", "read(?!y)": r"read(?:ing)? (?:books|novels)"}  # (c59f68b's save; "ready" no reading)
_PASTIME = re.compile(r"\b(?:" + "|".join(f"(?P<p{i}>{rx})" for i, rx in enumerate(_PASTIMES.values())) + r")\b",
                      re.I)


def pastime_unbacked(sent: str, backing: str) -> str:
    """A pastime ``sent`` tells of that nothing ``backing`` (what the speaker holds) speaks of, else
    "": the stem of each is looked for ("photo" holds "taking photos" and "photography")."""
    low = backing.lower()
    for m in _PASTIME.finditer(sent):
        stem = list(_PASTIMES)[int(str(m.lastgroup)[1:])]
        if not re.search(rf"\b{stem}", low):
            return f"nothing you hold tells of {m.group(0).lower()}"
    # a place of the town gone to for pleasure that nothing it holds has it go to (Grace's free time on 4151289's
    # day: "I enjoy going to the library. I enjoy going to the college. I enjoy going to the pharmacy. ...")
    for m in _GOING.finditer(sent):
        words = [w for w in re.findall(r"[a-z]+", m.group("p").lower()) if w not in ("the", "of", "and")]
        if words and not any(re.search(rf"\b{re.escape(w)}", low) for w in words):
            return f"nothing you hold has you go to {m.group('p')}"
    return ""


_GOING = re.compile(r"\bI (?:really |also )?(?:enjoy|like|love) (?:going|heading|walking) (?:to|down to) "
                    r"(?P<p>(?:the )?[\w'’ ]+?)(?=\s*(?:[.,!;]|\band\b|$))")

