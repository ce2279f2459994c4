"""Koma for Python: the rules of Kani Nari Ebi, Hasami, Nana and Negaeri
Shogi (`Position`), many random games at once (`random_playouts`), an
engine client (`koma.engine`), matches (`koma.match`), learning
environments (`koma.env`, `koma.gym`) and endgame tables (`koma.tables`).
Everything runs Koma's Rust code; see docs/python.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np

from ._errors import (
    EmptyLineError,
    EngineError,
    EngineProtocolError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    EngineUsageError,
    IllegalMoveError,
    InvalidInputError,
    KomaError,
    MatchError,
    MissingTableError,
    TableError,
    TableFolderError,
)
from . import _koma
from ._position import LegalMoves, Outcome, Position

__all__ = [
    "Position",
    "Outcome",
    "LegalMoves",
    "Variant",
    "RuleOption",
    "Playouts",
    "variants",
    "random_playouts",
    "KomaError",
    "InvalidInputError",
    "IllegalMoveError",
    "EmptyLineError",
    "EngineError",
    "EngineStartError",
    "EngineTimeoutError",
    "EngineTerminatedError",
    "EngineProtocolError",
    "EngineUsageError",
    "MatchError",
    "TableError",
    "MissingTableError",
    "TableFolderError",
]


@dataclass(frozen=True)
class RuleOption:
    """One rule option of a game, as the engine declares it."""

    name: str
    type: str
    """`check`, `spin`, `combo` or `string`."""
    default: Any
    min: Optional[int] = None
    max: Optional[int] = None
    values: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Variant:
    """One game: its name (`UCI_Variant`), board, rule options, and the
    size of its action space and shape of its observation planes."""

    name: str
    files: int
    ranks: int
    options: Tuple[RuleOption, ...]
    actions: int
    planes: Tuple[int, int, int]

    def defaults(self) -> Dict[str, Any]:
        """Every rule option with its default value."""
        return {o.name: o.default for o in self.options}


def variants() -> Dict[str, Variant]:
    """The four games by name, in the order of docs/rules/notation.md."""
    out = {}
    for v in _koma.variants():
        options = tuple(
            RuleOption(
                name=o["name"],
                type=o["type"],
                default=o["default"],
                min=o.get("min"),
                max=o.get("max"),
                values=tuple(o.get("values", ())),
            )
            for o in v["options"]
        )
        out[v["name"]] = Variant(
            name=v["name"],
            files=v["files"],
            ranks=v["ranks"],
            options=options,
            actions=v["actions"],
            planes=tuple(v["planes"]),
        )
    return out


@dataclass
class Playouts:
    """Random games played by `random_playouts`, in order."""

    results: np.ndarray
    """int8 per game: +1 the first player won, -1 the second, 0 a draw or cut off."""
    plies: np.ndarray
    """uint32 per game: the moves played."""
    reasons: List[Optional[str]]
    """The rule that ended each game (`three Shrimps`), None when cut off at `max_plies`."""
    observations: Optional[np.ndarray] = None
    """float32 (decisions, channels, ranks, files): what each decision was taken in
    (one decision per move; two for a Kani Nari Ebi turn of two actions)."""
    actions: Optional[np.ndarray] = None
    """uint32 per decision: the action taken."""
    game_index: Optional[np.ndarray] = None
    """uint32 per decision: the game it belongs to."""
    seconds: float = 0.0
    """How long the games took in Rust (without the call's conversions)."""

    @property
    def total_plies(self) -> int:
        return int(self.plies.sum())


def random_playouts(
    variant: str,
    games: int,
    *,
    seed: int = 0,
    rules: Optional[Mapping[str, Any]] = None,
    fen: Optional[str] = None,
    max_plies: int = 1000,
    observations: bool = False,
    threads: int = 0,
    depth: int = 0,
    epsilon: float = 0.0,
) -> Playouts:
    """Plays `games` games in Rust (on `threads` threads, 0 for all cores)
    and returns their results; with `observations=True` also the planes
    and actions of every decision. Moves are uniformly random, or with
    `depth > 0` Koma's search's best at that depth except, with
    probability `epsilon` (from 0 to 1), a random one. The same seed gives
    the same games whatever the threads. Observations that would not fit
    in the memory free raise MemoryError before they are allocated."""
    raw = _koma.random_playouts_raw(
        variant,
        games,
        seed=seed,
        rules=dict(rules) if rules else None,
        fen=fen,
        max_plies=max_plies,
        observations=observations,
        threads=threads,
        depth=depth,
        epsilon=epsilon,
    )
    out = Playouts(
        results=np.frombuffer(raw["results"], dtype=np.int8),
        plies=np.frombuffer(raw["plies"], dtype=np.uint32),
        reasons=raw["reasons"],
        seconds=raw["seconds"],
    )
    if observations:
        shape = variants()[variant.lower()].planes
        out.observations = np.frombuffer(raw["planes"], dtype=np.float32).reshape((-1,) + shape)
        out.actions = np.frombuffer(raw["actions"], dtype=np.uint32)
        out.game_index = np.frombuffer(raw["game_index"], dtype=np.uint32)
    return out


def _register_gymnasium_ids() -> None:
    """`gymnasium.make("koma/<Variant>-v0")` for each game, where gymnasium
    is installed (registering does not start an engine)."""
    try:
        import gymnasium
    except ImportError:
        return

    for name in variants():
        gid = f"koma/{name.capitalize()}-v0"
        if gid not in gymnasium.registry:
            gymnasium.register(id=gid, entry_point="koma.gym:KomaGymEnv", kwargs={"variant": name})


_register_gymnasium_ids()
