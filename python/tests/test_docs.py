"""docs/python.md's examples run as shown: every ```python block runs (in
order, each in a fresh namespace, from a temporary directory); where an
```output block follows it, the block's printed output must be exactly
that. A block preceded by `<!-- not run: reason -->` is skipped, as in
tests/docs.rs."""

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "python.md"
BLOCK = re.compile(r"(<!-- not run: [^>]*-->\s*)?```python\n(.*?)```(?:\s*```output\n(.*?)```)?", re.S)


def blocks():
    text = DOC.read_text()
    out = []
    for m in BLOCK.finditer(text):
        line = text[: m.start(2)].count("\n") + 1
        out.append(pytest.param(m.group(2), m.group(3), bool(m.group(1)), id=f"line{line}"))
    return out


def test_the_page_has_an_example_for_each_part():
    codes = [p.values[0] for p in blocks()]
    for needle in ["koma.Position(", "SimpleEngine.popen(", "run_match(", "koma.env.env(", "KomaGymEnv(", "open_tablebase("]:
        assert any(needle in c for c in codes), needle


@pytest.mark.parametrize("code,expected,skipped", blocks())
def test_example_runs_as_shown(code, expected, skipped, koma_bin, tmp_path, monkeypatch):
    if skipped:
        pytest.skip("marked not run")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "__doc_example__"})
    if expected is not None:
        assert out.getvalue() == expected


def test_the_pages_tables_of_actions_and_planes_are_the_packages():
    import koma

    text = DOC.read_text()
    for name, v in koma.variants().items():
        assert f"| `{name}` | {v.actions:,}" in text, name
        assert f"| {tuple(v.planes)} |" in text, name
