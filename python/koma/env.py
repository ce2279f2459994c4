"""PettingZoo AEC environments, one per game: two agents, `player_0`
(the first player) and `player_1` (the second); a fixed action space per
game (`Discrete(n)`, the layout in docs/python.md) with the legal actions
as `action_mask`. A Kani Nari Ebi movement that also starts a Bond turn
takes two actions of the same agent: the movement, then its Bond movement
or `end`. The observation planes are a float32 array (channels, ranks,
files); reward +1 to the winner and -1 to the loser at the end (0 each
for a draw); the game truncated at `max_plies` (1000 by default, the
referee's adjudication). An illegal action ends the game with -1 to the
agent that took it and a warning, as PettingZoo's classic environments
do (`illegal_action="raise"` raises IllegalMoveError instead). Needs
`pettingzoo` and `gymnasium` (`pip install "koma[env]"`)."""

from __future__ import annotations

import warnings
from typing import Any, Dict, Mapping, Optional

import numpy as np

from ._extras import need

spaces = need("gymnasium.spaces", "koma.env")
_pz = need("pettingzoo", "koma.env")
wrappers = need("pettingzoo.utils.wrappers", "koma.env")
AECEnv = _pz.AECEnv

from . import Position, variants  # noqa: E402
from ._errors import IllegalMoveError  # noqa: E402
from .render import rgb_array  # noqa: E402

AGENTS = ("player_0", "player_1")
# The agent of each side, by the name `Position.turn` gives it.
SIDES = {"first": "player_0", "second": "player_1"}
ILLEGAL = ("lose", "raise")


class KomaEnv(AECEnv):
    """One game of `variant` between two agents (see the module's head)."""

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "koma_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str = "kaninariebi",
        rules: Optional[Mapping[str, Any]] = None,
        fen: Optional[str] = None,
        max_plies: int = 1000,
        render_mode: Optional[str] = None,
        illegal_action: str = "lose",
    ):
        super().__init__()
        self.variant = variants()[variant.lower()]
        self.metadata = dict(self.metadata, name=f"koma_{self.variant.name}_v0")
        self.rules = dict(rules or {})
        self.fen = fen
        self.max_plies = max_plies
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {', '.join(self.metadata['render_modes'])}")
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action {illegal_action!r} is not one of {', '.join(ILLEGAL)}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        # Checks the rules and the start now, not at the first reset.
        self._position = Position(self.variant.name, fen=fen, rules=self.rules)
        self._pending: Optional[int] = None
        self.possible_agents = list(AGENTS)
        n = self.variant.actions
        obs = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=np.inf, shape=self.variant.planes, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def position(self) -> Position:
        """The game so far (a copy is safe to change)."""
        return self._position

    @property
    def pending(self) -> Optional[int]:
        """The movement action chosen first in a turn still to complete."""
        return self._pending

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        # The game itself has no chance: `seed` only seeds the spaces.
        if seed is not None:
            for a in self.possible_agents:
                self.action_spaces[a].seed(seed)
        self._position = Position(self.variant.name, fen=self.fen, rules=self.rules)
        self._pending = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = SIDES[self._position.turn]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        planes = np.frombuffer(self._position.observation_bytes(self._pending), dtype=np.float32)
        mask = np.zeros(self.variant.actions, dtype=np.int8)
        if agent == SIDES[self._position.turn] and not self._position.is_over():
            mask[self._position.legal_actions(self._pending)] = 1
        return {"observation": planes.reshape(self.variant.planes), "action_mask": mask}

    def _illegal(self, agent: str, action: Any) -> None:
        if self.illegal_action == "raise":
            raise IllegalMoveError(f"illegal action at {action}")
        warnings.warn(
            f"illegal action {action} by {agent}: the game ends with {agent} losing "
            "(observe(agent)['action_mask'] holds the legal actions)",
            stacklevel=3,
        )
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: (-1 if a == agent else 0) for a in self.agents}
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"result": "0-1" if agent == AGENTS[0] else "1-0", "reason": "illegal action"}
        self._pending = None
        self._accumulate_rewards()
        self.agent_selection = AGENTS[1 - AGENTS.index(agent)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            played = self._position.play_action(int(action), self._pending)
        except IllegalMoveError:
            self._illegal(agent, action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = {x: 0 for x in self.agents}
        if played is None:
            # A movement that leaves a second choice: the same agent
            # completes its turn with its next action.
            self._pending = int(action)
            self._accumulate_rewards()
            return
        self._pending = None
        end = self._position.outcome()
        if end is not None:
            for x in self.agents:
                self.terminations[x] = True
                self.rewards[x] = 0 if end.winner is None else (1 if x == SIDES[end.winner] else -1)
                self.infos[x] = {"result": str(end.result), "reason": end.termination}
        elif self._position.ply >= self.max_plies:
            for x in self.agents:
                self.truncations[x] = True
                self.infos[x] = {"result": "1/2-1/2", "reason": "ply limit"}
        self._accumulate_rewards()
        if end is None and not self.truncations[agent]:
            self.agent_selection = SIDES[self._position.turn]
        else:
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            return rgb_array(self._position.fen())
        text = self._position.diagram()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(variant: str = "kaninariebi", **kwargs: Any) -> KomaEnv:
    """The environment without PettingZoo's wrappers."""
    return KomaEnv(variant, **kwargs)


def env(variant: str = "kaninariebi", **kwargs: Any) -> Any:
    """The environment with PettingZoo's usual wrappers (an action out of
    range raises, methods are called in order)."""
    e = KomaEnv(variant, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
