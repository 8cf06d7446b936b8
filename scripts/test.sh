#!/usr/bin/env bash
# Install the test dependencies into ./.venv and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[test]"
ruff check .
# one worker per core (pytest-xdist), each test file kept on one worker (its module fixtures made once)
python -m pytest -n auto --dist loadfile
