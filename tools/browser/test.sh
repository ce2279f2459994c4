#!/usr/bin/env bash
# The board's browser tests, as the test command runs them (tools/test.sh
# calls this after cargo test):
#
#   bash tools/browser/test.sh                         run them
#   bash tools/browser/test.sh --refresh-screenshots   run them, then copy the
#                                                      docs' screenshots (README,
#                                                      docs/board.md) into docs/screenshots/
#
# Needs Node.js 20 or later with npm, and Chromium (found by chromium.mjs:
# $CHROMIUM, chromium or google-chrome on PATH, /usr/bin/chromium). What it
# installs: Debian's chromium package (tools/apt-install.sh: about 115
# packages, 480 MB, apt's output in target/apt-install.log) when no
# Chromium is found and the machine is Debian and we are root (or have
# password-less sudo); playwright-core into tools/browser/node_modules
# (npm ci). It builds koma and koma-board as `cargo test` does (a no-op
# after cargo test) and plays every game on the page in headless Chromium
# (board.test.mjs); screenshots go to target/browser-shots/.
#
# Where Node or Chromium is missing and cannot be installed, the tests are
# skipped with one line and the script succeeds, unless CI is set (CI=true,
# as .ci/run sets it, or KOMA_CI=1): there they are required and a missing
# prerequisite fails.
#
# KOMA_BOARD=/path/to/koma-board tests other binaries (koma must sit beside
# it) and skips the build.
set -euo pipefail
cd "$(dirname "$0")/../.."

refresh=false
case "${1:-}" in
    "") ;;
    --refresh-screenshots) refresh=true ;;
    *) echo "usage: bash tools/browser/test.sh [--refresh-screenshots]" >&2; exit 2 ;;
esac

required=false
for v in "${CI:-}" "${KOMA_CI:-}"; do
    case "$v" in "" | false | 0) ;; *) required=true ;; esac
done

# Skips (one line, success) or, where the tests are required, fails.
missing() {
    if $required || $refresh; then
        echo "browser tests: FAIL: $1" >&2
        exit 1
    fi
    echo "browser tests: SKIPPED (nothing checked in a browser): $1"
    exit 0
}

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    missing "Node.js 20 or later with npm is needed"
fi
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
    missing "Node.js 20 or later is needed, found $(node --version)"
fi

if ! chromium=$(node tools/browser/chromium.mjs 2>/dev/null); then
    why=$(node tools/browser/chromium.mjs 2>&1 >/dev/null || true)
    bash tools/apt-install.sh chromium || missing "$why, and it cannot be installed here (that needs Debian and root)"
    chromium=$(node tools/browser/chromium.mjs) || missing "chromium was installed but is not found"
fi
export CHROMIUM="$chromium"

(cd tools/browser && npm ci --no-audit --no-fund --loglevel=error)

if [ -z "${KOMA_BOARD:-}" ]; then
    # The binaries as `cargo test` builds them (with the dev-dependencies'
    # features): a no-op after cargo test, where `cargo build` would build
    # syn, serde_derive, clap_derive and koma a third time.
    cargo test --no-run --quiet
    export KOMA_BOARD=target/debug/koma-board
fi

# Made-up endgame tables (in the real format) and a position in them, for
# the endgame panel's test: koma-board reads them with --tables.
export KOMA_BROWSER_TABLES="$PWD/target/browser-tables"
rm -rf "$KOMA_BROWSER_TABLES"
cargo test --quiet --test board_endgame -- --ignored --exact browser_tables >/dev/null

# Chromium is there from here on: board.test.mjs fails rather than skips
# when it cannot start it.
KOMA_CI=1 node tools/browser/board.test.mjs

if $refresh; then
    for f in docs/screenshots/*.png; do
        cp "target/browser-shots/$(basename "$f")" "$f"
    done
    echo "browser tests: docs/screenshots/ refreshed from target/browser-shots/"
fi
