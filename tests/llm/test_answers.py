"""Parsing and repairing model answers: pure, fast."""

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from game.llm.answers import AnswerError, parse_answer, response_format, strict_schema


class Step(BaseModel):
    title: str
    minutes: int = 10


class Plan(BaseModel):
    steps: list[Step]
    mood: Literal["good", "bad"] = "good"


def test_strict_schema_closes_every_object_and_requires_all_fields():
    s = strict_schema(Plan)
    assert s["additionalProperties"] is False
    assert s["required"] == ["steps", "mood"]
    step = s["$defs"]["Step"]
    assert step["additionalProperties"] is False
    assert step["required"] == ["title", "minutes"]
    # annotations dropped, but a *property* called "title" is kept
    assert "title" in step["properties"]
    assert "title" not in step and "default" not in step["properties"]["minutes"]


def test_response_format_shape():
    rf = response_format(Plan)
    assert rf["type"] == "json_schema"
    assert rf["json_schema"]["name"] == "Plan"
    assert rf["json_schema"]["strict"] is True


def test_clean_json_is_not_marked_repaired():
    value, repaired = parse_answer('{"steps": [{"title": "wake", "minutes": 5}], "mood": "bad"}', Plan)
    assert value.steps[0].title == "wake" and value.mood == "bad"
    assert repaired is False


@pytest.mark.parametrize(
    "text",
    [
        'Here you go:\n```json\n{"steps": [{"title": "wake"}]}\n```\nEnjoy!',
        'Sure! {"steps": [{"title": "wake"}]} That is the plan.',
        '{"steps": [{"title": "wake"},]}',
        '{"steps": [{"title": "wake"}, {"title": "eat bre',  # cut off by max_tokens
        '[{"title": "wake"}]',  # bare list for the only required field
    ],
)
def test_repairs(text):
    value, _ = parse_answer(text, Plan)
    assert value.steps[0].title == "wake"


def test_cut_off_answer_keeps_the_complete_items():
    value, repaired = parse_answer('{"steps": [{"title": "a", "minutes": 3}, {"title": "b", "min', Plan)
    assert repaired
    assert [s.title for s in value.steps] == ["a", "b"]


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        ("I cannot help with that.", "not valid JSON"),
        ('{"steps": "wake up"}', "steps"),
        ('{"steps": [{"minutes": 3}]}', "title"),
    ],
)
def test_unrepairable_answers_say_what_is_wrong(text, words):
    with pytest.raises(AnswerError) as e:
        parse_answer(text, Plan)
    assert words in e.value.feedback


def test_constraints_are_validated():
    class Score(BaseModel):
        score: int = Field(ge=1, le=10)

    with pytest.raises(AnswerError) as e:
        parse_answer('{"score": 42}', Score)
    assert "score" in e.value.feedback
