#!/usr/bin/env bash
# An A/B match between two engine builds in one game, as every search change
# is judged: colour-swapped pairs on random-plies openings, a fixed time per
# move with a margin for a loaded machine, and an SPRT (or a fixed number of
# games with SPRT=off). Resumes from its state file when run again.
# Usage: tools/ab.sh NEW BASE GAME [ROUNDS] [TC]
#   NEW, BASE   engine binaries (copy them out of target/ first: a rebuild
#               during the match would change them)
#   GAME        kaninariebi | hasami | nana | negaeri
#   ROUNDS      colour-swapped pairs at most, default 200 (400 games)
#   TC          the referee's time words, default st=0.1
# Environment: SPRT (default "elo0=0 elo1=5", or "off"), CONCURRENCY
# (default 2), STATE_DIR (default /tmp/koma-ab), NEW_OPTS / BASE_OPTS
# (extra engine words such as option.Threads=2), SEED (default 1),
# PLIES (random opening plies, default 4), MARGIN (milliseconds an engine
# may overrun its clock, default 200; on a machine shared by more busy
# processes than cores a process can be left without a core for 300 ms
# and more, and such stalls, not the engines, then decide games on time),
# OPENINGS (the referee's --openings words, e.g. "suite=default
# order=random": the game's balanced suite instead of random plies; PLIES
# then defaults to 0).
# Prints the referee's final summary; the records stay in the state file.
set -euo pipefail
new=${1:?usage: tools/ab.sh NEW BASE GAME [ROUNDS] [TC]}
base=${2:?usage}
game=${3:?usage}
rounds=${4:-200}
tc=${5:-st=0.1}
sprt=${SPRT:-elo0=0 elo1=5}
ref=${REFEREE:-target/release/koma-referee}
dir=${STATE_DIR:-/tmp/koma-ab}
mkdir -p "$dir"
state="$dir/$(basename "$new")-vs-$(basename "$base")-$game-${tc//[^a-z0-9.]/_}${OPENINGS:+-suite}${TAG:+-$TAG}.state"
args=(--variant "$game"
    --engine cmd="$new" name=new ${NEW_OPTS:-}
    --engine cmd="$base" name=base ${BASE_OPTS:-}
    --each $tc --games 2 --rounds "$rounds" --max-plies 400
    --concurrency "${CONCURRENCY:-2}" --seed "${SEED:-1}" --timemargin "${MARGIN:-200}"
    --rating-interval 50 --recover --state "$state")
if [ -n "${OPENINGS:-}" ]; then
    args+=(--openings $OPENINGS --random-plies "${PLIES:-0}")
else
    args+=(--random-plies "${PLIES:-4}")
fi
[ "$sprt" != off ] && args+=(--sprt $sprt)
echo "state: $state" >&2
"$ref" "${args[@]}"
