#!/usr/bin/env python3
"""Generates a broadcast archive from the corpus clips (3 channels x 4 one-hour
recordings, 16 kHz mono FLAC named CHANNEL_YYYYMMDD_HHMMSS.flac), inserts marked spots at
known wall-clock times (some attacked: sped up 2 %, band-limited and quieter, under
crowd noise), scans it with `qix scan`, and checks `qix report --json`: every spot once,
wall-clock start within 1 s, no other airings. Prints the scan's throughput, and the median
and largest start error per kind of spot.

With --boundaries N it measures airing boundaries instead: N seeded spots, each with a fresh
key and ID, a corpus host looped to 15-60 s, inside a recording of other corpus audio with
10-40 s before and after it, every other one after MP3 at 128 kbit/s; `qix detect` finds
each, and the distribution of start and end errors is printed (a monitor bills by airing
time). Exit 1 when any spot is missed, found twice or wrong, or a boundary is off by more
than --tolerance seconds.

Usage: python3 Benchmarks/scan/archive_check.py [--qix .build/release/qix] [--hours 4]
       [--channels 3] [--jobs 2] [--keep DIR] [--expect-all]
       python3 Benchmarks/scan/archive_check.py --boundaries 200 [--seed 1] [--tolerance 0.5]
Needs sox (and ffmpeg for --boundaries). Standard library only."""
import argparse, json, os, random, shutil, subprocess, sys, tempfile, time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLIPS = os.path.join(REPO, "corpus", "clips")
RATE = 16000
SPOT = 10.0  # seconds of each inserted spot


