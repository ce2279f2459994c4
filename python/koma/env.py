"""PettingZoo AEC environments, one per game: two agents, `player_0`
(the first player) and `player_1` (the second), taking turns; a fixed action space per game (`Discrete(n)`, the
layout in docs/python.md) with the legal moves as `action_mask`; the
observation planes as a float32 array (channels, ranks, files); reward +1
to the winner and -1 to the loser at the end (0 each for a draw); the
game truncated at `max_plies` (1000 by default, the referee's
adjudication). Needs `pettingzoo` and `gymnasium`."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import Position, variants

AGENTS = ("player_0", "player_1")
# The agent of each side, by the name `Position.turn` gives it.
SIDES = {"first": "player_0", "second": "player_1"}


class KomaEnv(AECEnv):
    """One game of `variant` between two agents (see the module's head)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "koma_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "kaninariebi",
        rules: Optional[Mapping[str, Any]] = None,
        fen: Optional[str] = None,
        max_plies: int = 1000,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        self.variant = variants()[variant.lower()]
        self.metadata = dict(self.metadata, name=f"koma_{self.variant.name}_v0")
        self.rules = dict(rules or {})
        self.fen = fen
        self.max_plies = max_plies
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of human, ansi")
        self.render_mode = render_mode
        # Checks the rules and the start now, not at the first reset.
        self._position = Position(self.variant.name, fen=fen, rules=self.rules)
        self.possible_agents = list(AGENTS)
        n = self.variant.actions
        obs = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=np.inf, shape=self.variant.planes, dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def position(self) -> Position:
        """The game so far (a copy is safe to change)."""
        return self._position

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        # The game itself has no chance: `seed` only seeds the spaces.
        if seed is not None:
            for a in self.possible_agents:
                self.action_spaces[a].seed(seed)
        self._position = Position(self.variant.name, fen=self.fen, rules=self.rules)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = SIDES[self._position.turn]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        planes = np.frombuffer(self._position.observation_bytes(), dtype=np.float32)
        mask = np.zeros(self.variant.actions, dtype=np.int8)
        if agent == SIDES[self._position.turn]:
            mask[self._position.legal_actions()] = 1
        return {"observation": planes.reshape(self.variant.planes), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # Raises IllegalMoveError for an action the mask does not allow.
        self._position.push(self._position.action_to_move(int(action)))
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        end = self._position.outcome()
        if end is not None:
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = 0 if end.winner is None else (1 if a == SIDES[end.winner] else -1)
                self.infos[a] = {"result": end.result, "reason": end.reason}
        elif self._position.ply >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"result": "1/2-1/2", "reason": "ply limit"}
        self._accumulate_rewards()
        if end is None and not self.truncations[agent]:
            self.agent_selection = SIDES[self._position.turn]
        else:
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
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


def env(variant: str = "kaninariebi", **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (an action out of
    range raises, methods are called in order)."""
    e: AECEnv = KomaEnv(variant, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
