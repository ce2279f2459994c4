"""python-chess habits: scripts as a python-chess user writes them, run
unchanged apart from the import (`import koma as chess`, `koma.engine`
for `chess.engine`) and the variant (`chess.Position("nana")` for
`chess.Board()`, the variant named at `popen_uci`)."""

import asyncio
import copy

import pytest

import koma as chess
import koma.engine


def test_board_names_and_shapes():
    board = chess.Position("nana")
    assert len(board.legal_moves) == board.legal_moves.count() > 0
    assert "K@a2" in board.legal_moves and "a1a1" not in board.legal_moves
    assert list(board.legal_moves) == board.legal_moves()  # the older call still works
    for move in ["K@a2", "K@c3"]:
        assert board.is_legal(move)
        board.push_uci(move)
    assert board.move_stack == ["K@a2", "K@c3"] and board.peek() == "K@c3"
    assert board.ply() == 2 and board.ply == 2
    assert not board.is_game_over() and board.result() == "*" and board.outcome() is None
    board.push_uci("a2b2")
    board.push_uci("c3b2")
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome.result() == "0-1" == board.result() and outcome.result == "0-1"
    assert outcome.winner == "second" and outcome.termination == "King captured"
    assert board.pop() == "c3b2" and board.peek() == "a2b2"


def test_equal_positions_compare_and_hash_equal():
    a, b = chess.Position("nana"), chess.Position("nana")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    a.push_uci("K@a2")
    assert a != b
    b.push_uci("K@a2")
    assert a == b and hash(a) == hash(b)
    c = copy.deepcopy(a)
    assert type(c) is chess.Position and c == a and c.move_stack == a.move_stack
    assert chess.Position("nana") != chess.Position("kaninariebi")


def test_set_fen_and_repetition():
    board = chess.Position("kaninariebi")
    board.set_fen("4c/1C2c/1C2c/C4/C4 w 1")
    assert board.fen() == "4c/1C2c/1C2c/C4/C4 w 1" and board.move_stack == []
    hasami = chess.Position("hasami")
    cycle = ["a1a2", "a9a8", "a2a1", "a8a9"]
    for move in cycle:
        hasami.push_uci(move)
    assert hasami.is_repetition(2) and not hasami.is_repetition(3)
    with pytest.raises(chess.InvalidInputError):
        board.set_fen("not a position")


def test_self_play_with_clocks(koma_bin):
    """python-chess's clock loop: the caller keeps both clocks, passes
    them with increments, and charges each move's time."""
    board = chess.Position("nana")
    engine = chess.engine.SimpleEngine.popen_uci(koma_bin, "nana")
    clocks = {True: 2.0, False: 2.0}
    while not board.is_game_over() and board.ply() < 40:
        white = board.turn == chess.engine.WHITE
        limit = chess.engine.Limit(white_clock=clocks[True], black_clock=clocks[False], white_inc=0.02, black_inc=0.02)
        result = engine.play(board, limit)
        clocks[white] = max(0.001, clocks[white] - result.elapsed) + 0.02
        board.push(result.move)
    engine.quit()
    assert board.ply() > 0 and board.result() in ("1-0", "0-1", "1/2-1/2", "*")


