"""A client for any engine that speaks Koma's protocol (protocol.md), with
python-chess's `chess.engine` names and shapes: `SimpleEngine.popen_uci`,
`Limit` (time, depth, nodes, clocks and increments, `mate`), `play`,
`analyse`, a streaming `analysis()`, `info` as a mapping, `Score` with
`pov`/`relative`/`is_mate`/`score(mate_score=)`, and an asyncio API
(`await koma.engine.popen_uci(...)`). Colours are the games' first and
second player: python-chess's `white_*`/`WHITE` mean the first player. It
runs the referee's own client layer (Rust, `koma::client`): the same
start-up, heartbeat, deadlines and legality check of every `bestmove`, and
the engine's whole process group killed and reaped when it is closed, on
error, or when the object is collected. Ponder is never used."""

from __future__ import annotations

import asyncio
from collections import deque
import os
import shutil
import threading
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import Position, _koma
from ._errors import EngineUsageError

__all__ = [
    "Limit",
    "Score",
    "Info",
    "PlayResult",
    "Option",
    "SimpleEngine",
    "AnalysisResult",
    "AsyncEngine",
    "popen_uci",
    "koma_command",
    "INFO_NONE",
    "INFO_BASIC",
    "INFO_SCORE",
    "INFO_PV",
    "INFO_ALL",
    "WHITE",
    "BLACK",
]

# python-chess's colours: the first player moves first, as White does.
WHITE, BLACK = "first", "second"
# python-chess's `info=` selectors. Koma's client always reads every field,
# so these only exist for scripts that pass them.
INFO_NONE, INFO_BASIC, INFO_SCORE, INFO_PV, INFO_REFUTATION, INFO_CURRLINE, INFO_ALL = 0, 1, 2, 4, 8, 16, 31
# The depth of a search without a limit (`analysis()` until stopped):
# deeper than any search of these games reaches.
_UNBOUNDED_DEPTH = 100
_YEAR = 365 * 24 * 3600.0


@dataclass(frozen=True)
class Limit:
    """What bounds a search, as python-chess's `Limit`: seconds per move
    (`time`), `depth`, `nodes`, the clocks (`white_clock`, `black_clock`,
    `white_inc`, `black_inc` in seconds, `remaining_moves`: white is the
    first player), and `mate` (a mate in that many moves: searched to
    depth 2 x mate - 1, Koma having no `go mate`). Any of them together."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None

    def _clocks(self) -> Optional[Tuple[float, float, float, float]]:
        if self.white_clock is None and self.black_clock is None:
            return None
        if self.white_clock is None or self.black_clock is None:
            raise EngineUsageError("a clock limit needs both white_clock and black_clock")
        return (self.white_clock, self.black_clock, self.white_inc or 0.0, self.black_inc or 0.0)

    def _depth(self) -> Optional[int]:
        if self.mate is None:
            return self.depth
        plies = max(1, 2 * self.mate - 1)
        return plies if self.depth is None else min(plies, self.depth)


def _side(color: Any) -> str:
    """`first`/`second`, or python-chess's True (WHITE) / False (BLACK)."""
    if color is True or color == "first":
        return "first"
    if color is False or color == "second":
        return "second"
    raise ValueError(f"expected a colour, first or second (True or False), not {color!r}")


@dataclass(frozen=True)
class Score:
    """A score: centipawns (`cp`) or moves to mate (`mate`, negative when
    being mated), from the view of `turn`, the side to move in the position
    searched. As python-chess's `PovScore` and `Score` in one: `relative`,
    `pov(colour)`, `white()`, `black()`, `is_mate()`, `score(mate_score=)`.
    `mate` is an attribute here (python-chess's `mate()` is a method)."""

    cp: Optional[int] = None
    mate: Optional[int] = None
    turn: str = "first"

    @property
    def relative(self) -> "Score":
        """The score from the side to move's view (this one)."""
        return self

    def pov(self, color: Any) -> "Score":
        """The score from `color`'s view."""
        side = _side(color)
        if side == self.turn:
            return self
        return Score(
            cp=None if self.cp is None else -self.cp,
            mate=None if self.mate is None else -self.mate,
            turn=side,
        )

    def white(self) -> "Score":
        return self.pov("first")

    def black(self) -> "Score":
        return self.pov("second")

    def is_mate(self) -> bool:
        return self.mate is not None

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """Centipawns; a mate is None, or with `mate_score` that value less
        the moves to mate (negated when being mated), as python-chess."""
        if self.mate is None:
            return self.cp
        if mate_score is None:
            return None
        return mate_score - self.mate if self.mate > 0 else -mate_score - self.mate

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"


