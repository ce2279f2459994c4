#!/usr/bin/env bash
# The Python package's tests (python/tests, docs/python.md's examples):
# a venv under target/ (the working tree stays clean), `pip install
# ./python` and the test dependencies into it, then pytest. The engine
# and the referee the tests run are the workspace's debug binaries
# (as `cargo test` builds them, so this is a no-op after it).
# Where python3 or its venv/pip is missing this prints
# `python tests: SKIPPED <why>` and succeeds, except under CI (see
# `required`), where it fails. PIP_INDEX_URL etc. are honoured (pip reads them).
set -euo pipefail
cd "$(dirname "$0")/../.."

# Required (a skip fails) as tools/test.sh decides it: CI or KOMA_CI set
# to anything but empty, false or 0.
required=false
for v in "${CI:-}" "${KOMA_CI:-}"; do
    case "$v" in "" | false | 0) ;; *) required=true ;; esac
done

skip() {
    echo "python tests: SKIPPED $1"
    if $required; then
        echo "python tests: required under CI" >&2
        exit 1
    fi
    exit 0
}

PY="${PYTHON:-python3}"
command -v "$PY" >/dev/null 2>&1 || skip "no $PY in PATH"
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 9))' \
    || skip "$PY is older than 3.9"
VENV=target/python-venv
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV" >/dev/null 2>&1 || { rm -rf "$VENV"; skip "$PY -m venv does not work (python3-venv missing?)"; }
fi
"$VENV/bin/python" -m pip --version >/dev/null 2>&1 || skip "no pip in the venv"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    pytest numpy pettingzoo gymnasium open_spiel
# The dev profile (opt-level 2, as the Rust tests): it reuses the koma
# library `cargo test` built, where the release profile (what a user's
# `pip install ./python` builds) would compile it again with LTO, minutes
# on 2 cores.
MATURIN_PEP517_ARGS="--profile dev" "$VENV/bin/python" -m pip install --quiet \
    --disable-pip-version-check --force-reinstall --no-deps ./python
cargo test --no-run --quiet  # the binaries as cargo test builds them: a no-op after it
export KOMA_BIN_DIR="$PWD/target/debug"
# From the root, so `import koma` is the installed package, not python/koma;
# no caches or bytecode left in the working tree.
export PYTHONDONTWRITEBYTECODE=1
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
