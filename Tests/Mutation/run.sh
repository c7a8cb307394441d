#!/usr/bin/env bash
# Seeded mutation run of `qix sim` and `qix cards`: mutates numbers of the corpus scenes, decks and
# gesture files to extremes (huge, tiny, negative, zero; never NaN, which JSON cannot spell), runs
# each mutant, and counts traps (killed by a signal), hangs (over 60 s) and NaN states (a `null`
# in the last trace line, or a hash printed after one).
#
#   Tests/Mutation/run.sh [COUNT] [SEED]      (default 1000 mutants, seed 1)
#
# Needs a built `qix` (QIX=path/to/qix, default .build/debug/qix) and python3. Each run is capped
# at 3 simulated seconds (--duration 3), so a slow but finite run is not mistaken for a hang.
# Exit 0 when there are no traps, hangs or NaN states.
set -u
cd "$(dirname "$0")/../.."
COUNT=${1:-1000}
SEED=${2:-1}
QIX=${QIX:-.build/debug/qix}
[ -x "$QIX" ] || { echo "run.sh: no qix at $QIX (swift build first, or set QIX)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 - "$COUNT" "$SEED" "$WORK" <<'PY'
import json, random, sys, os
count, seed, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
scenes = ["corpus/scenes/contract-example.json", "corpus/scenes/cards10.json"]
decks = ["corpus/scenes/cards/two-pages.deck.json", "corpus/scenes/cards/three-pages.deck.json"]
gestures = sorted("corpus/scenes/cards/" + f for f in os.listdir("corpus/scenes/cards") if f.endswith(".gestures.json"))
EXTREMES = [1e308, -1e308, 1.7e19, -1.7e19, 1e9, -1e9, 3.12e8, -3.12e8, 1e6, -1e6, 2e5, 1000, -1000, 1e-300, -1e-300,
            5e-324, 0.0, -0.0, -1.0, 1.0, 0.5]

def numbers(node, path=()):
    if isinstance(node, bool): return
    if isinstance(node, (int, float)): yield path; return
    if isinstance(node, dict):
        for k, v in node.items(): yield from numbers(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node): yield from numbers(v, path + (i,))

def mutate(doc):
    paths = list(numbers(doc))
    for _ in range(rng.choice([1, 1, 2, 3])):
        path = rng.choice(paths)
        node = doc
        for k in path[:-1]: node = node[k]
        old = node[path[-1]]
        choice = rng.random()
        if choice < 0.6: new = rng.choice(EXTREMES)
        elif choice < 0.8: new = old * rng.choice([1e6, 1e12, -1, -1e6, 1e-6])
        else: new = old + rng.choice([1e9, -1e9, 1e18])
        node[path[-1]] = new
    return doc

with open(os.path.join(work, "jobs"), "w") as jobs:
    for n in range(count):
        kind = rng.choice(["sim", "deck", "gestures"])
        if kind == "sim":
            src = rng.choice(scenes)
            out = os.path.join(work, f"m{n}.json")
            json.dump(mutate(json.load(open(src))), open(out, "w"))
            jobs.write(f"sim {out}\n")
        else:
            deck, gest = rng.choice(decks), rng.choice(gestures)
            if kind == "deck":
                out = os.path.join(work, f"m{n}.deck.json")
                json.dump(mutate(json.load(open(deck))), open(out, "w"))
                jobs.write(f"cards {out} {gest}\n")
            else:
                out = os.path.join(work, f"m{n}.gestures.json")
                json.dump(mutate(json.load(open(gest))), open(out, "w"))
                jobs.write(f"cards {deck} {out}\n")
PY

# Failing mutants are kept here for reproduction.
KEEP=${KEEP:-${TMPDIR:-/tmp}/qix-mutants}
keep() { mkdir -p "$KEEP"; cp "$@" "$KEEP/" 2>/dev/null; }
runs=0 traps=0 hangs=0 nans=0 errors=0 diverged=0 ok=0
start=$(date +%s)
while read -r kind a b; do
    runs=$((runs + 1))
    if [ "$kind" = sim ]; then
        timeout 60 "$QIX" sim "$a" --duration 3 --trace - --hash >"$WORK/out" 2>"$WORK/err" </dev/null
    else
        timeout 60 "$QIX" cards "$a" --gestures "$b" --duration 3 --trace - --hash >"$WORK/out" 2>"$WORK/err" </dev/null
    fi
    status=$?
    if [ $status -eq 124 ]; then hangs=$((hangs + 1)); echo "hang: $kind $a $b"; keep "$a" "$b"; continue; fi
    if [ $status -ge 128 ]; then traps=$((traps + 1)); echo "trap ($status): $kind $a $b"; keep "$a" "$b"; continue; fi
    if [ $status -ne 0 ]; then
        errors=$((errors + 1))
        grep -q '^qix: error: simulation diverged ' "$WORK/err" && diverged=$((diverged + 1))
        grep -q '^qix: error: ' "$WORK/err" || { echo "exit $status without a one-line error: $kind $a $b"; traps=$((traps + 1)); }
        grep -q '^hash: ' "$WORK/out" && { echo "hash after an error: $kind $a $b"; nans=$((nans + 1)); }
        continue
    fi
    # The items of the last frame (events may hold a null boundary name).
    last=$(grep -v '^hash: ' "$WORK/out" | tail -n 1 | sed 's/"events".*//')
    if printf '%s' "$last" | grep -q 'null'; then nans=$((nans + 1)); echo "NaN state hashed: $kind $a $b"; keep "$a" "$b"; continue; fi
    ok=$((ok + 1))
done <"$WORK/jobs"
echo "mutants: $runs  ran to the end: $ok  clear errors: $errors (of which diverged: $diverged)  traps: $traps  hangs: $hangs  NaN hashes: $nans  ($(( $(date +%s) - start )) s)"
[ $traps -eq 0 ] && [ $hangs -eq 0 ] && [ $nans -eq 0 ]
