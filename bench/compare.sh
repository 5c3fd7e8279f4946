#!/usr/bin/env bash
# Papyrus side by side with boardgame.io (../shared/peers/boardgameio), back to back, and the
# ratios: see bench/compare.py for what runs and how.
#
#   bench/compare.sh            # N = 8 and 32, three pairs each (~15 min)
#   bench/compare.sh --quick    # one pair, short runs (a smoke run)
#   bench/compare.sh --shapes push --act-over http   # Papyrus in the push shape only, acts by HTTP
#
# Papyrus runs once per shape (--shapes, default "poll push": read+act over HTTP, or one websocket
# per seat with pushed state, like boardgame.io) in each pair.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python bench/compare.py "$@"
