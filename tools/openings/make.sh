#!/usr/bin/env bash
# Makes the shipped opening suites again (suites/<game>.txt, embedded
# in koma-referee for --openings suite=default). Each suite's header repeats
# its command and names the build that made it (`koma bench` signature and git
# commit): the search decides what is kept, so another search makes another
# suite. To make the same files again, check out that commit and run this.
# Usage: tools/openings/make.sh [GAME...]   (default: all four)
#   THREADS (environment): threads, default every core (the output does not depend on it)
#   KOMA (environment): use this koma binary instead of building the checked-out tree;
#     then COMMIT names the commit it was built from (else the header names none)
set -euo pipefail
cd "$(dirname "$0")/../.."
threads=${THREADS:+--threads $THREADS}
if [ -n "${KOMA:-}" ]; then
    koma=$KOMA
    commit=${COMMIT:+--commit $COMMIT}
else
    # The header names the commit, so the binary must be that commit's build:
    # a tree with changes outside suites/ (which the generator does not read)
    # is refused, and cargo brings the binary up to date with the tree.
    if ! git diff --quiet HEAD -- . ':(exclude)suites'; then
        echo "make.sh: the tree has uncommitted changes outside suites/: commit them first" >&2
        exit 2
    fi
    nice -n 5 cargo build --release --bin koma >&2
    koma=target/release/koma
    commit="--commit $(git rev-parse --short=10 HEAD)"
fi

make_suite() { # game, then the generator's settings
    local g=$1
    shift
    echo "== $g" >&2
    local t0=$SECONDS
    nice -n 5 "$koma" openings --variant "$g" --name default "$@" $threads $commit \
        --out "suites/$g.txt"
    echo "== $g: $((SECONDS - t0)) s" >&2
}

for g in ${@:-kaninariebi hasami nana negaeri}; do
    case $g in
    kaninariebi)
        make_suite kaninariebi --positions 3000 --plies 8-12 --depth 9 --window=-40,40 --seed 1 \
            --playout weighted --temperature 20 --max-candidates 60000 ;;
    hasami)
        make_suite hasami --positions 2000 --plies 8-12 --depth 8 --window=-30,30 --seed 1 \
            --playout weighted --temperature 20 --max-candidates 40000 ;;
    nana)
        # Every position 2 to 4 plies in (23k, up to mirror images) is scored:
        # the suite holds all the balanced ones.
        make_suite nana --positions 30000 --plies 2-4 --depth 12 --window=-50,50 --seed 1 \
            --playout all --max-candidates 30000 ;;
    negaeri)
        # About 10 candidates per opening kept; the weighted playouts take
        # about two thirds of the time, the depth-7 search the rest.
        make_suite negaeri --positions 3000 --plies 6-10 --depth 7 --window=-60,60 --seed 1 \
            --playout weighted --temperature 30 --max-candidates 60000 ;;
    *)
        echo "unknown game $g" >&2
        exit 2 ;;
    esac
done
