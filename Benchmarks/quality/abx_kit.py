#!/usr/bin/env python3
"""An ABX listening test of the masking limits: can a listener tell marked from original?

The masking model's excitation limit (1.9 dB) and largest depth (0.5) were set to match format
1's change of the ear's filter excitations, never by listening; higher limits make the mark far
more robust (docs/watermark.md, section 7). This kit decides whether a higher setting stays
inaudible. `make` builds, for every host and setting, a pair folder with the original excerpt
(A.wav; the host's stretch where the mark is loudest, the same for every setting), the marked one (B.wav) and TRIALS unknowns (X01.wav, ...), each a copy of A or B drawn
at random; folder names do not say which setting they hold. `score` reads the listeners' answers
and reports, per pair and per setting, how many were right and the one-sided binomial p-value of
doing that well by guessing.

    python3 Benchmarks/quality/abx_kit.py make --qix .build/release/qix --out /tmp/abx \\
        --setting 1.9/0.5 --setting 3/0.7 --setting 4/0.7
    (listen: each pair folder's A, B, then every X; write A or B in the kit's answers.csv)
    python3 Benchmarks/quality/abx_kit.py score --kit /tmp/abx --answers /tmp/abx/answers.csv

A setting passes when, over all its pairs and listeners, the right answers are not significantly
more than half (p >= 0.05) and no single pair reaches p < 0.05 / (the setting's pairs), a Bonferroni
bound (with 16 trials: 12 right is p = 0.038, 14 right p = 0.002; for nine pairs 0.0056). Needs sox for the excerpts; the key file (key.json) tells which X
is which, so keep it from the listeners. Scoring needs only the Python standard library.
"""

import argparse
import array
import csv
import glob
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import wave

KEY = "0123456789abcdef0123456789abcdef"
MESSAGE = "12345678"


LISTENER_INSTRUCTIONS = """ABX listening test: can you hear a difference?

Each of the {pairs} folders pair-NN holds A.wav and B.wav, {seconds:g} s of the same audio, and
X01.wav to X{trials:02d}.wav: each X is an exact copy of either A or B. For every X, decide
whether it is A or B and write A or B in the answer column of answers.csv (one row per pair
and trial). Keep a copy of answers.csv per listener.

- Use good headphones in a quiet room, at a comfortable, fixed level (do not turn it up
  between files).
- Listen to A, B and X as often as you like, in any order, and compare short stretches.
- If you cannot tell, guess: a blank answer counts for nothing, a guess costs nothing.
- Take a break every ten minutes or so; the pairs can be done in any order and over
  several sittings.
- Do not open or compare the files with any tool other than your ears.
"""


