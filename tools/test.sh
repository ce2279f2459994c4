#!/usr/bin/env bash
# The project's test command (README's Quick start; .ci/run runs it):
#   1. cargo test: every Rust test of the workspace (the library, the
#      binaries through their processes, the docs' examples, the fuzz
#      targets over their seeds, the Python binding's Rust side);
#   2. the tests that need a program Rust does not bring (GNU parallel),
#      #[ignore]d in cargo test with their reason, run here;
#   3. the board's browser tests in headless Chromium (tools/browser/test.sh);
#   4. the Python package's tests (tools/python/test.sh).
# A step whose program is missing and cannot be installed says
# "SKIPPED <why>" and the command still succeeds, except under CI=true
# (or KOMA_CI=1), where it fails. On a Debian machine as root, missing
# programs are installed with apt-get (tools/apt-install.sh): chromium
# (about 115 packages, 480 MB) and parallel.
set -euo pipefail
cd "$(dirname "$0")/.."

required=false
for v in "${CI:-}" "${KOMA_CI:-}"; do
    case "$v" in "" | false | 0) ;; *) required=true ;; esac
done

# The engine, the board and Python find endgame tables in the per-user data
# folder by default ($XDG_DATA_HOME/koma/tables, docs/tables.md); the tests
# must not depend on what a machine has generated there, so they get an
# empty one of their own. (Tests of real tables read KOMA_TABLES.)
export XDG_DATA_HOME="$PWD/target/test-data-home"
mkdir -p "$XDG_DATA_HOME"

cargo test

# GNU parallel: tests/referee_cluster.rs's run of docs/cluster.md's line on this machine.
if ! command -v parallel > /dev/null; then
    bash tools/apt-install.sh parallel || true
fi
if command -v parallel > /dev/null; then
    cargo test --test referee_cluster -- --ignored gnu_parallel_plays_the_shards_and_the_report_pools_them
elif $required; then
    echo "GNU parallel test: FAIL: no GNU parallel, and it cannot be installed here" >&2
    exit 1
else
    echo "GNU parallel test: SKIPPED (gnu_parallel_plays_the_shards_and_the_report_pools_them): no GNU parallel, and it cannot be installed here"
fi

bash tools/browser/test.sh
bash tools/python/test.sh
