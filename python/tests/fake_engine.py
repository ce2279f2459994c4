"""A misbehaving engine for the client tests. It handshakes like a Koma
engine (uci, options, isready), then on `go` does what its mode says:
good (plays the first move of the position it was given: only in Nana
from the start, K@a1), crash (exits), silent (never answers again, not
even isready), slow (answers isready but never bestmove until stop),
illegal (bestmove a1a1), garbage (a line that is not the protocol)."""

import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "good"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


silent = False
for raw in sys.stdin:
    line = raw.strip()
    if silent:
        continue
    if line == "uci":
        say("id name fake-" + mode)
        say("option name UCI_Variant type combo default nana var nana var kaninariebi")
        say("option name MultiPV type spin default 1 min 1 max 10")
        say("option name Skill type combo default hard var easy var normal var hard")
        say("uciok")
    elif line == "isready":
        say("readyok")
    elif line.startswith("go"):
        if mode == "good":
            say("info depth 1 score cp 5 pv K@a1")
            say("bestmove K@a1")
        elif mode == "crash":
            sys.exit(3)
        elif mode == "silent":
            silent = True
        elif mode == "slow":
            pass
        elif mode == "illegal":
            say("bestmove a1a1")
        elif mode == "garbage":
            say("\x01\x02 not a protocol line")
    elif line == "stop":
        if mode == "slow":
            say("bestmove K@a1")
    elif line == "quit":
        break
