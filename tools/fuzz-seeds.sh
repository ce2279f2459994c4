#!/usr/bin/env bash
# Rebuilds the fuzz targets' seed corpus (fuzz/seeds/<target>/) from the
# project's own data: the sessions and examples of protocol.md, the perft
# positions of tests/data, and records the referee writes (a short match
# of the release build against itself per game, when target/release, or
# the directory KOMA_BIN names, holds it; else the `referee-*` records
# kept are left as they are). Seeds named `bug-*` (inputs that found a
# bug) and `found-*` (inputs the fuzzers reached, kept for the stable
# test) are not touched.
# Usage: tools/fuzz-seeds.sh
set -euo pipefail
cd "$(dirname "$0")/.."
S=fuzz/seeds
games=(kaninariebi hasami nana negaeri)
for t in engine_lines engine_replies records openings board_http board_api nana_table \
    position_kaninariebi position_hasami position_nana position_negaeri; do
    mkdir -p "$S/$t"
    find "$S/$t" -type f ! -name 'bug-*' ! -name 'found-*' ! -name 'referee-*' -delete
done

# protocol.md's sessions: the lines sent (>) and the lines received (<).
awk -v dir="$S" '
    /^```session/ { n++; inside = 1; next }
    /^```/ { inside = 0; next }
    inside && /^ *> / { sub(/^ *> /, ""); print > (dir "/engine_lines/protocol-session-" n) }
    inside && /^ *< / { sub(/^ *< ?/, ""); print > (dir "/engine_replies/protocol-session-" n) }
' protocol.md
# protocol.md's table of rejected lines, sent one after another.
awk '/^\| input \| reply \|/ { on = 1; next } on && !/^\|/ { on = 0 } on' protocol.md |
    grep -o '^| `[^`]*`' | sed 's/^| `//; s/`$//' > "$S/engine_lines/protocol-errors"

# Scripts that reach every state of the loop, once per game.
for g in "${games[@]}"; do
    printf '%s\n' "setoption name UCI_Variant value $g" "isready" "position startpos" "d" \
        "go depth 2" "query gameover" "query result" "go perft 2" "isready" "stop" \
        "go ponder depth 1" "ponderhit" "go infinite" "isready" "stop" "ucinewgame" \
        "go nodes 500" "setoption name MultiPV value 2" "go depth 1" "query p1turn" \
        > "$S/engine_lines/states-$g"
    fens=$(grep '^position ' tests/data/$g.perft | grep -v startpos | sed 's/^position //')
    while read -r fen; do
        printf '%s\n' "setoption name UCI_Variant value $g" "position fen $fen" "d" "go depth 1"
    done <<< "$fens" > "$S/engine_lines/positions-$g"
done

# Rejected lines after the state has moved away from the start: each
# must leave it as it was.
printf '%s\n' "setoption name UCI_Variant value hasami" "setoption name HasamiWin value lead3" \
    "setoption name MultiPV value 2" "position startpos moves e1e5 e9e6" "go depth 1" \
    "position startpos moves e1e5 e9e6 a1a5" "position fen 9/9 w 1" "setoption name Threads value 0" \
    "setoption name HasamiLines value maybe" "setoption name NanaTable value /nonexistent" \
    "ponderhit" "go ponder depth 1" "position startpos moves e1e5 e9e6 zz" "ponderhit" \
    "position startpos moves e1e5 e9e6 e5e9" "d" > "$S/engine_lines/rejections"

# Position strings: one seed per test-data position and the start, each
# with bytes after it choosing default rules and then some moves.
for g in "${games[@]}"; do
    k=0
    { echo startpos; grep '^position ' tests/data/$g.perft | grep -v startpos | sed 's/^position //'; } |
    while read -r fen; do
        k=$((k + 1))
        { printf '%s\n' "$fen"; printf '\0\0\0\0\3\7\1\4\11\2\5\15\6\10\0\1\2\3\4\5\6\7'; } \
            > "$S/position_$g/data-$k"
    done
done

# Engine replies: Koma's own, other engines' and broken ones.
printf '%s\n' "uciok" "ugiok" "readyok" "id name Koma 0.1" "bestmove (none)" \
    "bestmove P@c4 ponder a3a4" "bestmove b3d3,d2e1+" "response p1win" \
    "option name Hash type spin default 16 min 1 max 4096" \
    "option name UCI_Variant type combo default kaninariebi var kaninariebi var hasami" \
    "info depth 3 seldepth 5 score cp -12 nodes 100 nps 1000 hashfull 3 time 5 pv a1b1 c1c2" \
    "info depth 9 score mate -2 nodes 1 time 0 pv pass" "info string hello world" \
    "info depth 3 currmove a1a2 currmovenumber 1 score cp 5 lowerbound nodes 9" \
    "bestmove" "bestmove xyz" "info depth x" "info score cp" "bestmove a1b1 ponder" \
    > "$S/engine_replies/examples"

