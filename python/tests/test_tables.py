"""Endgame table probing (`koma.tables`, python-chess's `chess.syzygy`
shape). Kani Nari Ebi's smallest table (6 pieces) takes minutes of CPU to
solve, so the suite writes table files itself from docs/tables.md's format
(every entry a draw: the reading, naming, checking and move scoring are
what is tested), and checks real values only where `koma solve` has
written the tables (`KOMA_TABLES`, else the default folder); those tests
say they were skipped otherwise."""

import os
import struct
import zlib
from pathlib import Path

import pytest

import koma
from koma.tables import MissingTableError, TableError, TableFolderError, open_tablebase

# docs/tables.md: CSSvCSS's entry count, its longest win and longest loss.
CSSVCSS_ENTRIES = 15_994_800
LONGEST_WIN = "5/1CS2/s1s2/2S2/3c1 w 1"
LONGEST_LOSS = "5/2sc1/2S1S/5/C2s1 w 1"


def write_table(folder: Path, name: str, signature: str, entries: int, values: bytes) -> Path:
    """A table file as docs/tables.md lays it out, counts and checksum
    computed from `values`."""
    assert len(values) == entries
    # Draws only: the header's counts and longest lines are then trivial.
    assert values.count(0) == entries
    won, lost, drawn = 0, 0, entries
    head = b"KOMAEGTB" + struct.pack("<I", 1)
    head += b"kaninariebi".ljust(32, b"\0") + b"".ljust(32, b"\0")
    head += signature.encode().ljust(16, b"\0") + struct.pack("<Q", entries)
    head += struct.pack("<QQQ", won, lost, drawn) + struct.pack("<II", 0, 0)
    head += struct.pack("<QQ", 0, 0) + struct.pack("<I", 0)
    assert len(head) == 152
    crc = zlib.crc32(values, zlib.crc32(head))
    d = folder / "kaninariebi"
    d.mkdir(parents=True, exist_ok=True)
    p = d / f"{name}.ktb"
    p.write_bytes(head + struct.pack("<II", crc, 0) + values)
    return p


