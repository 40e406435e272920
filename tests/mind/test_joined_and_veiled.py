"""One who joins a talk hears it from there on, and one a gathering is kept from does not see it in
what others do (75fad48's day, 2026-12-01: Grace joined Ines and Felix at the cafe after Ines spoke of
Grace's surprise party, and remembered the line; she also saw "Ines Moreau is listening to Samuel
Okafor about the surprise party")."""

from __future__ import annotations

from datetime import datetime

from game.engine.build import new_engine
from game.engine.saves.fileformat import conv_dict, conv_from
from game.mind.facts.keptfrom import veiled
from game.mind.view import Conversation

from .fakes import scripted_model

EVENING = datetime(2026, 3, 2, 19, 20)
PARTY = "I was just thinking about the surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow."


def _talk() -> Conversation:
    conv = Conversation("c19", ["Felix Adeyemi", "Ines Moreau"], place="Bluebell Cafe:cafe")
    conv.add("Ines Moreau", PARTY)
    conv.participants.append("Grace Okafor")
    conv.joined["Grace Okafor"] = len(conv.lines)
    conv.add("Felix Adeyemi", "I'm doing well, thanks for asking.")
    return conv


def test_one_who_joined_remembers_only_what_was_said_after_it_came():
    engine = new_engine("default", scripted_model({}))
    conv = _talk()
    assert conv.heard_by("Grace Okafor") == [("Felix Adeyemi", "I'm doing well, thanks for asking.")]
    assert "surprise" not in conv.transcript(for_name="Grace Okafor") and "surprise" in conv.transcript()
    minds = engine.talk_facts.core.minds
    minds["Grace Okafor"].remember_conversation(EVENING, conv)
    minds["Felix Adeyemi"].remember_conversation(EVENING, conv)
    grace = [r.text for r in minds["Grace Okafor"].memory.recent(20)]
    felix = [r.text for r in minds["Felix Adeyemi"].memory.recent(20)]
    assert any("doing well" in t for t in grace) and not any("surprise" in t for t in grace)
    assert any("surprise party" in t for t in felix)  # he was there from the start


def test_who_joined_is_kept_in_a_save_and_a_broken_record_of_it_is_none():
    d = conv_dict(_talk())
    assert conv_from(d).joined == {"Grace Okafor": 1}
    for broken in ([1], {"Grace Okafor": "one"}, {"Grace Okafor": -1}, {"Grace Okafor": True}, None):
        assert conv_from({**d, "joined": broken}).joined == {}


def test_one_a_gathering_is_kept_from_does_not_see_it_in_what_others_do():
    engine = new_engine("default", scripted_model({}))
    kept = engine.perceiver._kept_from(EVENING)
    assert [f.host for f in kept["Grace Okafor"]] == ["Samuel Okafor"] and "Ines Moreau" not in kept
    seen = "Ines Moreau is listening to Samuel Okafor about the surprise party (the cafe of Bluebell Cafe)"
    assert veiled(seen, "Ines Moreau", kept["Grace Okafor"]) == "Ines Moreau is busy (the cafe of Bluebell Cafe)"
    plain = "Ines Moreau is making coffee (the cafe of Bluebell Cafe)"
    assert veiled(plain, "Ines Moreau", kept["Grace Okafor"]) == plain


def test_one_a_role_is_kept_from_does_not_see_it_in_what_its_holder_does():
    from game.mind.facts.keptfrom import role_veiled

    engine = new_engine("default", scripted_model({}))
    roles = engine.talk_facts.core.town_names.secret_roles
    seen = "Kenji Tanaka is writing Millbrook Owl (the grocery of Greenway Market and Pharmacy)"  # Felix's sight
    assert role_veiled(seen, "Kenji Tanaka", "Felix Adeyemi", roles) == (
        "Kenji Tanaka is busy (the grocery of Greenway Market and Pharmacy)")
    assert role_veiled(seen, "Kenji Tanaka", "Aiko Tanaka", roles) == seen  # his wife knows
    plain = "Kenji Tanaka is working at the pharmacy counter (the pharmacy of Greenway Market and Pharmacy)"
    assert role_veiled(plain, "Kenji Tanaka", "Felix Adeyemi", roles) == plain


def test_a_look_sees_the_secret_s_holder_busy():
    from game.mind.view import Action

    engine = new_engine("default", scripted_model({}))
    core = engine.talk_facts.core
    felix, kenji = core.residents["Felix Adeyemi"], core.residents["Kenji Tanaka"]
    kenji.pos = felix.pos
    kenji.action = Action(description="writing Millbrook Owl", emoji="x", address=core.address_at(kenji.pos),
                          duration_min=30, start=EVENING)
    engine.perceiver.look(felix, EVENING)
    sight = felix.seen.get("person:Kenji Tanaka", "")
    assert sight.startswith("Kenji Tanaka is busy") and "Owl" not in sight
    aiko = core.residents["Aiko Tanaka"]
    aiko.pos = felix.pos
    engine.perceiver.look(aiko, EVENING)
    assert "Millbrook Owl" in aiko.seen.get("person:Kenji Tanaka", "")
