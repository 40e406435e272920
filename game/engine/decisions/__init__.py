"""The residents' decisions, one model-backed job per resident at a time, and who leads the town.
It owns the board of jobs in flight (``jobs.py``, ``JobBoard``), the lanes that start them as
asyncio tasks, run each kind by its handler and apply the answers at tick boundaries in a fixed
order (``lanes.py``, ``Lanes``), how early the next window of steps is asked (``lookahead.py``),
the reactions and talks past the daily caps on the server's spare time (``capacity.py``), the first
day plans asked before the clock starts (``prepare.py``), and the ledger of how much of each
resident's waking time came from the model, with the part that counts it each tick
(``ledger.py``, ``leadtime.py``).  See docs/ENGINE.md, "Jobs" and "Who leads the town"."""
