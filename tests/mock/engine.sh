#!/usr/bin/env bash
# A mock engine for the referee's tests. It speaks the protocol and plays
# the first legal move (asking `koma perft` for the moves), and misbehaves
# on purpose from its AT-th `go` on, as MODE says:
#   normal       never misbehaves
#   crash-start  exits with code 3 before reading anything
#   slow-start   sleeps 1 s before it starts, then plays normally
#   mute-start   reads everything and never answers (not even uci)
#   crash-mid    exits with code 1
#   hang         reads everything and answers nothing more
#   no-flush     its output goes into a pipe buffer that is never flushed
#   garbage      prints a line that is not the protocol, then plays on
#   illegal      answers bestmove a1a1
#   time-loss    thinks 2 s before answering
#   flood        prints info lines for ever and reads nothing more
#   resigns      reports score cp -1000 with every move
#   mated        reports score mate -2 with every move
#   affinity     says which CPUs it may run on (info string cpus LIST), then plays
#   broken       fails a compliance check on purpose: answers go infinite at
#                once, sends an info line that does not parse, ignores quit
# Usage: engine.sh KOMA MODE [AT]
koma=$1
mode=$2
at=${3:-2}
variant=kaninariebi
moves=""
gos=0

case $mode in
crash-start) exit 3 ;;
slow-start) sleep 1 ;;
mute-start)
    while read -r _; do :; done
    exit 0
    ;;
esac

first_legal_move() {
    local args=(perft --variant "$variant" 1)
    if [ -n "$moves" ]; then
        args+=(--moves "$moves")
    fi
    "$koma" "${args[@]}" | while IFS=: read -r m rest; do
        if [ -n "$rest" ]; then
            echo "$m"
            break
        fi
    done
}

score="cp 0"
case $mode in
resigns) score="cp -1000" ;;
mated) score="mate -2" ;;
esac

while IFS= read -r line; do
    case $line in
    uci)
        if [ "$mode" = affinity ]; then
            echo "info string cpus $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)"
        fi
        echo "id name mock-$mode"
        echo "option name UCI_Variant type combo default kaninariebi var kaninariebi var hasami var negaeri"
        echo "uciok"
        ;;
    isready) echo "readyok" ;;
    "setoption name UCI_Variant value "*) variant=${line##* } ;;
    position*)
        moves=""
        if [[ $line == *" moves "* ]]; then
            moves=${line#* moves }
        fi
        ;;
    go*)
        gos=$((gos + 1))
        if [ "$gos" -ge "$at" ]; then
            case $mode in
            crash-mid) exit 1 ;;
            hang)
                while read -r _; do :; done
                exit 0
                ;;
            no-flush) exec > >(exec sed '') ;;
            garbage) echo "this is not the protocol" ;;
            illegal)
                echo "bestmove a1a1"
                continue
                ;;
            time-loss) sleep 2 ;;
            flood)
                while :; do echo "info string flood"; done
                ;;
            esac
        fi
        if [ "$mode" = broken ]; then
            echo "info depth x score cp 0"
        fi
        echo "info depth 1 score $score"
        echo "bestmove $(first_legal_move)"
        ;;
    quit) [ "$mode" = broken ] || exit 0 ;;
    esac
done
