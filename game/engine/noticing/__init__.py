"""What residents notice as the town goes on: every few ticks what each sees goes into its
observation buffer, what is new and salient waits for a reaction, the places it sees are learnt,
and its mind is told what it knows (``perceiving.py``, ``Perceiver``); and a thing in a state that
will not wait, a fire or a leak, noticed by whoever is awake in the same building from any room and
handed to its mind as a hazard to act on (``hazards.py``, ``Hazards``; the mind's side is
game/mind/reacting/hazards.py); what waits for a reaction is ``salience.py``'s (``Salience``).
See docs/ENGINE.md, "One tick" and "Hazards"."""
