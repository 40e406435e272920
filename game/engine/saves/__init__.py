"""Saves: a town kept in one SQLite file, never pickled, written whole or changed in one
transaction, and read back only when the file is a town save of a format this game reads.  It owns
the file: writing a ``TownState`` in two steps so that a screen never waits on the disk
(``writing.py``: ``prepare`` on the thread that plays the town, then ``SaveJob``/``write_state`` on
any), the memories in segments and chunks, whole or only what changed since a ``SyncPoint``
(``streams.py``), reading one back with its checks (``reading.py``), the tables and words both share
(``fileformat.py``), files written whole or not at all (``atomic.py``), and the engine's part that
keeps the town as one ``TownState`` and knows the file it writes to (``saver.py``, ``Saver``).  The
rest of the game imports the names below from here; see docs/SAVES.md.
"""

from game.engine.saves.fileformat import CHUNK, FORMAT, SEGMENT, SUFFIX, VERSION, SaveError
from game.engine.saves.reading import (
    describe_save,
    is_save,
    list_saves,
    open_save,
    read_memories,
    read_state,
    save_files,
)
from game.engine.saves.writing import (
    FaultHooks,
    PreparedSave,
    SaveJob,
    faults,
    prepare,
    save_name,
    sync_key,
    write_state,
)
from game.engine.state import StreamSync, SyncPoint

__all__ = ["CHUNK", "FORMAT", "SEGMENT", "SUFFIX", "VERSION", "FaultHooks", "PreparedSave", "SaveError",
           "SaveJob", "StreamSync", "SyncPoint", "describe_save", "faults", "is_save",
           "list_saves", "open_save", "prepare", "read_memories", "read_state", "save_files", "save_name",
           "sync_key", "write_state"]
