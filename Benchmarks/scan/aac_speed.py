#!/usr/bin/env python3
"""Scan speed on compressed broadcast audio against FLAC: builds 10 minutes of 44.1 kHz
stereo programme from the corpus clips, marks it with one ID, encodes it as FLAC and as
AAC-LC 128 kbit/s (.m4a), scans each with `qix scan --jobs 1` pinned to one core, checks
the ID was found in both, and prints times real time (audio seconds per CPU second of the
scan, decoding included) for both.

Usage: python3 Benchmarks/scan/aac_speed.py [--qix .build/release/qix] [--minutes 10]
       [--runs 3] [--keep DIR]
Needs ffmpeg and a release build (swift build -c release). Standard library only."""
import argparse, json, os, resource, shutil, subprocess, sys, tempfile, time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLIPS = os.path.join(REPO, "corpus", "clips")
ID = "5eed0aac"


def sh(*args):
    subprocess.run(args, check=True, stdin=subprocess.DEVNULL)


def scan(qix, path, work, key):
    """One scan of `path` on one core into a fresh database; returns (CPU s, wall s, IDs found)."""
    db = os.path.join(work, "speed.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(pin + [qix, "scan", path, "--db", db, "--key", key, "--jobs", "1", "--quiet"], check=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    report = subprocess.run([qix, "report", db, "--json"], check=True, capture_output=True, text=True).stdout
    return cpu, wall, {json.loads(line)["id"] for line in report.splitlines() if line.strip()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qix", default=os.path.join(REPO, ".build", "release", "qix"))
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--runs", type=int, default=3, help="scans per format; the fastest counts (shared machines are noisy)")
    ap.add_argument("--keep", help="build the files here and keep them")
    a = ap.parse_args()
    if not os.access(a.qix, os.X_OK):
        sys.exit(f"aac_speed: no qix at {a.qix}; run swift build -c release")
    work = a.keep or tempfile.mkdtemp(prefix="qix-aac-speed-")
    os.makedirs(work, exist_ok=True)
    seconds = a.minutes * 60
    key = os.path.join(work, "campaign.key")
    if not os.path.exists(key):
        sh(a.qix, "keygen", key)
    programme, marked = os.path.join(work, "programme.wav"), os.path.join(work, "marked.wav")
    clips = [os.path.join(CLIPS, c) for c in ("a01_music_rock_sectoid_metal-madness.flac",
                                               "a05_speech_en-audiobook_librivox-austen.flac",
                                               "a02_music_orchestral_wesnoth_heroes-rite.flac")]
    inputs = sum((["-i", c] for c in clips), [])
    mix = "".join(f"[{i}:a]aresample=44100,aformat=channel_layouts=stereo[s{i}];" for i in range(len(clips)))
    mix += "".join(f"[s{i}]" for i in range(len(clips))) + f"concat=n={len(clips)}:v=0:a=1,aloop=loop=-1:size=2e9,atrim=0:{seconds}[out]"
    sh("ffmpeg", "-nostdin", "-v", "error", "-y", *inputs, "-filter_complex", mix, "-map", "[out]", "-c:a", "pcm_s16le", programme)
    sh(a.qix, "embed", programme, marked, "--message", ID, "--key", key)
    flac, aac = os.path.join(work, "programme.flac"), os.path.join(work, "programme.m4a")
    sh("ffmpeg", "-nostdin", "-v", "error", "-y", "-i", marked, "-c:a", "flac", flac)
    sh("ffmpeg", "-nostdin", "-v", "error", "-y", "-i", marked, "-c:a", "aac", "-b:a", "128k", aac)

    results = {}
    for name, path in (("FLAC", flac), ("AAC-LC 128k", aac)):
        runs = [scan(a.qix, path, work, key) for _ in range(a.runs)]
        cpu, wall, ids = min(runs, key=lambda r: r[0])
        if ID not in ids:
            sys.exit(f"aac_speed: {name}: the ID {ID} was not found (found {sorted(ids)})")
        results[name] = seconds / cpu
        print(f"{name:12s} {seconds:.0f} s of audio: {cpu:.2f} CPU s, {wall:.2f} s wall on one core"
              f" -> {seconds / cpu:.0f}x real time (ID found)")
    print(f"AAC/FLAC speed ratio: {results['AAC-LC 128k'] / results['FLAC']:.2f}")
    if not a.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
