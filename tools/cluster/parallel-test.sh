#!/usr/bin/env bash
# The GNU parallel line of docs/cluster.md, run on this machine alone: the same
# command with --sshlogin 2/: (":" is the local host, 2 jobs at a time)
# instead of a list of hosts. Plays a 4-shard match, pools the shards with
# --report and checks that every game is there once.
#
#   tools/cluster/parallel-test.sh
#
# Needs GNU parallel (apt-get install parallel). The binaries are
# $KOMA_BIN_DIR's, by default target/release's (built when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${KOMA_BIN_DIR:-$PWD/target/release}
if ! command -v parallel > /dev/null; then
    echo "parallel-test: GNU parallel is not installed (apt-get install parallel)" >&2
    exit 2
fi
if [ ! -x "$bin/koma-referee" ] || [ ! -x "$bin/koma" ]; then
    cargo build --release --bins
fi
dir=$(mktemp -d /tmp/koma-parallel.XXXXXX)
trap 'rm -rf "$dir"' EXIT
rounds=8
total=$((2 * rounds))

# docs/cluster.md's line, with the local host for the cluster's.
parallel --will-cite --sshlogin 2/: \
    "$bin/koma-referee" --engine cmd="$bin/koma" name=d1 depth=1 \
    --engine cmd="$bin/koma" name=d2 depth=2 --rounds "$rounds" --random-plies 4 \
    --shard {}/4 --pgnout "$dir/shard-{}.pgn" ::: 1 2 3 4 > "$dir/matches.txt"

"$bin/koma-referee" --report "$dir"/shard-*.pgn | tee "$dir/report.txt"
grep -qF "$total games from 4 file(s), shards 1-4 of 4; the match has $total" "$dir/report.txt" || {
    echo "parallel-test: FAILED: not all $total games in the report" >&2
    exit 1
}
games=$(cat "$dir"/shard-*.pgn | sed -n 's/^\[Game "\([0-9]*\)"\]/\1/p' | sort -n)
if [ "$(wc -l <<< "$games")" != "$total" ] || [ "$(uniq <<< "$games" | wc -l)" != "$total" ]; then
    echo "parallel-test: FAILED: the shards do not hold each of the $total games once" >&2
    exit 1
fi
echo "parallel-test: passed: $total games in 4 shards, each once"
