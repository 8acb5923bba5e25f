#!/usr/bin/env bash
# slurm_cluster.sh - a throw-away one-node Slurm 22.05 cluster on this machine, for the farm tests
# (shared/TOOLCHAIN.md's recipe: root, no systemd, no accounting store):
#   bash slurm_cluster.sh start DIR   munge key, slurm.conf, state/spool/log dirs in DIR (a new,
#                                     empty directory); starts munged, slurmctld and slurmd on
#                                     ports of their own, waits for the node to be idle; prints
#                                     the slurm.conf path (export SLURM_CONF=... for the clients)
#   bash slurm_cluster.sh stop DIR    cancels every job of that cluster, stops the three daemons by
#                                     the pids in their pid files and waits for them to end;
#                                     exit 1 if one is still alive
# The node is `localhost` with CPUS CPUs (default 2) in the partition `debug`; task states are
# kept by slurmctld (scontrol show job) for 300 s after a task ends, and written to DIR/jobcomp.txt.
set -uo pipefail
cmd=${1:-} dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: slurm_cluster.sh start|stop DIR" >&2; exit 2; }

need() {
  local missing=() b
  for b in munged slurmctld slurmd sbatch scontrol squeue scancel sinfo; do
    command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] || missing+=("$b")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "slurm_cluster: missing ${missing[*]}: install slurmctld slurmd slurm-client munge" \
      "(bash scripts/deps.sh)" >&2
    exit 1
  fi
}
PATH=$PATH:/usr/sbin

# free_ports N: N TCP ports nobody listens on now (the kernel's choice, so two clusters started
# at once on one machine do not collide).
free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

# alive PID: that process runs (a zombie waiting for its parent to reap it does not).
alive() {
  local stat
  [ -n "$1" ] && stat=$(cat "/proc/$1/stat" 2>/dev/null) && [[ "${stat##*) }" != Z* ]]
}

start() {
  need
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  chmod 700 "$dir/munge"
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" ||
    { echo "slurm_cluster: munged did not start: $(tail -n 3 "$dir/log/munged.log")" >&2; exit 1; }
  local ctld_port slurmd_port
  read -r ctld_port slurmd_port <<<"$(free_ports 2)"
  cat >"$dir/slurm.conf" <<CONF
ClusterName=pinet-test-$$
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerParameters=sched_interval=1
KillWait=2
MinJobAge=300
MpiDefault=none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=localhost CPUs=${CPUS:-2} RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  slurmctld -f "$dir/slurm.conf" ||
    { echo "slurm_cluster: slurmctld did not start: $(tail -n 3 "$dir/log/slurmctld.log")" >&2; exit 1; }
  slurmd -f "$dir/slurm.conf" ||
    { echo "slurm_cluster: slurmd did not start: $(tail -n 3 "$dir/log/slurmd.log")" >&2; exit 1; }
  local k state
  for ((k = 0; k < 150; k++)); do
    state=$(SLURM_CONF=$dir/slurm.conf sinfo -h -n localhost -o %t 2>/dev/null)
    [ "$state" = idle ] && { echo "$dir/slurm.conf"; return 0; }
    sleep 0.2
  done
  echo "slurm_cluster: the node is not idle after 30 s (sinfo: '$state'); see $dir/log" >&2
  exit 1
}

stop() {
  local rc=0 f k pid
  dir=$(cd "$dir" 2>/dev/null && pwd) || exit 0
  declare -A pids=()
  for f in slurmd slurmctld munged; do pids[$f]=$(cat "$dir/$f.pid" 2>/dev/null); done
  if alive "${pids[slurmctld]}"; then
    # No job of this cluster outlives it: cancel them all and wait for their steps to end.
    SLURM_CONF=$dir/slurm.conf scancel --quiet --user=root 2>/dev/null
    for ((k = 0; k < 100; k++)); do
      [ -z "$(SLURM_CONF=$dir/slurm.conf squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  for f in slurmd slurmctld munged; do
    pid=${pids[$f]}
    alive "$pid" || continue
    kill "$pid" 2>/dev/null
    for ((k = 0; k < 100; k++)); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
      kill -KILL "$pid" 2>/dev/null; sleep 0.2
      alive "$pid" && { echo "slurm_cluster: $f (pid $pid) still running" >&2; rc=1; }
    fi
  done
  return $rc
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: slurm_cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
