"""Experiments: a scenario file (TOML) run headless, the residents interviewed, the answers scored
and the paper's table printed beside the paper's numbers (``town experiment SCENARIO``).

``scenario`` reads and checks the file, ``runner`` runs it (``progress`` is its bar),
``measuring`` interviews and measures the finished run, ``score`` judges the answers and
``table`` prints the result.  It builds on ``game.engine`` and ``game.measure`` and never on the UI.
"""
