#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-slurm`: the Slurm recipe `dynamics sweep --emit slurm` prints, run as printed on a real
# single-node Slurm cluster started on this machine. munged, slurmctld and slurmd are started by hand in the
# foreground as children of this script (the machine runs no systemd), with a private munge key, state
# folders and ports in a temporary folder; the recipe submits the shards' job array and the dependent merge,
# which run the `make dist` binary, unpacked outside the build tree, with no Swift toolchain on PATH. The merged table must equal an unsharded run's byte for byte. Then a
# checkpointed `simulate` job is requeued mid-run (`scontrol requeue`: SIGTERM, then the job again from its
# script, which resumes from the checkpoint) and must end with the uninterrupted run's state hash and outputs.
# On exit the daemons are stopped by the PIDs this script started, and the folder is removed.
# Usage: Tests/Slurm/run.sh DIST-ARCHIVE.tar.gz
set -euo pipefail
archive=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/dynamics-slurm.XXXXXX)
chmod 711 "$work"
pids=()

stop() {
	status=$?
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	if [ "$status" -ne 0 ]; then
		for log in "$work"/*.log "$work"/*.out "$work"/munge/munged.log "$work"/job/*.log; do
			[ -f "$log" ] && { echo "--- $log"; tail -n 30 "$log"; }
		done
	fi
	rm -rf "$work"
	exit "$status"
}
trap stop EXIT

fail() {
	echo "test-slurm: $*" >&2
	exit 1
}

# The binary, unpacked outside the build tree; the job's PATH has no Swift toolchain.
mkdir "$work/opt" && tar -C "$work/opt" -xzf "$archive"
bin=$(echo "$work"/opt/dynamics-*/bin)
[ -x "$bin/dynamics" ] || fail "no bin/dynamics in $archive"
jobpath="$bin:/usr/local/bin:/usr/bin:/bin"
PATH="$jobpath" command -v swift >/dev/null && fail "a Swift toolchain is on the job's PATH"
# --version names the commit the archive was built from (make dist and make build pass it alike).
version=$(PATH="$jobpath" dynamics --version)
echo "$version"
want=$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
case "$version" in *"(commit $want"*) ;; *) fail "dynamics --version does not name the commit $want: $version" ;; esac

# munge, with its own key and socket (the socket's folder must be executable by everyone).
mkdir "$work/munge" && chown munge:munge "$work/munge" && chmod 711 "$work/munge"
runuser -u munge -- mungekey --create --keyfile="$work/munge/munge.key"
socket="$work/munge/munge.socket"
runuser -u munge -- /usr/sbin/munged --foreground --socket="$socket" --key-file="$work/munge/munge.key" \
	--pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" \
	>"$work/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || fail "munged did not start"

# A single-node cluster: this machine, all its CPUs, ports of its own, no accounting.
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<CONF
ClusterName=dynamicstest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
/usr/sbin/slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
/usr/sbin/slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 120); do
	sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
	sleep 0.5
done
sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)' || fail "the node did not come up: $(sinfo 2>&1 | tail -n 2)"

mkdir "$work/job" && cd "$work/job"
# A sweep of 40 variants: the example's grid with 4 seeds × 10 frictions, 1 s each.
cat >sweep.yaml <<'SWEEP'
format: dynamics-sweep/1
name: slurm-test
scene: pile-and-flick
seconds: 1
parameters:
  - {pointer: /generators/0/material/friction, range: {from: 0, to: 0.9, step: 0.1}}
  - {pointer: /configuration/seed, random: {count: 4, seed: 5, min: 0, max: 100000, integer: true}}
metrics: [stateHash, kineticEnergy, contactEvents, {highest: height}, {item: red, quantity: position}]
SWEEP

# The recipe as the binary prints it, for 4 shards on 1 CPU each, submitted as a user would (sbatch exports
# the submitting shell's PATH to the jobs).
PATH="$jobpath" dynamics sweep sweep.yaml --emit slurm --shards 4 --workers 1 >submit.sh
submitted=$(PATH="$jobpath" bash submit.sh)
echo "test-slurm: $submitted"
array=$(echo "$submitted" | sed -n 's/^submitted job array \([0-9]*\) .* merge job \([0-9]*\)$/\1/p')
merge=$(echo "$submitted" | sed -n 's/^submitted job array \([0-9]*\) .* merge job \([0-9]*\)$/\2/p')
[ -n "$array" ] && [ -n "$merge" ] || fail "the recipe printed no job ids: $submitted"
echo "test-slurm: array job $array, merge job $merge"
for _ in $(seq 600); do
	state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1)
	case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
	sleep 0.5
