"""What a resident does about something salient, between the plans: whether it goes on, does
something else now or talks to someone (``reactor.py``, ``Reactor``, which owns the cool-down of the
sights it has considered, with the rules that mend what a small model chose), and the action that
leaves a hazard safe, a fire or a leak that will not wait (``hazards.py``, ``Mender``)."""
