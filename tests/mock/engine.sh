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
#   time-loss    thinks 1.5 s before answering (its move found first, so
#                the answer comes then however slow `koma perft` is)
#   flood        prints info lines for ever and reads nothing more
#   resigns      reports score cp -1000 with every move
#   mated        reports score mate -2 with every move
#   garbage-loop answers uci, then at the first isready prints "garbage"
#                lines for ever (reading nothing more)
#   option-loop  answers uci with option lines for ever (reading nothing more)
#   min-score    reports score cp -2147483648 (the least i32) and nodes
#                18446744073709551615 (the most u64) with every move
#   affinity     says which CPUs it may run on (info string cpus LIST), then plays
#   broken       fails a compliance check on purpose: answers go infinite at
#                once, sends an info line that does not parse, ignores quit
#   flood-pv     prints info lines with a score and a pv as fast as it can
#                until it reads stop (then answers bestmove)
#   info-flood   prints EXTRA MB (default 200) of info lines, then its move
#   odd-info     prints info lines with bad values (score cp 12.5, time -1,
#                ...) before its move
#   two-moves    answers with its bestmove twice
#   exit-child   exits 0 while a child it started keeps its output open
#   refuse-again exits with code 1 as crash-mid does, creating the file
#                EXTRA first; a run that finds EXTRA refuses every
#                setoption with `info string error`, as Koma refuses a bad
#                value
#   wait-file    creates the file EXTRA.reached, then waits (reading
#                nothing) until the file EXTRA.go exists, then plays
#   refuse-hard  declares a Skill combo with easy and hard, and refuses
#                `setoption name Skill value hard`
# Usage: engine.sh KOMA MODE [AT [EXTRA]]
koma=$1
mode=$2
at=${3:-2}
extra=$4
refuse_all=""
if [ "$mode" = refuse-again ] && [ -e "$extra" ]; then
    refuse_all=1
fi
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
min-score) score="cp -2147483648 nodes 18446744073709551615" ;;
esac

while IFS= read -r line; do
    case $line in
    uci)
        [ "$mode" = option-loop ] && exec yes "option name Flood type check default true"
        if [ "$mode" = affinity ]; then
            echo "info string cpus $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)"
        fi
        echo "id name mock-$mode"
        echo "option name UCI_Variant type combo default kaninariebi var kaninariebi var hasami var negaeri"
        case $mode in refuse-*)
            echo "option name Skill type combo default easy var easy var hard"
            ;;
        esac
        echo "uciok"
        ;;
    isready)
        [ "$mode" = garbage-loop ] && exec yes garbage
        echo "readyok"
        ;;
    "setoption name Skill value hard")
        if [ "$mode" = refuse-hard ]; then
            echo "info string error: level hard needs a file this mock lacks at hard"
        fi
        ;;
    setoption*)
        if [ -n "$refuse_all" ]; then
            echo "info string error: cannot use ${line#setoption name } on a second run"
        elif [[ $line == "setoption name UCI_Variant value "* ]]; then
            variant=${line##* }
        fi
        ;;
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
            refuse-again)
                : >"$extra"
                exit 1
                ;;
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
            time-loss)
                mv=$(first_legal_move)
                sleep 1.5
                echo "bestmove $mv"
                continue
                ;;
            flood)
                while :; do echo "info string flood"; done
                ;;
            info-flood)
                flood_line="info depth 12 seldepth 20 multipv 1 score cp 31 nodes 1234567 nps 987654 hashfull 12 time 1250 pv a1a2 b1b2 c1c2 d1d2"
                yes "$flood_line" | head -n "$((${extra:-200} * 1048576 / (${#flood_line} + 1)))"
                ;;
            odd-info)
                echo "info depth 1 score cp 12.5 pv a1a2"
                echo "info depth 1 score cp 2147483648"
                echo "info depth 1 time -1"
                echo "info depth 1 nodes -5"
                ;;
            exit-child)
                sleep 30 &
                exit 0
                ;;
            wait-file)
                : >"$extra.reached"
                while [ ! -e "$extra.go" ]; do sleep 0.02; done
                ;;
            flood-pv)
                m=$(first_legal_move)
                i=0
                while :; do
                    i=$((i + 1))
                    echo "info depth $i score cp $((i % 100)) nodes $i pv $m"
                    if read -r -t 0 && read -r l && [ "$l" = stop ]; then
                        break
                    fi
                done
                ;;
            esac
        fi
        if [ "$mode" = broken ]; then
            echo "info depth x score cp 0"
        fi
        echo "info depth 1 score $score"
        mv=$(first_legal_move)
        echo "bestmove $mv"
        if [ "$mode" = two-moves ] && [ "$gos" -ge "$at" ]; then
            echo "bestmove $mv"
        fi
        ;;
    quit) [ "$mode" = broken ] || exit 0 ;;
    esac
done
