"""A Gymnasium single-agent environment: the agent plays one side of a
game against a Koma engine at a chosen skill (`easy`, `normal`, `hard`)
and search limit. Observation and action space as in `koma.env` (the
observation is a dict with `observation` planes and `action_mask`; also
`action_masks()` for maskable agents); reward +1 for a win, -1 for a loss,
0 otherwise, at the end; truncated at `max_plies`. Needs `gymnasium`."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from . import Position, variants
from .engine import Limit, SimpleEngine, koma_command


class KomaGymEnv(gymnasium.Env):
    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        variant: str = "kaninariebi",
        *,
        skill: str = "easy",
        limit: Limit = Limit(depth=1),
        agent: str = "first",
        rules: Optional[Mapping[str, Any]] = None,
        fen: Optional[str] = None,
        max_plies: int = 1000,
        opponent: Optional[SimpleEngine] = None,
        engine_command: Optional[list] = None,
        render_mode: Optional[str] = None,
    ):
        if agent not in ("first", "second"):
            raise ValueError(f"agent must be 'first' or 'second', not {agent!r}")
        self.variant = variants()[variant.lower()]
        self.rules = dict(rules or {})
        self.fen = fen
        self.limit = limit
        self.agent = agent
        self.max_plies = max_plies
        self.render_mode = render_mode
        self._own_engine = opponent is None
        self.opponent = opponent or SimpleEngine.popen(
            engine_command or koma_command(),
            self.variant.name,
            rules=self.rules,
            options={"Skill": skill},
        )
        n = self.variant.actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, shape=self.variant.planes, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self.position = Position(self.variant.name, fen=fen, rules=self.rules)

    def _obs(self) -> Dict[str, np.ndarray]:
        planes = np.frombuffer(self.position.observation_bytes(), dtype=np.float32)
        return {"observation": planes.reshape(self.variant.planes), "action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.variant.actions, dtype=np.int8)
        if not self.position.is_over() and self.position.turn == self.agent:
            mask[self.position.legal_actions()] = 1
        return mask

    def _end(self) -> Tuple[float, bool, bool, Dict[str, Any]]:
        end = self.position.outcome()
        if end is not None:
            reward = 0.0 if end.winner is None else (1.0 if end.winner == self.agent else -1.0)
            return reward, True, False, {"result": end.result, "reason": end.reason}
        if self.position.ply >= self.max_plies:
            return 0.0, False, True, {"result": "1/2-1/2", "reason": "ply limit"}
        return 0.0, False, False, {}

    def _opponent_moves(self) -> None:
        while not self.position.is_over() and self.position.turn != self.agent and self.position.ply < self.max_plies:
            self.position.push(self.opponent.play(self.position, self.limit).move)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.position = Position(self.variant.name, fen=self.fen, rules=self.rules)
        self.opponent.new_game()
        self._opponent_moves()
        return self._obs(), {}

    def step(self, action: Any):
        self.position.push(self.position.action_to_move(int(action)))
        self._opponent_moves()
        reward, terminated, truncated, info = self._end()
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> Optional[str]:
        text = self.position.diagram()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        if self._own_engine:
            self.opponent.quit()
