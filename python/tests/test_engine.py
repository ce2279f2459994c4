"""The engine client against Koma itself and against a misbehaving fake
engine: every failure raises its exception and no process is left."""

import os
import time

import pytest

import koma
from koma.engine import Info, Limit, SimpleEngine

from conftest import fake_engine


def gone(pid):
    """Whether the process has ended and been reaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False  # alive, or a zombie nobody reaped


def test_play_and_analyse_with_multipv_against_koma(koma_bin):
    pos = koma.Position("kaninariebi")
    with SimpleEngine.popen(koma_bin, "kaninariebi") as engine:
        assert engine.id_name.startswith("Koma")
        r = engine.play(pos, Limit(depth=3))
        assert r.move in pos.legal_moves()
        assert r.info is not None and r.info.depth >= 1 and r.info.score is not None
        lines = engine.analyse(pos, Limit(depth=3), multipv=3)
        assert [l.multipv for l in lines] == [1, 2, 3]
        assert len({l.pv[0] for l in lines}) == 3
        assert all(l.pv[0] in pos.legal_moves() for l in lines)
        main = engine.analyse(pos, Limit(nodes=2000))
        assert isinstance(main, Info) and main.multipv == 1
        timed = engine.play(pos, Limit(time=0.05))
        assert timed.move in pos.legal_moves()
        pid = engine.pid
    assert gone(pid)
    assert pos.ply == 0  # the position is not changed


def test_rules_and_options_reach_the_engine(koma_bin):
    pos = koma.Position("hasami", rules={"HasamiWin": "lead3"})
    with SimpleEngine.popen(koma_bin, "hasami", rules={"HasamiWin": "lead3"}, options={"Skill": "easy"}) as e:
        assert e.play(pos, Limit(depth=1)).move in pos.legal_moves()
        with pytest.raises(koma.EngineUsageError, match="the engine plays hasami, the position is nana"):
            e.play(koma.Position("nana"), Limit(depth=1))
        with pytest.raises(koma.EngineUsageError, match="a limit needs"):
            e.play(pos, Limit())


def test_an_undeclared_option_is_refused(koma_bin):
    # Koma answers it with an error; an engine that ignores it silently
    # is refused because it did not declare it.
    with pytest.raises(koma.EngineStartError, match="refused option Frobnicate=1: .*unknown option"):
        SimpleEngine.popen(koma_bin, "nana", options={"Frobnicate": 1})
    with pytest.raises(koma.EngineStartError, match="does not declare option Frobnicate"):
        SimpleEngine.popen(fake_engine("good"), "nana", options={"Frobnicate": 1})


def test_an_option_value_the_engine_refuses_raises_with_its_words(koma_bin):
    with pytest.raises(koma.EngineStartError, match=r"refused option Threads=0: .*expected an integer from 1 to 256 for Threads at 0"):
        SimpleEngine.popen(koma_bin, "nana", options={"Threads": 0})


def test_a_program_that_cannot_run_raises():
    with pytest.raises(koma.EngineStartError, match="cannot run /nonexistent/engine"):
        SimpleEngine.popen("/nonexistent/engine", "nana")


def test_a_good_fake_engine_plays():
    with SimpleEngine.popen(fake_engine("good"), "nana") as e:
        r = e.play(koma.Position("nana"), Limit(depth=1))
        assert r.move == "K@a1" and r.info.score.cp == 5


@pytest.mark.parametrize(
    "mode,error,words",
    [
        ("crash", koma.EngineTerminatedError, "disconnects"),
        ("silent", koma.EngineTimeoutError, "stops answering"),
        ("illegal", koma.EngineProtocolError, "illegal move a1a1"),
        ("garbage", koma.EngineProtocolError, "sends garbage"),
    ],
)
def test_a_misbehaving_engine_raises_and_is_ended(mode, error, words):
    e = SimpleEngine.popen(fake_engine(mode), "nana", heartbeat=0.3, stall=1.0)
    pid = e.pid
    started = time.monotonic()
    with pytest.raises(error, match=words):
        e.play(koma.Position("nana"), Limit(depth=1))
    assert time.monotonic() - started < 30
    e.quit()
    assert gone(pid) and not e.is_running()


def test_a_search_past_its_timeout_is_stopped_and_raises():
    with SimpleEngine.popen(fake_engine("slow"), "nana", heartbeat=0.3) as e:
        with pytest.raises(koma.EngineTimeoutError, match="did not finish its search within 500 ms"):
            e.play(koma.Position("nana"), Limit(depth=9), timeout=0.5)
        # It answered stop, so it is still usable.
        assert e.is_running()
    assert not e.is_running()


def test_a_dead_engine_raises_on_every_later_call():
    e = SimpleEngine.popen(fake_engine("crash"), "nana")
    with pytest.raises(koma.EngineTerminatedError):
        e.play(koma.Position("nana"), Limit(depth=1))
    with pytest.raises(koma.EngineTerminatedError, match="no longer running"):
        e.play(koma.Position("nana"), Limit(depth=1))
    e.quit()
    e.quit()  # twice is fine


def test_an_engine_dropped_without_quit_is_ended(koma_bin):
    e = SimpleEngine.popen(koma_bin, "nana")
    pid = e.pid
    del e
    import gc

    gc.collect()
    assert gone(pid)
