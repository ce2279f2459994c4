#!/usr/bin/env bash
# A mock engine for the repetition tests. In Kani Nari Ebi from the start
# it shuffles one Crab back and forth whichever side it plays (the first
# player a1b1 then b1a1, the second e1d1 then d1e1), so the start position
# comes back every four plies. It declares the game's options.
n=0
while IFS= read -r line; do
    case $line in
    uci)
        echo "id name shuffle"
        echo "option name UCI_Variant type combo default kaninariebi var kaninariebi"
        echo "option name KaniBondAnyType type check default false"
        echo "option name KaniRepetition type check default true"
        echo "uciok"
        ;;
    isready) echo "readyok" ;;
    position*)
        n=0
        if [[ $line == *" moves "* ]]; then
            read -r -a played <<<"${line#* moves }"
            n=${#played[@]}
        fi
        ;;
    go*)
        case $((n % 4)) in
        0) echo "bestmove a1b1" ;;
        1) echo "bestmove e1d1" ;;
        2) echo "bestmove b1a1" ;;
        3) echo "bestmove d1e1" ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
