#!/usr/bin/env bash
# Writes constraints.txt, the lock: the exact version of every package the game and its test tools
# install (pyproject.toml's dependencies and its [dev] extra, and theirs), resolved by pip within
# pyproject.toml's bounds for this Python.  scripts/setup.sh (and so scripts/test.sh and .ci/run)
# installs exactly these.  Nothing is installed here: pip resolves (--dry-run) and reports.
#   scripts/lock.sh              the newest versions the bounds allow (to update: run it, then
#                                ./scripts/test.sh, snapshots included, and commit both if green)
#   scripts/lock.sh -c FILE      the versions in FILE for the packages it names (e.g. the `pip freeze`
#                                of a virtual environment the suite passed in), the newest for the rest
# pip itself is left out: it is the installer (scripts/setup.sh upgrades it first).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
keep=()
if [ "${1:-}" = "-c" ] && [ -n "${2:-}" ]; then keep=(-c "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# a copy of what the package is built from: the build writes town.egg-info into the tree it reads
mkdir "$tmp/src"
cp -r pyproject.toml README.md LICENSE game "$tmp/src/"
find "$tmp/src" -name __pycache__ -prune -exec rm -rf {} +

"$PY" -m pip install --quiet --dry-run --ignore-installed --report "$tmp/report.json" ${keep[@]+"${keep[@]}"} \
  "$tmp/src[dev]"
"$PY" - "$tmp/report.json" > constraints.txt <<'PYEOF'
import json, platform, sys

report = json.load(open(sys.argv[1]))
pins = sorted(((i["metadata"]["name"], i["metadata"]["version"]) for i in report["install"]
              if i["metadata"]["name"].lower() not in ("town", "pip")), key=lambda p: p[0].lower())
print("# The lock: exact versions of the game's dependencies and test tools, installed by")
print("# scripts/setup.sh with `pip install -c constraints.txt`.  Written by scripts/lock.sh")
print(f"# (Python {platform.python_version()}); do not edit by hand, run it again.")
for name, version in pins:
    print(f"{name}=={version}")
PYEOF
echo "wrote constraints.txt ($(grep -c '==' constraints.txt) pins)"