def sh(*args, **kw):
    subprocess.run(args, check=True, **kw)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qix", default=os.path.join(REPO, ".build", "release", "qix"))
    ap.add_argument("--hours", type=int, default=4, help="recordings per channel (one hour each)")
    ap.add_argument("--channels", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="build the archive here and keep it")
    ap.add_argument("--expect-all", action="store_true",
                    help="scan with every inserted spot's ID expected (qix scan --expect): IDs in sequence")
    ap.add_argument("--boundaries", type=int, metavar="N", help="measure the start and end of N seeded spots instead")
    ap.add_argument("--seed", type=int, default=1, help="seed of the archive's key, and of the boundary study's spots")
    ap.add_argument("--tolerance", type=float, default=0.5, help="largest boundary error the study accepts, seconds")
    a = ap.parse_args()
    if not os.access(a.qix, os.X_OK):
        sys.exit(f"archive_check: no qix at {a.qix}; run swift build -c release")
    if a.boundaries:
        sys.exit(boundaries(a))
    work = a.keep or tempfile.mkdtemp(prefix="qix-archive-")
    os.makedirs(work, exist_ok=True)
    parts, archive = os.path.join(work, "parts"), os.path.join(work, "archive")
    os.makedirs(parts, exist_ok=True)
    os.makedirs(archive, exist_ok=True)
    key = os.path.join(work, "campaign.key")
    if not os.path.exists(key):
        # From the seed, so that a run repeats exactly (written as keygen does): with a fresh
        # key each run, the format 3 archive found 35-37 of its 39 spots.
        with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write(f"{random.Random(a.seed).getrandbits(128):032x}\n")

    # Background programme: speech and ambience alternating, looped to an hour.
    bed = os.path.join(parts, "bed.wav")
    sources = []
    for i, clip in enumerate(["a05_speech_en-audiobook_librivox-austen.flac", "a09_ambience_cc0_sonicpi-vinyl-glass.flac",
                              "a06_speech_cs-dialogue_fillets-airplane.flac"]):
        sources.append(os.path.join(parts, f"bed{i}.wav"))
        sh("sox", "-R", os.path.join(CLIPS, clip), "-r", str(RATE), "-c", "1", sources[-1], "norm", "-6")
    sh("sox", "-R", *sources, bed, "repeat", "60")
    crowd = os.path.join(parts, "crowd.wav")
    sh("sox", "-R", os.path.join(CLIPS, "a07_crowd_stadium_etw.flac"), "-r", str(RATE), "-c", "1", crowd, "norm", "-16")

    attacks = ["clean", "speed", "band", "crowd"]
    hosts = ["a01_music_rock_sectoid_metal-madness.flac", "a02_music_orchestral_wesnoth_heroes-rite.flac",
             "a03_music_blues_midi-fluidr3_openmsx-city-blues.flac"]
    expected = []
    spot_index = 0
    day = a.hours * 3600
    for c in range(a.channels):
        channel = f"ch{c + 1}"
        # Three spots per hour at distinct minutes, and one straddling the first hour boundary
        # (4 s in one recording, 6 s in the next).
        offsets = sorted([h * 3600 + at for h in range(a.hours)
                          for at in (300 + 97 * c + 11 * h, 1500 + 53 * h, 2900 + 131 * c)]
                         + ([3600 - 4] if a.hours > 1 else []))
        segs, cursor = [], 0.0
        for at in offsets:
            spot_index += 1
            message = f"{0xA0000000 + spot_index:08x}"
            attack = attacks[spot_index % len(attacks)]
            host = os.path.join(CLIPS, hosts[spot_index % len(hosts)])
            marked = os.path.join(parts, f"m{spot_index}.flac")
            sh(a.qix, "embed", host, marked, "--message", message, "--key", key)
            spot = os.path.join(parts, f"s{spot_index}.wav")
            effect = {"clean": [], "speed": ["speed", "1.02"], "band": ["sinc", "300-3400", "gain", "-10"],
                      "crowd": []}[attack]
            sh("sox", "-R", marked, "-r", str(RATE), "-c", "1", spot, "trim", "2", str(SPOT), *effect)
            if attack == "crowd":
                mixed = spot + ".crowd.wav"
                sh("sox", "-R", "-m", spot, crowd, mixed, "trim", "0", str(SPOT))
                os.replace(mixed, spot)
            length = float(subprocess.run(["soxi", "-D", spot], capture_output=True, text=True).stdout)
            bed_part = os.path.join(parts, f"{channel}_{len(segs):04d}.wav")
            sh("sox", "-R", bed, bed_part, "trim", str(cursor % 1800), str(at - cursor))
            segs += [bed_part, spot]
            cursor = at + length
            expected.append({"id": message, "channel": channel, "start": at, "attack": attack})
        tail = os.path.join(parts, f"{channel}_{len(segs):04d}.wav")
        sh("sox", "-R", bed, tail, "trim", str(cursor % 1800), str(day - cursor))
        segs.append(tail)
        whole = os.path.join(parts, f"{channel}_day.wav")
        sh("sox", "-R", *segs, whole)
        for h in range(a.hours):
            name = f"{channel}_20261121_{10 + h:02d}0000"
            sh("sox", "-R", whole, os.path.join(archive, name + ".flac"), "trim", str(h * 3600), "3600")
            print(f"archive_check: {name}.flac", file=sys.stderr)
        for f in segs + [whole]:
            if f.startswith(parts) and os.path.basename(f).startswith(channel):
                os.remove(f)

    db = os.path.join(work, "airings.sqlite")
    if os.path.exists(db):
        os.remove(db)
    started = time.time()
    cpu0 = os.times()
    command = [a.qix, "scan", archive, "--db", db, "--key", key, "--jobs", str(a.jobs)]
    if a.expect_all:
        command += ["--expect", ",".join(e["id"] for e in expected)]
    scan = subprocess.run(command, capture_output=True, text=True)
    wall = time.time() - started
    cpu1 = os.times()
    cpu = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
    sys.stderr.write(scan.stderr)
    if scan.returncode != 0:
        sys.exit(f"archive_check: qix scan failed with {scan.returncode}")
    report = subprocess.run([a.qix, "report", db, "--json"], capture_output=True, text=True, check=True)
    airings = [json.loads(line) for line in report.stdout.splitlines()]
    base = 1763719200  # 2026-11-21T10:00:00Z

    def epoch(iso):
        d, t = iso.rstrip("Z").split("T")
        hh, mm, ss = t.split(":")
        return base + (int(hh) - 10) * 3600 + int(mm) * 60 + float(ss)

    missing, late, errors = [], [], {}
    for e in expected:
        hits = [x for x in airings if x["id"] == e["id"]]
        if len(hits) != 1:
            missing.append((e, len(hits)))
            continue
        error = abs(epoch(hits[0]["wallclock_start"]) - (base + e["start"]))
        errors.setdefault(e["attack"], []).append(error)
        if error > 1.0 or hits[0]["channel"] != e["channel"]:
            late.append((e, hits[0]))
    extra = [x for x in airings if x["id"] not in {e["id"] for e in expected}]
    hours = a.channels * a.hours
    counts = ", ".join(f"{k} {sum(1 for e in expected if e['attack'] == k)}" for k in attacks)
    print(f"archive: {a.channels} channels x {a.hours} h = {hours} h, {len(expected)} spots ({counts})")
    print(f"scan: {wall:.1f} s wall, {cpu:.1f} s CPU, jobs {a.jobs}: {hours * 3600 / wall:.0f}x real time wall, "
          f"{hours * 3600 / max(cpu, 1e-9):.0f}x real time per CPU second; {hours * 60 / wall:.1f} h of audio per wall minute")
    print(f"found once with wall-clock start within 1 s: {len(expected) - len(missing) - len(late)}/{len(expected)}; "
          f"false airings: {len(extra)}")
    for kind in attacks:
        e = sorted(errors.get(kind, []))
        if e:
            print(f"  start error, {kind}: median {e[len(e) // 2]:.3f} s, max {e[-1]:.3f} s ({len(e)} found)")
    for e, n in missing:
        print(f"  {e['id']} ({e['attack']}, {e['channel']} +{e['start']} s): reported {n} times")
    for e, hit in late:
        print(f"  {e['id']} ({e['attack']}): expected +{e['start']} s on {e['channel']}, got {hit['wallclock_start']} on {hit['channel']}")
    if not a.keep:
        shutil.rmtree(work)
    sys.exit(0 if not missing and not late and not extra else 1)


