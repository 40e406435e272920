"""Measuring the town: interviews, who knows what, relationships, attendance, reports, benchmarks.

This package sits beside ``game.engine``: it reads saves and live engines/minds and never imports
the UI (the screen's own benchmark is ``game.ui.bench``).  Watching and forking a recorded run is
a game feature of its own, ``game.replay``.
"""
