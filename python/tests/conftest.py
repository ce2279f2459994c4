"""Shared fixtures: where the workspace's binaries are (KOMA_BIN_DIR, set
by tools/python/test.sh; else target/debug of this clone), and a fake
engine for the client's failure tests."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def bin_dir() -> Path:
    d = os.environ.get("KOMA_BIN_DIR")
    return Path(d) if d else ROOT / "target" / "debug"


@pytest.fixture(scope="session")
def koma_bin() -> str:
    p = bin_dir() / "koma"
    if not p.exists():
        pytest.fail(f"no engine at {p}: run `cargo build` or set KOMA_BIN_DIR")
    os.environ.setdefault("KOMA_BIN_DIR", str(bin_dir()))
    return str(p)


@pytest.fixture(scope="session")
def referee_bin() -> str:
    p = bin_dir() / "koma-referee"
    if not p.exists():
        pytest.fail(f"no referee at {p}: run `cargo build` or set KOMA_BIN_DIR")
    return str(p)


def fake_engine(mode: str) -> list:
    """The command of tests/fake_engine.py misbehaving in `mode`."""
    return [sys.executable, str(HERE / "fake_engine.py"), mode]
