"""Answers to what a resident would do if something happened, kept hypothetical (issue 39): nothing
that would feed a fire it is asked about, and no one it knows said to be sick when asked what it would
do if someone were.  backing.problems_in asks ``as_if_so`` of every sentence of an answer."""

from __future__ import annotations

import re
from collections.abc import Sequence

# asked of something burning, what would feed it ("I would turn it back on", Samuel; "put the coffee pot
# on the stove and turn it on", Rosa; both on b5e348b)
_ABLAZE = re.compile(r"\b(?:burning|on fire|ablaze|in flames|smok(?:e|ing))\b", re.I)
_FEEDS = re.compile(r"\b(?:turn|switch|put|set|light|crank)\w*\s+(?:it|the (?:stove|oven|burner|heat|gas|hob|fire))"
                    r"\s+(?:back\s+)?(?:on|up)\b|\b(?:turn|switch)\w*\s+on\s+the\s+(?:stove|oven|burner|heat|gas|hob)\b"
                    r"|\bput\w*\s+(?:a|the|some|my)\s+(?:[\w-]+\s+){0,3}?on\s+the\s+(?:stove|burner|hob|fire)\b"
                    r"|\b(?:turn|crank)\w*\s+up\s+the\s+(?:heat|stove|gas|burner|fire|flame)\b", re.I)  # (Samuel)


_COOKING = re.compile(r"\b(?:breakfast|lunch|dinner|food|toast|pan|pot|stove|oven|kitchen|cooking)\b", re.I)


def first_step(question: str) -> str:
    """What a question of something burning in the kitchen is answered with first, said to the model
    beside the question (Grace on d2ec812 would add ice cubes to the milk; Rosa would make fresh
    coffee "to help it cool down"), else ""."""
    return "Food burning on the stove: the heat goes off and the pan comes off the stove first." if (
        _ABLAZE.search(question) and _COOKING.search(question)) else ""


def feeds_the_fire(sent: str, question: str) -> str:
    """Why ``sent``, said of something burning (``question``), would feed the fire, else ""."""
    return "that would feed the fire, not put it out" if (
        _ABLAZE.search(question) and _FEEDS.search(sent)) else ""


# asked what it would do if someone close were sick, one of its people said to be so ("my husband is
# the one most affected by the illness", Grace; "inform Rosa's other friends about her condition", Samuel;
# both on b5e348b): nobody in the town is sick
_SICK_Q = re.compile(r"\b(?:sick|ill|unwell)\b", re.I)
_SICK = re.compile(r"\b(?:illness|sick|ill|unwell|condition|fever|disease|flu)\b", re.I)
_KIN = re.compile(r"\bmy (?:husband|wife|daughter|son|father|dad|mother|mum|mom|partner|brother|sister|friend)\b"
                  r"|\b(?:he|she|his|her|him)\b", re.I)
# asked of someone close being sick, itself said to be so ("let them know that I'm sick", Rosa on b765e22's save)
_SELF_SICK = re.compile(r"\bI(?:'m| am| was| feel| got)\s+(?:\w+\s+)?(?:sick|ill|unwell)\b", re.I)
_AS_IF = re.compile(r"\b(?:if|were|whoever|someone|somebody|anyone|the person|they)\b", re.I)
_IF = re.compile(r"\b(?:if|were|whoever|whether)\b", re.I)  # (a named scene said as may be: "to see if it is Hank")


# asked what it would do on hearing something, a scene made up with one it knows in it ("It's from Felix
# Adeyemi, the new baker. He's outside trying to sell his new cakes", Rosa; "I see Grace Okafor running
# towards the window", Samuel; both on 82f1ab1's save)
_HEARD_Q = re.compile(r"\byou hear\s+(?:a\s+|some\s+|loud\s+)?(?:shout|scream|nois|yell|knock|crash|bang|voices|"
                      r"someone|something)", re.I)  # (a sound; not "did you hear of the party?")
