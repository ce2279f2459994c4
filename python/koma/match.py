"""Matches from Python: a thin wrapper over the `koma-referee` binary.
`run_match` builds its command line from Python values (every referee
setting has a keyword here), runs it, and reads the records it wrote
with the referee's own record parser (in the native module) into
`GameRecord`s. The referee is run as a program rather than in-process:
it is a whole program (threads per game, engines in their own process
groups with a watchdog, a lock on the record file, resume after an
interruption, signals) whose life is the match; as a child process all
of that stays exactly as tested, and a match cannot take the Python
process down with it."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _koma
from ._errors import MatchError

__all__ = ["Player", "GameRecord", "MatchResult", "run_match", "read_records", "parse_records", "referee_command"]


@dataclass(frozen=True)
class Player:
    """One engine of a match and its limits (the referee's --engine keys;
    at least one of tc, st, depth, nodes)."""

    command: Union[str, Sequence[str]]
    name: Optional[str] = None
    options: Mapping[str, Any] = field(default_factory=dict)
    tc: Optional[str] = None
    """`[moves/]base[+inc]` in seconds, e.g. "10+0.1"."""
    st: Optional[float] = None
    """Seconds per move (go movetime)."""
    depth: Optional[int] = None
    nodes: Optional[int] = None
    dir: Optional[str] = None

    def words(self) -> List[str]:
        argv = [self.command] if isinstance(self.command, str) else list(self.command)
        words = [f"cmd={argv[0]}"]
        if len(argv) > 1:
            words.append("args=" + " ".join(argv[1:]))
        if self.name:
            words.append(f"name={self.name}")
        if self.dir:
            words.append(f"dir={self.dir}")
        for k, v in self.options.items():
            v = str(v).lower() if isinstance(v, bool) else str(v)
            words.append(f"option.{k}={v}")
        for key in ("tc", "st", "depth", "nodes"):
            v = getattr(self, key)
            if v is not None:
                words.append(f"{key}={v}")
        return words


@dataclass(frozen=True)
class GameRecord:
    """One game as the referee recorded it."""

    tags: Dict[str, str]
    moves: List[str]
    comments: List[Optional[str]]
    result: str

    @property
    def first(self) -> str:
        return self.tags.get("First", "")

    @property
    def second(self) -> str:
        return self.tags.get("Second", "")

    @property
    def termination(self) -> str:
        """The referee's reason: `three Shrimps`, `loses on time`, …"""
        return self.tags.get("Termination", "")

    @property
    def fen(self) -> Optional[str]:
        return self.tags.get("FEN")

    def score_of(self, name: str) -> Optional[float]:
        """1, 0.5 or 0 for the engine called `name`; None if it did not play."""
        points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}.get(self.result)
        if points is None:
            return None
        if name == self.first:
            return points[0]
        if name == self.second:
            return points[1]
        return None


@dataclass
class MatchResult:
    records: List[GameRecord]
    summary: str
    """What the referee printed (its results table, Elo, SPRT)."""
    returncode: int
    """0 completed, 1 stopped early (an SPRT bound, a dead engine), see koma-referee --help."""
    pgn: str
    """The record file."""

    @property
    def completed(self) -> bool:
        return self.returncode == 0

    def scores(self) -> Dict[str, List[float]]:
        """Per engine: [wins, draws, losses]."""
        out: Dict[str, List[float]] = {}
        for r in self.records:
            for name in (r.first, r.second):
                s = r.score_of(name)
                if s is None:
                    continue
                w = out.setdefault(name, [0, 0, 0])
                w[{1.0: 0, 0.5: 1, 0.0: 2}[s]] += 1
        return out


def referee_command() -> str:
    """`$KOMA_BIN_DIR/koma-referee` when that is set, else from PATH."""
    d = os.environ.get("KOMA_BIN_DIR")
    if d:
        return os.path.join(d, "koma-referee")
    found = shutil.which("koma-referee")
    if found is None:
        raise FileNotFoundError("no koma-referee in PATH (set KOMA_BIN_DIR)")
    return found


def read_records(path: str) -> List[GameRecord]:
    """The records of a record file; a damaged one raises MatchError."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return parse_records(f.read(), path)


def parse_records(text: str, where: str = "records") -> List[GameRecord]:
    """The records of a record file's text; a damaged one raises MatchError."""
    out = []
    for item in _koma.parse_records(text):
        if "error" in item:
            raise MatchError(f"{where}:{item['line']}: {item['error']}")
        out.append(
            GameRecord(
                tags=dict(item["tags"]),
                moves=list(item["moves"]),
                comments=list(item["comments"]),
                result=item["result"],
            )
        )
    return out


def run_match(
    players: Sequence[Player],
    variant: str = "kaninariebi",
    *,
    rules: Optional[Mapping[str, Any]] = None,
    each: Optional[Player] = None,
    games: int = 2,
    rounds: int = 1,
    openings: Optional[str] = None,
    random_plies: int = 0,
    concurrency: int = 1,
    max_plies: int = 1000,
    timemargin_ms: int = 0,
    seed: int = 1,
    sprt: Optional[Mapping[str, Any]] = None,
    pgnout: Optional[str] = None,
    recover: bool = False,
    referee: Optional[str] = None,
    extra_args: Sequence[str] = (),
    timeout: Optional[float] = None,
) -> MatchResult:
    """Plays a match with `koma-referee` and returns its records.
    `openings` is the referee's --openings value (`suite=default`,
    `file=PATH`, with ` order=random` if wanted); `sprt` its keys
    (`{"elo0": 0, "elo1": 10}`). The records go to `pgnout` (a temporary
    file by default; give one to resume an interrupted match). A usage
    error of the referee (exit 2) raises MatchError with its words."""
    if len(players) < 2:
        raise MatchError("a match needs two players or more")
    argv = [referee or referee_command(), "--variant", variant]
    for k, v in (rules or {}).items():
        v = str(v).lower() if isinstance(v, bool) else str(v)
        argv += ["--rule", f"{k}={v}"]
    for p in players:
        argv += ["--engine", *p.words()]
    if each is not None:
        argv += ["--each", *[w for w in each.words() if not w.startswith("cmd=")]]
    argv += ["--games", str(games), "--rounds", str(rounds)]
    if openings:
        argv += ["--openings", *openings.split()]
    argv += ["--random-plies", str(random_plies), "--concurrency", str(concurrency)]
    argv += ["--max-plies", str(max_plies), "--timemargin", str(timemargin_ms), "--seed", str(seed)]
    if sprt:
        argv += ["--sprt", *[f"{k}={v}" for k, v in sprt.items()]]
    if recover:
        argv.append("--recover")
    tmp = None
    if pgnout is None:
        tmp = tempfile.mkdtemp(prefix="koma-match-")
        pgnout = os.path.join(tmp, "games.pgn")
    argv += ["--pgnout", pgnout, *extra_args]
    try:
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise MatchError(f"the match did not finish within {timeout} s") from e
        if done.returncode not in (0, 1):
            words = done.stderr.strip() or done.stdout.strip()
            raise MatchError(f"koma-referee exit {done.returncode}: {words}")
        pgn = ""
        if os.path.exists(pgnout):
            with open(pgnout, encoding="utf-8", errors="replace") as f:
                pgn = f.read()
        records = parse_records(pgn, pgnout)
        return MatchResult(records=records, summary=done.stdout, returncode=done.returncode, pgn=pgn)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

