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
def test_pettingzoo_seed_and_render_tests_pass(variant):
    from pettingzoo.test import render_test, seed_test

    seed_test(lambda **kw: koma.env.env(variant, max_plies=60, **kw), num_cycles=20)
    render_test(lambda render_mode=None: koma.env.env(variant, render_mode=render_mode))


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
        assert env.position.legal_actions(env.pending) == list(legal)
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


def test_an_illegal_action_ends_the_game_with_the_offender_losing_and_a_warning():
    env = koma.env.env("hasami")
    env.reset()
    with pytest.warns(UserWarning, match="illegal action 0 by player_0"):
        env.step(0)  # a1a1
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1, "player_1": 0}
    assert env.infos["player_1"]["reason"] == "illegal action"
    for agent in env.agent_iter():  # the agents see the end and leave
        env.step(None)
    assert env.agents == []


def test_an_illegal_action_raises_when_asked_to():
    env = koma.env.raw_env("hasami", illegal_action="raise")
    env.reset()
    with pytest.raises(koma.IllegalMoveError):
        env.step(0)  # a1a1
    assert env.position.ply == 0


def test_a_bond_turn_takes_two_actions_of_the_same_agent():
    # a2b2 joins b3 and b4: a movement that also starts Bond turns.
    env = koma.env.raw_env("kaninariebi", fen="4c/1C2c/1C2c/C4/C4 w 1")
    env.reset()
    first = env.position.move_to_actions("a2b2")
    assert len(first) == 2 and first[1] == env.variant.actions - 1  # then `end`
    a = first[0]
    env.step(a)
    assert env.agent_selection == "player_0" and env.pending == a and env.position.ply == 0
    obs = env.observe("player_0")
    follow = sorted(np.flatnonzero(obs["action_mask"]))
    want = sorted(env.position.move_to_actions(m)[1] for m in env.position.legal_moves if m.startswith("a2b2"))
    assert follow == want and len(follow) == 12  # 11 Bond movements and `end`
    assert obs["observation"][-2:].sum() == 2  # the pending movement's squares
    env.step(env.position.move_to_actions("a2b2,b4a5")[1])
    assert env.position.moves == ["a2b2,b4a5"] and env.agent_selection == "player_1"


@pytest.mark.parametrize("variant", VARIANTS)
def test_rgb_array_draws_the_board(variant):
    env = koma.env.env(variant, render_mode="rgb_array")
    env.reset()
    img = env.render()
    v = koma.variants()[variant]
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[1] == v.files * 32 and img.shape[0] >= v.ranks * 32
    # Pieces are drawn: a start position is not just the squares' colours.
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_check_env_passes(variant, koma_bin):
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(f"koma/{variant.capitalize()}-v0", max_plies=60)
    try:
        check_env(env.unwrapped, skip_render_check=False)
    finally:
        env.close()


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
