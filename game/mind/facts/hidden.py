"""Roles the town keeps secret and roles held once, checked in what a resident says (issue 39).

The residents file declares them as data (game/world/knowledge.py ``RoleSpec``: ``secret`` with
``known_by``, or ``former``).  A small model had Kenji, who secretly writes the town's anonymous
column, tell Eli that Samuel writes it, and had the mayor say she teaches civics, which she did
before she was elected.  Four rules read one sentence:

- a secret role given to someone who does not hold it ("Samuel wrote the Owl column"), unless
  said as a guess ("I think", "maybe", a question): an invented claim;
- a secret role given to its holder by one who does not know it, or said to a listener it is kept
  from (by its holder or one who knows): a secret told;
- a former role said as now, of its holder ("I teach civics", "Grace teaches at the college");
- a secret said to come from the one it is kept from ("Grace has already told me about it").

Pure rules: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.relwords import full_name
from game.mind.facts.unbacked import sentences

_GUESS = re.compile(r"\?|\b(?:think|thought|suspect|suspects|suspected|guess|maybe|perhaps|might|may|could|wonder|"
                    r"whether|if|rumou?rs?|possibly|probably|who)\b", re.I)
# how a sentence makes someone the author or writer of what it names, the name (``mark``) close after
# ("wrote about the Owl", "writes for the paper" make no one its author)
_NOT_OF = r"(?!\s+(?:about|to|for|on|in|with|into|up)\b)"
_DOES = (r"(?:secretly\s+|still\s+|also\s+)?(?:(?:writes|wrote|is\s+writing|has\s+been\s+writing|pens|penned|"
         r"authors|authored)" + _NOT_OF + r"|is\s+behind|was\s+behind|is\s+(?:the\s+|its\s+)?(?:anonymous\s+|"
         r"secret\s+)?(?:author|writer|voice|person\s+behind|one\s+behind))")
_I_DO = (r"\bI(?:'m|\s+am)?\s+(?:secretly\s+|still\s+|also\s+)?(?:(?:write|wrote|writing|pen)" + _NOT_OF
         + r"|behind|(?:the\s+)?(?:anonymous\s+)?(?:author|writer))\b")
_YOU_DO = (r"\byou(?:'re|\s+are)?\s+(?:secretly\s+|still\s+)?(?:(?:write|wrote|writing|pen)" + _NOT_OF
           + r"|behind|(?:the\s+)?(?:anonymous\s+)?(?:author|writer))\b")
_NAMED = r"(?P<name>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)"
_GAP = r"[^.!?;]{0,40}?"


def marks(role: str) -> list[tuple[str, str]]:
    """The word that says which role a sentence speaks of, with the noun the role puts after it:
    a quoted title's last word ("Owl", "column" of "the anonymous 'Millbrook Owl' column"), else
    the role's last capitalised word."""
    quoted = re.search(r"['‘\"“]([^'’\"”]+)['’\"”]\s*(\w*)", role)
    if quoted:
        return [(quoted.group(1).split()[-1], quoted.group(2))]
    return [(w, "") for w in re.findall(r"\b[A-Z][a-z]+\b", role)][-1:]


def holders_said(sent: str, mark: str, speaker: str, listeners: Sequence[str], people: Sequence[str],
                 noun: str = "") -> list[str]:
    """Whom ``sent`` makes the author or writer of what ``mark`` names: "Samuel writes the Owl",
    "the Owl is written by Kenji", "the author of the Owl is Kenji", "I write the Owl", "my Owl
    column" (``noun`` after the name, where the role has one: not "my Owl research"), "you wrote
    the Owl" (to one listener)."""
    m_ = rf"['‘\"“]?(?:\w+\s+)?{re.escape(mark)}\b"
    out: list[str | None] = []
    for rx in (rf"\b{_NAMED}\s+{_DOES}{_GAP}{m_}",
               rf"{m_}{_GAP}\b(?:is|was)\s+(?:written|penned|authored)\s+by\s+{_NAMED}",
               rf"\b(?:author|writer)\s+of{_GAP}{m_}{_GAP}\b(?:is|was)\s+{_NAMED}"):
        out += [full_name(m.group("name"), people) for m in re.finditer(rx, sent)]
    own = r"\s+(?:own\s+|latest\s+|new\s+|weekly\s+)?"
    then = rf"['’\"”]?\s+{re.escape(noun)}" if noun else ""
    if re.search(rf"{_I_DO}{_GAP}{m_}|\bmy{own}{m_}{then}", sent):
        out.append(speaker)
    if len(listeners) == 1 and re.search(rf"{_YOU_DO}{_GAP}{m_}|\byour{own}{m_}{then}", sent, re.I):
        out.append(listeners[0])
    return [p for p in dict.fromkeys(out) if p]


