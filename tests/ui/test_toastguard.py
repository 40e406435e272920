"""A toast whose notification expires between Textual's check and the toast's making gets a short
positive time, not a negative one: Textual's timer loops forever on a negative delay (the clean-clone
suite hung on one of -0.00019 s, 2026-12-01)."""

from time import time

from textual.notifications import Notification
from textual.widgets._toast import Toast

from game.ui.toastguard import MIN_TOAST_S, guard_toasts


def test_a_toast_already_due_is_timed_positive():
    guard_toasts()
    toast = Toast(Notification("saved", title="", timeout=1.0, raised_at=time() - 2.0))
    assert toast._timeout < 0  # as Textual makes it
    delays: list[float] = []
    toast.set_timer = lambda delay, callback: delays.append(delay)  # type: ignore[method-assign]
    Toast._on_mount(toast, None)
    assert delays == [MIN_TOAST_S]
