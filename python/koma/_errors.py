"""The exceptions of the koma package. Their messages are the engine's own
words for the same mistake (what `info string error:` would say)."""


class KomaError(Exception):
    """Base class of every error this package raises."""


class InvalidInputError(KomaError, ValueError):
    """A move, position string, variant or rule option that does not read."""


class IllegalMoveError(KomaError, ValueError):
    """A well-formed move the rules do not allow in this position."""


class EmptyLineError(KomaError, IndexError):
    """`pop()` with no move to take back."""


class EngineError(KomaError):
    """Something went wrong with an engine process."""


class EngineStartError(EngineError):
    """The engine could not be started, or refused an option."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time (silent, stalled or too slow)."""


class EngineTerminatedError(EngineError):
    """The engine exited or closed its output; it is gone."""


class EngineProtocolError(EngineError):
    """The engine played an illegal or malformed move, or sent garbage."""


class EngineUsageError(EngineError, ValueError):
    """The call is wrong: no limit, a finished game, another variant."""


class MatchError(KomaError):
    """The referee refused the match or failed."""


class TableError(KomaError):
    """An endgame table is present but refused (its header, size or
    checksum is wrong), or the tablebase is closed."""


class MissingTableError(TableError, KeyError):
    """No endgame table holds the position: another game, too many pieces,
    or its table file is absent (python-chess's `KeyError`)."""

    def __str__(self) -> str:
        # KeyError's str() quotes its argument; this is a message.
        return str(self.args[0]) if self.args else ""


class TableFolderError(TableError, FileNotFoundError):
    """`open_tablebase` was given a folder that does not exist."""
