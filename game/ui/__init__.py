"""The screen (the only package that imports Textual): ``town play``.

``app.py`` puts ``TownApp`` together from its parts: ``worker.py`` (the model session and the
engine worker, one ``Ticked`` message per tick, the one place failures are shown), ``actions.py``
(the player's actions), ``files.py`` (save and load), ``replay_controls.py`` (watching a recorded
run), ``main_screen.py`` (the map and panels); ``messages.py`` holds what screens post up,
``screens.py`` the dialogues, ``mapview.py`` the map, ``widgets.py`` the panels, ``host.py`` how the
app gets a model and engines, ``bench.py`` the screen's benchmark.  See docs/UI.md.
"""
