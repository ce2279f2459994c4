# Reading a Slurm job's state for tools/cluster/slurm-test.sh (sourced).
# A job's state changes while the test looks at it (PENDING, then
# CONFIGURING, then RUNNING): each check reads it once and judges that one
# reading, so a change between two reads is never taken for a failure.

# A field of a job (task) from scontrol, e.g. `field 12_3 JobState`.
field() { scontrol show job "$1" 2> /dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

# Whether a state is one of a task still on its way: queued, starting or
# running. An empty reading (scontrol busy for a moment) counts as such.
on_its_way() {
    case "$1" in
    "" | PENDING | CONFIGURING | RUNNING | REQUEUED | REQUEUE_HOLD) return 0 ;;
    *) return 1 ;;
    esac
}
