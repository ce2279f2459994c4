"""The learning environments: PettingZoo's own conformance test for every
game, the action space and mask, rewards and truncation, and the
Gymnasium wrapper against a Koma engine."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import koma  # noqa: E402
import koma.env  # noqa: E402

VARIANTS = ["kaninariebi", "hasami", "nana", "negaeri"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test_passes(variant):
    api_test(koma.env.env(variant), num_cycles=300)
    api_test(koma.env.raw_env(variant, max_plies=40), num_cycles=100)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_random_game_ends_with_rewards_or_truncation(variant):
    env = koma.env.raw_env(variant, max_plies=2000)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    sizes = {v: koma.variants()[v].actions for v in VARIANTS}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.shape == (sizes[variant],)
        legal = np.flatnonzero(mask)
        assert sorted(env.position.legal_actions()) == list(legal)
        assert agent == koma.env.SIDES[env.position.turn]
        env.step(int(rng.choice(legal)))
    end = env.position.outcome()
    if end is None:
        assert env.position.ply == 2000
    else:
        assert end.winner in (None, "first", "second")


def test_rewards_and_truncation_are_set_at_the_end():
    env = koma.env.raw_env("nana", max_plies=3)
    env.reset()
    for mv in ["K@a1", "K@c3", "V@a3"]:
        env.step(env.position.move_to_action(mv))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos["player_0"]["reason"] == "ply limit"
    # A King capture: +1 to the winner, -1 to the loser.
    env = koma.env.raw_env("nana")
    env.reset()
    for mv in ["K@a2", "K@c3", "a2b2", "c3b2"]:
        env.step(env.position.move_to_action(mv))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1, "player_1": 1}
    assert env.infos["player_1"]["reason"] == "King captured"


def test_an_illegal_action_raises():
    env = koma.env.raw_env("hasami")
    env.reset()
    with pytest.raises(koma.IllegalMoveError):
        env.step(0)  # a1a1


def test_gymnasium_wrapper_plays_a_random_agent_against_koma(koma_bin):
    pytest.importorskip("gymnasium")
    from koma.gym import KomaGymEnv
    from koma.engine import Limit

    env = KomaGymEnv("nana", skill="easy", limit=Limit(depth=1), agent="second", max_plies=40)
    try:
        obs, info = env.reset(seed=3)
        assert env.position.ply == 1  # the engine moved first
        rng = np.random.default_rng(3)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        assert reward in (-1.0, 0.0, 1.0)
        assert terminated == env.position.is_over()
        pid = env.opponent.pid
    finally:
        env.close()
    assert not env.opponent.is_running() and pid is not None
