#!/usr/bin/env bash
# Demonstrates the Slurm path for real on one machine: starts a local single-node Slurm
# (slurm-local.sh), generates a small archive with marked spots, scans it with job arrays of
# every layout (stepped 1-8:2 then 2-8:2; sparse 2,5,9 then the rest of 10; 1-8 with two
# shards lost and re-submitted as 3,7), merges each layout's shard databases and checks that
# every merge holds exactly the rows, airings and coverage of one unsharded scan.
# Needs root, slurm-wlm, munge and sox (apt-get install -y slurm-wlm munge sox), python3, and a
# build: swift build -c release (or QIX=/path/to/qix for another build).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
qix=${QIX:-$repo/.build/release/qix}
[ -x "$qix" ] || { echo "slurm-demo: build first: swift build -c release (or set QIX)" >&2; exit 1; }
work=$(mktemp -d /tmp/qix-slurm-demo.XXXXXX)
cluster="$work/cluster"
trap 'bash "$repo/docs/distributed/slurm-local.sh" stop "$cluster"' EXIT
export PATH="$(dirname "$qix"):$PATH"

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

# Everything a database holds about the archive: every recording row but its row id and the
# run that wrote it, then every detection with its recording's path.
dump() {
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
columns = [r[1] for r in db.execute("PRAGMA table_info(recordings)") if r[1] not in ("id", "scan_uuid")]
for row in db.execute(f"SELECT {', '.join(columns)} FROM recordings ORDER BY path"):
    print(row)
for row in db.execute('SELECT r.path, d.message, d.start, d."end", d.score FROM detections d '
                      'JOIN recordings r ON r.id = d.recording_id ORDER BY r.path, d.start, d.message'):
    print(row)
PY
}
# The three views that must be equal to the unsharded scan's: rows, airings, coverage.
views() {
  dump "$1"
  qix report "$1" --json
  qix report "$1" --coverage --json
}

echo "== unsharded reference scan" >&2
qix scan "$work/archive" --db "$work/whole.sqlite" --key "$work/campaign.key" --quiet
views "$work/whole.sqlite" > "$work/whole.txt"
qix report "$work/whole.sqlite" --json
[ "$(qix report "$work/whole.sqlite" --json | wc -l)" -eq 4 ] || { echo "slurm-demo: FAILED: the reference scan lacks airings" >&2; exit 1; }

# One array of LAYOUT: sbatch --wait --array=SPEC for SHARDS shards into OUT.
submit() {  # out, shards, spec
  echo "== sbatch --array=$3 (shards: $2)" >&2
  (cd "$1" && sbatch --wait --array="$3" --cpus-per-task=1 "$repo/docs/distributed/scan-array.sbatch" \
     "$work/archive" "$1" "$2" "$work/campaign.key")
}
# Merges OUT's shard databases and compares them with the unsharded scan.
check() {  # name, out
  qix merge "$2/airings.sqlite" "$2"/shard-*.sqlite
  views "$2/airings.sqlite" > "$2/merged.txt"
  if cmp -s "$2/merged.txt" "$work/whole.txt"; then
    echo "slurm-demo: OK: $1: merged shards = the unsharded scan ($(ls "$2"/shard-*.sqlite | wc -l) shard databases)"
  else
    echo "slurm-demo: FAILED: $1: merged shards differ from the unsharded scan" >&2
    diff "$2/merged.txt" "$work/whole.txt" >&2 || true
    exit 1
  fi
}

mkdir -p "$work/stepped" "$work/sparse" "$work/resubmitted"
submit "$work/stepped" 8 1-8:2
submit "$work/stepped" 8 2-8:2
check "stepped 1-8:2 + 2-8:2 of 8" "$work/stepped"

submit "$work/sparse" 10 2,5,9
submit "$work/sparse" 10 1,3-4,6-8,10
check "sparse 2,5,9 + the rest of 10" "$work/sparse"

submit "$work/resubmitted" 8 1-8
# Lose the databases of two shards that hold recordings (which ones do depends on the paths),
# as when their tasks fail, and re-submit just those indices.
lost=""
for k in $(seq 1 8); do
  n=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM recordings").fetchone()[0])' "$work/resubmitted/shard-$k.sqlite")
  if [ "$n" -gt 0 ] && [ "$(echo "$lost" | tr ',' '\n' | grep -c .)" -lt 2 ]; then lost=${lost:+$lost,}$k; fi
done
for k in ${lost//,/ }; do rm -f "$work/resubmitted/shard-$k.sqlite"*; done
submit "$work/resubmitted" 8 "$lost"
check "1-8 with shards $lost lost, re-submitted as --array=$lost" "$work/resubmitted"

# An index outside 1..8 is refused, never wrapped onto another shard.
mkdir -p "$work/outside"
if (cd "$work/outside" && sbatch --wait --array=9 "$repo/docs/distributed/scan-array.sbatch" "$work/archive" "$work/outside" 8 "$work/campaign.key"); then
  echo "slurm-demo: FAILED: array task 9 of 8 shards was accepted" >&2; exit 1
fi
grep -h "qix: error" "$work"/outside/qix-scan-*.log
echo "slurm-demo: OK: array task 9 of 8 shards refused"