# its holder at a secret role's work without its name (Kenji to Felix on 0e6b5f2's day: "I'm working on the
# column right now"; to Nora on b765e22's: "I'm actually working on the Millbrook Owl column right now")
_MY_WORK = (r"\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)?\s+(?:(?:just|still|busy|actually|currently|also|really)\s+)?"
            r"(?:working\s+on|writing|"
            r"finishing|drafting|editing)\s+(?:the|my|this\s+week's|a|another|next\s+week's)\s+(?:[\w'-]+\s+){{0,2}}?"
            r"{n}\b|\b[Mm]y\s+(?:[\w'-]+\s+){{0,2}}?{n}\b")


def secret_role_problem(sent: str, speaker: str, listeners: Sequence[str], town: TownNames) -> str:
    """Why ``sent`` breaks a secret role (given to another, known when it is not, told to one it is
    kept from), else ""."""
    people = [*town.people, *listeners]
    for who, role, knowers in town.secret_roles:
        said_of = [p for m, noun in marks(role) if re.search(rf"\b{re.escape(m)}\b", sent)
                   for p in holders_said(sent, m, speaker, listeners, people, noun)]
        kept = [p for p in listeners if p not in knowers]
        if speaker == who and kept and any(noun and re.search(_MY_WORK.format(n=re.escape(noun)), sent)
                                           for _, noun in marks(role)):
            return f"the {role} is kept secret from {kept[0]}"  # ("I'm working on the column", Kenji to Felix)
        for said in said_of:
            if said != who:
                if not _GUESS.search(sent):
                    return f"{said} is not the {role}"
                continue
            if speaker not in knowers:
                return f"{speaker} does not know who is the {role}"
            kept = [p for p in listeners if p not in knowers]
            if kept:
                return f"the {role} is kept secret from {kept[0]}"
    return ""


_WAS = re.compile(r"\b(?:used to|former|formerly|retired|was|were|once|before|ago|taught|until|back when|"
                  r"miss(?:es|ed)?|old|no longer|not anymore|anymore|years as)\b", re.I)
# the verb a role's last word is done by ("teacher": teach)
_VERBS = {"teacher": "teach", "professor": "teach", "lecturer": "lectur", "nurse": "nurs", "doctor": "practis",
          "baker": "bak"}


def former_role_problem(sent: str, speaker: str, town: TownNames) -> str:
    """Why ``sent`` says a role its holder held once as held now ("I teach civics", "I'm a teacher",
    "I work at Oakhill College", "Grace teaches civics"), else ""."""
    past = _WAS.search(sent) is not None
    for who, held in town.former_roles.items():
        first = who.split()[0]
        # (of one's own: "I", or "who" after one's name: "a gentle man who has been teaching music")
        # (and "my job is to teach ...", and "I have a passion for music and have been teaching at Oakhill College",
        # Samuel on 4151289's save: "and" of an "I" before it)
        also = r"|\band" if re.match(r"\W*I\b", sent) else ""
        subj = (rf"(?:{re.escape(who)}|{re.escape(first)})" if who != speaker
                else rf"(?:I|who|[Mm]y (?:job|work|role) is(?: to)?{also})")
        now = r"(?:'m|'s|\s+is|\s+am|'ve been|\s+(?:have|has) been)"
        for role, at in held:
            words = role.lower().split()
            head = words[-1]
            verb = _VERBS.get(head, "")
            pats = [rf"\b{subj}{now}\s+(?:still\s+)?(?:a|an|the|our|the town's)\s+(?:[\w-]+\s+){{0,2}}?"
                    rf"{re.escape(head)}\b",  # and its name, then the role: "I am Samuel Okafor, a music teacher"
                    rf"\b(?:{re.escape(who)}|{re.escape(first)}),\s+(?:a|an|the|our)\s+(?:[\w-]+\s+){{0,2}}?"
                    rf"{re.escape(head)}\b"]
            if verb:  # a role of a subject ("music teacher") is done of it: "I teach piano to children" stands
                of = rf"(?:{re.escape(words[0])}|at\s+(?:the\s+)?{re.escape(at or words[0])})"
                what = rf"\s+(?:\w+\s+){{0,3}}?{of}\b" if len(words) > 1 else r"\b"
                pats.append(rf"\b{subj}{now}?\s+(?:still\s+|also\s+|here\s+to\s+)?{verb}(?:e|es|ing|s)?{what}")
            if at:
                pats.append(rf"\b{subj}{now}?\s+(?:still\s+|also\s+)?(?:work|works|working|"
                            rf"{verb or 'work'}\w*)\s+(?:\w+\s+){{0,3}}?at\s+(?:the\s+)?{re.escape(at)}\b")
            if at and who == speaker:  # "my professional commitments at Oakhill College"
                pats.append(rf"\b[Mm]y\s+(?:[\w-]+\s+){{0,2}}?(?:work|job|commitments|duties|classes|students|post|"
                            rf"position|career|teaching|lessons)(?:\s+\w+)?\s+(?:at|with)\s+(?:the\s+)?{re.escape(at)}\b")
            if at and town.workplaces.get(who, "") == at:
                pats = pats[:2]  # still works there, in another role: only "I am a teacher" is wrong
            if not town.workplaces.get(who):  # one with no work now works no more ("Samuel is the main
                # breadwinner ... working hard", Grace of her retired husband on 8f03815's save)
                pats.append(rf"\b{subj}{now}\s+(?:still\s+)?(?:the\s+|our\s+)?(?:main\s+|sole\s+)?breadwinner"
                            rf"|\b{subj}{now}?\s+(?:still\s+)?(?:work|works|working)\s+(?:long hours|"
                            r"full[- ]time|every day|nine to five)\b")
            for m in filter(None, (re.search(p, sent) for p in pats)):
                # a word of the past anywhere says it was, but for a "who" of the present ("a retired
                # musician who teaches music at Oakhill College", Samuel's answer on 8f03815's day)
                if not (_WAS.search(sent, m.start()) if m.group(0).startswith("who") else past):
                    return f"{who} is no longer a {role}" + (f" at {at}" if at else "")
    return ""


