"""A guard around Textual's toast timer (Textual 8.2.8): a toast's time left is read when the toast is
made, just after its notification was found not expired, so a notification that expires in between
gives a negative delay; Textual's timer then loops forever without yielding (``timer.py``: with
``skip`` and a negative interval, ``next_timer < now`` always holds), freezing the whole app at full
CPU.  The clean-clone suite hung so on 2026-12-01 (a toast of -0.00019 s).  The guard gives such a
toast a short positive time instead.  Imported by app.py."""

from __future__ import annotations

from textual.events import Mount
from textual.widgets._toast import Toast

MIN_TOAST_S = 0.05  # a toast already due goes after this long
_mount = Toast._on_mount


def _on_mount(self: Toast, event: Mount) -> None:
    self._timeout = max(float(self._timeout), MIN_TOAST_S)
    _mount(self, event)


def guard_toasts() -> None:
    """Put the guard on Textual's Toast (once; idempotent)."""
    setattr(Toast, "_on_mount", _on_mount)  # noqa: B010  (a method of a class not ours)
