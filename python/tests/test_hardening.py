"""No input ends the interpreter or corrupts a position (issue 52): a
perft deeper than the engine allows, observations larger than the memory,
one position used from two threads, settings out of range, a Gymnasium
step before reset, and the environments without their extras. What could
kill the interpreter runs in a child process."""

import subprocess
import sys
import textwrap
import threading

import pytest

import koma


def run_child(code: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_perft_deeper_than_the_engine_allows_raises_and_the_interpreter_lives():
    child = run_child(
        """
        import koma
        try:
            koma.Position("kaninariebi").perft(2000)
        except koma.InvalidInputError as e:
            print("refused:", e)
        print(koma.Position("nana").perft(2))
        """
    )
    assert child.returncode == 0, child.stderr
    assert "refused: expected a perft depth from 0 to 64 at 2000" in child.stdout
    with pytest.raises(koma.InvalidInputError):
        koma.Position("hasami").perft(65)


def test_observations_beyond_the_memory_raise_memoryerror_and_the_interpreter_lives():
    # The child's address space is capped a little above what it uses, so
    # the observations (hundreds of MB) cannot be had.
    child = run_child(
        """
        import resource, koma
        used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        cap = used + 400 * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        try:
            koma.random_playouts("hasami", 3000, seed=1, threads=1, observations=True)
        except MemoryError as e:
            print("MemoryError:", e)
        print(len(koma.random_playouts("nana", 10, seed=1, threads=1).results))
        """
    )
    assert child.returncode == 0, child.stderr
    assert "MemoryError" in child.stdout and child.stdout.endswith("10\n"), child.stdout


def test_observations_peak_near_the_arrays_returned():
    child = run_child(
        """
        import resource, koma
        koma.random_playouts("negaeri", 2, seed=1, threads=1, observations=True)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        p = koma.random_playouts("negaeri", 1000, seed=1, threads=2, observations=True)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        returned = p.observations.nbytes + p.actions.nbytes + p.game_index.nbytes
        print(returned, after - before)
        """
    )
    assert child.returncode == 0, child.stderr
    returned, grown = map(int, child.stdout.split())
    assert returned > 50 * 2**20
    assert grown < 1.5 * returned, (returned, grown)


def test_one_position_used_from_two_threads_takes_turns():
    pos = koma.Position("nana")
    errors = []

    def player():
        try:
            for _ in range(2000):
                moves = pos.legal_moves()
                if moves:
                    try:
                        pos.push(moves[0])
                    except koma.IllegalMoveError:
                        pass  # the other thread moved first
                if pos.ply > 6:
                    try:
                        pos.pop()
                    except koma.EmptyLineError:
                        pass
                pos.perft(2)
        except Exception as e:  # noqa: BLE001 - any error fails the test
            errors.append(e)

    threads = [threading.Thread(target=player) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # The position is whole: its moves replay to the same position.
    replayed = koma.Position("nana")
    for m in pos.moves:
        replayed.push(m)
    assert replayed.fen() == pos.fen()


@pytest.mark.parametrize("epsilon", [2.0, -1.0, float("nan")])
def test_epsilon_outside_zero_to_one_is_refused(epsilon):
    with pytest.raises(koma.InvalidInputError, match="epsilon"):
        koma.random_playouts("nana", 2, depth=1, epsilon=epsilon)


@pytest.mark.parametrize(
    "kwargs,what",
    [({"threads": 100000}, "threads"), ({"depth": 1000}, "depth")],
)
def test_threads_and_depth_beyond_reason_are_refused(kwargs, what):
    with pytest.raises(koma.InvalidInputError, match=what):
        koma.random_playouts("nana", 2, **kwargs)


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), -1.0, 1e300])
def test_engine_seconds_out_of_range_are_refused(koma_bin, seconds):
    from koma.engine import Limit, SimpleEngine

    with pytest.raises(koma.InvalidInputError):
        SimpleEngine.popen(koma_bin, "nana", timeout=seconds)
    with SimpleEngine.popen(koma_bin, "nana") as engine:
        with pytest.raises(koma.InvalidInputError):
            engine.play(koma.Position("nana"), Limit(time=seconds))
        assert engine.play(koma.Position("nana"), Limit(depth=1)).move


def test_gym_step_before_reset_is_refused(koma_bin):
    gymnasium = pytest.importorskip("gymnasium")
    from koma.gym import KomaGymEnv

    env = KomaGymEnv("nana")
    try:
        with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
            env.step(0)
        assert env.position.ply == 0
        obs, _ = env.reset(seed=0)
        assert obs["action_mask"].any()
    finally:
        env.close()


@pytest.mark.parametrize("module", ["koma.env", "koma.gym"])
def test_the_environments_without_their_extras_say_how_to_install_them(module):
    child = run_child(
        f"""
        import sys
        sys.modules["gymnasium"] = None  # as if not installed
        sys.modules["pettingzoo"] = None
        try:
            import {module}
        except ModuleNotFoundError as e:
            print(e)
        """
    )
    assert child.returncode == 0, child.stderr
    assert 'pip install "./python[env]"' in child.stdout, child.stdout
