"""What a scenario run carries from step to step: the scenario checked against its town
(``CheckedScenario``, made by ``runner.prepare``) and the run's bookkeeping (``RunState``).  A leaf of
the package: the runner fills them and ``measuring`` reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from game.experiment.scenario import Scenario

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.build import TownInput
    from game.world.town import Town


@dataclass
class CheckedScenario:
    scenario: Scenario
    town_path: Path  # a town folder/.tmx, or a save
    is_save: bool
    town: Town  # the loaded world (for names and places)
    cast: list[str]
    day1: datetime
    start: datetime | None  # a new town's first moment (None: the town's own, or the save's)
    input: TownInput | None = None  # a save as read and checked: built once, not read again


class Seeded(TypedDict):
    """A seed put into the town: its index in the scenario, when, and what was done."""

    seed: int
    at: str
    what: str


@dataclass
class RunState:
    ticks: int = 0
    real_s: float = 0.0
    waited_s: float = 0.0
    errors: list[str] = field(default_factory=list)
    seeded: list[Seeded] = field(default_factory=list)
    led: dict[str, int] = field(default_factory=dict)  # action source -> resident samples
