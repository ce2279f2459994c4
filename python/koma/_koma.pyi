"""Type stubs of the native module `koma._koma` (Rust, PyO3)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

class Outcome:
    """How a game ended."""

    result: str
    """`1-0`, `0-1` or `1/2-1/2`."""
    winner: Optional[str]
    """`first`, `second`, or None for a draw."""
    reason: str
    """The rule, in the engine's words (`three Shrimps`, `repetition`)."""

class Position:
    """A game of any variant: its start, the moves played, the rules. Safe
    to share between threads (calls take turns). `koma.Position`
    subclasses it with python-chess's names."""

    def __init__(
        self,
        variant: str = "kaninariebi",
        fen: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
    ) -> None: ...
    @property
    def variant(self) -> str: ...
    @property
    def rules(self) -> Dict[str, Any]: ...
    @property
    def turn(self) -> str:
        """`first` or `second`: the side to move."""
    @property
    def start_fen(self) -> str: ...
    @property
    def moves(self) -> List[str]: ...
    def plies(self) -> int: ...
    def legal_move_list(self) -> List[str]:
        """The legal moves as the protocol writes them; [] once the game is over."""
    def is_legal(self, move: str) -> bool: ...
    def push(self, move: str) -> str:
        """Plays a move; returns it as the protocol writes it. Raises
        InvalidInputError (unreadable) or IllegalMoveError."""
    def pop(self) -> str:
        """Takes the last move back and returns it; EmptyLineError at the start."""
    def outcome(self) -> Optional[Outcome]:
        """The end of the game (repetition included), or None."""
    def is_over(self) -> bool: ...
    def fen(self) -> str:
        """The current position string."""
    def set_fen(self, fen: str) -> None:
        """Starts the game again from `fen` (the rules stay)."""
    def key(self) -> int:
        """The 64-bit hash key of everything that decides the game's future."""
    def repeats(self) -> int:
        """How many times the current position has occurred in the game."""
    def perft(self, depth: int) -> int:
        """Refused (InvalidInputError) above depth 64."""
    def copy(self) -> "Position": ...
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: Any) -> "Position": ...
    def diagram(self) -> str:
        """The board as the engine's `d` prints it."""
    def position_command(self) -> str:
        """The `position` command that sets this game in an engine."""
    def legal_actions(self, pending: Optional[int] = None) -> List[int]:
        """The first actions of the legal moves, or after the movement
        action `pending` its second ones; sorted."""
    def needs_second_action(self, first: int) -> bool: ...
    def play_action(self, action: int, pending: Optional[int] = None) -> Optional[str]:
        """Plays the move, or returns None for a movement that leaves a
        second choice; IllegalMoveError for an action not legal here."""
    def observation_bytes(self, pending: Optional[int] = None) -> bytes:
        """The observation planes as float32 bytes (channels, ranks, files)."""
    def action_to_move(self, action: int) -> str: ...
    def actions_to_move(self, actions: Sequence[int]) -> str: ...
    def move_to_action(self, move: str) -> int: ...
    def move_to_actions(self, move: str) -> List[int]: ...

class Feed:
    """The `info` lines of a running search, and its stop switch."""

    def __init__(self) -> None: ...
    def stop(self) -> None: ...
    def take(self, wait: float) -> List[Dict[str, Any]]: ...

class Engine:
    def __init__(
        self,
        command: Sequence[str],
        variant: str,
        rules: Optional[Mapping[str, Any]] = None,
        options: Optional[Mapping[str, Any]] = None,
        cwd: Optional[str] = None,
        start_timeout: float = 10.0,
        heartbeat: float = 2.0,
        stall: float = 5.0,
    ) -> None: ...
    def search(
        self,
        position: Position,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        multipv: int = 1,
        clocks: Optional[Tuple[float, float, float, float]] = None,
        movestogo: Optional[int] = None,
        feed: Optional[Feed] = None,
    ) -> Dict[str, Any]: ...
    def ping(self) -> None: ...
    def configure(self, options: Mapping[str, Any]) -> None: ...
    def declared_options(self) -> List[Tuple[str, str, List[str]]]: ...
    def new_game(self) -> None: ...
    def quit(self) -> None: ...
    def is_running(self) -> bool: ...
    @property
    def pid(self) -> Optional[int]: ...
    @property
    def id_name(self) -> Optional[str]: ...
    @property
    def warnings(self) -> List[str]: ...
    @property
    def variant(self) -> str: ...

class Tablebase:
    def __init__(self, path: Optional[str] = None) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    def probe(self, position: Position) -> Tuple[int, int]: ...
    def probe_moves(self, position: Position) -> List[Tuple[str, int, int]]: ...
    def close(self) -> None: ...

def variants() -> List[Dict[str, Any]]: ...
def random_playouts_raw(
    variant: str,
    games: int,
    seed: int = 0,
    rules: Optional[Mapping[str, Any]] = None,
    fen: Optional[str] = None,
    max_plies: int = 1000,
    observations: bool = False,
    threads: int = 0,
    depth: int = 0,
    epsilon: float = 0.0,
) -> Dict[str, Any]: ...
def parse_records(text: str) -> List[Dict[str, Any]]: ...
