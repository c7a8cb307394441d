#!/usr/bin/env python3
"""Robustness to what `qix eval` cannot apply in process: AAC above all, which libsndfile
does not encode, ffmpeg's own MP3 / Opus encoders at low bitrates, and sox effects (time
stretch without pitch change, pitch shift, filters, compression).

For each condition and each corpus host (a0*.flac): mark the host with a seeded random ID
(`qix embed`, public test key), put the marked file and the unmarked host through the
condition, cut random unaligned excerpts of each length from the same offsets, and run
`qix detect --json` on all of them. Prints, per condition and length, the marked excerpts
that gave the right ID, wrong IDs, and unmarked excerpts that gave any ID.

Conditions (`--condition`, repeatable; the defaults below without one):
    ENCODER:BITRATE[:mono]   ffmpeg encode and decode; ENCODER aac, libopus or libmp3lame
    sox:EFFECT...            sox with that effect chain, e.g. 'sox:tempo 1.02'

Usage: python3 Benchmarks/codecs/external_attack_check.py [--qix .build/release/qix]
       [--condition aac:32k] [--condition 'sox:sinc -3400'] [--seconds 3,5] [--trials 12] [--seed 7]
Needs ffmpeg (with its native aac encoder, libopus and libmp3lame) and sox, and python3
with numpy and soundfile (test helpers from PyPI, not dependencies of QixKit):
    python3 -m venv /tmp/qv && /tmp/qv/bin/pip install numpy soundfile
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

try:
    import soundfile
except ImportError as error:  # pragma: no cover - depends on the machine
    sys.exit(f"external_attack_check: {error.name} is missing: pip install numpy soundfile (see the module's doc)")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTAINERS = {"aac": "m4a", "libopus": "ogg", "libmp3lame": "mp3"}


def run(command):
    """Runs a command and returns its stdout; exits with its stderr when it fails."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"external_attack_check: {' '.join(command[:3])}... failed: {done.stderr.strip()}")
    return done.stdout


DEFAULT_CONDITIONS = ["aac:64k", "aac:32k", "aac:24k:mono", "libopus:16k:mono", "libmp3lame:32k:mono",
                      "sox:tempo 1.02", "sox:tempo 0.98", "sox:pitch 50", "sox:sinc 1500", "sox:sinc -3400",
                      "sox:sinc 300-3400", "sox:compand 0.01,0.2 -60,-60,-30,-15,0,-6 0 -90"]


def parse_condition(text):
    """'aac:32k', 'aac:24k:mono' or 'sox:tempo 1.02' -> a function (source, stem) -> output path."""
    if text.startswith("sox:") and len(text) > 4:
        effects = text[4:].split()

        def through_sox(source, stem):
            out = f"{stem}.sox.wav"
            run(["sox", source, "-b", "32", "-e", "floating-point", out] + effects)
            return out
        return through_sox
    parts = text.split(":")
    if len(parts) not in (2, 3) or parts[0] not in CONTAINERS or (len(parts) == 3 and parts[2] != "mono"):
        sys.exit(f"external_attack_check: --condition: '{text}' is neither ENCODER:BITRATE[:mono] "
                 f"with ENCODER one of {', '.join(CONTAINERS)} nor sox:EFFECT...")
    encoder, bitrate, mono = parts[0], parts[1], len(parts) == 3

    def through_ffmpeg(source, stem):
        encoded = f"{stem}.{CONTAINERS[encoder]}"
        channels = ["-ac", "1"] if mono else []
        run(["ffmpeg", "-loglevel", "error", "-y", "-i", source, "-c:a", encoder, "-b:a", bitrate] + channels + [encoded])
        decoded = f"{stem}.decoded.wav"
        run(["ffmpeg", "-loglevel", "error", "-y", "-i", encoded, "-c:a", "pcm_f32le", decoded])
        return decoded
    return through_ffmpeg


def detections(qix, files):
    """IDs `qix detect --json` reports in each file, in order."""
    lines = run([qix, "detect", "--json"] + files).splitlines()
    return [[hit["message"] for hit in json.loads(line)["detections"]] for line in lines]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qix", default=os.path.join(REPO, ".build", "release", "qix"))
    parser.add_argument("--clips", default=os.path.join(REPO, "corpus", "clips"))
    parser.add_argument("--condition", action="append",
                        help="ENCODER:BITRATE[:mono] or sox:EFFECT..., repeatable (default: "
                             + "; ".join(DEFAULT_CONDITIONS) + ")")
    parser.add_argument("--seconds", default="3,5", help="excerpt lengths (default: %(default)s)")
    parser.add_argument("--trials", type=int, default=12, help="excerpts per host and length (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=7, help="IDs and offsets (default: %(default)s)")
    args = parser.parse_args()
    if not os.access(args.qix, os.X_OK):
        sys.exit(f"external_attack_check: {args.qix}: not found; build it with swift build -c release --product qix")
    labels = args.condition or DEFAULT_CONDITIONS
    for tool in ("ffmpeg", "sox"):
        if shutil.which(tool) is None:
            sys.exit(f"external_attack_check: {tool} is not on PATH (apt-get install ffmpeg sox)")
    conditions = [(label, parse_condition(label)) for label in labels]
    lengths = [float(text) for text in args.seconds.split(",")]
    hosts = sorted(glob.glob(os.path.join(args.clips, "a0*.flac")))
    if not hosts:
        sys.exit(f"external_attack_check: {args.clips}: no a0*.flac hosts")

    print("| condition | " + " | ".join(f"{s:g} s" for s in lengths) + " | wrong IDs | unmarked with an ID |")
    print("|---|" + "---|" * len(lengths) + "---|---|")
    with tempfile.TemporaryDirectory() as work:
        for label, attack in conditions:
            # The same IDs and offsets for every condition: conditions differ by the codec only.
            random_source = random.Random(args.seed)
            correct, tried = [0] * len(lengths), [0] * len(lengths)
            wrong = false_hits = 0
            for host in hosts:
                name = os.path.basename(host).split("_")[0]
                message = f"{random_source.getrandbits(32):08x}"
                marked_file = os.path.join(work, f"{name}.marked.flac")
                run([args.qix, "embed", host, marked_file, "--message", message])
                marked, rate = soundfile.read(attack(marked_file, os.path.join(work, f"{name}.marked")),
                                              dtype="float32", always_2d=True)
                plain, _ = soundfile.read(attack(host, os.path.join(work, f"{name}.plain")), dtype="float32", always_2d=True)
                excerpts = []
                for index, seconds in enumerate(lengths):
                    count = min(len(marked), len(plain), int(seconds * rate))
                    for trial in range(args.trials):
                        start = random_source.randint(0, min(len(marked), len(plain)) - count)
                        for kind, samples in (("marked", marked), ("plain", plain)):
                            path = os.path.join(work, f"{name}.{kind}.{index}.{trial}.wav")
                            soundfile.write(path, samples[start:start + count], rate, subtype="FLOAT")
                            excerpts.append((index, kind, path))
                for (index, kind, _), found in zip(excerpts, detections(args.qix, [path for _, _, path in excerpts])):
                    if kind == "plain":
                        false_hits += 1 if found else 0
                        continue
                    tried[index] += 1
                    correct[index] += 1 if message in found else 0
                    wrong += sum(1 for hit in found if hit != message)
            cells = " | ".join(f"{100 * c / t:.1f} % ({c}/{t})" for c, t in zip(correct, tried))
            print(f"| {label} | {cells} | {wrong} | {false_hits} |", flush=True)


if __name__ == "__main__":
    main()
