#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets) for SECONDS each, JOBS at a
# time, with libFuzzer (nightly Rust and cargo-fuzz: `cargo install
# cargo-fuzz`). Each target starts from its seeds (fuzz/seeds/<target>,
# in git) and its working corpus (fuzz/corpus/<target>, not in git, grown
# by every run); crashes go to fuzz/artifacts/<target>/, logs to
# fuzz/logs/. Prints, per target, the runs, executions per second and the
# coverage libFuzzer reached (cov: edges, ft: features); exits 1 if any
# target crashed.
#
# Usage: tools/fuzz.sh [--ci] [--jobs N] SECONDS [TARGET...]
#   --ci      skip (exit 0) when nightly or cargo-fuzz is missing, or when
#             the fuzz build takes over 5 min: the seeds still run on stable
#             in `cargo test` (tests/fuzz_seeds.rs)
#   --jobs N  targets run at once (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
ci=false
jobs=1
while [ $# -gt 0 ]; do
    case "$1" in
        --ci) ci=true; shift ;;
        --jobs) jobs=$2; shift 2 ;;
        *) break ;;
    esac
done
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
seconds=$1
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=($(ls fuzz/fuzz_targets | sed 's/\.rs$//'))
fi
if ! cargo +nightly fuzz --version > /dev/null 2>&1; then
    if $ci; then
        echo "fuzz: nightly Rust or cargo-fuzz missing: libFuzzer runs skipped (the seeds ran in cargo test)"
        exit 0
    fi
    echo "fuzz: needs nightly Rust and cargo-fuzz (rustup toolchain install nightly; cargo install cargo-fuzz)" >&2
    exit 2
fi
# No sanitizer: the code the targets reach is safe Rust, and without
# ASan the targets run about twice as fast. Debug assertions and
# overflow checks stay on (cargo-fuzz's default).
flags=(--sanitizer none --codegen-units 16)
start=$(date +%s)
build=(cargo +nightly fuzz build "${flags[@]}")
[ ${#targets[@]} -eq 1 ] && build+=("${targets[0]}")
if $ci; then
    # CI's time is bounded: the fuzz build (koma again, instrumented) takes
    # about 3 min of CPU; on a machine too busy to finish it in 5 min the
    # libFuzzer runs are skipped (the seeds ran in cargo test).
    status=0
    timeout 300 "${build[@]}" || status=$?
    if [ $status -eq 124 ]; then
        echo "fuzz: the fuzz build took over 300 s: libFuzzer runs skipped"
        exit 0
    elif [ $status -ne 0 ]; then
        exit $status
    fi
else
    "${build[@]}"
fi
echo "fuzz: built in $(( $(date +%s) - start )) s"
mkdir -p fuzz/logs
run() {
    local t=$1
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
    local dict=()
    [ -f "fuzz/dicts/$t.dict" ] && dict=(-dict="fuzz/dicts/$t.dict")
    cargo +nightly fuzz run "${flags[@]}" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="fuzz/artifacts/$t/" "${dict[@]}" > "fuzz/logs/$t.log" 2>&1
}
summary() {
    local t=$1 status=$2 log="fuzz/logs/$1.log"
    local last runs eps
    last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov:' | tail -1 || true)
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
    eps=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' || true)
    printf '%-22s %-6s runs %-9s exec/s %-6s %s\n' "$t" "$status" "${runs:-?}" "${eps:-?}" \
        "$(echo "$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*')"
}
failed=()
pids=()
names=()
wait_one() {
    local pid=${pids[0]} t=${names[0]}
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
    if wait "$pid"; then
        summary "$t" ok
    else
        summary "$t" CRASH
        failed+=("$t")
    fi
}
for t in "${targets[@]}"; do
    run "$t" &
    pids+=($!)
    names+=("$t")
    if [ ${#pids[@]} -ge "$jobs" ]; then
        wait_one
    fi
done
while [ ${#pids[@]} -gt 0 ]; do
    wait_one
done
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, $(( $(date +%s) - start )) s in all"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: crashed: ${failed[*]} (inputs in fuzz/artifacts/, logs in fuzz/logs/)" >&2
    # CI keeps only what is printed: the panic and the input, per target.
    for t in "${failed[@]}"; do
        echo "--- $t:" >&2
        grep -A2 -m1 -E "panicked at|ERROR: libFuzzer" "fuzz/logs/$t.log" >&2 || true
        for a in fuzz/artifacts/"$t"/*; do
            [ -f "$a" ] && { echo "input $a (base64):" >&2; head -c 4096 "$a" | base64 >&2; }
        done
    done
    exit 1
fi
