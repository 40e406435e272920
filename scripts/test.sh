#!/usr/bin/env bash
# Sets up what the tests need (idempotent) and runs the whole test suite, real-model tests included.
# Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --for-tests
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
