#!/usr/bin/env bash
# Depth and nodes/s reached from each game's start position in a fixed time.
# Usage: tools/depth.sh [KOMA_BINARY] [MILLISECONDS] [THREADS]
# (Compare THREADS 1 and 2 for the parallel search's nodes/s scaling.)
set -euo pipefail
koma=${1:-target/release/koma}
ms=${2:-1000}
threads=${3:-1}
for g in kaninariebi hasami nana negaeri; do
    line=$( (echo "setoption name UCI_Variant value $g"; echo "setoption name Threads value $threads"; echo "position startpos"; echo "go movetime $ms"; sleep $(( ms / 1000 + 2 ))) \
        | "$koma" 2>/dev/null | grep '^info depth' | tail -1 || true)
    echo "$g: ${line:-no search}"
done