done
[ "$state" = COMPLETED ] || fail "the merge job ended $state; array: $(scontrol show job "$array" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr '\n' ' ')"
shards=$(ls results/shard-*-of-0004.jsonl | wc -l)
[ "$shards" -eq 4 ] || fail "$shards of 4 shard files complete"
[ -s table.csv ] || fail "the merge job wrote no table.csv"

# The same sweep unsharded, with the same binary.
PATH="$jobpath" dynamics sweep sweep.yaml --output whole --quiet
PATH="$jobpath" dynamics sweep --merge whole --output whole.csv --output whole.jsonl --quiet
cmp table.csv whole.csv || fail "the Slurm table differs from the unsharded run's"
cmp table.jsonl whole.jsonl || fail "the Slurm JSON Lines differ from the unsharded run's"
echo "test-slurm: 4 array tasks and the dependent merge on Slurm $(sinfo --version | cut -d' ' -f2) give the unsharded table ($(($(wc -l <table.csv) - 1)) variants)"

# A checkpointed run, requeued mid-run as a pre-empted job is: Slurm sends SIGTERM (the run writes its
# checkpoint and keeps its partial outputs), then runs the job's script again, which resumes.
mkdir "$work/requeue" && cd "$work/requeue"
run=(simulate pile --items 20000 --seconds 30 --workers 1 --every 120)
cat >job.sh <<JOB
#!/bin/bash
#SBATCH --requeue
#SBATCH --output=job.log
#SBATCH --open-mode=append
if [ -f run.ckpt ]; then exec dynamics simulate --resume run.ckpt --quiet
else exec dynamics ${run[*]} --output out.npz --summary summary.json --checkpoint run.ckpt --checkpoint-every 0.5 --quiet; fi
JOB
job=$(PATH="$jobpath" sbatch --parsable --chdir="$work/requeue" job.sh)
echo "test-slurm: checkpointed job $job"
for _ in $(seq 600); do [ -f run.ckpt ] && break; sleep 0.1; done
[ -f run.ckpt ] || fail "the job wrote no checkpoint: $(scontrol show job "$job" | grep -o 'JobState=[A-Z_]*')"
scontrol requeue "$job"
# Slurm holds a requeued job back for a while before it may start again; this test lets it start at once.
for _ in $(seq 100); do
	scontrol show job "$job" | grep -q 'JobState=PENDING' && scontrol update JobId="$job" StartTime=now 2>/dev/null && break
	sleep 0.2
done
for _ in $(seq 1200); do
	state=$(scontrol show job "$job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1)
	case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
	sleep 0.5
done
[ "$state" = COMPLETED ] || fail "the requeued job ended $state: $(cat job.log 2>/dev/null)"
restarts=$(scontrol show job "$job" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p' | head -n 1)
[ "${restarts:-0}" -ge 1 ] || fail "the job was not requeued (Restarts=$restarts)"
grep -q "interrupted after" job.log || fail "the first run was not interrupted by the requeue: $(cat job.log)"
[ ! -f run.ckpt ] || fail "the completed run left its checkpoint"
left=$(find . -maxdepth 1 -name '.*.partial' | head -n 3)
[ -z "$left" ] || fail "partial files left behind: $left"
# The same run, never interrupted.
mkdir whole && (cd whole && PATH="$jobpath" dynamics "${run[@]}" --output out.npz --summary summary.json --quiet)
hash=$(sed -n 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/p' summary.json)
want=$(sed -n 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/p' whole/summary.json)
[ -n "$hash" ] && [ "$hash" = "$want" ] || fail "the requeued run ends with state hash $hash, the uninterrupted run with $want"
cmp out.npz whole/out.npz || fail "the requeued run's trajectories differ from the uninterrupted run's"
echo "test-slurm: a job requeued mid-run ($(grep -o 'interrupted after [0-9]* of [0-9]* steps' job.log)) resumed from its checkpoint to the uninterrupted run's state hash $hash and trajectories"
