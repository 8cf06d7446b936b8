#!/usr/bin/env bash
# Install cascadia into ./.venv and run the main job on the embedded default (SQLite + DuckDB):
# simulate and store games, show one, score it, export and audit its log, ingest and report.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e .
export CASCADIA_HOME="${CASCADIA_HOME:-./.cascadia}"
cascadia simulate --games 20 --players 4 --seed 1 --bot random
game=$(cascadia games --json | python -c "import json, sys; print(json.load(sys.stdin)[0]['id'])")
cascadia show "$game"
