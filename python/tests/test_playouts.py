"""The batch API: random games played in Rust, their results, and the
observations and actions of every move, checked against the per-move API."""

import numpy as np
import pytest

import koma

VARIANTS = ["kaninariebi", "hasami", "nana", "negaeri"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_batch_games_replay_decision_by_decision_through_position(variant):
    p = koma.random_playouts(variant, 8, seed=5, observations=True, max_plies=300)
    assert p.results.shape == (8,) and p.results.dtype == np.int8
    # One decision per move, two for a Kani Nari Ebi movement that also
    # starts a Bond turn where it is played.
    assert p.observations.shape == (len(p.actions),) + koma.variants()[variant].planes
    assert (len(p.actions) > p.plies.sum()) == (variant == "kaninariebi")
    for g in range(8):
        pos = koma.Position(variant)
        pending = None
        for k in np.flatnonzero(p.game_index == g):
            obs = np.frombuffer(pos.observation_bytes(pending), dtype=np.float32)
            assert np.array_equal(obs, p.observations[k].ravel())
            a = int(p.actions[k])
            assert a in pos.legal_actions(pending)
            if pending is None and pos.needs_second_action(a):
                pending = a
                continue
            pos.push(pos.actions_to_move([a] if pending is None else [pending, a]))
            pending = None
        assert pending is None and pos.ply == p.plies[g]
        end = pos.outcome()
        if p.reasons[g] is None:
            assert end is None and p.plies[g] == 300 and p.results[g] == 0
        else:
            assert end.reason == p.reasons[g]
            assert p.results[g] == {"first": 1, "second": -1, None: 0}[end.winner]


def test_same_seed_same_games_whatever_the_threads():
    a = koma.random_playouts("negaeri", 10, seed=9, threads=1)
    b = koma.random_playouts("negaeri", 10, seed=9, threads=2)
    c = koma.random_playouts("negaeri", 10, seed=10, threads=2)
    assert np.array_equal(a.plies, b.plies) and a.reasons == b.reasons
    assert not np.array_equal(a.plies, c.plies)


def test_rules_and_start_position_apply_and_bad_ones_raise():
    p = koma.random_playouts("hasami", 4, rules={"HasamiWin": "lead3"}, seed=1)
    assert set(p.reasons) <= {"capture lead", "move limit", "no legal move", "repetition", None}
    short = koma.random_playouts("nana", 3, fen="V1k/3/K2[Brb] b 2", max_plies=1)
    assert list(short.plies) == [1, 1, 1]
    with pytest.raises(koma.InvalidInputError, match="HasamiWin at four"):
        koma.random_playouts("hasami", 1, rules={"HasamiWin": "four"})


def test_engine_guided_games_beat_random_ones_and_explore_with_epsilon():
    # The first player searching at depth 2 against itself: one game, many times.
    same = koma.random_playouts("nana", 4, depth=2, threads=2)
    assert len(set(same.plies.tolist())) == 1 and len(set(same.results.tolist())) == 1
    mixed = koma.random_playouts("nana", 12, depth=2, epsilon=0.5, seed=3, observations=True)
    assert len(set(mixed.plies.tolist())) > 1
    # Every recorded move is legal where it was played.
    for g in range(12):
        pos = koma.Position("nana")
        for k in np.flatnonzero(mixed.game_index == g):
            pos.push(pos.action_to_move(int(mixed.actions[k])))
        assert pos.ply == mixed.plies[g]
