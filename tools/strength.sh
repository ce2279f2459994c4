#!/usr/bin/env bash
# The strength table of issue 7: per game, each Skill level against the one
# below, and hard against a baseline build (the foundation's plain search),
# at one time control. Prints the referee's summary line of each match.
# Usage: tools/strength.sh BASELINE_BINARY [ROUNDS] [TC]
#   ROUNDS: pairs of games per match (colours swapped in a pair), default 20
#   TC:     the referee's time words for every engine, default "st=0.1"
#   MARGIN (environment): ms an engine may overrun before losing, default 200
#   (a loaded 2-core machine delays a process by tens of ms at times)
# Example: cargo build --release && tools/strength.sh /tmp/koma-baseline 20 st=0.1
set -euo pipefail
base=${1:?usage: tools/strength.sh BASELINE_BINARY [ROUNDS] [TC]}
rounds=${2:-20}
tc=${3:-st=0.1}
koma=${KOMA:-target/release/koma}
ref=${REFEREE:-target/release/koma-referee}
games=${GAMES:-kaninariebi hasami nana negaeri}

match() { # variant name-a cmd-a opts-a name-b cmd-b opts-b
    local v=$1
    "$ref" --variant "$v" \
        --engine cmd="$3" name="$2" $4 \
        --engine cmd="$6" name="$5" $7 \
        --each $tc --games 2 --rounds "$rounds" --random-plies 4 --max-plies 400 \
        --concurrency 1 --seed 11 --rating-interval 0 --timemargin "${MARGIN:-200}" 2>&1 |
        awk -v what="$v $2 vs $5" '/^Elo:/ {elo=$0} /^Games:/ {g=$0} END {print what ": " elo " | " g}'
}

for v in $games; do
    match "$v" normal "$koma" option.Skill=normal easy "$koma" option.Skill=easy
    match "$v" hard "$koma" option.Skill=hard normal "$koma" option.Skill=normal
    match "$v" hard "$koma" option.Skill=hard plain "$base" ""
done