class Info(dict):
    """The last scored `info` of one PV, a mapping as python-chess's
    `InfoDict` (`info["score"]`, `info.get("pv")`) whose keys also read as
    attributes (`info.depth`): `multipv`, `score`, `depth`, `seldepth`,
    `nodes`, `nps`, `time` (seconds), `pv` (move strings)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.get(name)


@dataclass(frozen=True)
class PlayResult:
    """The engine's move (as the protocol writes it), the reply it expects
    (`ponder`, the main line's second move), its main line's last `info`,
    and how long the call took in seconds."""

    move: str
    info: Optional[Info]
    elapsed: float
    ponder: Optional[str] = None
    draw_offered: bool = False
    resigned: bool = False


@dataclass(frozen=True)
class Option:
    """An option the engine declares: name, type and combo values
    (python-chess's `var`); Koma's client does not keep the declared
    defaults and bounds, so `default`, `min` and `max` are None."""

    name: str
    type: str
    var: List[str] = field(default_factory=list)
    default: Any = None
    min: Optional[int] = None
    max: Optional[int] = None

    def is_managed(self) -> bool:
        return self.name.lower() in ("uci_variant", "multipv", "ponder")


def _info(d: Mapping[str, Any], turn: str) -> Info:
    out = Info(
        multipv=d["multipv"],
        score=Score(cp=d.get("cp"), mate=d.get("mate"), turn=turn) if ("cp" in d or "mate" in d) else None,
        pv=list(d["pv"]),
    )
    for k in ("depth", "seldepth", "nodes", "nps", "time"):
        if d.get(k) is not None:
            out[k] = d[k]
    return out


def koma_command() -> List[str]:
    """The `koma` engine: `$KOMA_BIN_DIR/koma` when that is set, else
    `koma` from PATH."""
    d = os.environ.get("KOMA_BIN_DIR")
    if d:
        return [os.path.join(d, "koma")]
    found = shutil.which("koma")
    if found is None:
        raise FileNotFoundError(
            "no koma in PATH: build the binaries (cargo build --release) and set KOMA_BIN_DIR "
            "to their directory (e.g. target/release)"
        )
    return [found]


class AnalysisResult:
    """A search running in the background (python-chess's
    `AnalysisResult`): iterate it for each `Info` as the engine sends it,
    read `info` (the latest main line) or `multipv` (the latest of each
    line), `stop()` it, `wait()` for the `PlayResult`-like best move. A
    context manager: leaving it stops the search."""

    def __init__(self, engine: "SimpleEngine", position: Position, limit: Limit, multipv: Optional[int]):
        self._feed = _koma.Feed()
        self._turn = position.turn
        self._lines: Dict[int, Info] = {}
        self._unread: Deque[Info] = deque()
        self._result: Optional[Dict[str, Any]] = None
        self._error: Optional[BaseException] = None
        self._done = threading.Event()

        def run() -> None:
            try:
                self._result = engine._search(position, limit, multipv or 1, _YEAR, feed=self._feed)
            except BaseException as e:  # noqa: BLE001 - raised again by wait()
                self._error = e
            finally:
                self._done.set()
                self._feed.stop()

        self._thread = threading.Thread(target=run, name="koma-analysis", daemon=True)
        self._thread.start()

    def _take(self, wait: float) -> None:
        for d in self._feed.take(wait):
            i = _info(d, self._turn)
            self._lines[i["multipv"]] = i
            self._unread.append(i)

    def next(self) -> Optional[Info]:
        """The next `Info`, or None once the search is over and every line
        has been read."""
        while not self._unread:
            if self._done.is_set():
                self._take(0.0)
                if not self._unread:
                    return None
                break
            self._take(0.1)
        return self._unread.popleft()

    def __iter__(self) -> Iterator[Info]:
        while True:
            i = self.next()
            if i is None:
                return
            yield i

    @property
    def info(self) -> Info:
        """The latest main line (an empty Info before the first)."""
        self._take(0.0)
        return self._lines.get(1, Info())

    @property
    def multipv(self) -> List[Info]:
        self._take(0.0)
        return [self._lines[k] for k in sorted(self._lines)]

    def would_block(self) -> bool:
        return not self._done.is_set()

    def stop(self) -> None:
        """Asks the engine to stop; it answers with its best move."""
        self._feed.stop()

    def wait(self) -> PlayResult:
        """Waits for the search to end; its move and main line."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._engine_result(self._result)

    def _engine_result(self, r: Dict[str, Any]) -> PlayResult:
        lines = [_info(d, self._turn) for d in r["lines"]]
        main = lines[0] if lines else None
        pv = main["pv"] if main else []
        return PlayResult(move=r["move"], info=main, elapsed=r["elapsed"], ponder=pv[1] if len(pv) > 1 else None)

    def __enter__(self) -> "AnalysisResult":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
        self._thread.join()


class SimpleEngine:
    """One engine process. Start it with `SimpleEngine.popen_uci` (or
    `popen`); use it as a context manager (or call `quit`) so it ends when
    you are done. Calls from several threads take turns."""

    def __init__(self, engine: Any):
        self._engine = engine
        self._options: Optional[Dict[str, Option]] = None

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

    @classmethod
    def popen_uci(cls, command: Union[str, Sequence[str]], variant: str = "kaninariebi", **kwargs: Any) -> "SimpleEngine":
        """`popen` under python-chess's name (Koma's protocol is UCI's)."""
        return cls.popen(command, variant, **kwargs)

    @property
    def id(self) -> Dict[str, str]:
        """What the engine says of itself: `{"name": …}`."""
        name = self._engine.id_name
        return {} if name is None else {"name": name}

    @property
    def id_name(self) -> Optional[str]:
        """What the engine calls itself (`id name`)."""
        return self._engine.id_name

    @property
    def options(self) -> Dict[str, Option]:
        """The options the engine declares, by name (read once, from a
        second short start of the program)."""
        if self._options is None:
            self._options = {n: Option(n, kind, list(var)) for n, kind, var in self._engine.declared_options()}
        return self._options

    def configure(self, options: Mapping[str, Any]) -> None:
        """Sets engine options; one the engine refuses raises
        EngineUsageError with its words. `UCI_Variant` and `MultiPV` are
        the client's (the variant is chosen at `popen`, MultiPV per call)."""
        managed = [n for n in options if n.lower() in ("uci_variant", "multipv")]
        if managed:
            raise EngineUsageError(f"{managed[0]} is set by the client, not by configure")
        self._engine.configure(dict(options))

    def ping(self) -> None:
        """`isready`, answered within the stall timeout."""
        self._engine.ping()

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

    def _search(self, position: Position, limit: Limit, multipv: int, timeout: Optional[float], feed: Any = None):
        if not isinstance(limit, Limit):
            raise EngineUsageError("expected a koma.engine.Limit")
        depth = limit._depth()
        if feed is not None and limit.time is None and depth is None and limit.nodes is None and limit._clocks() is None:
            depth = _UNBOUNDED_DEPTH
        return self._engine.search(
            position,
            time=limit.time,
            depth=depth,
            nodes=limit.nodes,
            timeout=timeout,
            multipv=multipv,
            clocks=limit._clocks(),
            movestogo=limit.remaining_moves,
            feed=feed,
        )

    def play(
        self,
        position: Position,
        limit: Limit,
        *,
        ponder: bool = False,
        info: int = INFO_NONE,
        timeout: Optional[float] = None,
        **_ignored: Any,
    ) -> PlayResult:
        """The engine's move in `position` (which is not changed), with its
        main line's last `info` (always read, whatever `info` asks) and the
        reply it expects (`ponder`). `ponder=True` is accepted but the
        engine does not think on the opponent's time. Raises
        EngineTimeoutError after `timeout` seconds (default: the move time
        or the mover's clock plus 10 s, or 60 s without either)."""
        r = self._search(position, limit, 1, timeout)
        lines = [_info(d, position.turn) for d in r["lines"]]
        main = lines[0] if lines else None
        pv = main["pv"] if main else []
        return PlayResult(move=r["move"], info=main, elapsed=r["elapsed"], ponder=pv[1] if len(pv) > 1 else None)

    def analyse(
        self,
        position: Position,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        info: int = INFO_ALL,
        timeout: Optional[float] = None,
        **_ignored: Any,
    ) -> Union[Info, List[Info]]:
        """The engine's lines in `position`: with `multipv=N` a list of up
        to N lines, best first; without it the main line alone."""
        r = self._search(position, limit, multipv or 1, timeout)
        lines = [_info(d, position.turn) for d in r["lines"]]
        if multipv is None:
            if not lines:
                return Info(multipv=1, score=None, pv=[r["move"]])
            return lines[0]
        return lines

    def analysis(
        self,
        position: Position,
        limit: Optional[Limit] = None,
        *,
        multipv: Optional[int] = None,
        info: int = INFO_ALL,
        **_ignored: Any,
    ) -> AnalysisResult:
        """Starts a search in the background and returns at once: iterate
        the result for each `Info` as it comes; `stop()` ends it (without a
        limit it runs until stopped)."""
        return AnalysisResult(self, position.copy(), limit or Limit(), multipv)

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


class _AsyncAnalysis:
    """`AnalysisResult` for asyncio: `async for info in analysis`,
    `await analysis.wait()`, `analysis.stop()`."""

    def __init__(self, inner: AnalysisResult):
        self._inner = inner

    def __aiter__(self) -> "_AsyncAnalysis":
        return self

    async def __anext__(self) -> Info:
        got = await _run(self._inner.next)
        if got is None:
            raise StopAsyncIteration
        return got

    @property
    def info(self) -> Info:
        return self._inner.info

    @property
    def multipv(self) -> List[Info]:
        return self._inner.multipv

    def stop(self) -> None:
        self._inner.stop()

    async def wait(self) -> PlayResult:
        return await _run(self._inner.wait)

    def __enter__(self) -> "_AsyncAnalysis":
        return self

    def __exit__(self, *exc: Any) -> None:
        self._inner.__exit__(*exc)


async def _run(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """`fn` on a worker thread (the Rust calls release the GIL)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, lambda: fn(*args, **kwargs))


class AsyncEngine:
    """The engine for asyncio code, as python-chess's `UciProtocol`: every
    call a coroutine (run on a worker thread; the Rust client releases the
    GIL). Get one from `await koma.engine.popen_uci(...)`."""

    def __init__(self, engine: SimpleEngine):
        self._sync = engine

    @property
    def id(self) -> Dict[str, str]:
        return self._sync.id

    @property
    def options(self) -> Dict[str, Option]:
        return self._sync.options

    async def ping(self) -> None:
        await _run(self._sync.ping)

    async def configure(self, options: Mapping[str, Any]) -> None:
        await _run(self._sync.configure, options)

    async def play(self, position: Position, limit: Limit, **kwargs: Any) -> PlayResult:
        return await _run(self._sync.play, position, limit, **kwargs)

    async def analyse(self, position: Position, limit: Limit, **kwargs: Any) -> Union[Info, List[Info]]:
        return await _run(self._sync.analyse, position, limit, **kwargs)

    async def analysis(self, position: Position, limit: Optional[Limit] = None, **kwargs: Any) -> _AsyncAnalysis:
        return _AsyncAnalysis(self._sync.analysis(position, limit, **kwargs))

    async def new_game(self) -> None:
        await _run(self._sync.new_game)

    async def quit(self) -> None:
        await _run(self._sync.quit)


class Transport:
    """What python-chess's `popen_uci` returns first: `close()` ends the
    engine."""

    def __init__(self, engine: SimpleEngine):
        self._engine = engine

    def close(self) -> None:
        self._engine.quit()

    def get_pid(self) -> Optional[int]:
        return self._engine.pid


async def popen_uci(
    command: Union[str, Sequence[str]], variant: str = "kaninariebi", **kwargs: Any
) -> Tuple[Transport, AsyncEngine]:
    """Starts an engine for asyncio code, as python-chess's
    `chess.engine.popen_uci`: `transport, engine = await popen_uci(...)`."""
    engine = await _run(SimpleEngine.popen, command, variant, **kwargs)
    return Transport(engine), AsyncEngine(engine)
