"""Object states: every object of the tree has a state, ``"idle"`` unless something changed it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

IDLE = "idle"


@dataclass(frozen=True)
class StateChange:
    address: str
    state: str
    by: str
    previous: str


class ObjectStates:
    def __init__(self, addresses: Iterable[str], initial: dict[str, str] | None = None) -> None:
        self._known = set(addresses)
        self._state: dict[str, str] = {}
        self._by: dict[str, str] = {}
        for a, s in (initial or {}).items():
            if a in self._known and s and s != IDLE:
                self._state[a] = s
                self._by[a] = "world"

    def __contains__(self, address: str) -> bool:
        return address in self._known

    def get(self, address: str) -> str:
        if address not in self._known:
            raise KeyError(f"no object called {address!r}")
        return self._state.get(address, IDLE)

    def changed_by(self, address: str) -> str | None:
        return self._by.get(address)

    def set(self, address: str, state: str, by: str = "world") -> StateChange:
        """Set an object's state (an empty state means idle).  Unknown object -> KeyError."""
        if address not in self._known:
            raise KeyError(f"no object called {address!r}")
        prev = self._state.get(address, IDLE)
        state = " ".join((state or "").split()) or IDLE
        if state == IDLE:
            self._state.pop(address, None)
            self._by.pop(address, None)
        else:
            self._state[address] = state
            self._by[address] = by
        return StateChange(address, state, by, prev)

    def reset(self, address: str, by: str = "world") -> StateChange:
        return self.set(address, IDLE, by)

    def items(self) -> Iterator[tuple[str, str]]:
        """(address, state) for every object, idle ones included."""
        for a in sorted(self._known):
            yield a, self._state.get(a, IDLE)

    def busy(self) -> dict[str, str]:
        """Only the objects that are not idle."""
        return dict(self._state)

    def to_dict(self) -> dict[str, dict[str, str]]:
        return {a: {"state": s, "by": self._by.get(a, "world")} for a, s in self._state.items()}

    def load_dict(self, data: dict) -> None:
        """Restore states saved with :meth:`to_dict` (unknown addresses are ignored)."""
        self._state.clear()
        self._by.clear()
        for a, v in data.items():
            if a in self._known:
                if isinstance(v, str):
                    self.set(a, v)
                else:
                    self.set(a, v.get("state", IDLE), v.get("by", "world"))