def own_office_problem(sent: str, speaker: str, town: TownNames) -> str:
    """Why ``sent`` speaks of an office its speaker holds as another's ("the park has been neglected
    by the current mayor", said by the mayor; Grace's answer on b5e348b), else ""."""
    for role in town.roles.get(speaker, ()):
        if role.startswith("candidate"):
            continue
        r = re.escape(role)
        other = re.search(rf"\b(?:the|our|this town's|the town's|a)\s+(?:current\s+|present\s+|sitting\s+|new\s+)?"
                          rf"{r}\b(?!'s (?:office|race|election)|\s+(?:election|race|debate|office))", sent, re.I)
        mine = re.search(rf"\b(?:I(?:'m|\s+am|\s+was|'ve been|\s+have been)|[Aa]s|me,?|myself,?)\s+(?:still\s+)?"
                         rf"(?:(?:the|your|our|a|this|Millbrook's)\s+)?(?:town'?s?\s+)?{r}\b|\bmy\b", sent)
        named = re.search(rf"\b{re.escape(speaker.split()[0])}\b|\bwho\s+(?:has been|is|was)\b", sent)  # itself
        if other and not mine and not named and not re.search(
                r"\b(?:any|every|a good|the next|another|being|be|become|became)\s+(?:(?:the|a)\s+)?" + r, sent, re.I):
            return f"{speaker} is the {role}: the {role} is you"
    return ""


# another term, which only the one who holds the office runs for ("I catch up with Hank Brody, who is
# running for a third term as mayor against me", Grace's answer on c59f68b's save)
_TERM = re.compile(r"(?P<name>\bI|[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)(?:'m|’m|,)?\s+(?:who\s+)?(?:is\s+|am\s+|'s\s+)?"
                   r"(?:also\s+|now\s+)?(?:running|standing|campaigning)\s+for\s+(?:a\s+)?(?:second|third|fourth|fifth|"
                   r"another)\s+term\b")


def term_not_theirs(sent: str, speaker: str, town: TownNames) -> str:
    """Why ``sent`` has a candidate run for another term of an office it does not hold, else ""."""
    for m in _TERM.finditer(sent):
        who = speaker if m.group("name") == "I" else full_name(m.group("name"), town.people)
        roles = town.roles.get(who or "", ())
        for office in (r[len("candidate for "):] for r in roles if r.startswith("candidate for ")):
            if office not in roles:
                return f"{who} does not hold the office of {office}: no other term to run for"
    return ""


def hidden_role_problem(sent: str, speaker: str, listeners: Sequence[str], town: TownNames) -> str:
    """The first of ``secret_role_problem``, ``former_role_problem``, ``own_office_problem`` and
    ``term_not_theirs`` for ``sent``, else ""."""
    return (secret_role_problem(sent, speaker, listeners, town) or former_role_problem(sent, speaker, town)
            or own_office_problem(sent, speaker, town) or term_not_theirs(sent, speaker, town))


_TOLD_BY = re.compile(rf"\b{_NAMED}\s+(?:has\s+|had\s+)?(?:already\s+|just\s+|also\s+)?(?:told|informed|mentioned|"
                      r"said|asked|invited)\b")


def told_by_the_kept(text: str, facts: Iterable[Fact], people: Sequence[str], fixes: list[str]) -> str:
    """``text`` without its sentences that have a secret come from the one it is kept from ("Grace
    has already told me about it", of her own surprise party, by Nora to its host)."""
    facts = [f for f in facts if f.secret_from]
    if not facts:
        return text
    parts = sentences(text) or [text]
    kept = []
    for sent in parts:
        who = [p for m in _TOLD_BY.finditer(sent) if (p := full_name(m.group("name"), people))]
        bad = [p for p in who for f in facts if p in f.secret_from
               and (f.speaks_of(sent) or re.search(r"\b(?:about it|of it|it to me)\b", sent))]
        if bad:
            fixes.append(f"secret said to come from {bad[0]}, from whom it is kept")
        else:
            kept.append(sent)
    return " ".join(kept) if len(kept) < len(parts) else text
