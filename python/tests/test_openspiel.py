"""The four games as OpenSpiel Python games: OpenSpiel's own checks run on
them, and its MCTS bot beats its random bot in each game. Skipped where
`open_spiel` is not installed (`pip install open_spiel`)."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")
from open_spiel.python.algorithms import mcts  # noqa: E402

import koma  # noqa: E402
import koma.openspiel  # noqa: E402

VARIANTS = ["kaninariebi", "hasami", "nana", "negaeri"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_game_loads_and_random_games_follow_the_rules(variant):
    game = pyspiel.load_game(f"python_koma_{variant}", {"max_plies": 200})
    assert game.num_distinct_actions() == koma.variants()[variant].actions
    rng = np.random.default_rng(0)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            clone = state.clone()
            assert str(clone) == str(state)
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == 0
    obs = np.array(state.observation_tensor(0))
    assert obs.shape == (int(np.prod(koma.variants()[variant].planes)),)


# Hasami's default win (five captures) takes random play hundreds of
# plies; a lead of three decides within the game's length here.
PARAMS = {"hasami": {"HasamiWin": "lead3"}}


@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiels_mcts_beats_its_random_bot(variant):
    game = pyspiel.load_game(f"python_koma_{variant}", {"max_plies": 150, **PARAMS.get(variant, {})})
    rng = np.random.RandomState(1)
    evaluator = koma.openspiel.RolloutEvaluator(n_rollouts=20)
    mcts_bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=40, evaluator=evaluator, random_state=rng)
    results = []
    for g in range(4):
        # MCTS plays each side twice (a random bot serves one seat only).
        first = g % 2
        random_bot = pyspiel.make_uniform_random_bot(1 - first, g)
        bots = [mcts_bot, random_bot] if first == 0 else [random_bot, mcts_bot]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        results.append(state.returns()[first])
    wins = sum(r > 0 for r in results)
    assert wins > len(results) / 2, results
