#!/usr/bin/env python3
"""Objective quality of `qix embed` on the corpus hosts: SNR, PESQ, ViSQOL, silent passages.

The field reports a watermark's audibility with SNR, PESQ (ITU-T P.862.2, wide band)
and ViSQOL next to listening tests (AudioSeal: PESQ 4.47, WavMark: 4.30). This script
marks every corpus host (a0*.flac) with `qix embed` and prints, per host:

- SNR of the watermark (marked - original) over all channels, full band;
- PESQ-WB of the marked audio against the original (both mixed to mono and brought to
  16 kHz by sox). PESQ is validated for speech only: the music, crowd and ambience rows
  are given for comparison with papers that report them too;
- with `--visqol`, ViSQOL v3 in audio mode (MOS-LQO, 1 to about 4.73 for identical audio)
  of the marked audio against the original, both mixed to mono at 48 kHz: the field's
  objective measure for music, where PESQ says little. About 15 s of CPU per host;
- the loudest watermark level (dBFS, 20 ms frames) in silent passages: frames where every
  channel of the host stays below -60 dBFS for 100 ms before and after. The mask follows
  the host, so there should be nothing there beyond the 16-bit output's rounding.

Needs `sox` and, from PyPI (test helpers, not dependencies of QixKit):
    python3 -m venv /tmp/qv && /tmp/qv/bin/pip install pesq numpy soundfile
    /tmp/qv/bin/pip install visqol-python    # for --visqol only
    /tmp/qv/bin/python Benchmarks/quality/quality_check.py [--visqol]
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


def mono(path, directory, rate, tag):
    """The file mixed to mono and resampled to `rate` Hz (sox, very high quality): its path.

    `tag` keeps the original's and the marked copy's conversions apart (same file name)."""
    out = os.path.join(directory, f"{os.path.basename(path)}.{tag}.{rate}.wav")
    run(["sox", path, "-b", "32", "-e", "floating-point", "-c", "1", "-r", str(rate), out, "remix", "-", "rate", "-v"])
    return out


def mono16k(path, directory, tag):
    """The file mixed to mono and resampled to 16 kHz, as floats (PESQ-WB's input)."""
    samples, _ = soundfile.read(mono(path, directory, 16000, tag), dtype="float64")
    return samples


def visqol_audio():
    """A ViSQOL v3 measure in audio mode (48 kHz), or an exit naming the missing package."""
    try:
        from visqol import VisqolApi
    except ImportError:
        sys.exit("quality_check: --visqol needs visqol-python: pip install visqol-python (see the module's doc)")
    api = VisqolApi()
    api.create(mode="audio")
    return lambda reference, degraded: float(api.measure(reference, degraded).moslqo)


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
    parser.add_argument("--visqol", action="store_true", help="also ViSQOL (audio mode, 48 kHz mono; slow)")
    parser.add_argument("--hosts", default="", help="comma-separated host prefixes, e.g. a02,a03 (default: all)")
    args = parser.parse_args()
    if not os.access(args.qix, os.X_OK):
        sys.exit(f"quality_check: {args.qix}: not found; build it with swift build -c release --product qix")
    hosts = sorted(name for name in os.listdir(args.clips) if name.startswith("a0") and name.endswith(".flac"))
    if args.hosts:
        wanted = args.hosts.split(",")
        hosts = [name for name in hosts if name.split("_")[0] in wanted]
    if not hosts:
        sys.exit(f"quality_check: {args.clips}: no a0*.flac hosts{' among ' + args.hosts if args.hosts else ''}")
    visqol = visqol_audio() if args.visqol else None

    with tempfile.TemporaryDirectory() as directory:
        # A fixed key (the eval's are seeded too): the same marks, the same figures, every run.
        key = os.path.join(directory, "quality.key")
        with open(key, "w") as file:
            file.write(args.key + "\n")
        print("| host | SNR (dB) | PESQ-WB | " + ("ViSQOL | " if visqol else "")
              + "20 ms frames in silent passages | loudest watermark there (dBFS) |")
        print("|---|---|---|" + ("---|" if visqol else "") + "---|---|")
        snrs, speech, others = [], [], []
        for name in hosts:
            original = os.path.join(args.clips, name)
            marked = os.path.join(directory, name)
            run([args.qix, "embed", original, marked, "--key", key, "--message", args.message] + args.embed_options.split())
            host, rate = soundfile.read(original, dtype="float64", always_2d=True)
            mark, _ = soundfile.read(marked, dtype="float64", always_2d=True)
            delta = mark - host
            snr = db(float(np.sum(host * host))) - db(float(np.sum(delta * delta)))
            score = pesq(16000, mono16k(original, directory, "original"), mono16k(marked, directory, "marked"), "wb")
            moslqo = visqol(mono(original, directory, 48000, "original"), mono(marked, directory, 48000, "marked")) if visqol else None
            level, silent = silent_passage_level(host, delta, rate)
            snrs.append(snr)
            if "_speech_" in name:
                speech.append(score)
            elif moslqo is not None:
                others.append(moslqo)
            shown = "none" if level == -math.inf else f"{level:.1f}"
            shown_visqol = f"{moslqo:.3f} | " if visqol else ""
            print(f"| {name.split('_')[0]} {name.split('_')[1]} | {snr:.1f} | {score:.2f} | {shown_visqol}{silent} | {shown} |")
        print()
        summary = f"SNR median {sorted(snrs)[len(snrs) // 2]:.1f} dB, min {min(snrs):.1f} dB"
        if speech:
            summary += f"; PESQ-WB on speech: mean {sum(speech) / len(speech):.2f}, min {min(speech):.2f}"
        if others:
            summary += f"; ViSQOL on music, crowds and ambience: mean {sum(others) / len(others):.3f}, min {min(others):.3f}"
        print(summary)


if __name__ == "__main__":
    main()
