#!/usr/bin/env bash
# The endgame tables' measurements (docs/tables-strength.md): Kani Nari Ebi
# matches of the engine with its tables against itself without, from
# positions of 7-8 pieces; conversion of positions the tables call won; and
# the referee's -tb adjudication on the same match.
# Usage: tools/tables-strength.sh positions            # the two opening files
#        tools/tables-strength.sh elo TC CONC [REFEREE WORDS...]
#        tools/tables-strength.sh convert with|without TC
#        tools/tables-strength.sh tally RECORDS.pgn      # conversion figures
# Environment: TABLES (default ~/.local/share/koma/tables), BIN (a folder
# holding koma and koma-referee copied out of target/release, default
# /tmp/tbuse-bin), OUT (records and outputs, default /tmp/tbuse-matches),
# ROUNDS (colour-swapped pairs, default 200: 400 games), MARGIN (the
# referee's --timemargin in ms, default 5000: the shared machine stalls
# engines past their time).
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${TABLES:-$HOME/.local/share/koma/tables}
bin=${BIN:-/tmp/tbuse-bin}
out=${OUT:-/tmp/tbuse-matches}
data=docs/tables-data
mkdir -p "$out"

match() { # NAME TC CONC OPENINGS ENGINE_A_OPTS ENGINE_B_OPTS [WORDS...]
    local name=$1 tc=$2 conc=$3 book=$4 a=$5 b=$6
    shift 6
    rm -f "$out/$name.pgn"
    /usr/bin/time -f "wall %e s" nice -n 5 "$bin/koma-referee" --variant kaninariebi \
        --engine cmd="$bin/koma" $a --engine cmd="$bin/koma" $b \
        --each "$tc" --games 2 --rounds "${ROUNDS:-200}" --max-plies 400 \
        --concurrency "$conc" --seed 1 --timemargin "${MARGIN:-5000}" \
        --openings file="$book" format=epd order=sequential \
        --rating-interval 50 --recover --pgnout "$out/$name.pgn" "$@"
}

case "${1:-}" in
positions)
    cargo build --example kani_tb_positions
    target/debug/examples/kani_tb_positions endgames --count 200 > "$data/kani-7-8-pieces.epd"
    target/debug/examples/kani_tb_positions won --tables "$tables" --count 100 \
        > "$data/kani-6-won.epd"
    ;;
elo)
    tc=$2 conc=$3
    shift 3
    match "elo-${tc//[^a-z0-9.]/_}${*:+-tb}" "$tc" "$conc" "$data/kani-7-8-pieces.epd" \
        "name=tables option.TablePath=$tables" "name=notables option.TablePath=none" "$@"
    ;;
convert)
    mode=$2 tc=$3
    case "$mode" in
    with) path=$tables ;;
    without) path=none ;;
    *) echo "convert with|without TC" >&2; exit 2 ;;
    esac
    ROUNDS=100 match "convert-$mode-${tc//[^a-z0-9.]/_}" "$tc" 2 "$data/kani-6-won.epd" \
        "name=a option.TablePath=$path" "name=b option.TablePath=$path"
    ;;
tally)
    # Each game starts from a position the tables call won for its side to
    # move: converted when that side wins; the plies of the converted games.
    python3 - "$2" <<'EOF'
import re, sys, statistics
text = open(sys.argv[1]).read()
games = re.split(r'\n(?=\[Match )', text)
won = lost = drawn = 0
plies = []
per_position = {}
for g in games:
    fen = re.search(r'\[FEN "[^"]* ([wb]) \d+"\]', g)
    res = re.search(r'\[Result "([^"]+)"\]', g)
    n = re.search(r'\[PlyCount "(\d+)"\]', g)
    if not (fen and res and n):
        continue
    mover_wins = {'w': '1-0', 'b': '0-1'}[fen.group(1)]
    key = re.search(r'\[FEN "([^"]*)"\]', g).group(1)
    per_position.setdefault(key, []).append(res.group(1) == mover_wins)
    if res.group(1) == mover_wins:
        won += 1
        plies.append(int(n.group(1)))
    elif res.group(1) == '1/2-1/2':
        drawn += 1
    else:
        lost += 1
total = won + drawn + lost
print(f"games {total}: converted {won} ({100 * won / max(total, 1):.1f} %), drawn {drawn}, lost {lost}")
both = sum(all(v) for v in per_position.values())
none = sum(not any(v) for v in per_position.values())
print(f"positions {len(per_position)}: converted in every game {both}, in none {none}")
if plies:
    print(f"plies of the converted: mean {statistics.mean(plies):.1f}, median {statistics.median(plies)}, max {max(plies)}")
EOF
    ;;
*)
    sed -n 2,14p "$0" >&2
    exit 2
    ;;
esac
