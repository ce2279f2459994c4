#!/usr/bin/env bash
# The measured quality of the shipped opening suites (docs/openings.md's table):
#   scores    each suite's positions scored by a search two plies deeper than
#             the one that made it: the distribution (koma openings --check)
#   selfplay  Koma against itself at a fixed node count over the suite, and
#             over as many --random-plies openings of the suite's middle
#             length: draw rate and first player's score of each
#   sprt      SPRTs between nodes=N and nodes=2N of this build (with DEPTH:
#             depth=N+1 and depth=N), with the suite (order=random) and with
#             --random-plies, several seeds each: the games each needed
#   summary   the figures of whatever has been played, as tables
# Every match writes a record file in $OUT and resumes from it when the same
# command runs again (kill it at any time); finished work is not redone.
# Usage: tools/openings/quality.sh scores|selfplay|sprt|summary [GAME...]
#   OUT      results directory (default target/openings-quality)
#   KOMA, REFEREE  binaries (default target/release/koma, target/release/koma-referee)
#   SAMPLE   measure scores and selfplay on this many openings of each suite,
#            drawn at random (the same ones every run), instead of all of them
#   NODES    the weaker engine's nodes per move in sprt (default 1000; the other 2x)
#   DEPTH    sprt between depth DEPTH+1 and depth DEPTH instead of nodes
#   SELF_NODES  nodes per move in selfplay (default 2000)
#   SEEDS    SPRT seeds per opening method (default "1 2 3 4 5")
#   ELO1     the SPRT's elo1 (elo0 is 0; default 50)
#   CONC     games at once (default 2)
#   THREADS  threads of the scores search (default every core; the scores do not depend on it)
set -euo pipefail
cd "$(dirname "$0")/../.."
koma=${KOMA:-target/release/koma}
ref=${REFEREE:-target/release/koma-referee}
out=${OUT:-target/openings-quality}
nodes=${NODES:-1000}
self_nodes=${SELF_NODES:-2000}
seeds=${SEEDS:-1 2 3 4 5}
elo1=${ELO1:-50}
conc=${CONC:-2}
max_plies=300
# The two engines of sprt, and what tells their record files apart.
if [ -n "${DEPTH:-}" ]; then
    strong="depth=$((DEPTH + 1))" weak="depth=$DEPTH" sprt_tag="depth$DEPTH-"
else
    strong="nodes=$((2 * nodes))" weak="nodes=$nodes" sprt_tag=""
fi
mkdir -p "$out"
what=${1:?usage: tools/openings/quality.sh scores|selfplay|sprt|summary [GAME...]}
shift
games=${*:-kaninariebi hasami nana negaeri}

shipped() { echo "suites/$1.txt"; }
# The openings measured: the shipped suite, or with SAMPLE a file of that many
# of its openings, chosen by a fixed seed and kept in the suite's order.
suite_file() {
    if [ -z "${SAMPLE:-}" ]; then
        shipped "$1"
        return
    fi
    local f="$out/sample-$SAMPLE-$1.txt"
    if [ ! -s "$f" ]; then
        awk -v n="$SAMPLE" 'BEGIN {srand(1)}
            /^#/ {sub(/^# positions: .*/, "# positions: " n); print; next}
            {lines[++m] = $0}
            END {for (i = 1; i <= m; i++) idx[i] = i
                 for (i = 1; i <= n && i <= m; i++) {j = i + int(rand() * (m - i + 1)); t = idx[i]; idx[i] = idx[j]; idx[j] = t}
                 for (i = 1; i <= n && i <= m; i++) keep[idx[i]] = 1
                 for (i = 1; i <= m; i++) if (keep[i]) print lines[i]}' "$(shipped "$1")" > "$f.tmp"
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}
positions() { sed -n 's/^# positions: //p' "$(suite_file "$1")"; }
# The depth that made the suite, from its header's search line.
gen_depth() { sed -n 's/^# search: depth \([0-9]*\).*/\1/p' "$(shipped "$1")"; }
# Random plies comparable with the suite's playouts: the middle of their lengths.
random_plies() {
    sed -n 's/^# playouts: [a-z: ]*\([0-9]*\) to \([0-9]*\) .*/\1 \2/p' "$(shipped "$1")" |
        awk '{print int(($1 + $2) / 2)}'
}
tag() { echo "$1${SAMPLE:+-sample$SAMPLE}"; }

scores() {
    local g=$1 f="$out/scores-$(tag "$1").txt"
    [ -s "$f" ] && return
    local d=$(($(gen_depth "$g") + 2))
    nice -n 5 "$koma" openings --check "$(suite_file "$g")" --depth "$d" ${THREADS:+--threads $THREADS} > "$f.tmp"
    mv "$f.tmp" "$f"
}

