"""Kani Nari Ebi's endgame tables (`koma solve kaninariebi --pieces N`),
probed in the shape of python-chess's `chess.syzygy`: `open_tablebase`,
`probe_wdl`/`probe_dtz` raising `MissingTableError` (a `KeyError`) where
no table answers, `get_wdl`/`get_dtz` returning None there. See
docs/python.md and docs/tables.md."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import List, Optional, Union

from . import Position, _koma
from ._errors import MissingTableError, TableError, TableFolderError

__all__ = [
    "Tablebase",
    "MoveValue",
    "open_tablebase",
    "MissingTableError",
    "TableError",
    "TableFolderError",
]


@dataclass(frozen=True)
class MoveValue:
    """A legal move with its value for the side making it: `wdl` 2, 0 or
    -2 and `dtz` as `Tablebase.probe_dtz` counts them."""

    move: str
    wdl: int
    dtz: int


class Tablebase:
    """A folder of tables; files are read (and checked whole) the first
    time a position of their material is probed, and kept until `close()`.

    Values are for the side to move, as python-chess counts them: WDL 2
    (win), 0 (draw), -2 (loss), no cursed ±1 (the game has no move-count
    rule); DTZ the plies to the next capture or promotion (or the end),
    positive when winning, negative when losing, 0 for a draw or a game
    already over. A history can turn a table's win into a draw by
    repetition: `probe_moves` and `best_moves` score such a move as a draw.
    """

    def __init__(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> None:
        self._native = _koma.Tablebase(None if path is None else os.fspath(path))

    @property
    def path(self) -> str:
        """The folder probed (the tables of a variant are in a subfolder)."""
        return str(self._native.path)

    def probe_wdl(self, position: Position) -> int:
        """2, 0 or -2; raises `MissingTableError` where no table holds the
        position, `TableError` for a table file that is refused."""
        return self._native.probe(position)[0]

    def probe_dtz(self, position: Position) -> int:
        """Plies to the next capture or promotion (or the end), signed."""
        return self._native.probe(position)[1]

    def get_wdl(self, position: Position, default: Optional[int] = None) -> Optional[int]:
        try:
            return self.probe_wdl(position)
        except MissingTableError:
            return default

    def get_dtz(self, position: Position, default: Optional[int] = None) -> Optional[int]:
        try:
            return self.probe_dtz(position)
        except MissingTableError:
            return default

    def probe_moves(self, position: Position) -> List[MoveValue]:
        """Every legal move with its value, best first (a win sooner, a
        loss later); empty for a game over."""
        return [MoveValue(m, w, d) for m, w, d in self._native.probe_moves(position)]

    def best_moves(self, position: Position) -> List[str]:
        """The moves that keep the position's value with the best distance
        (ties in the order the rules generate them)."""
        moves = self.probe_moves(position)
        return [m.move for m in moves if (m.wdl, m.dtz) == (moves[0].wdl, moves[0].dtz)]

    def close(self) -> None:
        """Forgets the tables read; probing afterwards raises `TableError`."""
        self._native.close()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_tablebase(path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Tablebase:
    """The tables under `path`, else under the folder `koma solve` writes
    to (`$XDG_DATA_HOME/koma/tables`, else `~/.local/share/koma/tables`).
    A folder named but absent raises `TableFolderError` (a
    `FileNotFoundError`); the default folder may be absent."""
    return Tablebase(path)
