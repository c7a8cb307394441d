#!/usr/bin/env python3
"""Objective quality of `qix embed` on the corpus hosts: SNR, PESQ, silent passages.

The field reports a watermark's audibility with SNR, PESQ (ITU-T P.862.2, wide band)
and ViSQOL next to listening tests (AudioSeal: PESQ 4.47, WavMark: 4.30). This script
marks every corpus host (a0*.flac) with `qix embed` and prints, per host:

- SNR of the watermark (marked - original) over all channels, full band;
- PESQ-WB of the marked audio against the original (both mixed to mono and brought to
  16 kHz by sox). PESQ is validated for speech only: the music, crowd and ambience rows
  are given for comparison with papers that report them too;
- the loudest watermark level (dBFS, 20 ms frames) in silent passages: frames where every
  channel of the host stays below -60 dBFS for 100 ms before and after. The mask follows
  the host, so there should be nothing there beyond the 16-bit output's rounding.

Needs `sox` and, from PyPI (a test helper, not a dependency of QixKit):
    python3 -m venv /tmp/qv && /tmp/qv/bin/pip install pesq numpy soundfile
    /tmp/qv/bin/python Benchmarks/quality/quality_check.py
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import soundfile
    from pesq import pesq
except ImportError as error:  # pragma: no cover - depends on the machine
    sys.exit(f"quality_check: {error.name} is missing: pip install pesq numpy soundfile (see the module's doc)")

SILENT_DBFS = -60.0
FRAME_SECONDS = 0.02
MARGIN_SECONDS = 0.1


def run(command):
    """Runs a command; exits with its stderr when it fails."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"quality_check: {' '.join(command)} failed: {done.stderr.strip()}")
    return done.stdout


def mono16k(path, directory):
    """The file mixed to mono and resampled to 16 kHz (sox, very high quality), as floats."""
    out = os.path.join(directory, os.path.basename(path) + ".16k.wav")
    run(["sox", path, "-b", "32", "-e", "floating-point", "-c", "1", "-r", "16000", out, "remix", "-", "rate", "-v"])
    samples, _ = soundfile.read(out, dtype="float64")
    return samples


def db(power):
    """Power as decibels, -inf for zero."""
    return 10 * math.log10(power) if power > 0 else -math.inf


def silent_passage_level(host, delta, rate):
    """Loudest watermark frame (dBFS RMS) among frames where every channel is silent, and how many there are."""
    frame = max(1, int(rate * FRAME_SECONDS))
    frames = host.shape[0] // frame
    if frames == 0:
        return -math.inf, 0
    h = host[: frames * frame].reshape(frames, frame, -1)
    d = delta[: frames * frame].reshape(frames, frame, -1)
    host_level = 10 * np.log10(np.maximum(np.mean(h * h, axis=1), 1e-30)).max(axis=1)
    quiet = host_level < SILENT_DBFS
    # A passage, not a gap between two syllables: silent for MARGIN_SECONDS on both sides
    # (the 32 ms synthesis window and post-masking cover a word's edge).
    margin = int(round(MARGIN_SECONDS / FRAME_SECONDS))
    silent = quiet.copy()
    for shift in range(1, margin + 1):
        silent[shift:] &= quiet[:-shift]
        silent[:-shift] &= quiet[shift:]
    silent[:margin] = False
    silent[-margin:] = False
    if not silent.any():
        return -math.inf, 0
    delta_power = np.mean(d[silent] ** 2, axis=(1, 2))
    return db(float(delta_power.max())), int(silent.sum())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qix", default=".build/release/qix", help="the qix binary (default: %(default)s)")
    parser.add_argument("--clips", default="corpus/clips", help="corpus directory (default: %(default)s)")
    parser.add_argument("--message", default="12345678", help="ID to embed (default: %(default)s)")
    parser.add_argument("--key", default="0123456789abcdef0123456789abcdef", help="key, 32 hex digits (default: %(default)s)")
    parser.add_argument("--embed-options", default="",
                        help="extra qix embed options, e.g. '--excitation-limit 3 --largest-depth 0.7'")
    args = parser.parse_args()
    if not os.access(args.qix, os.X_OK):
        sys.exit(f"quality_check: {args.qix}: not found; build it with swift build -c release --product qix")
    hosts = sorted(name for name in os.listdir(args.clips) if name.startswith("a0") and name.endswith(".flac"))
    if not hosts:
        sys.exit(f"quality_check: {args.clips}: no a0*.flac hosts")

    with tempfile.TemporaryDirectory() as directory:
        # A fixed key (the eval's are seeded too): the same marks, the same figures, every run.
        key = os.path.join(directory, "quality.key")
        with open(key, "w") as file:
            file.write(args.key + "\n")
        print("| host | SNR (dB) | PESQ-WB | 20 ms frames in silent passages | loudest watermark there (dBFS) |")
        print("|---|---|---|---|---|")
        snrs, speech = [], []
        for name in hosts:
            original = os.path.join(args.clips, name)
            marked = os.path.join(directory, name)
            run([args.qix, "embed", original, marked, "--key", key, "--message", args.message] + args.embed_options.split())
            host, rate = soundfile.read(original, dtype="float64", always_2d=True)
            mark, _ = soundfile.read(marked, dtype="float64", always_2d=True)
            delta = mark - host
            snr = db(float(np.sum(host * host))) - db(float(np.sum(delta * delta)))
            score = pesq(16000, mono16k(original, directory), mono16k(marked, directory), "wb")
            level, silent = silent_passage_level(host, delta, rate)
            snrs.append(snr)
            if "_speech_" in name:
                speech.append(score)
            shown = "none" if level == -math.inf else f"{level:.1f}"
            print(f"| {name.split('_')[0]} {name.split('_')[1]} | {snr:.1f} | {score:.2f} | {silent} | {shown} |")
        print()
        print(f"SNR median {sorted(snrs)[len(snrs) // 2]:.1f} dB, min {min(snrs):.1f} dB;"
              f" PESQ-WB on speech: mean {sum(speech) / len(speech):.2f}, min {min(speech):.2f}")


if __name__ == "__main__":
    main()
