"""What a resident knows that others could act on, kept as data, and the rules that hold the model's
words to it.  It owns the facts (``fact.py``: a gathering or a candidacy with its host, place, day
and hours, ``FactBook``, ``TownNames``), reading days and hours in words (``when.py``), and the pure
rules, no model call, that check a line or an answer: against the facts (``factcheck.py``,
``vet_line``), the relations and roles the town declares (``claims.py``), who says it
(``linechecks.py``: misattributions), the moment it is said at (``timechecks.py``: a greeting, a
weekday, a meal's hours), what the town does not back (``unbacked.py``: a stranger, a place it
lacks, an event nobody holds) and the times of day the resident holds (``hours.py``).  Talk
(game/mind/talk/), reflection and the interview (game/mind/interview/) use them."""
