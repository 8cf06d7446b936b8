#!/usr/bin/env bash
# Install cascadia into ./.venv and run the main job on the embedded default (SQLite + DuckDB):
# simulate and store games, show and score one, export the logs and audit them,
# replay one, analyse the moves of a 2-player game, ingest everything into the analytics
# store and report, with a chart.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[charts]"
export CASCADIA_HOME="${CASCADIA_HOME:-./.cascadia}"
cascadia simulate --games 40 --players 4 --seed 1 --bot greedy,random
cascadia simulate --games 40 --players 2 --seed 1 --bot greedy --cards all-a
game=$(cascadia games --json --limit 0 | python -c "import json, sys; print(json.loads(sys.stdin.readline())['id'])")
cascadia show "$game"
cascadia score "$game"
cascadia achievements "$game"
cascadia export --all -o "$CASCADIA_HOME/logs"
cascadia audit "$CASCADIA_HOME"/logs/*.cascadia
cascadia replay "$CASCADIA_HOME/logs/$game.cascadia" --to 40 | tail -n 25
cascadia view "$CASCADIA_HOME/logs/$game.cascadia" -o "$CASCADIA_HOME/viewer.html"
duel=$(cascadia games --json --players 2 --limit 1 | python -c "import json, sys; print(json.loads(sys.stdin.readline())['id'])")
cascadia analyse "$CASCADIA_HOME/logs/$duel.cascadia" --seat 0 | tail -n 12
cascadia ingest --from-store
cascadia stats cards
cascadia stats bots
cascadia stats seats --where "players = 2" --chart "$CASCADIA_HOME/seats-greedy.svg"
cascadia sql "SELECT g.players, count(DISTINCT g.game_id) AS games, count(*) AS seats, round(avg(p.total), 1) AS mean_total FROM players p JOIN games g USING (game_id) GROUP BY g.players ORDER BY g.players"
cat <<NEXT

What next (after . .venv/bin/activate; this demo's data is in $CASCADIA_HOME):
  play in the browser    cascadia serve, then open the address it prints
  play in the terminal   cascadia new --seat-names Ann,greedy; cascadia play ID
  watch a game           open $CASCADIA_HOME/viewer.html in a browser
  ask your own question  cascadia sql "SELECT ..." (tables: analytics/SCHEMA.md)
  a million games        cascadia study DIR -n 1000000 (docs/SCALING.md)
  everything else        cascadia --help, and docs/ (README.md lists them)
NEXT
