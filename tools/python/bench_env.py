"""Masked random steps per second through the PettingZoo AEC environment
(koma.env.env, with its wrappers), per game: each step reads the
observation and mask (`env.last()`), picks a legal action at random and
plays it; games restart when they end. Usage:
    python3 tools/python/bench_env.py [--seconds 3]"""

import argparse
import time

import numpy as np

import koma
import koma.env


def steps_per_second(variant: str, seconds: float) -> float:
    env = koma.env.env(variant)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print("| game | actions | masked random steps/s |")
    print("|---|---|---|")
    for name, v in koma.variants().items():
        print(f"| {name} | {v.actions:,} | {steps_per_second(name, args.seconds):,.0f} |")


if __name__ == "__main__":
    main()
