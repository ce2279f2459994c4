"""A Gymnasium single-agent environment: the agent plays one side of a
game against a Koma engine at a chosen skill (`easy`, `normal`, `hard`)
and search limit. Observation and action space as in `koma.env` (the
observation is a dict with `observation` planes and `action_mask`; also
`action_masks()` for maskable agents; a Kani Nari Ebi turn may take two
actions); reward +1 for a win, -1 for a loss, 0 otherwise, at the end;
truncated at `max_plies`. An illegal action ends the episode with -1 and
a warning (`illegal_action="raise"` raises instead). `step()` before
`reset()`, or after the episode ended, raises gymnasium's ResetNeeded.
Needs `gymnasium` (`pip install "koma[env]"`)."""

from __future__ import annotations

import warnings
from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from ._extras import need

gymnasium = need("gymnasium", "koma.gym")
spaces = need("gymnasium.spaces", "koma.gym")
_gym_error = need("gymnasium.error", "koma.gym")

from . import Position, variants  # noqa: E402
from ._errors import IllegalMoveError  # noqa: E402
from .engine import Limit, SimpleEngine, koma_command  # noqa: E402
from .render import rgb_array  # noqa: E402


class KomaGymEnv(gymnasium.Env):
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        variant: str = "kaninariebi",
        *,
        skill: str = "hard",
        limit: Limit = Limit(depth=1),
        agent: str = "first",
        rules: Optional[Mapping[str, Any]] = None,
        fen: Optional[str] = None,
        max_plies: int = 1000,
        opponent: Optional[SimpleEngine] = None,
        engine_command: Optional[list] = None,
        render_mode: Optional[str] = None,
        illegal_action: str = "lose",
    ):
        if agent not in ("first", "second"):
            raise ValueError(f"agent must be 'first' or 'second', not {agent!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {', '.join(self.metadata['render_modes'])}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action {illegal_action!r} is not one of lose, raise")
        self.variant = variants()[variant.lower()]
        self.rules = dict(rules or {})
        self.fen = fen
        self.limit = limit
        self.agent = agent
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        # Checks the rules and the start before an engine is started.
        self.position = Position(self.variant.name, fen=fen, rules=self.rules)
        self._pending: Optional[int] = None
        self._live = False
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

    def _obs(self) -> Dict[str, np.ndarray]:
        planes = np.frombuffer(self.position.observation_bytes(self._pending), dtype=np.float32)
        return {"observation": planes.reshape(self.variant.planes), "action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.variant.actions, dtype=np.int8)
        if not self.position.is_over() and self.position.turn == self.agent:
            mask[self.position.legal_actions(self._pending)] = 1
        return mask

    def _end(self) -> Tuple[float, bool, bool, Dict[str, Any]]:
        end = self.position.outcome()
        if end is not None:
            reward = 0.0 if end.winner is None else (1.0 if end.winner == self.agent else -1.0)
            return reward, True, False, {"result": str(end.result), "reason": end.termination}
        if self.position.ply >= self.max_plies:
            return 0.0, False, True, {"result": "1/2-1/2", "reason": "ply limit"}
        return 0.0, False, False, {}

    def _opponent_moves(self) -> None:
        while not self.position.is_over() and self.position.turn != self.agent and self.position.ply < self.max_plies:
            self.position.push(self.opponent.play(self.position, self.limit).move)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.position = Position(self.variant.name, fen=self.fen, rules=self.rules)
        self._pending = None
        self.opponent.new_game()
        self._opponent_moves()
        self._live = True
        return self._obs(), {}

    def step(self, action: Any):
        if not self._live:
            raise _gym_error.ResetNeeded(
                "KomaGymEnv.step() needs a game in progress: call reset() first (and again after the episode ends)"
            )
        try:
            played = self.position.play_action(int(action), self._pending)
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            warnings.warn(f"illegal action {action}: the episode ends with the agent losing", stacklevel=2)
            self._live = False
            self._pending = None
            return self._obs(), -1.0, True, False, {"result": "illegal action", "reason": "illegal action"}
        if played is None:
            self._pending = int(action)
            return self._obs(), 0.0, False, False, {}
        self._pending = None
        self._opponent_moves()
        reward, terminated, truncated, info = self._end()
        self._live = not (terminated or truncated)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            return rgb_array(self.position.fen())
        text = self.position.diagram()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        if self._own_engine and getattr(self, "opponent", None) is not None:
            self.opponent.quit()