def test_engine_side_names(koma_bin):
    board = chess.Position("kaninariebi")
    with chess.engine.SimpleEngine.popen_uci(koma_bin, "kaninariebi") as engine:
        assert engine.id["name"].startswith("Koma")
        assert "Hash" in engine.options and engine.options["Skill"].type == "combo"
        engine.configure({"Skill": "normal"})
        with pytest.raises(chess.EngineUsageError, match="Threads"):
            engine.configure({"Threads": 0})
        engine.ping()
        result = engine.play(board, chess.engine.Limit(depth=3), ponder=True, info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        score = info["score"]
        assert info["depth"] >= 1 and info.get("pv") and info.depth == info["depth"]
        assert score.relative.score(mate_score=100000) is not None
        assert score.pov(chess.engine.WHITE) == score.white() and score.pov(False).turn == "second"
        assert not score.is_mate()
        mate = chess.Position("nana")
        for move in ["K@a2", "K@c3", "a2b2"]:  # the King on b2 can be taken
            mate.push_uci(move)
        found = engine_for(koma_bin, "nana").analyse(mate, chess.engine.Limit(mate=1))
        assert found["score"].is_mate() and found["score"].relative.score(mate_score=1000) == 999


def engine_for(path, variant):
    e = chess.engine.SimpleEngine.popen_uci(path, variant)
    engines.append(e)
    return e


engines = []


@pytest.fixture(autouse=True)
def _close_engines():
    yield
    while engines:
        engines.pop().quit()


def test_streaming_analysis_can_be_stopped(koma_bin):
    board = chess.Position("hasami")
    with chess.engine.SimpleEngine.popen_uci(koma_bin, "hasami") as engine:
        with engine.analysis(board) as analysis:
            depths = []
            for info in analysis:
                if info.get("depth") is not None:
                    depths.append(info["depth"])
                if len(depths) >= 3:
                    analysis.stop()
            best = analysis.wait()
        assert depths[:3] == sorted(depths[:3]) and best.move in board.legal_moves
        engine.ping()  # the engine is idle again and answers


def test_asyncio_api(koma_bin):
    async def main():
        transport, engine = await chess.engine.popen_uci(koma_bin, "negaeri")
        board = chess.Position("negaeri")
        while not board.is_game_over() and board.ply() < 6:
            result = await engine.play(board, chess.engine.Limit(depth=2))
            board.push(result.move)
        with await engine.analysis(board, chess.engine.Limit(depth=4)) as analysis:
            infos = [info async for info in analysis]
        await engine.quit()
        return board, infos

    board, infos = asyncio.run(main())
    assert board.ply() == 6 and infos and infos[-1]["depth"] >= 1


# python-chess's own documentation examples, verbatim; `as_koma` changes
# only the import, the board's variant and the engine's path and variant.
PYTHON_CHESS_SCRIPTS = {
    "play": """
import chess
import chess.engine

engine = chess.engine.SimpleEngine.popen_uci("/usr/bin/stockfish")

board = chess.Board()
while not board.is_game_over():
    result = engine.play(board, chess.engine.Limit(time=0.1))
    board.push(result.move)

engine.quit()
""",
    "analysis": """
import chess
import chess.engine

engine = chess.engine.SimpleEngine.popen_uci("/usr/bin/stockfish")

with engine.analysis(chess.Board()) as analysis:
    for info in analysis:
        print(info.get("score"), info.get("pv"))

        # Arbitrary stop condition.
        if info.get("seldepth", 0) > 20:
            break

engine.quit()
""",
    "asyncio": """
import asyncio
import chess
import chess.engine

async def main() -> None:
    transport, engine = await chess.engine.popen_uci("/usr/bin/stockfish")

    board = chess.Board()
    while not board.is_game_over():
        result = await engine.play(board, chess.engine.Limit(time=0.1))
        board.push(result.move)

    await engine.quit()

asyncio.run(main())
""",
}


def as_koma(script: str, engine: str, variant: str) -> str:
    return (
        script.replace("import chess\nimport chess.engine", "import koma as chess\nimport koma.engine")
        .replace("chess.Board()", f'chess.Position("{variant}")')
        .replace('popen_uci("/usr/bin/stockfish")', f'popen_uci("{engine}", "{variant}")')
    )


@pytest.mark.parametrize("name", sorted(PYTHON_CHESS_SCRIPTS))
def test_python_chess_documentation_examples_run_unchanged_but_for_the_import_and_variant(name, koma_bin, capsys):
    script = as_koma(PYTHON_CHESS_SCRIPTS[name], koma_bin, "nana")
    changed = [l for l in script.splitlines() if l not in PYTHON_CHESS_SCRIPTS[name].splitlines()]
    assert all("koma" in l or "nana" in l for l in changed), changed
    exec(compile(script, name, "exec"), {"__name__": "__main__"})
    if name == "analysis":
        printed = capsys.readouterr().out.splitlines()
        assert printed and all(l.startswith(("cp ", "mate ")) for l in printed), printed
