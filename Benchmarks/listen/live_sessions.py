#!/usr/bin/env python3
"""Live listening sessions against a capture detected as a file, on the corpus hosts.

Each corpus clip (corpus/clips/a0*.flac) is marked with a seeded key and ID, then cut into
`--trials` random excerpts of `--seconds`, mixed to mono at 48 kHz, with white noise added at
`--noise` times the excerpt's RMS (1: 0 dB SNR). The same unmarked excerpts are the false-report
check. Every excerpt goes, with the ID among 19 seeded decoys expected (an app's campaigns):

- through `qix listen --expect ...` as s16le on stdin (the monitor's threshold throughout);
- through `qix listen --session --expect ...` (the search at the stream's end is a session's);
- as a float WAV through `qix detect --session --expect ...` (the capture-then-detect path);
- with `--before QIX`, through that build's `qix listen --expect ...` too.

It prints, per path, the marked excerpts whose ID was heard, the wrong IDs and the detections
on unmarked excerpts. Needs numpy and soundfile from PyPI (a benchmark helper, not a
dependency of QixKit):
    python3 -m venv /tmp/qv && /tmp/qv/bin/pip install numpy soundfile
    /tmp/qv/bin/python Benchmarks/listen/live_sessions.py [--qix .build/release/qix] \\
        [--before OLD_QIX] [--seconds 3] [--noise 1.0] [--trials 12] [--seed 1]
"""

import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import soundfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RATE = 48000


def heard_ids(stdout):
    """The IDs of `qix listen --json` lines."""
    return [json.loads(line)["message"] for line in stdout.splitlines() if line.strip()]


def detected_ids(stdout):
    """The IDs of `qix detect --json` output."""
    return [d["message"] for d in json.loads(stdout)["detections"]] if stdout.strip() else []


def paths(args):
    """Each path's command for one excerpt: (name, build command from (key, expect, wav))."""
    def listen(qix, session):
        return lambda key, expect, wav: ([qix, "listen", "--key", key, "--rate", str(RATE), "--expect", expect,
                                          "--json", "-q"] + (["--session"] if session else []), True)
    chosen = [("listen", listen(args.qix, False)), ("listen --session", listen(args.qix, True)),
              ("detect --session", lambda key, expect, wav: ([args.qix, "detect", wav, "--key", key, "--expect", expect,
                                                              "--session", "--json", "-q"], False))]
    if args.before:
        chosen.insert(0, ("listen (before)", listen(args.before, False)))
    return chosen


def run_path(build, key, expect, wav, pcm):
    """The IDs one path reports for one excerpt."""
    command, streams = build(key, expect, wav)
    done = subprocess.run(command, input=pcm if streams else None, capture_output=True)
    text = done.stdout.decode()
    return heard_ids(text) if streams else detected_ids(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qix", default=os.path.join(REPO, ".build", "release", "qix"))
    parser.add_argument("--before", help="another qix build whose plain listen is measured too")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--noise", type=float, default=1.0, help="white noise RMS over the excerpt's")
    parser.add_argument("--trials", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng, noise = random.Random(args.seed), np.random.default_rng(args.seed)
    chosen = paths(args)
    counts = {name: {"heard": 0, "wrong": 0, "unmarked": 0} for name, _ in chosen}
    marked_total = 0
    work = tempfile.mkdtemp(prefix="qix-live-")
    for host in sorted(glob.glob(os.path.join(REPO, "corpus", "clips", "a0*.flac"))):
        key = os.path.join(work, "k.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
            file.write(f"{rng.getrandbits(128):032x}\n")
        message = f"{rng.getrandbits(32):08x}"
        expect = ",".join([message] + [f"{rng.getrandbits(32):08x}" for _ in range(19)])
        marked_path, host48 = os.path.join(work, "m.wav"), os.path.join(work, "h.wav")
        subprocess.run(["sox", host, "-b", "32", "-e", "floating-point", host48, "rate", "-v", str(RATE)], check=True)
        subprocess.run([args.qix, "embed", host48, marked_path, "--message", message, "--key", key, "--force", "-q"],
                       check=True)
        marked, _ = soundfile.read(marked_path, always_2d=True)
        unmarked, _ = soundfile.read(host48, always_2d=True)
        length = int(args.seconds * RATE)
        for _ in range(args.trials):
            start = rng.randrange(0, len(marked) - length)
            for is_marked, source in ((True, marked), (False, unmarked)):
                excerpt = source[start:start + length].mean(axis=1)
                rms = float(np.sqrt((excerpt ** 2).mean())) + 1e-9
                excerpt = np.clip(excerpt + args.noise * rms * noise.standard_normal(length), -1, 1)
                wav = os.path.join(work, "c.wav")
                soundfile.write(wav, excerpt.astype(np.float32), RATE, subtype="FLOAT")
                pcm = (excerpt * 32767).astype("<i2").tobytes()
                marked_total += is_marked
                for name, build in chosen:
                    ids = run_path(build, key, expect, wav, pcm)
                    if is_marked:
                        counts[name]["heard"] += message in ids
                        counts[name]["wrong"] += sum(i != message for i in ids)
                    else:
                        counts[name]["unmarked"] += len(ids)
        print(f"live_sessions: {os.path.basename(host)[:3]} done", file=sys.stderr, flush=True)
    print(f"{args.seconds:g} s excerpts, noise at {args.noise:g} x RMS, {marked_total} marked and as many unmarked")
    for name, count in counts.items():
        print(f"{name:18s} heard {count['heard']:4d} / {marked_total}   wrong {count['wrong']}   on unmarked {count['unmarked']}")


if __name__ == "__main__":
    main()
