#!/usr/bin/env python3
"""Random playouts per second from Python, per game, side by side: Koma's
per-move API (`legal_moves` + `push` each ply), Koma's batch API
(`koma.random_playouts`, one thread and all cores, with the time the
games took inside Rust), pyffish on its nearest game (minishogi for Kani
Nari Ebi and Negaeri, shogi for Hasami, dobutsu for Nana), and Koma's
Rust perft speed (`Position.perft`, in-process, and the `koma perft`
binary when KOMA_BIN_DIR or --koma names one) as the ceiling. One run;
figures are plies (or perft nodes) per second.

    python3 tools/python/bench.py [--seconds 2] [--koma target/release/koma]

Needs the koma package installed (pip install ./python) and pyffish
(pip install pyffish) for its column."""

import argparse
import os
import random
import re
import subprocess
import time

import koma

NEAREST = {"kaninariebi": "minishogi", "hasami": "shogi", "nana": "dobutsu", "negaeri": "minishogi"}
MAX_PLIES = 1000
PERFT_DEPTH = {"kaninariebi": 5, "hasami": 4, "nana": 7, "negaeri": 4}


def per_move(variant, seconds):
    rng = random.Random(1)
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        p = koma.Position(variant)
        while p.outcome() is None and p.ply < MAX_PLIES:
            p.push(rng.choice(p.legal_moves()))
            plies += 1
    return plies / (time.perf_counter() - start)


def batch(variant, seconds, threads):
    games, rate = 16, 0.0
    while True:
        start = time.perf_counter()
        r = koma.random_playouts(variant, games, seed=1, threads=threads, max_plies=MAX_PLIES)
        wall = time.perf_counter() - start
        if wall >= seconds or games > 1 << 22:
            return r.total_plies / wall, r.total_plies / r.seconds
        games *= 2


def pyffish_rate(variant, seconds):
    try:
        import pyffish as sf
    except ImportError:
        return None
    rng = random.Random(1)
    fen = sf.start_fen(variant)
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves = []
        while len(moves) < MAX_PLIES and time.perf_counter() - start < seconds:
            # Only the call a bot needs each ply (no game-end query, which
            # would replay the moves a second time): kind to pyffish.
            legal = sf.legal_moves(variant, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
            plies += 1
    return plies / (time.perf_counter() - start)


def perft_in_process(variant):
    p = koma.Position(variant)
    start = time.perf_counter()
    n = p.perft(PERFT_DEPTH[variant])
    return n / (time.perf_counter() - start)


def perft_binary(path, variant):
    if not path or not os.path.exists(path):
        return None
    out = subprocess.run([path, "perft", str(PERFT_DEPTH[variant]), "--variant", variant],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"Time: \d+ ms, (\d+) nodes/s", out)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    default = os.path.join(os.environ["KOMA_BIN_DIR"], "koma") if os.environ.get("KOMA_BIN_DIR") else None
    ap.add_argument("--koma", default=default, help="the koma binary, for its perft speed")
    a = ap.parse_args()
    cores = os.cpu_count() or 1
    head = ("game", "per-move", "batch 1 thread", "(in Rust)", f"batch {cores} threads",
            "pyffish", "(its game)", "per-move / pyffish", "perft in-process", "koma perft")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for v in ["kaninariebi", "hasami", "nana", "negaeri"]:
        pm = per_move(v, a.seconds)
        b1, b1_rust = batch(v, a.seconds, 1)
        bn, _ = batch(v, a.seconds, cores)
        ff = pyffish_rate(NEAREST[v], a.seconds)
        row = [v, f"{pm:,.0f}", f"{b1:,.0f}", f"{b1_rust:,.0f}", f"{bn:,.0f}",
               "-" if ff is None else f"{ff:,.0f}", NEAREST[v],
               "-" if ff is None else f"{pm / ff:,.0f}x",
               f"{perft_in_process(v):,.0f}", "-" if perft_binary(a.koma, v) is None else f"{perft_binary(a.koma, v):,}"]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
