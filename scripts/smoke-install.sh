#!/usr/bin/env bash
# Builds the sdist and the wheel (from the sdist), installs the wheel into fresh virtual environments, the core
# only and then with [all], and runs every command from there. A green run from the working tree can hide a file
# missing from the package; this cannot.
# Usage: scripts/smoke-install.sh [PYTHON]   (PYTHON builds the environments; default python3)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
python="${1:-python3}"
work="$(mktemp -d)"
trap 'kill "${server:-}" 2> /dev/null || true; rm -rf "$work"' EXIT

step() { printf '\n== %s\n' "$*"; }
free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

step "build the sdist and the wheel"
"$here/.venv/bin/python" -m build --outdir "$work/dist" "$here" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
wheel="$(ls "$work"/dist/*.whl)"
ls -l "$work/dist"
cd "$work"  # away from the source tree: only the installed package can be imported

step "the compiled wheel (mypyc), built from the sdist"
sdist="$(ls "$work"/dist/*.tar.gz)"
HATCH_BUILD_HOOK_ENABLE_MYPYC=true "$here/.venv/bin/python" -m build --wheel --outdir "$work/compiled" "$sdist" \
  > "$work/build-compiled.log" 2>&1 || { cat "$work/build-compiled.log"; exit 1; }
ls -l "$work/compiled"
"$python" -m venv fast
fast/bin/python -m pip install --quiet "$work"/compiled/*.whl
fast/bin/cafe bench --seconds 0.2 --json | grep -q '"compiled": true' || { echo "the compiled wheel runs pure Python"; exit 1; }
CAFE_PURE=1 fast/bin/cafe bench --seconds 0.2 --json | grep -q '"compiled": false' || { echo "CAFE_PURE=1 is ignored"; exit 1; }
echo "the compiled wheel runs compiled, and pure Python with CAFE_PURE=1"

step "the core only: no dependencies"
"$python" -m venv core
core/bin/python -m pip install --quiet "$wheel"
core/bin/cafe --version
core/bin/cafe demo --seed 3 --delay 0 --record board.json > /dev/null
core/bin/cafe demo --edition cards --players 3 --seed 4 --delay 0 --record cards.json > /dev/null
core/bin/cafe replay board.json --json > /dev/null
core/bin/cafe replay cards.json --turns > /dev/null
core/bin/cafe bench --seconds 0.2 --json > /dev/null
printf 'cep\nisready\nquit\n' | core/bin/cafe engine --player greedy > /dev/null
for command in "serve" "play" "arena greedy random --games 2" "selfplay --player greedy --games 1 --out sp" \
  "train --games 2 --out m.npz"; do
  set +e
  message="$(core/bin/cafe $command 2>&1 > /dev/null)"
  status=$?
  set -e
  echo "cafe $command -> exit $status: $message"
  [ "$status" -eq 3 ] && [ "$(printf '%s\n' "$message" | wc -l)" -eq 1 ] && [[ "$message" == *"pip install 'cafe-international["* ]] \
    || { echo "cafe $command without its extra must name the extra in one line and exit 3"; exit 1; }
done

for player in master net:value.npz:1s prior:prior.npz:1s; do
  message="$(printf 'quit\n' | core/bin/cafe engine --player "$player" 2>&1 > /dev/null || true)"
  echo "cafe engine --player $player -> $message"
  [[ "$message" == *"pip install 'cafe-international[master]'"* ]] || { echo "$player must name its extra"; exit 1; }
done

step "with [all]"
"$python" -m venv all
all/bin/python -m pip install --quiet "$wheel[all]"
all/bin/cafe arena greedy random --games 2 --json > /dev/null
all/bin/cafe selfplay --player greedy --games 2 --out selfplay > /dev/null
all/bin/python -c "from cafe.selfplay.shards import load; assert len(load('selfplay')['actions']) > 0"
all/bin/python -c "
from cafe import BoardGame
from cafe.ai.levels import make_player
game = BoardGame(2, seed=5)
assert make_player('learned:20', seed=1).choose(game.view(0), game.legal_steps()) in game.legal_steps()
" || { echo "the master's search did not play from the installed package (is its model file in the wheel?)"; exit 1; }
all/bin/python -c "import cafe.play.app, cafe.envs.pettingzoo, cafe.envs.gymnasium, cafe.envs.openspiel, cafe.server.storage.postgres"
port="$(free_port)"
all/bin/cafe serve --port "$port" --data data > serve.log 2>&1 &
server=$!
for _ in $(seq 100); do
  all/bin/python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/health')" 2> /dev/null && break
  sleep 0.2
done
for path in / /health /catalogue.json /client/app.js /client/style.css; do
  all/bin/python -c "import urllib.request; assert urllib.request.urlopen('http://127.0.0.1:$port$path').status == 200" \
    || { echo "GET $path failed"; cat serve.log; exit 1; }
done
echo "cafe serve answered /, /health, /catalogue.json and the client's files"
echo "smoke test of the installed package: every command ran"
