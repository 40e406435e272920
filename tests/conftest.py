"""Suite-wide: ``TOWN_REQUIRE_REAL_MODEL=1`` (set by ``.ci/run``) turns a real-model test that was
skipped (no llama-server or no model in the cache) into a failure, so CI cannot go green without
the real-model tests having run.  Without it they skip cleanly, as on a machine before
``town setup --for-tests``."""

from __future__ import annotations

import os
import tempfile

import pytest

REQUIRE_ENV = "TOWN_REQUIRE_REAL_MODEL"

# The player's config file (game/settings.py) is never read by the tests: a file that is not there,
# unless a test names its own (tests/test_settings.py).
os.environ["TOWN_CONFIG"] = os.path.join(tempfile.gettempdir(), f"town-tests-{os.getpid()}", "none.toml")


def require_real_model(env=os.environ) -> bool:
    return env.get(REQUIRE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr or "")


def needs_the_model(item, reason: str) -> bool:
    """A skip that means "the model (or the server, or the embedding model) is not installed":
    a test marked ``real_model``, or any skip that says to run ``town setup``."""
    return item.get_closest_marker("real_model") is not None or "town setup" in reason


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and require_real_model()) or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report)
    if needs_the_model(item, reason):
        report.outcome = "failed"
        report.longrepr = (f"{REQUIRE_ENV} is set, so a real-model test may not skip; it was "
                           f"skipped because: {reason}")
