"""Watching and forking a recorded run: a game feature, beside the engine and below the screen.

``tape.py`` replays a run recorded with ``--record`` (the model's answers, and the manifest beside
them, ``game.engine.running.manifest``) into a ``ReplayTape`` of ticks; ``watch.py`` puts that tape behind
the face the screen knows (``WatchEngine``, a ``game.engine.api.Replayable``): step, seek, jump to
a time, fork a live town from the moment on screen.  No model is needed to watch; no Textual here.
"""
