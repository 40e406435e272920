#!/usr/bin/env bash
# Sets up (idempotent; seconds when already done) and plays the default town on the embedded model.
# Arguments go to `town play` (e.g. scripts/play.sh --small, or a save file).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/town play "$@"