selfplay() {
    local g=$1 method openings
    # Both engines are the same program at the same node count, so the
    # colour-swapped game of a pair would repeat the first move for move
    # (ucinewgame clears the table): one game per opening says the same.
    for method in suite random; do
        if [ $method = suite ]; then
            openings="--openings file=$(suite_file "$g")"
        else
            openings="--random-plies $(random_plies "$g")"
        fi
        nice -n 5 "$ref" --variant "$g" \
            --engine cmd="$koma" name=a --engine cmd="$koma" name=b --each nodes="$self_nodes" \
            $openings --games 1 --rounds "$(positions "$g")" \
            --max-plies "$max_plies" --concurrency "$conc" --rating-interval 0 \
            --pgnout "$out/selfplay-$(tag "$g")-$method.pgn" > "$out/selfplay-$(tag "$g")-$method.log" 2>&1 || true
    done
}

sprt() {
    local g=$1 method seed openings
    for seed in $seeds; do
        for method in suite random; do
            local f="$out/sprt-$sprt_tag$g-$method-$seed"
            grep -q "^SPRT: " "$f.log" 2>/dev/null && continue
            if [ $method = suite ]; then
                openings="--openings suite=default order=random"
            else
                openings="--random-plies $(random_plies "$g")"
            fi
            nice -n 5 "$ref" --variant "$g" \
                --engine cmd="$koma" name=strong "$strong" \
                --engine cmd="$koma" name=weak "$weak" \
                --sprt elo0=0 elo1="$elo1" --games 2 --rounds 20000 --seed "$seed" $openings \
                --max-plies "$max_plies" --concurrency "$conc" --rating-interval 0 \
                --pgnout "$f.pgn" > "$f.log" 2>&1 || true
        done
    done
}

# First player's wins, draws and losses in a record file, and the score of
# the side to move after the opening (the second player after an odd number
# of opening plies).
first_player() {
    awk '/^\[OpeningPlies / {odd = $2 ~ /[13579]"/}
         /^\[Result "1-0"\]/ {w++; r = 1} /^\[Result "1\/2-1\/2"\]/ {d++; r = 0.5} /^\[Result "0-1"\]/ {l++; r = 0}
         /^\[Result / {pending = 1}
         pending && /^$/ {m += odd ? 1 - r : r; pending = 0}
         END {if (pending) m += odd ? 1 - r : r
              n = w + d + l; if (n == 0) {print "no games"; exit}
              printf "%d games: first player %d wins, %d draws, %d losses; draw rate %.1f %%, first player score %.1f %%, side to move %.1f %%\n",
                     n, w, d, l, 100 * d / n, 100 * (w + d / 2) / n, 100 * m / n}' "$1"
}

summary() {
    local g=$1 method seed n
    echo "== $g ($(positions "$g") openings${SAMPLE:+, a sample of the suite})"
    [ -s "$out/scores-$(tag "$g").txt" ] && sed -n 's/^scores at /scores at /p' "$out/scores-$(tag "$g").txt"
    for method in suite random; do
        local f="$out/selfplay-$(tag "$g")-$method.pgn"
        local what=$([ $method = suite ] && echo "suite" || echo "--random-plies $(random_plies "$g")")
        [ -s "$f" ] && echo "selfplay nodes=$self_nodes, $what: $(first_player "$f")"
    done
    for method in suite random; do
        local counts=() line
        for seed in $seeds; do
            line=$(grep -h "^SPRT: " "$out/sprt-$sprt_tag$g-$method-$seed.log" 2>/dev/null | tail -1 || true)
            [ -n "$line" ] || continue
            counts+=("$(echo "$line" | sed 's/.* after \([0-9]*\) games/\1/')$(echo "$line" | grep -q H0 && echo '(H0)' || true)")
        done
        [ ${#counts[@]} -gt 0 ] || continue
        local what=$([ $method = suite ] && echo "suite, order=random" || echo "--random-plies $(random_plies "$g")")
        echo "sprt $strong vs $weak [0, $elo1], $what: games ${counts[*]}; mean $(printf '%s\n' "${counts[@]}" | sed 's/(H0)//' | awk '{s += $1} END {printf "%.0f", s / NR}')"
        local pgns=()
        for seed in $seeds; do
            [ -s "$out/sprt-$sprt_tag$g-$method-$seed.pgn" ] && pgns+=("$out/sprt-$sprt_tag$g-$method-$seed.pgn")
        done
        echo "  all these: $(cat "${pgns[@]}" | first_player /dev/stdin)"
    done
}

for g in $games; do
    case $what in
    scores | selfplay | sprt | summary) "$what" "$g" ;;
    *)
        echo "unknown job $what" >&2
        exit 2 ;;
    esac
done
