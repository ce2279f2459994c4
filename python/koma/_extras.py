"""The optional dependencies of the learning environments, imported with
an error that says how to install them."""

from __future__ import annotations

import importlib
from types import ModuleType

INSTALL = 'pip install "koma[env]" (from a clone of Koma: pip install "./python[env]")'


def need(module: str, user: str) -> ModuleType:
    """`module`, or a ModuleNotFoundError saying that `user` needs it and
    how to install it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(
            f"{user} needs {module.split('.')[0]}, which is not installed: {INSTALL}",
            name=e.name,
        ) from e
