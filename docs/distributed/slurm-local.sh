#!/usr/bin/env bash
# Starts (or stops) a throw-away single-node Slurm cluster on this machine, for trying
# the scan-array job without a real cluster. Needs root and Debian's slurm-wlm and munge:
#   apt-get install -y slurm-wlm munge
# Usage: slurm-local.sh start DIR | stop DIR. After start, `export SLURM_CONF=DIR/slurm.conf`.
set -euo pipefail
action=${1:?usage: slurm-local.sh start|stop DIR}
dir=${2:?usage: slurm-local.sh start|stop DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
host=$(hostname -s)

stop() {
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then kill "$(cat "$dir/$name.pid")" 2>/dev/null || true; rm -f "$dir/$name.pid"; fi
  done
}

case "$action" in
stop) stop; exit 0 ;;
start) ;;
*) echo "usage: slurm-local.sh start|stop DIR" >&2; exit 2 ;;
esac

mkdir -p "$dir/state" "$dir/spool" "$dir/munge" "$dir/log"
if [ ! -f "$dir/munge/munge.key" ]; then
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$dir/munge/munge.key"
fi
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed"

cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
cat > "$dir/slurm.conf" <<CONF
ClusterName=qixlocal
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 30); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "slurm-local: up ($host, $cpus CPUs); export SLURM_CONF=$SLURM_CONF" >&2
    exit 0
  fi
  sleep 1
done
echo "slurm-local: the node did not come up; see $dir/log/" >&2
exit 1