# Records: protocol.md's example, and what the referee writes.
awk '/^```text/ { inside = 1; next } /^```/ { inside = 0 } inside' protocol.md |
    awk '/^\[Match/ { on = 1 } on' > "$S/records/protocol-example"
bin=${KOMA_BIN:-target/release}
if [ -x "$bin/koma-referee" ] && [ -x "$bin/koma" ]; then
    for g in "${games[@]}"; do
        tmp=$(mktemp -d)
        "$bin/koma-referee" --variant "$g" \
            --engine cmd="$bin/koma" name=a depth=1 \
            --engine cmd="$bin/koma" name=b nodes=300 \
            --games 2 --random-plies 2 --max-plies 60 --pgnout "$tmp/games.pgn" > /dev/null
        cp "$tmp/games.pgn" "$S/records/referee-$g"
        rm -rf "$tmp"
    done
fi

# Openings: every test-data position, with and without moves, and the
# forms a book line may take.
for g in "${games[@]}"; do
    { echo "# $g"; echo "startpos"; grep '^position ' tests/data/$g.perft | grep -v startpos |
        sed 's/^position /fen /'; } > "$S/openings/data-$g"
done
printf '%s\n' "# a comment" "; another" "" "startpos moves a1a2 i9i8" "a1a2 i9i8" \
    "3/3/3[KRBkrb] w 1 moves K@b2" "fen 3/3/3[KRBkrb] w 1" "startpos moves a3c5" \
    > "$S/openings/forms"
# Suites: each shipped suite's header and first five openings.
for g in "${games[@]}"; do
    [ -f "suites/$g.txt" ] || continue
    { grep '^#' "suites/$g.txt" | sed 's/^# positions: .*/# positions: 5/'
        grep -v '^#' "suites/$g.txt" | head -5; } > "$S/openings/suite-$g"
done

# HTTP requests: the page, each route, and the broken heads of
# tests/board_http.rs.
h='Host: 127.0.0.1:8080\r\nX-Koma-Secret: fuzz\r\n'
post() { printf "POST $1 HTTP/1.1\r\n${h}Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" "${#2}" "$2"; }
printf "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n" > "$S/board_http/page"
printf "GET /api/games HTTP/1.1\r\n${h}\r\n" > "$S/board_http/games"
printf "GET /api/tables/1?since=1&ply=2 HTTP/1.1\r\n${h}\r\n" > "$S/board_http/table"
printf "GET /%%zz HTTP/1.1\r\n${h}\r\n" > "$S/board_http/bad-percent"
printf "GET / HTTP/2.0\r\n\r\n" > "$S/board_http/bad-version"
printf "POST /api/tables HTTP/1.1\r\n${h}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" > "$S/board_http/chunked"
post /api/tables '{"game":"nana","rules":{}}' > "$S/board_http/new-table"
post /api/tables '{"game":"hasami","rules":{"HasamiWin":"lead3"},"start":"8p/9/9/9/9/9/9/9/P8 w 1"}' > "$S/board_http/new-table-start"
post /api/positions '{"game":"negaeri","moves":["P@a1"]}' > "$S/board_http/positions"
post /api/positions '{"game":"hasami","moves":["a1a2","i9i8","a2a3"]}' > "$S/board_http/positions-moves"
post /api/records "{\"text\":\"[Variant \\\"hasami\\\"]\\n\\n1. a1a2 a1a3 1-0\\n\"}" > "$S/board_http/records"
post /api/tables "{\"review\":{\"text\":\"[Variant \\\"nana\\\"]\\n\\n1. K@b2 *\\n\",\"index\":0}}" > "$S/board_http/review"
post /api/tables/1/move '{"move":"a1a2","ply":0}' > "$S/board_http/move"

# Structured inputs (arbitrary): the empty input (a valid Nana table
# loaded and probed; no API call), and a few fixed byte strings.
: > "$S/board_api/empty"
: > "$S/nana_table/empty"
printf '\0\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\21\22\23\24\25\26\27' > "$S/board_api/bytes"
printf '\0\2\0\1\7\0\1\1\12\0\0\4\0\1\0\2\0\3\0\4' > "$S/nana_table/bytes"
echo "seeds in $S: $(find "$S" -type f | wc -l) files, $(du -sh "$S" | cut -f1)"