def parse_setting(text):
    """'3/0.7' -> (3.0, 0.7): excitation limit in dB, largest depth."""
    try:
        limit, depth = (float(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"setting '{text}': expected LIMIT_DB/DEPTH, e.g. 3/0.7")
    if not (0 < limit <= 6 and 0 < depth <= 0.9):
        raise argparse.ArgumentTypeError(f"setting '{text}': limit must be in (0, 6] dB, depth in (0, 0.9]")
    return limit, depth


def binomial_tail(correct, trials):
    """P(at least `correct` right of `trials`) when every answer is a fair coin."""
    if trials <= 0:
        return 1.0
    return sum(math.comb(trials, k) for k in range(correct, trials + 1)) / 2 ** trials


def plan_trials(pairs, trials, seed):
    """For each pair, which of A or B every X is: a seeded draw, balanced as nearly as the count allows."""
    rng = random.Random(seed)
    plan = {}
    for pair in pairs:
        answers = ["A", "B"] * (trials // 2) + (["A"] if trials % 2 else [])
        rng.shuffle(answers)
        plan[pair] = answers
    return plan


def score(key, rows):
    """Per pair and per setting: answers right, answered, p. `rows` are dicts with pair, trial, answer."""
    right, answered = {}, {}
    for row in rows:
        pair, answer = row["pair"].strip(), row["answer"].strip().upper()
        if not answer:
            continue
        if pair not in key["pairs"]:
            raise ValueError(f"answers: unknown pair '{pair}'")
        if answer not in ("A", "B"):
            raise ValueError(f"answers: pair {pair} trial {row['trial']}: '{row['answer']}' is not A or B")
        trial = int(row["trial"])
        truth = key["pairs"][pair]["x"]
        if not 1 <= trial <= len(truth):
            raise ValueError(f"answers: pair {pair} has no trial {trial}")
        answered[pair] = answered.get(pair, 0) + 1
        right[pair] = right.get(pair, 0) + (answer == truth[trial - 1])
    per_pair = []
    for pair in sorted(answered):
        info = key["pairs"][pair]
        per_pair.append((pair, info["host"], info["setting"], right[pair], answered[pair],
                         binomial_tail(right[pair], answered[pair])))
    per_setting = {}
    for _, _, setting, r, n, _ in per_pair:
        total = per_setting.setdefault(setting, [0, 0])
        total[0] += r
        total[1] += n
    return per_pair, {s: (r, n, binomial_tail(r, n)) for s, (r, n) in per_setting.items()}


def read_wav16(path):
    """Samples (interleaved, as integers), rate and channels of a 16-bit WAV."""
    with wave.open(path, "rb") as source:
        if source.getsampwidth() != 2:
            raise ValueError(f"{path}: not 16-bit")
        samples = array.array("h", source.readframes(source.getnframes()))
        if sys.byteorder == "big":
            samples.byteswap()
        return samples, source.getframerate(), source.getnchannels()


def loudest_mark(original, marked, seconds):
    """Start (s) of the `seconds`-long stretch where the mark is loudest: where it is most
    exposed, so the excerpt is the host's hardest test rather than a pause."""
    a, rate, channels = read_wav16(original)
    b, _, _ = read_wav16(marked)
    block = rate * channels // 10
    energy = []
    for start in range(0, min(len(a), len(b)) - block + 1, block):
        energy.append(sum((y - x) ** 2 for x, y in zip(a[start:start + block], b[start:start + block])))
    return best_window(energy, round(seconds * 10)) / 10


def best_window(values, length):
    """Index where the sum of `length` consecutive values is largest (the first such; 0 when
    there are fewer values than that)."""
    if len(values) <= length:
        return 0
    total = best = sum(values[:length])
    where = 0
    for i in range(length, len(values)):
        total += values[i] - values[i - length]
        if total > best:
            best, where = total, i - length + 1
    return where


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"abx_kit: {' '.join(command[:2])} failed: {result.stderr.strip()}")


def make(args):
    if shutil.which("sox") is None:
        sys.exit("abx_kit: sox is missing (apt-get install sox)")
    hosts = sorted(glob.glob(os.path.join(args.clips, "a0*.flac")))
    if args.hosts:
        wanted = args.hosts.split(",")
        hosts = [h for h in hosts if os.path.basename(h)[:3] in wanted]
    if not hosts:
        sys.exit(f"abx_kit: no a0*.flac hosts in {args.clips}")
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    cells = [(host, setting) for host in hosts for setting in args.setting]
    rng.shuffle(cells)
    pairs = [f"pair-{i + 1:02d}" for i in range(len(cells))]
    plan = plan_trials(pairs, args.trials, args.seed)
    key = {"seconds": args.seconds, "trials": args.trials, "pairs": {}}
    starts = {}
    with tempfile.TemporaryDirectory() as scratch:
        for pair, (host, (limit, depth)) in zip(pairs, cells):
            name = os.path.basename(host)[:3]
            marked = os.path.join(scratch, f"{name}-{limit}-{depth}.wav")
            if not os.path.exists(marked):
                run([args.qix, "embed", host, marked, "--message", MESSAGE, "--key", args.key_file,
                     "--excitation-limit", str(limit), "--largest-depth", str(depth)])
            original = os.path.join(scratch, f"{name}.wav")
            if not os.path.exists(original):
                run(["sox", host, "-b", "16", original])
            if name not in starts:
                starts[name] = loudest_mark(original, marked, args.seconds)
            folder = os.path.join(args.out, pair)
            os.makedirs(folder, exist_ok=True)
            for label, source in (("A", original), ("B", marked)):
                run(["sox", source, os.path.join(folder, f"{label}.wav"), "trim", f"{starts[name]:.3f}", str(args.seconds)])
            for trial, label in enumerate(plan[pair], start=1):
                shutil.copyfile(os.path.join(folder, f"{label}.wav"), os.path.join(folder, f"X{trial:02d}.wav"))
            key["pairs"][pair] = {"host": os.path.basename(host), "setting": f"{limit}/{depth}",
                                  "start": round(starts[name], 3), "x": plan[pair]}
            print(f"{pair}: built", file=sys.stderr)
    with open(os.path.join(args.out, "key.json"), "w") as out:
        json.dump(key, out, indent=1)
    with open(os.path.join(args.out, "LISTENERS.txt"), "w") as out:
        out.write(LISTENER_INSTRUCTIONS.format(pairs=len(pairs), trials=args.trials, seconds=args.seconds))
    with open(os.path.join(args.out, "answers.csv"), "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["pair", "trial", "answer"])
        for pair in pairs:
            for trial in range(1, args.trials + 1):
                writer.writerow([pair, trial, ""])
    print(f"{len(pairs)} pairs of {args.trials} trials in {args.out} (instructions in LISTENERS.txt); "
          "key.json says which X is which: move it away before anyone listens")


def score_command(args):
    key_path = os.path.join(args.kit, "key.json")
    try:
        with open(key_path) as source:
            key = json.load(source)
    except (OSError, ValueError) as error:
        sys.exit(f"abx_kit: cannot read the kit's key ({key_path}): {error}")
    rows = []
    for path in args.answers:
        try:
            with open(path, newline="") as source:
                rows.extend(csv.DictReader(source))
        except OSError as error:
            sys.exit(f"abx_kit: cannot read answers ({path}): {error.strerror}")
    try:
        per_pair, per_setting = score(key, rows)
    except (ValueError, KeyError) as error:
        sys.exit(f"abx_kit: {error}")
    print("pair      host                                      setting    right    p")
    for pair, host, setting, r, n, p in per_pair:
        print(f"{pair}   {host[:40]:40}  {setting:9}  {r:2}/{n:<2}   {p:.3f}")
    print("\nsetting    right      p      verdict")
    judged = verdicts(per_pair, per_setting)
    for setting in sorted(per_setting, key=lambda s: tuple(float(x) for x in s.split("/"))):
        r, n, p = per_setting[setting]
        print(f"{setting:9}  {r:3}/{n:<4}  {p:.3f}  {judged[setting]}")


def verdicts(per_pair, per_setting, alpha=0.05):
    """Per setting: 'heard (pooled)' when all its answers beat guessing at `alpha`, 'heard (pair-NN)'
    when one pair does at alpha / (its setting's pairs) (Bonferroni: with nine pairs, one of them
    under 0.01 by luck alone is an 8 % event), else 'not heard'."""
    result = {}
    for setting, (_, _, pooled) in per_setting.items():
        pairs = [(q, pair) for pair, _, s, _, _, q in per_pair if s == setting]
        worst, which = min(pairs, default=(1.0, ""))
        if pooled < alpha:
            result[setting] = "heard (pooled)"
        elif worst < alpha / max(1, len(pairs)):
            result[setting] = f"heard ({which})"
        else:
            result[setting] = "not heard"
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("make", help="build the listening kit")
    build.add_argument("--qix", default=".build/release/qix")
    build.add_argument("--clips", default="corpus/clips")
    build.add_argument("--out", required=True, help="folder for the kit")
    build.add_argument("--setting", type=parse_setting, action="append", required=True,
                       help="LIMIT_DB/DEPTH, e.g. 1.9/0.5 (the standard) or 3/0.7; repeat for several")
    build.add_argument("--hosts", help="comma-separated host prefixes (default: every a0* clip), e.g. a02,a04")
    build.add_argument("--seconds", type=float, default=8.0, help="excerpt length (default 8)")
    build.add_argument("--trials", type=int, default=16, help="X files per pair (default 16)")
    build.add_argument("--seed", type=int, default=1)
    build.add_argument("--key-file", help="qix key file (default: a fixed test key)")
    tally = commands.add_parser("score", help="score the listeners' answers")
    tally.add_argument("--kit", required=True, help="the kit folder (with key.json)")
    tally.add_argument("--answers", required=True, nargs="+", help="answers.csv files, one per listener")
    args = parser.parse_args()
    if args.command == "make":
        if args.trials < 1:
            parser.error("--trials must be at least 1")
        if args.key_file is not None:
            make(args)
            return
        handle, args.key_file = tempfile.mkstemp(suffix=".key")
        try:
            with os.fdopen(handle, "w") as out:
                out.write(KEY + "\n")
            make(args)
        finally:
            os.unlink(args.key_file)
    else:
        score_command(args)


if __name__ == "__main__":
    main()
