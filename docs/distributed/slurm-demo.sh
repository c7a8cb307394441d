#!/usr/bin/env bash
# Demonstrates the Slurm path for real on one machine: starts a local single-node Slurm
# (slurm-local.sh), generates a small archive with marked spots, scans it as a 2-task job
# array, merges the shard databases and checks they equal one unsharded scan.
# Needs root, slurm-wlm, munge and sox (apt-get install -y slurm-wlm munge sox), and a
# release build: swift build -c release.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
qix="$repo/.build/release/qix"
[ -x "$qix" ] || { echo "slurm-demo: build first: swift build -c release" >&2; exit 1; }
work=$(mktemp -d /tmp/qix-slurm-demo.XXXXXX)
cluster="$work/cluster"
trap 'bash "$repo/docs/distributed/slurm-local.sh" stop "$cluster"' EXIT
export PATH="$repo/.build/release:$PATH"

echo "== archive in $work/archive" >&2
mkdir -p "$work/archive" "$work/parts" "$work/out"
qix keygen "$work/campaign.key" 2>/dev/null
clips="$repo/corpus/clips"
sox "$clips/a05_speech_en-audiobook_librivox-austen.flac" -r 16000 -c 1 "$work/parts/speech.wav" repeat 2
for id in 11111111 22222222 33333333 44444444; do
  qix embed "$clips/a01_music_rock_sectoid_metal-madness.flac" "$work/parts/marked-$id.flac" --message "$id" --key "$work/campaign.key"
  sox "$work/parts/marked-$id.flac" -r 16000 -c 1 "$work/parts/spot-$id.wav" trim 2 8
done
# Two channels x three 30 s recordings; spots at 10:00:05 (alpha), 10:00:40 (beta), 10:01:10 (alpha), 10:01:22 (beta).
make_recording() {  # name, spot id or "-", spot offset in seconds
  local name=$1 id=$2 at=$3
  if [ "$id" = "-" ]; then
    sox "$work/parts/speech.wav" "$work/archive/$name.flac" trim 0 30
  else
    sox "$work/parts/speech.wav" "$work/parts/head.wav" trim 0 "$at"
    sox "$work/parts/speech.wav" "$work/parts/tail.wav" trim "$((at + 8))" "$((30 - at - 8))"
    sox "$work/parts/head.wav" "$work/parts/spot-$id.wav" "$work/parts/tail.wav" "$work/archive/$name.flac"
  fi
}
make_recording alpha_20261121_100000 11111111 5
make_recording alpha_20261121_100030 - 0
make_recording alpha_20261121_100100 33333333 10
make_recording beta_20261121_100000 - 0
make_recording beta_20261121_100030 22222222 10
make_recording beta_20261121_100100 44444444 22

echo "== local Slurm" >&2
bash "$repo/docs/distributed/slurm-local.sh" start "$cluster"
export SLURM_CONF="$cluster/slurm.conf"
sinfo

echo "== sbatch --array=1-2 (waits for the array)" >&2
cd "$work/out"
sbatch --wait --array=1-2 --cpus-per-task=1 "$repo/docs/distributed/scan-array.sbatch" "$work/archive" "$work/out" "$work/campaign.key"
for log in "$work"/out/qix-scan-*.log; do echo "--- $(basename "$log")"; cat "$log"; done
qix merge "$work/out/airings.sqlite" "$work"/out/shard-*.sqlite

echo "== unsharded reference scan" >&2
qix scan "$work/archive" --db "$work/whole.sqlite" --key "$work/campaign.key" --quiet
qix report "$work/out/airings.sqlite" --json > "$work/merged.jsonl"
qix report "$work/whole.sqlite" --json > "$work/whole.jsonl"
cat "$work/merged.jsonl"
if cmp -s "$work/merged.jsonl" "$work/whole.jsonl" && [ "$(wc -l < "$work/merged.jsonl")" -eq 4 ]; then
  echo "slurm-demo: OK: 2 array tasks + merge = the unsharded scan ($(wc -l < "$work/merged.jsonl") airings)"
else
  echo "slurm-demo: FAILED: merged shards differ from the unsharded scan" >&2
  diff "$work/merged.jsonl" "$work/whole.jsonl" >&2 || true
  exit 1
fi
