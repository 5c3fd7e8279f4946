#!/usr/bin/env bash
# Papyrus side by side with boardgame.io (../shared/peers/boardgameio), back to back, and the
# ratios: see bench/compare.py for what runs and how.
#
#   bench/compare.sh            # N = 8 and 32, three pairs each (~15 min)
#   bench/compare.sh --quick    # one pair, short runs (a smoke run)
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python bench/compare.py "$@"
