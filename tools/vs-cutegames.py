#!/usr/bin/env python3
"""The referee's overhead beside cutegames' (docs/referee.md, "What the
referee costs"): the same engine binary plays Hasami at depth 1 from the
start under both runners, in alternating runs (koma-referee, cutegames,
koma-referee, ...) so a change in the machine's load hits both alike.

Per run it prints wall seconds, games per minute, the runner's own CPU
(user+sys of the runner process alone, its engines excluded: read from
/proc when it has exited, before it is reaped), its CPU per move, and the
most threads it had at once; then the median of each and the games/min
ratio per pair. With --strace it runs each runner once more under
`strace -f` and prints the runner's system calls per move (its engines'
left out), futex calls apart.

Usage: tools/vs-cutegames.py --cutegames PATH [--referee PATH [--engine PATH]]...
         [--games 200] [--pairs 5] [--concurrency 1] [--strace]
  PATH of cutegames: a build of https://github.com/kz04px/cutegames (not
  part of Koma, nor built by it).
Defaults: target/release/koma-referee and target/release/koma. Give
--referee twice to compare two builds in the same run; an --engine after
each (or one for both) pairs each referee with its engine, and cutegames
then runs once a round with each engine, every ratio taken against
cutegames with the same engine.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TICK = os.sysconf("SC_CLK_TCK")


def run(cmd, cwd):
    """Runs `cmd`; returns (wall s, own CPU s, most threads, exit code)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    most = [1]
    done = threading.Event()

    def sample():
        while not done.is_set():
            try:
                most[0] = max(most[0], len(os.listdir(f"/proc/{p.pid}/task")))
            except OSError:
                pass
            time.sleep(0.005)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    # Wait for the exit without reaping, so /proc still has its times.
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
    wall = time.monotonic() - start
    with open(f"/proc/{p.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # utime and stime (fields 14 and 15): the process's threads, not the
    # children it reaped (cutime, cstime).
    own = (int(fields[11]) + int(fields[12])) / TICK
    done.set()
    t.join()
    code = p.wait()
    return wall, own, most[0], code


def clear(d):
    """Removes the records of the last run (koma-referee would resume from
    its own, and cutegames append to its)."""
    for old in ("koma.pgn", "cute.pgn"):
        p = os.path.join(d, old)
        if os.path.exists(p):
            os.remove(p)


def plies(pgn):
    with open(pgn) as f:
        return [int(n) for n in re.findall(r'\[PlyCount "(\d+)"\]', f.read())]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cutegames", required=True)
    ap.add_argument("--referee", action="append",
                    help="a koma-referee binary; give it twice to compare two builds (before and after) in the same run")
    ap.add_argument("--engine", action="append",
                    help="the engine binary; once per --referee to pair them (before and after an engine change)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--strace", action="store_true")
    a = ap.parse_args()
    cute = os.path.abspath(a.cutegames)
    referees = [os.path.abspath(r) for r in (a.referee or ["target/release/koma-referee"])]
    engines = [os.path.abspath(e) for e in (a.engine or ["target/release/koma"])]
    if len(engines) == 1:
        engines *= len(referees)
    if len(engines) != len(referees):
        sys.exit("give one --engine, or one per --referee")
    d = tempfile.mkdtemp(prefix="vs-cutegames-")
    with open(os.path.join(d, "start.txt"), "w") as f:
        f.write("startpos\n")
    def cute_settings(engine, i):
        settings = {
            "game": "generic",
            "games": a.games,
            "concurrency": a.concurrency,
            "ratinginterval": 1000000,
            "tournament": "roundrobin",
            "openings": {"path": os.path.join(d, "start.txt"), "repeat": True, "shuffle": False},
            "adjudication": {"timeoutbuffer": 25, "maxfullmoves": 500},
            "timecontrol": {"type": "depth", "ply": 1},
            "options": {"UCI_Variant": "hasami"},
            "pgn": {"enabled": True, "path": os.path.join(d, "cute.pgn"), "verbose": False, "override": True},
            "engines": [{"name": "a", "path": engine}, {"name": "b", "path": engine}],
        }
        path = os.path.join(d, f"cute{i}.json")
        with open(path, "w") as f:
            json.dump(settings, f)
        return path

    def koma(referee, engine):
        return lambda: [
            referee, "--variant", "hasami",
            "--engine", f"cmd={engine}", "name=a", "depth=1",
            "--engine", f"cmd={engine}", "name=b", "depth=1",
            "--games", "2", "--rounds", str(a.games // 2),
            "--concurrency", str(a.concurrency),
            "--pgnout", os.path.join(d, "koma.pgn"),
        ]

    # Each build by its file name, with its place when two share one.
    names = [os.path.basename(r) if len(set(map(os.path.basename, referees))) == len(referees)
             else f"{os.path.basename(r)}#{i + 1}" for i, r in enumerate(referees)]
    distinct = list(dict.fromkeys(engines))
    cute_name = {e: "cutegames" if len(distinct) == 1 else f"cutegames#{i + 1}"
                 for i, e in enumerate(distinct)}
    cmds, pgns, against = {}, {}, {}
    for n, r, e in zip(names, referees, engines):
        cmds[n] = koma(r, e)
        pgns[n] = "koma.pgn"
        against[n] = cute_name[e]
        if cute_name[e] not in cmds:
            settings = cute_settings(e, len(cmds))
            cmds[cute_name[e]] = (lambda s: lambda: [cute, "--settings", s])(settings)
            pgns[cute_name[e]] = "cute.pgn"
    if len(distinct) > 1:
        for e, c in cute_name.items():
            print(f"{c}: engine {e}")
    print(f"Hasami depth 1, {a.games} games a run, concurrency {a.concurrency}, {a.pairs} pairs; "
          f"load {os.getloadavg()[0]:.1f}")
    width = max(14, *(len(n) + 2 for n in cmds))
    print(f"{'run':<{width}}{'wall s':>8}{'games/min':>11}{'own CPU ms':>12}{'us/move':>9}{'threads':>9}{'plies':>8}")
    rows = {k: [] for k in cmds}
    for i in range(a.pairs):
        for name, cmd in cmds.items():
            clear(d)
            wall, own, threads, code = run(cmd(), d)
            ps = plies(os.path.join(d, pgns[name]))
            if code != 0 or len(ps) != a.games:
                sys.exit(f"{name}: exit code {code}, {len(ps)} of {a.games} games recorded")
            gpm = a.games / wall * 60
            us = own / sum(ps) * 1e6
            rows[name].append((wall, gpm, own, us, threads))
            print(f"{name:<{width}}{wall:>8.2f}{gpm:>11.1f}{own * 1000:>12.0f}{us:>9.1f}{threads:>9}{sum(ps):>8}")
    print("median:")
    for name, r in rows.items():
        med = [statistics.median(x[j] for x in r) for j in range(5)]
        print(f"{name:<{width}}{med[0]:>8.2f}{med[1]:>11.1f}{med[2] * 1000:>12.0f}{med[3]:>9.1f}{med[4]:>9.0f}")
    for n in names:
        ratios = [k[1] / c[1] for k, c in zip(rows[n], rows[against[n]])]
        print(f"games/min ratio {n}/{against[n]} per pair: "
              + " ".join(f"{x:.2f}" for x in ratios)
              + f"; median {statistics.median(ratios):.2f}, min {min(ratios):.2f}, max {max(ratios):.2f}")
    print(f"load {os.getloadavg()[0]:.1f}")
    if a.strace:
        for name, cmd in cmds.items():
            clear(d)
            prefix = os.path.join(d, f"{name}.tr")
            subprocess.run(["strace", "-f", "-ff", "-o", prefix, "--", *cmd()],
                           cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # One file per thread or process. The runner's threads: the
            # one that started it, and those its threads made with CLONE_THREAD (a clone
            # without it is an engine starting: left out, with every
            # thread of the engine, the same under both runners).
            files = {}
            for f in os.listdir(d):
                if f.startswith(f"{name}.tr."):
                    with open(os.path.join(d, f), errors="replace") as fh:
                        files[int(f.rsplit(".", 1)[1])] = fh.read().splitlines()
                    os.remove(os.path.join(d, f))
            runner = f'execve("{cmd()[0]}"'
            todo = [p for p, lines in files.items() if lines and lines[0].startswith(runner)]
            calls = futex = 0
            while todo:
                lines = files.get(todo.pop(), [])
                real = [x for x in lines if re.match(r"[a-z_0-9]+\(", x)]
                calls += len(real)
                futex += sum(1 for x in real if x.startswith("futex("))
                for x in real:
                    m = re.match(r"clone3?\(.*CLONE_THREAD.*= (\d+)$", x)
                    if m:
                        todo.append(int(m.group(1)))
            moves = sum(plies(os.path.join(d, pgns[name])))
            print(f"strace -f {name}: {calls / moves:.1f} system calls per move "
                  f"({futex / moves:.2f} of them futex), {moves} moves")


if __name__ == "__main__":
    main()
