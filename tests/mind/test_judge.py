"""The model's claim read of a talk line (game/mind/facts/judge.py): what the prompt shows and how the
answer is read, with the fake model (tests only); its worth is measured by game.measure.judgebench."""

import asyncio

from game.mind.facts.judge import PURPOSE, notes_of, read_claims
from tests.mind.fakes import scripted_model


def test_the_notes_list_what_the_speaker_holds():
    notes = notes_of("Kenji runs the pharmacy.", {"Felix Adeyemi": "the new baker next door"},
                     ["Grace Okafor: mayor"], ["Marcus Bell is hosting a pub quiz"], ["I saw Felix at the stall"])
    assert notes.splitlines() == ["- Kenji runs the pharmacy.", "- Felix Adeyemi: the new baker next door",
                                  "- Grace Okafor: mayor", "- Marcus Bell is hosting a pub quiz",
                                  "- I saw Felix at the stall"]
    assert notes_of("", {}, [], [], []) == "- (nothing)"


def test_a_line_s_statements_come_back_with_their_verdicts():
    llm = scripted_model({PURPOSE: [{"statements": [
        {"statement": "We're opening Rise & Shine on Saturday", "supported": False},
        {"statement": "Felix is the new baker", "supported": True}]}]})
    read = asyncio.run(read_claims(llm, "We're opening Rise & Shine on Saturday, right?", "Kenji Tanaka",
                                   "Felix Adeyemi", "- Felix Adeyemi: the new baker next door"))
    assert [(s.statement, s.supported) for s in read.statements] == [
        ("We're opening Rise & Shine on Saturday", False), ("Felix is the new baker", True)]
    call = llm.calls[0]
    assert call.tag.resident == "Kenji Tanaka"
    assert 'Kenji Tanaka said to Felix Adeyemi: "We\'re opening Rise & Shine' in call.user
    assert "- Felix Adeyemi: the new baker next door" in call.user