@pytest.fixture(scope="module")
def drawn_tables(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tables")
    write_table(root, "CSSvCSS", "CSSvCSS", CSSVCSS_ENTRIES, bytes(CSSVCSS_ENTRIES))
    return root


def real_tables() -> Path:
    root = Path(os.environ.get("KOMA_TABLES") or open_tablebase().path)
    if not (root / "kaninariebi" / "CSSvCSS.ktb").is_file():
        pytest.skip(f"no CSSvCSS table under {root}: `koma solve kaninariebi --pieces 6` writes it")
    return root


def test_a_position_no_table_holds_raises_a_key_error_and_get_returns_none(tmp_path):
    with open_tablebase(tmp_path) as tb:
        for pos in (koma.Position(), koma.Position(fen=LONGEST_WIN), koma.Position("nana")):
            with pytest.raises(MissingTableError) as e:
                tb.probe_wdl(pos)
            assert isinstance(e.value, KeyError) and isinstance(e.value, koma.KomaError)
            with pytest.raises(KeyError):
                tb.probe_dtz(pos)
            with pytest.raises(KeyError):
                tb.probe_moves(pos)
            assert tb.get_wdl(pos) is None and tb.get_dtz(pos) is None
            assert tb.get_wdl(pos, 7) == 7
        with pytest.raises(MissingTableError, match="CSSvCSS.ktb"):
            tb.probe_wdl(koma.Position(fen=LONGEST_WIN))
        with pytest.raises(MissingTableError, match="nana"):
            tb.probe_wdl(koma.Position("nana"))


def test_a_table_file_is_read_and_its_moves_scored(drawn_tables):
    tb = open_tablebase(drawn_tables)
    pos = koma.Position(fen=LONGEST_WIN)
    assert tb.probe_wdl(pos) == 0 and tb.probe_dtz(pos) == 0
    assert tb.get_wdl(pos) == 0
    moves = tb.probe_moves(pos)
    assert sorted(m.move for m in moves) == sorted(pos.legal_move_list())
    # Every entry is a draw, so a move is a draw unless it ends the game
    # (then a win in 1, ranked first), as the rules say.
    for m in moves:
        after = pos.copy()
        after.push(m.move)
        if after.outcome() is None:
            assert (m.wdl, m.dtz) == (0, 0)
        else:
            assert (m.wdl, m.dtz) == (2, 1)
    # Best first: a win sooner, a loss later (for both, -dtz is larger).
    ranks = [(m.wdl, -m.dtz) for m in moves]
    assert ranks == sorted(ranks, reverse=True)
    best = tb.best_moves(pos)
    assert best and all((m.wdl, m.dtz) == (moves[0].wdl, moves[0].dtz) for m in moves if m.move in best)
    tb.close()


def test_a_refused_table_raises_table_error_not_key_error(tmp_path):
    entries = bytes(CSSVCSS_ENTRIES)
    good = write_table(tmp_path, "CSSvCSS", "CSSvCSS", CSSVCSS_ENTRIES, entries)
    data = bytearray(good.read_bytes())
    data[-1] = 3  # an entry changed under the checksum
    good.write_bytes(bytes(data))
    pos = koma.Position(fen=LONGEST_WIN)
    with open_tablebase(tmp_path) as tb:
        with pytest.raises(TableError, match="checksum") as e:
            tb.probe_wdl(pos)
        assert not isinstance(e.value, KeyError)
        with pytest.raises(TableError):
            tb.get_wdl(pos)
    # Another signature's table under this name.
    other = tmp_path / "other"
    write_table(other, "CSSvCSS", "CCSvCSS", CSSVCSS_ENTRIES, entries)
    with open_tablebase(other) as tb, pytest.raises(TableError, match="CSSvCSS"):
        tb.probe_dtz(pos)


def test_open_close_and_the_default_folder(tmp_path, monkeypatch):
    with pytest.raises(TableFolderError) as e:
        open_tablebase(tmp_path / "absent")
    assert isinstance(e.value, FileNotFoundError)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    tb = open_tablebase()
    assert Path(tb.path) == tmp_path / "koma" / "tables"
    with tb:
        assert tb.get_wdl(koma.Position(fen=LONGEST_WIN)) is None
    with pytest.raises(TableError, match="closed"):
        tb.probe_wdl(koma.Position(fen=LONGEST_WIN))


def test_a_game_over_is_valued_by_its_outcome(tmp_path):
    # The end of docs/tables.md's longest win: c4e4+ promotes a third Shrimp.
    pos = koma.Position(fen="2S1c/2C2/1S3/1s3/4s w 29")
    pos.push("c4e4+")
    assert pos.outcome() is not None and pos.outcome().winner == "first"
    with open_tablebase(tmp_path) as tb:
        assert (tb.probe_wdl(pos), tb.probe_dtz(pos)) == (-2, 0)
        assert tb.probe_moves(pos) == [] and tb.best_moves(pos) == []


def test_real_tables_keep_their_documented_extremes_and_local_equations():
    with open_tablebase(real_tables()) as tb:
        win = koma.Position(fen=LONGEST_WIN)
        assert (tb.probe_wdl(win), tb.probe_dtz(win)) == (2, 57)
        loss = koma.Position(fen=LONGEST_LOSS)
        assert (tb.probe_wdl(loss), tb.probe_dtz(loss)) == (-2, -56)
        # Follow the best line: a win in d has a move to a loss in d-1 (no
        # exit can be on it before the end: every exit of CSSvCSS ends the
        # game), and no move of a loss in d is better than a loss.
        pos = win
        for ply in range(57):
            w, d = tb.probe_wdl(pos), tb.probe_dtz(pos)
            moves = tb.probe_moves(pos)
            assert (moves[0].wdl, moves[0].dtz) == (w, d)
            if w < 0:
                assert all(m.wdl == -2 for m in moves)
            pos.push(tb.best_moves(pos)[0])
            if pos.outcome() is not None:
                break
            assert tb.probe_dtz(pos) == (-(d - 1) if d > 0 else -d - 1)
        assert pos.outcome() is not None and ply == 56


def test_a_move_repeating_a_position_a_fourth_time_is_a_draw_whatever_the_table_says():
    tb = open_tablebase(real_tables())
    shuffle = ["b4a4", "d1a1", "a4b4", "a1d1"]  # back where it started
    pos = koma.Position(fen=LONGEST_WIN)
    for mv in shuffle * 2 + shuffle[:3]:
        pos.push(mv)
    assert pos.repeats() == 3  # the start after a1d1 would be its fourth time
    fresh = koma.Position(fen=pos.fen())

    def value(p):
        return {m.move: (m.wdl, m.dtz) for m in tb.probe_moves(p)}["a1d1"]

    assert value(fresh)[0] == -2
    assert value(pos) == (0, 0)
    assert tb.probe_wdl(pos) == tb.probe_wdl(fresh) == 2
    tb.close()
