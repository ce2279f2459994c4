#!/usr/bin/env bash
# A match on a real Slurm cluster, end to end, on this one machine: brings up
# a one-node cluster from Debian's slurm-wlm and munge (configured in a
# temporary directory: the node's real host name and CPUs, a fresh munge
# key, slurmctld and slurmd as root with their state, logs and pid files in
# that directory), then
#   1. plays a 4-shard match as a job array (tools/cluster/match.sbatch),
#      requeues one task while it plays (it must resume its shard), merges
#      the shards with --report and checks that every game is there once;
#   2. plays a longer match as an array beside the pooled SPRT
#      (tools/cluster/verdict.sbatch), which must cancel the array when a
#      bound is crossed, before the games run out.
# On exit, however it exits, every job is cancelled, the daemons are
# stopped, nothing it started is left running, and the directory is removed.
#
#   tools/cluster/slurm-test.sh [ENGINE1 [ENGINE2]]
#
# ENGINE1 and ENGINE2 are koma-referee --engine words; by default this
# build's koma at depth 3 ("new") against the same at depth 2 ("old"); e.g.
#   tools/cluster/slurm-test.sh "cmd=$PWD/target/release/koma name=new depth=3" \
#                               "cmd=/opt/koma-1.0/koma name=old depth=3"
# Paths must be absolute (the jobs run elsewhere). Needs root (the daemons,
# and apt-get install slurm-wlm munge where they are missing). The binaries
# are $KOMA_BIN_DIR's (an absolute path), by default target/release's,
# built when missing. KOMA_SLURM_ROUNDS (default
# 60) sets the first match's length, KOMA_SLURM_SPRT (default "elo0=0
# elo1=50") the second's test, which ENGINE1 should pass (H1) or fail (H0).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
started=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - started)) "$*"; }
fail() {
    say "FAILED: $*"
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    echo "slurm-test: run as root (the test starts slurmctld, slurmd and munged)" >&2
    exit 2
fi
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    say "installing slurm-wlm and munge"
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge > /dev/null
fi
bin=${KOMA_BIN_DIR:-$repo/target/release}
if [ ! -x "$bin/koma-referee" ] || [ ! -x "$bin/koma" ]; then
    say "building the release binaries"
    cargo build --release --bins
fi
referee=$bin/koma-referee
engine1=${1:-cmd=$bin/koma name=new depth=3}
engine2=${2:-cmd=$bin/koma name=old depth=2}
rounds=${KOMA_SLURM_ROUNDS:-60}
read -r -a sprt <<< "${KOMA_SLURM_SPRT:-elo0=0 elo1=50}"
read -r -a e1 <<< "$engine1"
read -r -a e2 <<< "$engine2"

tmp=$(mktemp -d /tmp/koma-slurm.XXXXXX)
# munged wants every directory above its socket searchable by all.
chmod 755 "$tmp"
# Everything this script starts, daemons and jobs, carries this variable,
# so that anything left over can be found.
export KOMA_SLURM_TEST_TOKEN=$tmp
export SLURM_CONF=$tmp/slurm.conf

# Sets `found` to the processes other than this script that carry the
# token (read with builtins only: a child would carry it too).
carrying_token() {
    local p e
    found=()
    for p in /proc/[0-9]*; do
        [ "${p#/proc/}" = "$$" ] && continue
        { mapfile -d '' e < "$p/environ"; } 2> /dev/null || continue
        for v in "${e[@]}"; do
            if [ "$v" = "KOMA_SLURM_TEST_TOKEN=$tmp" ]; then
                found+=("${p#/proc/}")
                break
            fi
        done
    done
}

stop_pid_file() {
    local f=$1 pid
    [ -f "$f" ] || return 0
    pid=$(cat "$f")
    kill "$pid" 2> /dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2> /dev/null || return 0
        sleep 0.2
    done
    kill -9 "$pid" 2> /dev/null || true
}

cleanup() {
    local status=$? p munged_pid log
    set +e
    if [ -f "$tmp/slurmctld.pid" ]; then
        scancel --quiet $(squeue -h -o %A 2> /dev/null | sort -u) 2> /dev/null
        for _ in $(seq 60); do
            [ -z "$(squeue -h 2> /dev/null)" ] && break
            sleep 0.5
        done
    fi
    stop_pid_file "$tmp/slurmd.pid"
    stop_pid_file "$tmp/slurmctld.pid"
    # Job steps outlive a stopped slurmd; ours are ended by their ids.
    munged_pid=$(cat "$tmp/munged.pid" 2> /dev/null)
    carrying_token
    for p in "${found[@]}"; do
        [ "$p" = "$munged_pid" ] || kill -9 "$p" 2> /dev/null
    done
    stop_pid_file "$tmp/munged.pid"
    sleep 0.5
    carrying_token
    if [ "${#found[@]}" -gt 0 ]; then
        say "left running: ${found[*]}"
        status=1
    else
        say "stopped: nothing left running"
    fi
    if [ "$status" != 0 ] && [ -d "$tmp" ]; then
        for log in slurmctld.log slurmd.log; do
            echo "--- last lines of $log"
            tail -n 20 "$tmp/$log" 2> /dev/null
        done
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------ the cluster
free_port() {
    local p
    for p in $(seq "$1" $(($1 + 200))); do
        if ! (ss -Htln 2> /dev/null || true) | awk '{print $4}' | grep -q ":$p\$"; then
            echo "$p"
            return
        fi
    done
    echo "$1"
}
host=$(hostname -s)
# The node as slurmd sees it: its real CPUs, sockets, cores and memory.
node=$(slurmd -C | head -n 1)
ctld_port=$(free_port 26817)
slurmd_port=$(free_port $((ctld_port + 1)))
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/out" "$tmp/logs"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
cat > "$SLURM_CONF" << EOF
ClusterName=komatest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
# No cgroups: processes tracked by parentage, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
JobRequeue=1
KillWait=5
# Finished jobs stay visible to scontrol (there is no accounting database).
MinJobAge=3600
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
munged --key-file="$tmp/munge.key" --socket="$tmp/munge.socket" \
    --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    [ "$(sinfo -h -o %T 2> /dev/null)" = idle ] && break
    sleep 0.5
done
[ "$(sinfo -h -o %T)" = idle ] || fail "the node is $(sinfo -h -o %T), not idle"
cpus=$(sinfo -h -o %c)
say "Slurm $(sinfo -V | cut -d' ' -f2) up: node $host, $cpus CPUs, ports $ctld_port/$slurmd_port"

# field JOB NAME, on_its_way STATE
. tools/cluster/job-state.sh
wait_gone() {
    local job=$1 limit=$2 t0
    t0=$(date +%s)
    while [ -n "$(squeue -h -j "$job" 2> /dev/null)" ]; do
        [ $(($(date +%s) - t0)) -lt "$limit" ] || fail "job $job still queued after ${limit}s"
        sleep 1
    done
}
games_in() { cat "$@" 2> /dev/null | grep -c '^\[Game ' || true; }

# ------------------------------------------------ 1. a match as an array
out=$tmp/out/full
total=$((2 * rounds))
say "match 1: $engine1 against $engine2, $total games in 4 shards"
job=$(sbatch --parsable --array=0-3 --output="$tmp/logs/full-%a.out" \
    --export=ALL,KOMA_REFEREE="$referee" tools/cluster/match.sbatch "$out" \
    --engine "${e1[@]}" --engine "${e2[@]}" \
    --rounds "$rounds" --random-plies 4 --max-plies 300)
t1=$(date +%s)
# Requeue shard 1 (task 0) once it has played some of its games.
shard1=$out/match.shard-1-of-4.pgn
while [ "$(games_in "$shard1")" -lt 3 ]; do
    state=$(field "${job}_0" JobState)
    on_its_way "$state" || fail "task 0 is $state before it was requeued"
    sleep 0.2
done
before=$(games_in "$shard1")
scontrol requeue "${job}_0"
say "requeued task 0 after $before of its $((total / 4)) games"
for _ in $(seq 100); do
    [ "$(field "${job}_0" JobState)" = PENDING ] && break
    sleep 0.2
done
# Slurm holds a requeued job for two minutes; let it go at once.
scontrol update JobId="${job}_0" StartTime=now
wait_gone "$job" 1800
say "match 1: the array is done in $(($(date +%s) - t1))s"
for t in 0 1 2 3; do
    state=$(field "${job}_$t" JobState)
    [ "$state" = COMPLETED ] ||
        fail "task $t: $state $(field "${job}_$t" ExitCode); log: $(cat "$tmp/logs/full-$t.out")"
done
[ "$(field "${job}_0" Restarts)" = 1 ] || fail "task 0 was not run again"
grep -q "Resuming from" "$tmp/logs/full-0.out" || fail "task 0 did not resume: $(cat "$tmp/logs/full-0.out")"
grep "Resuming from" "$tmp/logs/full-0.out"
files=("$out"/match.shard-*-of-4.pgn)
[ "${#files[@]}" = 4 ] || fail "expected 4 shard files, found ${files[*]}"
"$referee" --report "${files[@]}" | tee "$tmp/report.txt"
grep -qF "$total games from 4 file(s), shards 1-4 of 4; the match has $total" "$tmp/report.txt" ||
    fail "the report does not have all $total games"
grep -qF "Games: $total," "$tmp/report.txt" || fail "the summary does not count $total games"
# Each game once, in the files themselves.
[ "$(cat "${files[@]}" | grep -c '^\[Game ')" = "$total" ] || fail "not $total records in the shards"
dups=$(cat "${files[@]}" | sed -n 's/^\[Game "\([0-9]*\)"\]/\1/p' | sort -n | uniq -d)
[ -z "$dups" ] || fail "games recorded twice: $dups"
[ "$(cat "${files[@]}" | sed -n 's/^\[Game "\([0-9]*\)"\]/\1/p' | sort -n | uniq | wc -l)" = "$total" ] ||
    fail "games missing"
for f in "${files[@]}"; do
    "$referee" --replay "$f" > /dev/null || fail "$f does not replay"
done
say "match 1: $total games, each once, every record valid"

# ------------------------------ 2. the pooled SPRT cancels a longer array
out=$tmp/out/sprt
long=$((rounds * 20))
say "match 2: ${long} games in 4 shards (one at a time), SPRT ${sprt[*]} on the pooled games"
# One shard at a time (%1), so that the verdict job has a CPU of its own.
job=$(sbatch --parsable --array=0-3%1 --output="$tmp/logs/sprt-%a.out" \
    --export=ALL,KOMA_REFEREE="$referee" tools/cluster/match.sbatch "$out" \
    --engine "${e1[@]}" --engine "${e2[@]}" \
    --rounds "$((long / 2))" --random-plies 4 --max-plies 300)
verdict=$(sbatch --parsable --output="$tmp/logs/verdict.out" \
    --export=ALL,KOMA_REFEREE="$referee",KOMA_FOLLOW=2 \
    tools/cluster/verdict.sbatch "$job" 4 "$out" "${sprt[@]}")
t2=$(date +%s)
wait_gone "$verdict" 1800
wait_gone "$job" 120
say "match 2: the verdict job ended after $(($(date +%s) - t2))s"
code=$(field "$verdict" ExitCode)
tail -n 12 "$tmp/logs/verdict.out"
played=$(games_in "$out"/match.shard-*.pgn)
case $code in
0:0 | 3:0)
    states=$(for t in 0 1 2 3; do field "${job}_$t" JobState; done | sort | uniq -c | tr -s ' \n' ' ')
    say "match 2: verdict exit ${code%%:*}, array cancelled after $played of $long games (tasks:$states)"
    [ "$played" -lt "$long" ] || fail "the verdict came only after every game"
    grep -q CANCELLED <<< "$states" || fail "the array was not cancelled"
    ;;
4:0) say "match 2: no bound crossed after all $long games (exit 4)" ;;
*) fail "the verdict job ended with $code" ;;
esac
say "PASSED in $(($(date +%s) - started))s"
