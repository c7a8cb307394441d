#!/usr/bin/env python3
"""Assemble the QixKit benchmark corpus (corpus/bench/) from Debian packages.

Reads a manifest such as shared/corpus/manifest_bench.json, fetches each item's
package with `apt-get download` (no install), unpacks it with `dpkg-deb -x` into a
temporary folder, decodes, cuts and writes 16-bit FLAC excerpts, and records the
provenance of every output in corpus/bench/MANIFEST.json.

Standard library only; the audio work is done by Debian tools run as subprocesses
(sox, ffmpeg for G.722, fluidsynth for MIDI). Rebuilds are bit-identical: sox runs
with -D -R (no dither, no random seed), the MIDI renderer writes float, and the
manifest carries no timestamps. This file drives the build (items, jobs, skips,
MANIFEST.json); corpus_plan.py holds the manifest model and the pure cut planning,
corpus_audio.py the package and tool calls. See Benchmarks/corpus/README.md.
"""

from __future__ import annotations

import argparse
import array
import concurrent.futures
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_audio import (  # noqa: E402
    INSTALL_LINE, MIDI_PEAK_DBFS, MIDI_RATE, BuildError, Raw, check_tools, decode_window,
    fetch_package, log, normalise_peak, open_track, render_midi, sha256_file,
    source_format, tool_versions, unpack, write_flac,
)
from corpus_plan import (  # noqa: E402
    SCRIPT_VERSION, Item, choose_windows, load_manifest, plan_chunks, select_sources,
    silent_fraction, slug,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MANIFEST_CANDIDATES = (
    REPO_ROOT.parent / "shared" / "corpus" / "manifest_bench.json",
    REPO_ROOT / "corpus" / "manifest_bench.json",
)
DEFAULT_OUT = REPO_ROOT / "corpus" / "bench"


# ----------------------------------------------------------------------------
# Building one item


@dataclasses.dataclass
class Prepared:
    """An unpacked item ready to cut: its sources and where things go."""

    item: Item
    root: Path  # unpacked package
    work: Path  # scratch folder for this item
    out_dir: Path  # corpus/bench/<item>
    version: str
    sources: list[str]
    soundfont: tuple[Path, dict] | None = None  # (sf2 path, provenance)
    started: float = 0.0  # time.monotonic() when its download began


def seconds(frames: int, rate: int) -> float:
    """Frames as seconds, rounded to the microsecond for the manifest."""
    return round(frames / rate, 6)


def excerpt_task(p: Prepared, index: int, rel: str) -> list[dict]:
    """Cut `per_file` excerpts from one track (stems mixed); return file records.
    Only the candidate windows are decoded, never the whole track."""
    item = p.item
    src = p.root / rel
    if item.stems:
        inputs = [src.parent / s for s in item.stems if (src.parent / s).is_file()]
        name = src.parent.name
    else:
        inputs = [src]
        name = src.stem
    tmp = Path(tempfile.mkdtemp(prefix=f"t{index:03d}-", dir=p.work))
    try:
        playable = inputs
        if src.suffix.lower() in (".mid", ".midi"):
            if p.soundfont is None:
                raise BuildError(f"{rel}: MIDI source but no 'midi_sf' in the manifest item")
            playable = [render_midi(src, p.soundfont[0], tmp / "render.wav")]
        track = open_track(playable, tmp)
        rate = item.sr or track.rate
        ch = item.ch or track.channels
        win = int(round(item.len * track.rate))  # in source frames
        decoded: dict[int, array.array] = {}

        def window(start: int) -> array.array:
            """Decoded window at a source-frame start, decoded once."""
            if start not in decoded:
                decoded[start] = decode_window(track, rate, ch, start,
                                               min(win, track.frames - start))
            return decoded[start]

        starts = choose_windows(track.frames, win, item.per_file,
                                lambda s: silent_fraction(window(s), ch, rate))
        records = []
        for start in sorted(starts):
            data = window(start)
            count = min(win, track.frames - start)
            gain_db = None
            if p.soundfont is not None:
                data, gain_db = normalise_peak(data, MIDI_PEAK_DBFS)
            fname = f"{index + 1:02d}_{slug(name)}_{start // track.rate:04d}s.flac"
            digest = write_flac(data.tobytes(), rate, ch, p.out_dir / fname)
            rec = {
                "path": f"{item.name}/{fname}",
                "sha256": digest,
                "seconds": seconds(len(data) // ch, rate),
                "rate": rate,
                "channels": ch,
                "track_seconds": seconds(track.frames, track.rate),
                "sources": [{"file": str(i.relative_to(p.root)),
                             "start": seconds(start, track.rate),
                             "length": seconds(count, track.rate)} for i in inputs],
            }
            if len(inputs) > 1:
                rec["mix"] = "sum of stems, each scaled by 1/%d (sox -m)" % len(inputs)
            if p.soundfont is not None:
                rec["rendered_with"] = p.soundfont[1]
                rec["gain_db"] = gain_db
            records.append(rec)
        log(f"  {item.name}: {name}: {len(records)} excerpt(s) at "
            + ", ".join(f"{s / track.rate:.1f}s" for s in sorted(starts))
            + f" of {track.frames / track.rate:.1f}s")
        return records
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def concat_task(p: Prepared) -> list[dict]:
    """Join all sources with the item's gap and cut them into chunks; return records."""
    item = p.item
    tmp = Path(tempfile.mkdtemp(prefix="concat-", dir=p.work))
    try:
        rate = item.sr or source_format(p.root / p.sources[0])[0]
        ch = item.ch or 1
        raws: list[Raw] = []
        gap = int(round(item.gap * rate))
        chunk = int(round(item.len * rate))
        # max_clips caps the chunks: decode only as many sources as they need.
        wanted = None if item.max_clips is None else item.max_clips * chunk
        for i, rel in enumerate(p.sources):
            if wanted is not None and sum(r.frames + gap for r in raws) >= wanted:
                break
            # Each decoded source goes to a scratch file so memory stays bounded.
            track = open_track([p.root / rel], tmp)
            dest = tmp / f"s{i:04d}.f32"
            dest.write_bytes(decode_window(track, rate, ch, 0, track.frames).tobytes())
            raws.append(Raw(dest, rate, ch))
        lengths = [r.frames for r in raws]
        chunks = plan_chunks(lengths, gap, chunk)
        if item.max_clips is not None:
            chunks = chunks[: item.max_clips]
        records = []
        for k, c in enumerate(chunks):
            buf = array.array("f", bytes(4 * ch * c.length))  # zeros = the gaps
            for s in c.segments:
                piece = raws[s.source].read(s.source_start, s.length)
                o = s.chunk_offset * ch
                buf[o:o + len(piece)] = piece
            fname = f"{item.name}_{k + 1:03d}.flac"
            digest = write_flac(buf.tobytes(), rate, ch, p.out_dir / fname)
            records.append({
                "path": f"{item.name}/{fname}",
                "sha256": digest,
                "seconds": seconds(c.length, rate),
                "rate": rate,
                "channels": ch,
                "gap_seconds": item.gap,
                "sources": [{"file": p.sources[s.source],
                             "start": seconds(s.source_start, rate),
                             "length": seconds(s.length, rate),
                             "at": seconds(s.chunk_offset, rate)} for s in c.segments],
            })
        log(f"  {item.name}: {len(raws)} source(s), "
            f"{sum(lengths) / rate:.1f}s joined -> {len(records)} chunk(s)")
        return records
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prepare(item: Item, out: Path, cache: Path, work_root: Path) -> Prepared:
    """Download and unpack an item's package(s) and list its sources."""
    started = time.monotonic()
    deb, version = fetch_package(item.package, cache)
    work = Path(tempfile.mkdtemp(prefix=f"{item.name}-", dir=work_root))
    root = work / "pkg"
    log(f"  {item.name}: unpacking {deb.name}")
    unpack(deb, root)
    sources = select_sources(root, item)
    if not sources:
        raise BuildError(f"glob '{item.glob}' matched no files in {item.package} {version}")
    soundfont = None
    if item.midi_sf is not None:
        sf_pkg, sf_file = item.midi_sf
        sf_deb, sf_version = fetch_package(sf_pkg, cache)
        sf_root = work / "sf"
        unpack(sf_deb, sf_root)
        sf2 = sf_root / sf_file.lstrip("/")
        if not sf2.is_file():
            raise BuildError(f"{sf_file} not found in {sf_pkg} {sf_version}")
        soundfont = (sf2, {"package": sf_pkg, "version": sf_version, "file": sf_file,
                           "renderer": "fluidsynth", "rate": MIDI_RATE})
    out_dir = out / item.name
    out_dir.mkdir(parents=True, exist_ok=True)
    return Prepared(item, root, work, out_dir, version, sources, soundfont, started)


def candidate_version(package: str) -> str | None:
    """The version apt-get download would fetch, or None if apt cannot tell."""
    try:
        p = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True)
    except FileNotFoundError:
        return None
    m = re.search(r"Candidate:\s*(\S+)", p.stdout)
    return m.group(1) if m and m.group(1) != "(none)" else None


def up_to_date(item: Item, entry: dict | None, out: Path) -> bool:
    """True if the recorded outputs of this item exist, match their hashes and were
    made by the same recipe from the package version apt would fetch now."""
    if not entry or entry.get("fingerprint") != item.fingerprint() or not entry.get("files"):
        return False
    cand = candidate_version(item.package)
    if cand is not None and cand != entry.get("version"):
        return False
    try:
        for rec in entry["files"]:
            f = out / rec["path"]
            if not f.is_file() or sha256_file(f) != rec["sha256"]:
                return False
    except (KeyError, TypeError):  # a hand-edited or damaged MANIFEST.json: rebuild
        return False
    return True


# ----------------------------------------------------------------------------
# Driver


def write_json_atomic(path: Path, data) -> None:
    """Write JSON to a .partial file, then rename it over the target."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    os.replace(partial, path)


def default_manifest() -> Path | None:
    """The manifest beside the repo (shared/corpus) or inside it, if present."""
    for c in DEFAULT_MANIFEST_CANDIDATES:
        if c.is_file():
            return c
    return None


class ItemFailed(Exception):
    """One manifest item could not be built; the message says why."""


def run_items(items: list[Item], args, out: Path, cache: Path, work_root: Path,
              entries: dict, failed: dict, skipped: list) -> None:
    """Prepare items one by one (downloads, unpacking) while their cut tasks run in
    a pool of `args.jobs` threads; update entries/failed/skipped in place."""
    pending = []  # (Prepared, [futures])
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for n, item in enumerate(items, 1):
            log(f"[{n}/{len(items)}] {item.name} ({item.package}, {item.mode})")
            if not args.force and up_to_date(item, entries.get(item.name), out):
                log(f"  {item.name}: up to date ({len(entries[item.name]['files'])} files), skipped")
                skipped.append(item.name)
                continue
            entries.pop(item.name, None)
            try:
                p = prepare(item, out, cache, work_root)
            except Exception as e:  # noqa: BLE001 - one item's failure must not stop the rest
                failed[item.name] = describe(e)
                log(f"  {item.name}: FAILED: {failed[item.name]}")
                continue
            log(f"  {item.name}: {item.package} {p.version}: {len(p.sources)} source file(s)")
            if item.mode == "excerpt":
                futs = [pool.submit(timed, excerpt_task, p, i, rel)
                        for i, rel in enumerate(p.sources)]
            else:
                futs = [pool.submit(timed, concat_task, p)]
            pending.append((p, futs))
        for p, futs in pending:
            try:
                entries[p.item.name] = finish_item(p, futs)
            except ItemFailed as e:
                failed[p.item.name] = str(e)
                log(f"  {p.item.name}: FAILED: {e}")


def timed(task, *args) -> tuple[list[dict], float]:
    """Run a cut task; return its records and when it finished (for per-item times)."""
    records = task(*args)
    return records, time.monotonic()


def describe(e: BaseException) -> str:
    """An error as one line: tool errors as they are, anything else with its type."""
    return str(e) if isinstance(e, (BuildError, OSError)) else f"{type(e).__name__}: {e}"


def finish_item(p: Prepared, futs: list) -> dict:
    """Collect an item's task results, drop stale outputs, return its manifest entry."""
    item = p.item
    records: list[dict] = []
    errors = []
    finished = p.started
    for f in futs:
        try:
            recs, end = f.result()
            records.extend(recs)
            finished = max(finished, end)
        except Exception as e:  # noqa: BLE001 - reported, the other items go on
            errors.append(describe(e))
    shutil.rmtree(p.work, ignore_errors=True)
    if errors:
        raise ItemFailed("; ".join(errors))
    for r in records:
        # Each file carries its own provenance and licence, so it can be copied out
        # of the set without losing them.
        r.update(package=item.package, version=p.version, license=item.license)
    keep = {Path(r["path"]).name for r in records}
    for stale in p.out_dir.iterdir():
        if stale.name not in keep:
            stale.unlink()
    total = sum(r["seconds"] for r in records)
    log(f"  {item.name}: done, {len(records)} file(s), {total / 60:.2f} min, "
        f"{finished - p.started:.0f} s from download to last file (jobs shared)")
    return {
        "package": item.package,
        "version": p.version,
        "license": item.license,
        "category": item.category,
        "mode": item.mode,
        "fingerprint": item.fingerprint(),
        "seconds": round(total, 6),
        "files": records,
    }


def build(args) -> int:
    """Build the selected items; return the exit status (0 ok, 1 an item failed, 2 usage)."""
    manifest_path = Path(args.manifest) if args.manifest else default_manifest()
    if manifest_path is None:
        log("build_bench_set: error: no manifest found (give --manifest PATH)")
        return 2
    try:
        items = load_manifest(manifest_path)
    except ValueError as e:
        log(f"build_bench_set: error: {e}")
        return 1
    if args.only:
        names = {i.name for i in items}
        unknown = [n for n in args.only if n not in names]
        if unknown:
            log(f"build_bench_set: error: unknown item(s) {', '.join(unknown)} "
                f"(known: {', '.join(sorted(names))})")
            return 2
        items = [i for i in items if i.name in args.only]
    missing = check_tools()
    if missing:
        log(f"build_bench_set: warning: missing tools; run: {install_line_for(missing)}")

    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    cache = Path(args.cache).resolve() if args.cache else out / ".debs"
    # Scratch (unpacked packages, MIDI renders) goes to $TMPDIR; outputs are written
    # as .partial files beside their final names and renamed.
    work_root = Path(tempfile.mkdtemp(prefix="qix-bench-"))
    manifest_out = out / "MANIFEST.json"
    try:
        old = json.loads(manifest_out.read_text()).get("items", {})
    except (OSError, json.JSONDecodeError, AttributeError):
        old = {}
    all_names = [i.name for i in load_manifest(manifest_path)]
    entries = {k: v for k, v in old.items() if k in all_names}

    t0 = time.monotonic()
    failed: dict[str, str] = {}
    skipped: list[str] = []
    try:
        run_items(items, args, out, cache, work_root, entries, failed, skipped)
    finally:
        shutil.rmtree(work_root, ignore_errors=True)

    ordered = {n: entries[n] for n in all_names if n in entries}
    write_json_atomic(manifest_out, {
        "generator": "Benchmarks/corpus/build_bench_set.py",
        "script_version": SCRIPT_VERSION,
        "source_manifest": manifest_path.name,
        "source_manifest_sha256": sha256_file(manifest_path),
        "licensing": "each output file inherits the licence of its package (field 'license'); "
                     "do not mix CC-BY-SA and GPL items into one file",
        "tools": tool_versions(),
        "seconds": round(sum(e["seconds"] for e in ordered.values()), 6),
        "items": ordered,
    })

    log("")
    log(f"{'item':34} {'files':>5} {'minutes':>8}  status")
    for item in items:
        e = ordered.get(item.name)
        status = ("FAILED" if item.name in failed else
                  "skipped" if item.name in skipped else "built")
        files = len(e["files"]) if e else 0
        mins = e["seconds"] / 60 if e else 0.0
        log(f"{item.name:34} {files:5d} {mins:8.2f}  {status}")
    log(f"set total: {sum(e['seconds'] for e in ordered.values()) / 60:.2f} min in "
        f"{sum(len(e['files']) for e in ordered.values())} files; "
        f"wall {time.monotonic() - t0:.1f} s; manifest {manifest_out}")
    for name, err in failed.items():
        log(f"build_bench_set: error: {name}: {err}")
    return 1 if failed else 0


def install_line_for(missing: list[str]) -> str:
    """The apt-get line that installs the given packages."""
    return "apt-get install -y " + " ".join(dict.fromkeys(missing))


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(
        prog="build_bench_set.py",
        description="Assemble the QixKit benchmark corpus (corpus/bench/) from Debian "
                    "packages listed in a manifest: apt-get download + dpkg-deb -x (no "
                    "install), decode, cut, write 16-bit FLAC, and record provenance in "
                    "corpus/bench/MANIFEST.json. Rebuilds are bit-identical.",
        epilog=f"Tools needed: {INSTALL_LINE} (check with --check). "
               "Needs no root: apt-get download works as any user once apt lists exist.")
    ap.add_argument("--manifest", help="manifest JSON (default: ../shared/corpus/manifest_bench.json "
                                       "next to the repo)")
    ap.add_argument("--out", default=str(DEFAULT_OUT), help="output folder (default: corpus/bench)")
    ap.add_argument("--cache", help="where .deb files are kept (default: OUT/.debs)")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="build only this manifest item (repeatable)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="parallel decode/encode jobs (default: CPU count)")
    ap.add_argument("--force", action="store_true",
                    help="rebuild items even if their outputs match MANIFEST.json")
    ap.add_argument("--check", action="store_true",
                    help="only check that the needed tools are installed; print the missing "
                         "apt-get install line and exit 1 if any are missing")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.check:
        missing = check_tools()
        if missing:
            print(f"missing: {' '.join(missing)}\nrun: {install_line_for(missing)}")
            return 1
        print(f"all tools present ({INSTALL_LINE})")
        return 0
    return build(args)


if __name__ == "__main__":
    sys.exit(main())
