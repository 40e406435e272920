#!/usr/bin/env bash
# Sets up everything the game needs, idempotently: a virtual environment in .venv, the package and
# its dependencies at the versions locked in constraints.txt (scripts/lock.sh updates it), then
# `town setup` (the embedded llama-server and model weights, into the cache folder $TOWN_HOME,
# default ~/.cache/town). A second run only checks and takes seconds.
#   scripts/setup.sh              what playing needs
#   scripts/setup.sh --for-tests  what the test suite needs (dev tools, the small test model)
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "town needs Python 3.11 or newer (found: $("$PY" --version 2>&1)). Set PYTHON=/path/to/python3.11." >&2
  exit 1
fi

extras=""
for a in "$@"; do [ "$a" = "--for-tests" ] && extras="[dev]"; done

if [ ! -x .venv/bin/python ]; then
  echo "==> creating the virtual environment in .venv"
  "$PY" -m venv .venv
fi

stamp=".venv/.town-installed${extras:+-dev}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
  echo "==> installing the game and its dependencies${extras:+ (with test tools)}, as locked in constraints.txt"
  .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install --quiet -c constraints.txt -e ".${extras}"
  touch "$stamp"
fi

exec .venv/bin/town setup "$@"
