"""A client for any engine that speaks Koma's protocol (protocol.md), in
the manner of python-chess's `chess.engine.SimpleEngine`. It runs the
referee's own client layer (Rust, `koma::client`): the same start-up,
heartbeat, deadlines and legality check of every `bestmove`, and the
engine's whole process group killed and reaped when it is closed, on
error, or when the object is collected. Ponder is never used."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Sequence, Union

from . import Position, _koma
from ._errors import EngineUsageError

__all__ = ["Limit", "Score", "Info", "PlayResult", "SimpleEngine", "koma_command"]


@dataclass(frozen=True)
class Limit:
    """What bounds a search: seconds per move, depth, nodes (any of them)."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None


@dataclass(frozen=True)
class Score:
    """A score from the side to move's view: centipawns or moves to mate
    (negative when being mated)."""

    cp: Optional[int] = None
    mate: Optional[int] = None

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"


@dataclass(frozen=True)
class Info:
    """The last scored `info` line of one PV."""

    multipv: int
    score: Optional[Score]
    depth: Optional[int] = None
    seldepth: Optional[int] = None
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time: Optional[float] = None
    pv: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class PlayResult:
    """The engine's move (as the protocol writes it), its main line's
    last `info`, and how long the call took in seconds."""

    move: str
    info: Optional[Info]
    elapsed: float


def _info(d: Mapping[str, Any]) -> Info:
    score = None
    if "cp" in d or "mate" in d:
        score = Score(cp=d.get("cp"), mate=d.get("mate"))
    return Info(
        multipv=d["multipv"],
        score=score,
        depth=d["depth"],
        seldepth=d["seldepth"],
        nodes=d["nodes"],
        nps=d["nps"],
        time=d["time"],
        pv=list(d["pv"]),
    )


def koma_command() -> List[str]:
    """The `koma` engine: `$KOMA_BIN_DIR/koma` when that is set, else
    `koma` from PATH."""
    d = os.environ.get("KOMA_BIN_DIR")
    if d:
        return [os.path.join(d, "koma")]
    found = shutil.which("koma")
    if found is None:
        raise FileNotFoundError("no koma in PATH (set KOMA_BIN_DIR to the directory of the binaries)")
    return [found]


class SimpleEngine:
    """One engine process. Start it with `SimpleEngine.popen`; use it as a
    context manager (or call `quit`) so it ends when you are done."""

    def __init__(self, engine: Any):
        self._engine = engine

    @classmethod
    def popen(
        cls,
        command: Union[str, Sequence[str]],
        variant: str = "kaninariebi",
        *,
        rules: Optional[Mapping[str, Any]] = None,
        options: Optional[Mapping[str, Any]] = None,
        cwd: Optional[str] = None,
        timeout: float = 10.0,
        heartbeat: float = 2.0,
        stall: float = 5.0,
    ) -> "SimpleEngine":
        """Starts `command` (a path, or a list of the program and its
        arguments), sets `UCI_Variant`, the rule options (every one, as
        the referee does) and `options`, and waits for `readyok` within
        `timeout` seconds. An option the engine does not declare raises
        EngineStartError. During a search, `isready` is sent after
        `heartbeat` seconds of silence and must be answered within
        `stall` seconds."""
        argv = [command] if isinstance(command, str) else list(command)
        e = _koma.Engine(
            argv,
            variant,
            rules=dict(rules) if rules else None,
            options=dict(options) if options else None,
            cwd=cwd,
            start_timeout=timeout,
            heartbeat=heartbeat,
            stall=stall,
        )
        return cls(e)

    @property
    def id_name(self) -> Optional[str]:
        """What the engine calls itself (`id name`)."""
        return self._engine.id_name

    @property
    def pid(self) -> Optional[int]:
        """The process id while it runs."""
        return self._engine.pid

    @property
    def variant(self) -> str:
        return self._engine.variant

    @property
    def warnings(self) -> List[str]:
        """Rule options the engine does not declare (it may play other rules)."""
        return self._engine.warnings

    def is_running(self) -> bool:
        return self._engine.is_running()

    def _search(self, position: Position, limit: Limit, multipv: int, timeout: Optional[float]):
        if not isinstance(limit, Limit):
            raise EngineUsageError("expected a koma.engine.Limit")
        return self._engine.search(
            position,
            time=limit.time,
            depth=limit.depth,
            nodes=limit.nodes,
            timeout=timeout,
            multipv=multipv,
        )

    def play(self, position: Position, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        """The engine's move in `position` (which is not changed). The
        call raises EngineTimeoutError after `timeout` seconds (default:
        the move time plus 10 s, or 60 s without a move time)."""
        r = self._search(position, limit, 1, timeout)
        lines = [_info(d) for d in r["lines"]]
        return PlayResult(move=r["move"], info=lines[0] if lines else None, elapsed=r["elapsed"])

    def analyse(
        self,
        position: Position,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Union[Info, List[Info]]:
        """The engine's lines in `position`: with `multipv=N` a list of up
        to N lines, best first; without it the main line alone."""
        r = self._search(position, limit, multipv or 1, timeout)
        lines = [_info(d) for d in r["lines"]]
        if multipv is None:
            if not lines:
                return Info(multipv=1, score=None, pv=[r["move"]])
            return lines[0]
        return lines

    def new_game(self) -> None:
        """`ucinewgame`: the engine forgets what it learnt of the last game."""
        self._engine.new_game()

    def quit(self) -> None:
        """Asks the engine to quit, then kills and reaps it (and whatever
        it started). Safe to call twice."""
        self._engine.quit()

    close = quit

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.id_name or '?'} pid={self.pid} variant={self.variant}>"
