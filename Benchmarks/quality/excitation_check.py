#!/usr/bin/env python3
"""How much the watermark changes what the ear's filters receive, on the corpus hosts.

The masking model (QixWatermark.TileMasking, docs/watermark.md section 2) caps each tile's depth
where its auditory filters' excitation would change by more than a limit, computed from the
tile's spectrum at 16 kHz over one slot. This script measures the change on real hosts, frame by
frame, after the whole embed (synthesis, resampling, 16-bit output): it marks every corpus host with `qix embed`,
brings original and marked audio to 16 kHz mono (sox), and computes per 32 ms frame the
excitation of roex(p) auditory filters (Glasberg & Moore's ERB) centred every half ERB from
500 Hz to 6 kHz. It prints, per host, percentiles of the excitation change |10 log10(marked /
original)| in dB over the frames and filters where the original's excitation is within 50 dB
of that filter's loudest frame. Give two binaries (--qix and --baseline) to compare two
embedders on the same hosts, key and ID.

    python3 Benchmarks/quality/excitation_check.py --qix .build/release/qix [--baseline OTHER_QIX]
Needs sox and numpy (and soundfile) from PyPI, as quality_check.py does.
"""

import argparse
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import soundfile
except ImportError as error:  # pragma: no cover - depends on the machine
    sys.exit(f"excitation_check: {error.name} is missing: pip install numpy soundfile")

RATE = 16000
FFT = 512
HOP = 256
FLOOR_DB = 50.0


def erb(f):
    return 24.7 * (4.37 * f / 1000 + 1)


def filter_bank():
    """roex(p) weights over the FFT bins, one row per centre frequency."""
    freqs = np.fft.rfftfreq(FFT, 1 / RATE)
    centres = []
    f = 500.0
    while f <= 6000:
        centres.append(f)
        f += erb(f) / 2
    rows = []
    for fc in centres:
        p = 4 * fc / erb(fc)
        x = np.abs(freqs - fc) / fc
        rows.append((1 + p * x) * np.exp(-p * x))
    return np.array(centres), np.array(rows)


def excitation(path, bank):
    audio, rate = soundfile.read(path, dtype="float64")
    assert rate == RATE and audio.ndim == 1
    window = np.hanning(FFT)
    frames = [audio[i:i + FFT] * window for i in range(0, len(audio) - FFT, HOP)]
    power = np.abs(np.fft.rfft(np.array(frames), axis=1)) ** 2
    return power @ bank.T  # frames x filters


def changes(qix, host, key, message, scratch, bank, options=()):
    marked = os.path.join(scratch, "marked.wav")
    subprocess.run([qix, "embed", host, marked, "--key", key, "--message", message, *options], check=True,
                   stderr=subprocess.DEVNULL)
    original16 = os.path.join(scratch, "original16.wav")
    marked16 = os.path.join(scratch, "marked16.wav")
    for source, target in ((host, original16), (marked, marked16)):
        subprocess.run(["sox", "-V1", "-G", source, "-r", str(RATE), "-c", "1", "-b", "32", "-e", "floating-point", target],
                       check=True)
    before, after = excitation(original16, bank), excitation(marked16, bank)
    frames = min(len(before), len(after))
    before, after = before[:frames], after[:frames]
    loud = before > before.max(axis=0) * 10 ** (-FLOOR_DB / 10)
    return np.abs(10 * np.log10(after[loud] / before[loud]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--qix", default=".build/release/qix")
    parser.add_argument("--baseline", help="another qix binary to compare with")
    parser.add_argument("--clips", default="corpus/clips")
    parser.add_argument("--message", default="12345678")
    parser.add_argument("--embed-options", default="",
                        help="extra qix embed options for --qix, e.g. '--excitation-limit 3 --largest-depth 0.7'")
    args = parser.parse_args()
    centres, bank = filter_bank()
    binaries = [("qix", args.qix)] + ([("baseline", args.baseline)] if args.baseline else [])
    with tempfile.TemporaryDirectory() as scratch:
        key = os.path.join(scratch, "key")
        with open(key, "w") as handle:
            handle.write("0123456789abcdef0123456789abcdef\n")
        print(f"{len(centres)} roex filters, 500 Hz - 6 kHz; |excitation change| in dB: p50 / p95 / p99 / max")
        hosts = sorted(name for name in os.listdir(args.clips) if name.startswith("a0") and name.endswith(".flac"))
        for name in hosts:
            row = [name[:3]]
            for label, binary in binaries:
                options = args.embed_options.split() if label == "qix" else ()
                delta = changes(binary, os.path.join(args.clips, name), key, args.message, scratch, bank, options)
                row.append(f"{label} {np.percentile(delta, 50):.2f} / {np.percentile(delta, 95):.2f} / "
                           f"{np.percentile(delta, 99):.2f} / {delta.max():.2f}")
            print(" | ".join(row))


if __name__ == "__main__":
    main()
