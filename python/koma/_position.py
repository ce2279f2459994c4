"""`koma.Position`: the native position (`koma._koma.Position`) with the
names and shapes a python-chess user types (`legal_moves` as a view,
`push_uci`, `move_stack`, `peek`, `ply()`, `result()`, `==` by position),
kept next to the names the package had before (`legal_moves()`, `ply`,
`moves`), which still work."""

from __future__ import annotations

from typing import Iterator, List, Optional

from . import _koma
from ._errors import EmptyLineError


class _Ply(int):
    """A ply count readable both as python-chess's `ply()` and as the
    package's older `ply` attribute."""

    def __call__(self) -> int:
        return int(self)


class _Text(str):
    """A string that can also be called, so python-chess's `result()`
    and the package's older `result` attribute both read it."""

    def __call__(self) -> str:
        return str(self)


class LegalMoves:
    """The legal moves of a position, as python-chess's
    `board.legal_moves`: iterable, sized, `in`-able (a move string), and
    callable for the list (the package's older `legal_moves()`). It reads
    the position when used, so it follows the moves played."""

    __slots__ = ("_position",)

    def __init__(self, position: "Position"):
        self._position = position

    def __call__(self) -> List[str]:
        return self._position.legal_move_list()

    def __iter__(self) -> Iterator[str]:
        return iter(self._position.legal_move_list())

    def __len__(self) -> int:
        return len(self._position.legal_move_list())

    def __bool__(self) -> bool:
        return bool(self._position.legal_move_list())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, str) and self._position.is_legal(move)

    def count(self) -> int:
        return len(self)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(self._position.legal_move_list())})>"


class Outcome:
    """How a game ended, as python-chess's `Outcome`: `result()` (`1-0`,
    `0-1`, `1/2-1/2`; also readable as the attribute `result`), `winner`
    (`first`, `second`, or None for a draw) and `termination` (the rule,
    in the engine's words; also `reason`)."""

    __slots__ = ("result", "winner", "termination")

    def __init__(self, result: str, winner: Optional[str], termination: str):
        self.result = _Text(result)
        self.winner = winner
        self.termination = termination

    @property
    def reason(self) -> str:
        return self.termination

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (str(self.result), self.winner, self.termination) == (
            str(other.result),
            other.winner,
            other.termination,
        )

    def __hash__(self) -> int:
        return hash((str(self.result), self.winner, self.termination))

    def __repr__(self) -> str:
        return f"Outcome(result={str(self.result)!r}, winner={self.winner!r}, termination={self.termination!r})"

    def __str__(self) -> str:
        if self.winner is not None:
            return f"{self.result} {{{self.winner} player wins by {self.termination}}}"
        return f"{self.result} {{draw by {self.termination}}}"


class Position(_koma.Position):
    """A game of any variant: its start, the moves played, the rules
    (docs/python.md). Moves are strings as the protocol writes them."""

    __slots__ = ()

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """The end of the game (repetition included), or None.
        `claim_draw` is accepted for python-chess's sake: these games have
        no draw to claim, every draw is automatic."""
        o = super().outcome()
        return None if o is None else Outcome(o.result, o.winner, o.reason)

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.is_over()

    def result(self, *, claim_draw: bool = False) -> str:
        """`1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on."""
        o = super().outcome()
        return "*" if o is None else o.result

    def push_uci(self, move: str) -> str:
        """`push`, under python-chess's name (moves are already text)."""
        return self.push(move)

    def parse_uci(self, move: str) -> str:
        """The move as the protocol writes it, if legal here; raises
        IllegalMoveError or InvalidInputError otherwise (as `push` would)."""
        probe = self.copy()
        return probe.push(move)

    @property
    def ply(self) -> _Ply:
        return _Ply(self.plies())

    @property
    def move_stack(self) -> List[str]:
        """The moves played, oldest first (python-chess's name for `moves`)."""
        return self.moves

    def peek(self) -> str:
        """The last move played; EmptyLineError (an IndexError) at the start."""
        moves = self.moves
        if not moves:
            raise EmptyLineError("no move played yet")
        return moves[-1]

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred at least `count`
        times in the game (python-chess's meaning)."""
        return self.repeats() >= count

    def _identity(self):
        return (self.variant, tuple(sorted(self.rules.items())), self.fen())

    def __eq__(self, other: object) -> bool:
        """Equal when the variant, the rules and the position string (the
        board, hands, side to move and counters) are: the moves that led
        there do not count, as in python-chess."""
        if not isinstance(other, _koma.Position):
            return NotImplemented
        if not isinstance(other, Position):
            return NotImplemented
        return self._identity() == other._identity()

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._identity())
