"""``town audit``: each line said in a save with the claims it makes and a verdict for each, what the
checks did while the town ran, and the totals (issue 39)."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime

from game.measure.audit import audit, render
from game.measure.records import SaveData
from game.mind.facts.fact import TownNames, declared
from game.mind.memory.records import MemoryRow

T = datetime(2026, 3, 2, 9)
PEOPLE = ("Grace Okafor", "Samuel Okafor", "Rosa Brody", "Hank Brody")
TOWN = TownNames(places=("Bluebell Cafe", "Town Hall", "Willow Park"), people=PEOPLE)


def _save(conversations, memories=()):
    party = declared("a surprise party for Grace's 60th birthday", "Samuel Okafor", "Bluebell Cafe", T.date(),
                     18 * 60, 21 * 60, holder="Samuel Okafor", now=T, honoree="Grace Okafor",
                     secret_from=("Grace Okafor",))
    meta = {"clock": {"start": "2026-03-02T06:00:00", "seconds_per_step": 10, "step": 1080},
            "clock_text": "Day 1, 09:00"}
    rel = {"Samuel Okafor": {"Grace Okafor": "his wife"}, "Grace Okafor": {"Hank Brody": "a rival"},
           "Rosa Brody": {"Hank Brody": "her father"}}
    return SaveData(path="s.save", meta=meta, residents=list(PEOPLE), memories=list(memories),
                    conversations=conversations, relationships=rel,
                    facts={"Samuel Okafor": [party.to_dict()]})


def test_the_audit_gives_each_claim_a_verdict_and_counts_what_the_checks_did():
    talks = [
        {"participants": ["Samuel Okafor", "Grace Okafor"],
         "lines": [["Samuel Okafor", "The party at Bluebell Cafe is on Tuesday."],  # a secret, told
                   ["Grace Okafor", "I saw Hank Brody at the bank this morning."]],  # no bank in town
         "checks": {"1": ["dropped 1 unbacked sentence(s)", "was: I saw Hank at the bank. Lovely day."]},
         "withheld": [["Samuel Okafor", "We're planning your surprise party!", "kept secret from Grace Okafor"]]},
        {"participants": ["Rosa Brody", "Hank Brody"],
         "lines": [["Rosa Brody", "Wolfgang Schulz is hosting a picnic in Willow Park."],  # no such person or fact
                   ["Hank Brody", "I saw Hank Brody at the bank this morning."]]},  # copied from another talk
    ]
    a = audit(_save(talks), TOWN)
    by = {(s.talk, s.text[:20]): {(c.kind, c.verdict) for c in s.claims} for s in a.lines}
    assert ("secret", "secret told") in by[(0, "The party at Bluebel")]
    assert ("person", "backed: known") in by[(0, "I saw Hank Brody at ")]
    assert any(v.startswith("corrected: dropped") for _, v in by[(0, "I saw Hank Brody at ")])
    assert ("check", "not said: kept secret from Grace Okafor") in by[(0, "We're planning your ")]
    assert ("person", "invented person") in by[(1, "Wolfgang Schulz is h")]
    assert ("event", "unbacked event") in by[(1, "Wolfgang Schulz is h")]
    assert ("copy", "copied") in by[(1, "I saw Hank Brody at ")]
    t = a.totals()
    assert t["lines"] == 5 and t["secrets_kept"] == 1 and t["secret_told"] == 1 and t["copied"] == 1
    assert t["lines_with_unbacked_claim_after_checks"] == 3
    text = render(a)
    assert "-- talk 2" in text and "[invented person] person: Wolfgang Schulz" in text


def test_a_line_said_before_one_joined_is_not_told_to_them():
    talks = [{"participants": ["Samuel Okafor", "Rosa Brody", "Grace Okafor"], "joined": {"Grace Okafor": 1},
              "lines": [["Samuel Okafor", "The party at Bluebell Cafe is on Tuesday."],  # before Grace came
                        ["Rosa Brody", "The party at Bluebell Cafe will be lovely."]]}]  # with her there
    a = audit(_save(talks), TOWN)
    told = [s.text for s in a.lines if any(c.verdict == "secret told" for c in s.claims)]
    assert told == ["The party at Bluebell Cafe will be lovely."]
    talks[0]["joined"] = ["broken"]  # (a broken record of it: all were there)
    assert a.totals()["secret_told"] == 1 and audit(_save(talks), TOWN).totals()["secret_told"] == 2


def test_a_stored_answer_is_audited_too():
    rows = [MemoryRow("Rosa Brody", 0, "player", "A visitor asked me: Any news? I answered: Hank Brody runs a bank.",
                      T)]
    a = audit(_save([], rows), TOWN)
    assert len(a.answers) == 1 and a.answers[0].speaker == "Rosa Brody"
    assert a.totals()["answers"] == 1


def test_town_audit_on_a_save_that_is_not_one_says_so(tmp_path):
    bad = tmp_path / "x.save"
    bad.write_text("not a save")
    r = subprocess.run([sys.executable, "-m", "game", "audit", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == "" and "town audit:" in r.stderr
    r = subprocess.run([sys.executable, "-m", "game", "audit", "--help"], capture_output=True, text=True)
    assert "Example: town audit saves/default.save --json" in " ".join(r.stdout.split())


def test_the_papers_interview_is_25_questions_of_five_kinds_and_needs_no_other():
    from game.cli import build_parser
    from game.measure.interview import PAPER_QUESTIONS

    assert len(PAPER_QUESTIONS) == 25 and len(set(PAPER_QUESTIONS)) == 25
    args = build_parser().parse_args(["interview", "s.save", "Grace", "--paper"])
    assert args.paper and args.questions == []


def test_an_hour_said_to_be_somewhere_at_is_held_to_the_plan_and_the_gatherings():
    # Hank on b5e348b: "I'll be there at 22:00", his plan having him in bed by then
    talks = [{"participants": ["Hank Brody", "Samuel Okafor"],
              "lines": [["Hank Brody", "I'll be there at 22:00."],
                        ["Samuel Okafor", "I'll see you at the party at 6pm."],  # his party's hour
                        ["Hank Brody", "I'll be there at 19:15."]]}]  # a block of his plan begins then
    save = _save(talks)
    save.plans["Hank Brody"] = {"blocks": [[1155, 1223, "some time at The Copper Kettle", "", "free"]]}
    a = audit(save, TOWN)
    verdicts = [{c.verdict for c in s.claims} for s in a.lines]
    assert "unbacked hour" in verdicts[0] and "unbacked hour" not in verdicts[1] | verdicts[2]
    assert a.totals()["lines_with_unbacked_claim_after_checks"] == 1


def test_a_save_from_another_checkout_is_read_with_its_built_in_town():
    # a save made in a worktree since removed names a town path that is gone: the built-in town of that name
    from game.measure.audit import town_names

    save = _save([])
    save.meta["town_path"] = "/nowhere/checkout/game/maps/default"
    names = town_names(save)
    assert "Brody's Supply Store" in names.places and "Marcus Bell" in names.people
    save.meta["town_path"] = "/nowhere/checkout/maps/no-such-town"
    assert town_names(save).places == ()
