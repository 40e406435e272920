"""What a resident does and when: the day plan and the steps of the hours ahead, top-down and just
in time.  It owns the agenda (``agenda.py``: the plan, the steps still to come, the step in hand),
the planner that asks the model for them (``planner.py``, ``Planner``; ``steps.py`` reads its
compact lines), the day's frame from the persona and what fills it (``dayframe.py``,
``dayoptions.py``, ``dayfill.py``), the checks of a filled-in day (``daycheck.py``, ``dayjudge.py``),
the gatherings laid into a plan (``attending.py``), the day by rule with no model (``routine.py``),
the rules that fit an answer to the day and its words to English (``shaping.py``, ``wording.py``),
and where an action happens (``grounding.py``, ``Locator``; ``places.py``, the allowed
addresses)."""
