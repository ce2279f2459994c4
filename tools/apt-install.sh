#!/usr/bin/env bash
# Installs Debian packages for a test step that needs a program the machine
# lacks (chromium for the browser tests, parallel for the GNU parallel
# test): only on Debian, as root or with password-less sudo. apt's output
# goes to target/apt-install.log, and one line says what was installed;
# on a failure the log's tail is printed. Exit 1 when it cannot install.
#
#   bash tools/apt-install.sh PACKAGE...
set -uo pipefail
cd "$(dirname "$0")/.."
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
        sudo=(sudo -n)
    else
        echo "apt-install: not root and no password-less sudo: cannot install $*" >&2
        exit 1
    fi
fi
if [ ! -f /etc/debian_version ] || ! command -v apt-get > /dev/null; then
    echo "apt-install: not a Debian machine with apt-get: cannot install $*" >&2
    exit 1
fi
mkdir -p target
log=target/apt-install.log
t0=$(date +%s)
echo "apt-install: installing $* with apt-get (output in $log)"
if "${sudo[@]}" apt-get update -q >> "$log" 2>&1 &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >> "$log" 2>&1; then
    echo "apt-install: $* installed in $(($(date +%s) - t0)) s"
else
    echo "apt-install: apt-get failed; the end of $log:" >&2
    tail -n 20 "$log" >&2
    exit 1
fi
