#!/bin/bash
# Starts a private single-node Slurm on localhost (its own munge key and munged, slurmctld and slurmd on
# non-default ports, every file in a scratch folder), checks it runs an array job, then runs the sharded bench
# through `tilecraft bench --slurm` and checks the merged report is byte-equal to a local run's.
# The daemons are stopped by their pids when the script exits, whatever the outcome.
#
# usage: slurm_test.sh TILECRAFT SLURM_SUBMIT_PROBE TASKS SOLUTIONS
set -euo pipefail
tilecraft=$1
probe=$2
tasks=$3
solutions=$4
shards=3

fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in mungekey munged munge unmunge slurmctld slurmd sbatch sinfo squeue; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (scripts/setup.sh test installs slurm-wlm and munge)"
done
[ "$(id -u)" -eq 0 ] || fail "the test starts munged as the munge user and Slurm as root: run it as root"
id munge >/dev/null 2>&1 || fail "there is no munge user (the munge package creates it)"

# A short path: the munge socket's path must fit in a sockaddr_un.
work=$(mktemp -d /tmp/tc-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  status=$?
  for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
    if [ -s "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
  if [ "$status" -ne 0 ]; then
    for log in "$work"/*.log "$work"/munge/munged.log; do
      [ -f "$log" ] && { echo "--- $log"; tail -n 30 "$log"; }
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

# munge: a private key, socket and daemon run as the munge user.
mkdir -p "$work/munge"
mungekey --create --keyfile="$work/munge/munge.key"
chown -R munge:munge "$work/munge"
chmod 755 "$work/munge"
chmod 400 "$work/munge/munge.key"
socket=$work/munge/munge.socket
su -s /bin/sh munge -c "munged --key-file='$work/munge/munge.key' --socket='$socket' \
  --pid-file='$work/munge/munged.pid' --log-file='$work/munge/munged.log' --seed-file='$work/munge/munged.seed'"
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
munge -S "$socket" -n | unmunge -S "$socket" | grep -q 'STATUS: *Success' || fail "munge cannot encode and decode"

# Slurm: ports chosen from the pid, clear of the defaults (6817-6819).
port=$((20000 + $$ % 20000))
host=$(hostname)
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=tilecraft-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
SlurmctldPort=$port
SlurmdPort=$((port + 1))
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
SchedulerType=sched/builtin
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$work/state" "$work/spool"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
  sinfo -h -o '%T' 2>/dev/null | grep -Eq '^idle' && break
  sleep 0.2
done
sinfo -h -o '%T' | grep -Eq '^idle' || fail "the node did not come up idle: $(sinfo 2>&1)"
echo "slurm: node $host idle (ports $port, $((port + 1)))"

# The cluster runs an array job: each task sees its SLURM_ARRAY_TASK_ID.
cat >"$work/job.sh" <<'JOB'
#!/bin/sh
echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT"
JOB
(cd "$work" && timeout 120 sbatch --wait --array=0-2 -o "$work/out-%a.txt" "$work/job.sh" >/dev/null) ||
  fail "the array job failed"
for i in 0 1 2; do
  [ "$(cat "$work/out-$i.txt")" = "task $i of 3" ] || fail "array task $i printed '$(cat "$work/out-$i.txt" 2>&1)'"
done
echo "slurm: array job of 3 tasks ran"

# harness/slurm.h's submission on the real scheduler: array job, per-shard logs, merge job after them. A stand-in
# tilecraft writes what it was asked to do; its "merge" concatenates the shards in argument order.
cat >"$work/fake-tilecraft" <<'FAKE'
#!/bin/sh
out=
shard=
merge=no
shards=
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift ;;
    --shard) shard=$2; shift ;;
    merge) merge=yes ;;
    bench|--smoke) ;;
    *) [ "$merge" = yes ] && shards="$shards $1" ;;
  esac
  shift
done
mkdir -p "$out"
if [ "$merge" = yes ]; then
  for s in $shards; do cat "$s/results.jsonl"; done >"$out/merged.txt"
else
  echo "shard $shard on $SLURM_JOB_NAME" >"$out/results.jsonl"
  echo "log of shard $shard"
fi
FAKE
chmod +x "$work/fake-tilecraft"
(cd "$work" && "$probe" "$work/fake-tilecraft" "$work/probe" 3 --smoke >"$work/probe-ids.txt") ||
  fail "submitting through harness/slurm.h failed"
for _ in $(seq 300); do
  [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
  sleep 0.2
done
expected=$(printf 'shard 0/3 on tilecraft-bench\nshard 1/3 on tilecraft-bench\nshard 2/3 on tilecraft-bench')
[ "$(cat "$work/probe/merged.txt" 2>&1)" = "$expected" ] ||
  fail "the merge job saw '$(cat "$work/probe/merged.txt" 2>&1)' (jobs $(cat "$work/probe-ids.txt"))"
[ "$(cat "$work/probe/slurm/shard-1.log")" = "log of shard 1/3" ] || fail "shard 1's log is not in DIR/slurm/shard-1.log"
echo "slurm: harness/slurm.h submitted jobs $(cat "$work/probe-ids.txt"); the merge ran after 3 shards"


# The same bench, locally and as a Slurm array job of $shards shards plus the merge job.
"$tilecraft" bench "$tasks" --solutions "$solutions" --smoke --out "$work/local" >"$work/local.txt" 2>&1 ||
  { cat "$work/local.txt"; fail "the local bench failed"; }
"$tilecraft" bench "$tasks" --solutions "$solutions" --smoke --out "$work/sharded" --shards "$shards" --slurm \
  >"$work/submit.txt" 2>&1 || { cat "$work/submit.txt"; fail "tilecraft bench --slurm failed"; }
# Wait for the array and the merge job to leave the queue (this private cluster runs nothing else).
for _ in $(seq 900); do
  [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h -o %i)" ] || fail "the jobs are still queued after 15 minutes: $(squeue)"
for i in $(seq 0 $((shards - 1))); do
  # A shard may hold no item (3 shards of a 2-case smoke run): it still writes its (empty) results file.
  [ -f "$work/sharded/shard-$i/results.jsonl" ] || fail "shard $i wrote no results ($(cat "$work/sharded/slurm/shard-$i.log" 2>&1))"
done
[ -f "$work/sharded/summary.md" ] || fail "the merge job wrote no report ($(cat "$work/sharded/slurm/merge.log" 2>&1))"
cmp "$work/local/summary.md" "$work/sharded/summary.md" ||
  { diff "$work/local/summary.md" "$work/sharded/summary.md" | head -40; fail "the merged Markdown differs from the local run's"; }
cmp "$work/local/report.html" "$work/sharded/report.html" || fail "the merged HTML differs from the local run's"
echo "PASS: $shards shards on Slurm merged into the local run's report"
