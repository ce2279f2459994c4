#!/usr/bin/env bash
# Koma's depth and nodes/s beside Fairy-Stockfish's on games of similar board
# and piece power, from the start position, one thread, 16 MB hash, `go
# movetime` of 1 s and 5 s. Each figure is the median of 3 runs; the two
# engines' runs alternate (Fairy-Stockfish, Koma, Fairy-Stockfish, ...), so a
# change in the machine's load hits both alike; `uptime` is printed beside
# each row. Depth is the last `info depth` line without a bound (an
# iteration's result), nodes/s the last line's `nps`.
#
# Usage: tools/peers.sh [KOMA_BINARY] [NEWER_FAIRY_STOCKFISH]
#   KOMA_BINARY            default target/release/koma
#   NEWER_FAIRY_STOCKFISH  a Fairy-Stockfish build that knows `flipello`
#                          (Debian's 11.1 does not); without it the Negaeri
#                          row says flipello is unavailable.
#   RUNS (environment)     runs per figure, default 3
#   TIMES (environment)    movetimes in ms, default "1000 5000"
# Installs Debian's `fairy-stockfish` package with apt-get when it is missing
# (needs root).
set -euo pipefail
koma=${1:-target/release/koma}
newer=${2:-}
runs=${RUNS:-3}
times=${TIMES:-1000 5000}

fsf=$(command -v fairy-stockfish || true)
[ -z "$fsf" ] && [ -x /usr/games/fairy-stockfish ] && fsf=/usr/games/fairy-stockfish
if [ -z "$fsf" ]; then
    echo "installing Debian's fairy-stockfish..." >&2
    apt-get install -y fairy-stockfish >&2 || { apt-get update >&2 && apt-get install -y fairy-stockfish >&2; }
    fsf=/usr/games/fairy-stockfish
fi
[ -x "$koma" ] || { echo "no Koma binary at $koma (cargo build --release)" >&2; exit 2; }

# probe ENGINE VARIANT MS: prints "DEPTH NPS" of one search from the start.
probe() {
    local engine=$1 variant=$2 ms=$3 line depth=0 nps=0
    coproc ENG { "$engine" 2>/dev/null; }
    {
        echo uci
        echo "setoption name Threads value 1"
        echo "setoption name Hash value 16"
        echo "setoption name UCI_Variant value $variant"
        echo "position startpos"
        echo "go movetime $ms"
    } >&"${ENG[1]}"
    while IFS= read -r line <&"${ENG[0]}"; do
        case $line in
        "info depth "*)
            set -- $line
            while [ $# -gt 0 ]; do
                case $1 in
                depth) [[ $line == *bound* ]] || depth=$2 ;;
                nps) nps=$2 ;;
                esac
                shift
            done
            ;;
        bestmove*) break ;;
        esac
    done
    echo quit >&"${ENG[1]}"
    wait "$ENG_PID" 2>/dev/null || true
    echo "$depth $nps"
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Nodes/s as "0.72 M".
mega() { awk -v n="$1" 'BEGIN {printf "%.2f M", n / 1e6}'; }

echo "| pairing | movetime | Fairy-Stockfish depth | nodes/s | Koma depth | nodes/s | load (1 min) |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for pairing in "minishogi kaninariebi" "shogi hasami" "dobutsu nana" "flipello negaeri"; do
    set -- $pairing
    peer=$1 game=$2 peer_bin=$fsf
    if [ "$peer" = flipello ]; then
        if [ -z "$newer" ] || [ ! -x "$newer" ]; then
            echo "| flipello vs negaeri | - | unavailable (give a newer Fairy-Stockfish as the second argument) | | | | |"
            continue
        fi
        peer_bin=$newer
    fi
    for ms in $times; do
        fd=() fn=() kd=() kn=()
        for _ in $(seq "$runs"); do
            read -r d n < <(probe "$peer_bin" "$peer" "$ms")
            fd+=("$d") fn+=("$n")
            read -r d n < <(probe "$koma" "$game" "$ms")
            kd+=("$d") kn+=("$n")
        done
        load=$(uptime | sed 's/.*load average: //; s/,.*//')
        echo "| $peer vs $game | $((ms / 1000)) s | $(median "${fd[@]}") | $(mega "$(median "${fn[@]}")") | $(median "${kd[@]}") | $(mega "$(median "${kn[@]}")") | $load |"
    done
done
echo
echo "uptime: $(uptime)"