# ("I rush to the window and see Grace and Hank Brody arguing in the street", Samuel on 1703955's save)
_SCENE = r"(?:it(?:'s| is| was)(?: from)?|\b(?:see|saw|notice|noticed|spot|spotted|find|found)|there(?:'s| is| was))" \
         r"\s+" \
         r"(?:\w+\s+){{0,2}}?{n}\b|\b{n}(?:\s+\w+)?(?:'s| is| was)\s+(?:\w+ing|outside|there|at the)\b"


# ... or with people no one names ("I see a group of people running towards the town hall", Grace on ca91aae's save)
# ("I rush to the window, open it, and see that it's a group of people in the park. I then go to the park and help
# the people who are injured", Grace on 654b82e's save)
_CROWD_SEEN = re.compile(r"\b(?:see|saw|notice|noticed|spot|spotted|find|found)\s+(?:that\s+)?(?:it(?:'s| is| was)\s+|"
                         r"there(?:'s| is| are| were)\s+)?(?:a (?:group|crowd|couple|bunch|"
                         r"man|woman|person|boy|girl|child|kid)|some (?:people|kids|children|men|women|teenagers)|"
                         r"people|someone|somebody|two|three|several|kids|children)\b"
                         r"|\b(?:people|person|man|woman|they|who) (?:are|is|were|was) "
                         r"(?:injured|hurt|bleeding|fighting)\b"
                         r"|\bthe (?:injured|wounded)\b", re.I)


def as_if_so(sent: str, question: str, people: Sequence[str] = ()) -> str:
    """Why ``sent``, said of what would happen (``question``), tells it as so: what would feed a fire
    (``feeds_the_fire``), one it knows said to be sick, or a scene made up with one it knows in it; else ""."""
    if _SICK_Q.search(question) and _SICK.search(sent) and not _AS_IF.search(sent) and (_KIN.search(sent) or any(
            re.search(rf"\b{re.escape(p.split()[0])}\b", sent) for p in people)):
        return "nobody you know is sick: say what you would do if someone were, naming no one"
    if _SICK_Q.search(question) and _SELF_SICK.search(sent) and not re.search(r"\bif I\b", sent, re.I):
        return "you are not sick: say what you would do for the one who is"
    if _HEARD_Q.search(question) and not _AS_IF.search(sent) and _CROWD_SEEN.search(sent) or \
            _HEARD_Q.search(question) and not _IF.search(sent) and any(  # ("see Hank Brody arguing with someone")
                re.search(_SCENE.format(n=re.escape(p.split()[0])), sent, re.I) for p in people):
        return "nothing has happened: say what you would do, naming no one"
    if _AT_HOME_Q.search(question) and _STAFF.search(sent):
        return "no one works in your home: say what you would do yourself"
    return feeds_the_fire(sent, question)


# asked of a mishap at home, staff made up ("report the issue to the kitchen staff", Samuel on 654b82e's save)
_AT_HOME_Q = re.compile(r"\byour (?:breakfast|dinner|lunch|kitchen|home|house|window|stove)\b", re.I)
_STAFF = re.compile(r"\b(?:kitchen |the |our |my )?staff\b"
                    r"|\bthe (?:chef|cook|waiter|waitress|butler|maid|housekeeper)\b", re.I)


def held_as_if(sent: str, roles: Sequence[str]) -> str:
    """Why ``sent`` speaks of an office its speaker holds (``roles``: the town's roles of it) as if it
    did not ("If I were running for mayor", Grace, a candidate, on b765e22's save), else ""."""
    for role in roles:
        office = role.removeprefix("candidate for ")
        said = (rf"(?:running|to run|a candidate) for (?:the )?(?:town'?s? )?{re.escape(office)}" if role != office
                else rf"(?:the|a) (?:town'?s? )?{re.escape(office)}")
        if re.search(rf"\bif I (?:were|was|became|become)\s+{said}\b", sent, re.I):
            return f"you are {'running for ' + office if role != office else 'the ' + office}: say what you will do"
    return ""
