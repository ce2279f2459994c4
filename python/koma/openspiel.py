"""The four games as OpenSpiel Python games (`pyspiel`'s Python game API),
so that OpenSpiel's own algorithms (MCTS, CFR, its bots and examples)
play them: `import koma.openspiel` registers `python_koma_<variant>`
(`pyspiel.load_game("python_koma_nana")`). Actions are the environments'
(docs/python.md): a Kani Nari Ebi movement that also starts a Bond turn
is followed by a second action of the same player. Returns +1/-1 at the
end (0 for a draw); a game still going at `max_plies` (a parameter, the
referee's 1000 by default) is a draw. The game's rule options are
parameters too (`{"HasamiWin": "lead3"}`). `RolloutEvaluator` evaluates a
state for OpenSpiel's MCTS bot by random games played in Rust. Needs
`open_spiel` (`pip install open_spiel`, a wheel of about 16 MB)."""

from __future__ import annotations

from typing import List, Optional

import numpy as np

from ._extras import need

pyspiel = need("pyspiel", "koma.openspiel")

from . import Position, random_playouts, variants  # noqa: E402
from ._errors import InvalidInputError  # noqa: E402

MAX_PLIES = 1000


def _game_type(variant: str):
    params = {o.name: o.default for o in variants()[variant].options}
    params["max_plies"] = MAX_PLIES
    return pyspiel.GameType(
        short_name=f"python_koma_{variant}",
        long_name=f"Koma {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class KomaState(pyspiel.State):
    """A game in progress; player 0 is the first player."""

    def __init__(self, game: "KomaGame"):
        super().__init__(game)
        self._variant = game.variant
        self._max_plies = game.max_plies
        self.rules = game.rules
        self.position = Position(game.variant.name, rules=game.rules)
        self.pending: Optional[int] = None

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self.position.turn == "first" else 1

    def _legal_actions(self, player: int) -> List[int]:
        return self.position.legal_actions(self.pending)

    def _apply_action(self, action: int) -> None:
        played = self.position.play_action(action, self.pending)
        self.pending = action if played is None else None

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            if self.pending is not None:
                return self.position.actions_to_move([self.pending, action])
            return self.position.action_to_move(action)
        except InvalidInputError:
            return f"action {action}"  # `end` alone, or out of range

    def is_terminal(self) -> bool:
        return self.position.is_over() or self.position.ply >= self._max_plies

    def returns(self) -> List[float]:
        o = self.position.outcome()
        if o is None or o.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if o.winner == "first" else [-1.0, 1.0]

    def __str__(self) -> str:
        s = self.position.fen()
        if self.pending is not None:
            s += f" (then {self.position.action_to_move(self.pending)})"
        return s


class _Observer:
    """The environments' planes (`observation`) and the position string."""

    def __init__(self, variant, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._shape = variant.planes
        self.tensor = np.zeros(int(np.prod(self._shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self._shape)}

    def set_from(self, state: KomaState, player: int) -> None:
        planes = np.frombuffer(state.position.observation_bytes(state.pending), dtype=np.float32)
        self.tensor[:] = planes

    def string_from(self, state: KomaState, player: int) -> str:
        return str(state)


class RolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS bot (`mcts.MCTSBot(...,
    evaluator=...)`): a state's value is the mean result of
    `n_rollouts` random games from it played in Rust
    (`koma.random_playouts`, from the position string: the game's
    earlier positions do not count for repetition there), up to the
    game's `max_plies`; the prior is uniform over the legal actions."""

    def __init__(self, n_rollouts: int = 20, seed: int = 0):
        self.n_rollouts = n_rollouts
        self._seed = seed

    def evaluate(self, state: KomaState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        self._seed += 1
        left = max(1, state._max_plies - state.position.ply)
        p = random_playouts(
            state._variant.name,
            self.n_rollouts,
            seed=self._seed,
            rules=state.rules,
            fen=state.position.fen(),
            max_plies=left,
            threads=1,
        )
        v = float(p.results.mean())
        return np.array([v, -v])

    def prior(self, state: KomaState):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def _game_class(variant_name: str):
    variant = variants()[variant_name]
    game_type = _game_type(variant_name)

    class KomaGame(pyspiel.Game):
        def __init__(self, params=None):
            params = dict(params or {})
            self.variant = variant
            self.max_plies = int(params.get("max_plies", MAX_PLIES))
            self.rules = {o.name: params.get(o.name, o.default) for o in variant.options}
            info = pyspiel.GameInfo(
                num_distinct_actions=variant.actions,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                # Two decisions at most per ply (a Kani Nari Ebi Bond turn).
                max_game_length=2 * self.max_plies,
            )
            super().__init__(game_type, info, params)

        def new_initial_state(self) -> KomaState:
            return KomaState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(variant, params)

    KomaGame.__name__ = KomaGame.__qualname__ = f"KomaGame_{variant_name}"
    return game_type, KomaGame


GAMES = {}
for _name in variants():
    _type, _cls = _game_class(_name)
    if _type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_type, _cls)
    GAMES[_name] = _cls