MUSIC_AND_SPEECH = ["a01", "a02", "a03", "a04", "a05", "a06", "a07", "a08", "a09"]


def clip(prefix):
    return os.path.join(CLIPS, next(f for f in sorted(os.listdir(CLIPS)) if f.startswith(prefix) and f.endswith(".flac")))


def boundary_spot(a, work, n, rng):
    """Builds spot n inside its recording; returns (recording path, truth dict)."""
    key, message = os.path.join(work, f"k{n}.key"), f"{rng.getrandbits(32):08x}"
    # The key from the seed too, so that a run repeats exactly (written as keygen does).
    with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write(f"{rng.getrandbits(128):032x}\n")
    host, bed = rng.sample(MUSIC_AND_SPEECH, 2)
    length, before, after = rng.uniform(15, 60), rng.uniform(10, 40), rng.uniform(10, 40)
    looped, marked = os.path.join(work, "host.wav"), os.path.join(work, "marked.wav")
    # Spots are edited tight: a host's lead-in and tail of silence (a04 opens with 0.8 s at
    # -80 dB) hold no mark to find, so they are not part of the spot.
    tight = os.path.join(work, "tight.wav")
    sh("sox", "-R", clip(host), "-r", "44100", "-c", "2", tight, "silence", "1", "0.02", "-60d", "reverse",
       "silence", "1", "0.02", "-60d", "reverse")
    sh("sox", "-R", tight, looped, "repeat", "4", "trim", "0", f"{length:.3f}")
    sh(a.qix, "embed", looped, marked, "--message", message, "--key", key, "--force", "-q")
    pre, post = os.path.join(work, "pre.wav"), os.path.join(work, "post.wav")
    sh("sox", "-R", clip(bed), "-r", "44100", "-c", "2", pre, "repeat", "3", "trim", "0", f"{before:.3f}")
    sh("sox", "-R", clip(bed), "-r", "44100", "-c", "2", post, "repeat", "3", "trim", "3", f"{after:.3f}")
    recording = os.path.join(work, "recording.wav")
    sh("sox", "-R", pre, marked, post, recording)
    start = float(subprocess.run(["soxi", "-D", pre], capture_output=True, text=True).stdout)
    end = start + float(subprocess.run(["soxi", "-D", marked], capture_output=True, text=True).stdout)
    attack = "mp3_128" if n % 2 else "clean"
    if attack == "mp3_128":
        coded = os.path.join(work, "recording.mp3")
        sh("ffmpeg", "-loglevel", "error", "-y", "-i", recording, "-b:a", "128k", coded)
        recording = coded
    return recording, {"n": n, "id": message, "key": key, "host": host, "bed": bed, "attack": attack,
                       "start": start, "end": end}


def boundaries(a):
    """The boundary study: returns the exit status."""
    rng = random.Random(a.seed)
    work = a.keep or tempfile.mkdtemp(prefix="qix-boundaries-")
    os.makedirs(work, exist_ok=True)
    starts, ends, failures = [], [], []
    for n in range(a.boundaries):
        recording, truth = boundary_spot(a, work, n, rng)
        out = subprocess.run([a.qix, "detect", recording, "--json", "--key", truth["key"], "-q"],
                             capture_output=True, text=True)
        found = json.loads(out.stdout)["detections"] if out.stdout.strip() else []
        hits = [d for d in found if d["message"] == truth["id"]]
        if len(found) != 1 or len(hits) != 1:
            failures.append(f"{truth}: detected {[(d['message'], d['start'], d['end']) for d in found]}")
            continue
        # MP3 encoders delay the audio by their priming samples: measured, not corrected.
        starts.append(hits[0]["start"] - truth["start"])
        ends.append(hits[0]["end"] - truth["end"])
        if max(abs(starts[-1]), abs(ends[-1])) > a.tolerance:
            failures.append(f"{truth}: found {hits[0]['start']:.3f}-{hits[0]['end']:.3f} s")
            if a.keep:  # kept with its key, to look at
                shutil.copy(recording, os.path.join(work, f"failed{n}" + os.path.splitext(recording)[1]))
                shutil.copy(truth["key"], os.path.join(work, f"failed{n}.key"))
        if (n + 1) % 20 == 0:
            print(f"archive_check: {n + 1}/{a.boundaries} spots", file=sys.stderr)
    if not a.keep:
        shutil.rmtree(work)

    def summary(name, errors):
        e = sorted(abs(x) for x in errors)
        if not e:
            return f"{name}: no spots found"
        pick = lambda q: e[min(len(e) - 1, int(q * len(e)))]
        return (f"{name} error |s|: median {pick(0.5):.3f}, p95 {pick(0.95):.3f}, max {e[-1]:.3f}; "
                f"mean signed {sum(errors) / len(errors):+.3f}; over {a.tolerance} s: {sum(x > a.tolerance for x in e)}")
    print(f"boundaries: {a.boundaries} spots (15-60 s, half after MP3-128), {len(starts)} found once with the right ID")
    print(summary("start", starts))
    print(summary("end", ends))
    for line in failures:
        print("  " + line)
    return 0 if not failures else 1


if __name__ == "__main__":
    main()
