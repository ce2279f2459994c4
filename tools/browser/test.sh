#!/usr/bin/env bash
# The board's browser tests, as CI runs them (.ci/run calls this after
# cargo test): installs Debian's Chromium if /usr/bin/chromium is missing,
# installs playwright-core (npm ci), builds the binaries in the dev profile
# (opt-level 2; a no-op after cargo test, which built them) and plays
# every game on the page in headless Chromium (board.test.mjs).
#
#   bash tools/browser/test.sh
#
# KOMA_BOARD=/path/to/koma-board tests other binaries (koma must sit beside
# it) and skips the build.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM:-}" ]; then
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
    echo "browser tests: installing Debian's chromium"
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "browser tests: FAIL: node and npm (Node.js 20 or later) are needed" >&2
    exit 1
fi

(cd tools/browser && npm ci --no-audit --no-fund)

if [ -z "${KOMA_BOARD:-}" ]; then
    cargo build --bin koma --bin koma-board
    export KOMA_BOARD=target/debug/koma-board
fi

# Chromium must be there from here on: board.test.mjs fails rather than
# skips when it is missing and CI or KOMA_CI is set.
KOMA_CI=1 node tools/browser/board.test.mjs
