#!/usr/bin/env python3
"""Assemble the QixKit benchmark corpus (corpus/bench/) from Debian packages.

Reads a manifest such as shared/corpus/manifest_bench.json, fetches each item's
package with `apt-get download` (no install), unpacks it with `dpkg-deb -x` into a
temporary folder, decodes, cuts and writes 16-bit FLAC excerpts, and records the
provenance of every output in corpus/bench/MANIFEST.json.

Standard library only; the audio work is done by Debian tools run as subprocesses
(sox, ffmpeg for G.722, fluidsynth for MIDI). Rebuilds are bit-identical: sox runs
with -D -R (no dither, no random seed), the MIDI renderer writes float, and the
manifest carries no timestamps. See Benchmarks/corpus/README.md.
"""

from __future__ import annotations

import argparse
import array
import concurrent.futures
import dataclasses
import glob as globmod
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# Bump when the output of an unchanged manifest item would change (cut rule, encoder
# settings, naming): recorded in MANIFEST.json so stale outputs are rebuilt.
SCRIPT_VERSION = 1

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MANIFEST_CANDIDATES = (
    REPO_ROOT.parent / "shared" / "corpus" / "manifest_bench.json",
    REPO_ROOT / "corpus" / "manifest_bench.json",
)
DEFAULT_OUT = REPO_ROOT / "corpus" / "bench"

# The apt-get line that provides every tool this script runs.
INSTALL_LINE = "apt-get install -y sox libsox-fmt-base ffmpeg fluidsynth"

# Order in which excerpt windows are tried, as fractions of the track length: the
# rule is "30 %, then 60 %, 10 %, ... if that window is mostly silent".
WINDOW_FRACTIONS = (0.30, 0.60, 0.10, 0.45, 0.75, 0.20, 0.85, 0.0)
# A 100 ms frame quieter than this (RMS over all channels) counts as silent.
SILENCE_DBFS = -50.0
# A window is "mostly silent" when more than this fraction of its frames are silent.
MOSTLY_SILENT = 0.5
MIDI_RATE = 44100
OUTPUT_BITS = 16
SOX_FLAGS = ["-D", "-R", "-V1"]
VALID_MODES = ("excerpt", "concat")

_print_lock = threading.Lock()


def log(msg: str) -> None:
    """Print one progress line on stderr (thread-safe)."""
    with _print_lock:
        print(msg, file=sys.stderr, flush=True)


class BuildError(Exception):
    """A failure that ends one manifest item (the others go on)."""


# ----------------------------------------------------------------------------
# Manifest parsing


@dataclasses.dataclass(frozen=True)
class Item:
    """One manifest entry: where the audio comes from and how it is cut."""

    name: str
    category: str
    package: str
    license: str
    glob: str
    mode: str
    len: float
    ch: int | None = None
    sr: int | None = None
    exclude: tuple[str, ...] = ()
    stems: tuple[str, ...] = ()
    per_file: int = 1
    gap: float = 0.0
    max_clips: int | None = None
    midi_sf: tuple[str, str] | None = None
    raw: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def fingerprint(self) -> str:
        """Hash of the item's recipe, so a changed manifest entry triggers a rebuild."""
        blob = json.dumps({"v": SCRIPT_VERSION, "item": self.raw}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()


def _field(entry: dict, key: str, kind, where: str, default=None, required=False):
    if key not in entry:
        if required:
            raise ValueError(f"{where}: missing field '{key}'")
        return default
    value = entry[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"{where}: field '{key}' must be {kind.__name__}, got {value!r}")
    return value


def parse_manifest(data: dict) -> list[Item]:
    """Validate a decoded manifest (dict with 'items') and return its items."""
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise ValueError("manifest: expected an object with an 'items' list")
    items: list[Item] = []
    seen: set[str] = set()
    for i, entry in enumerate(data["items"]):
        where = f"items[{i}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: expected an object")
        name = _field(entry, "name", str, where, required=True)
        where = f"items[{i}] ({name})"
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name in seen:
            raise ValueError(f"{where}: name must be unique and use only [A-Za-z0-9_.-]")
        seen.add(name)
        mode = _field(entry, "mode", str, where, required=True)
        if mode not in VALID_MODES:
            raise ValueError(f"{where}: unknown mode '{mode}' (expected {', '.join(VALID_MODES)})")
        length = _field(entry, "len", float, where, required=True)
        if length <= 0:
            raise ValueError(f"{where}: 'len' must be positive")
        ch = _field(entry, "ch", int, where)
        sr = _field(entry, "sr", int, where)
        if ch is not None and not 1 <= ch <= 8:
            raise ValueError(f"{where}: 'ch' must be 1..8")
        if sr is not None and not 8000 <= sr <= 192000:
            raise ValueError(f"{where}: 'sr' must be 8000..192000")
        exclude = _field(entry, "exclude", list, where, default=[])
        stems = _field(entry, "stems", list, where, default=[])
        if not all(isinstance(s, str) and s for s in exclude + stems):
            raise ValueError(f"{where}: 'exclude' and 'stems' must be lists of names")
        per_file = _field(entry, "per_file", int, where, default=1)
        if per_file < 1:
            raise ValueError(f"{where}: 'per_file' must be at least 1")
        gap = _field(entry, "gap", float, where, default=0.0)
        if gap < 0:
            raise ValueError(f"{where}: 'gap' must not be negative")
        max_clips = _field(entry, "max_clips", int, where)
        if max_clips is not None and max_clips < 1:
            raise ValueError(f"{where}: 'max_clips' must be at least 1")
        midi_sf = _field(entry, "midi_sf", list, where)
        if midi_sf is not None:
            if len(midi_sf) != 2 or not all(isinstance(s, str) and s for s in midi_sf):
                raise ValueError(f"{where}: 'midi_sf' must be [package, path-inside-package]")
            midi_sf = (midi_sf[0], midi_sf[1])
        items.append(Item(
            name=name,
            category=_field(entry, "category", str, where, default=""),
            package=_field(entry, "package", str, where, required=True),
            license=_field(entry, "license", str, where, required=True),
            glob=_field(entry, "glob", str, where, required=True),
            mode=mode, len=length, ch=ch, sr=sr,
            exclude=tuple(exclude), stems=tuple(stems), per_file=per_file, gap=gap,
            max_clips=max_clips, midi_sf=midi_sf, raw=entry,
        ))
    return items


def load_manifest(path: Path) -> list[Item]:
    """Read and validate a manifest file."""
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"manifest ({path}): {e}") from e
    return parse_manifest(data)


# ----------------------------------------------------------------------------
# Source selection and cut planning (pure)


def select_sources(root: Path, item: Item) -> list[str]:
    """Paths (relative to root, sorted bytewise) matching the item's glob, minus
    names containing an `exclude` word, capped at `max_clips`."""
    pattern = item.glob.lstrip("/")
    found = sorted(
        os.path.relpath(p, root)
        for p in globmod.glob(str(root / pattern), recursive=True)
        if os.path.isfile(p)
    )
    kept = [p for p in found if not any(x in os.path.basename(p) for x in item.exclude)]
    if item.max_clips is not None:
        kept = kept[: item.max_clips]
    return kept


def choose_windows(total: int, win: int, count: int, silent_fraction) -> list[int]:
    """Start frames of up to `count` non-overlapping windows of `win` frames in a
    track of `total` frames, tried at WINDOW_FRACTIONS in order and skipping mostly
    silent ones. `silent_fraction(start)` returns the silent share of that window.
    If too few windows pass, the least silent remaining candidates fill in. A track
    shorter than `win` yields one window at 0 (the whole track)."""
    if total <= 0:
        return []
    if total <= win:
        return [0]
    candidates: list[int] = []
    for frac in WINDOW_FRACTIONS:
        start = min(int(round(frac * total)), total - win)
        if start not in candidates:
            candidates.append(start)

    def fits(start: int, chosen: list[int]) -> bool:
        return all(abs(start - c) >= win for c in chosen)

    scores: dict[int, float] = {}

    def score(start: int) -> float:
        # Lazy: each score costs a decode, and usually the first candidate passes.
        if start not in scores:
            scores[start] = silent_fraction(start)
        return scores[start]

    chosen: list[int] = []
    for start in candidates:
        if len(chosen) == count:
            break
        if fits(start, chosen) and score(start) <= MOSTLY_SILENT:
            chosen.append(start)
    if len(chosen) < count:
        for start in sorted(candidates, key=lambda s: (score(s), candidates.index(s))):
            if len(chosen) == count:
                break
            if start not in chosen and fits(start, chosen):
                chosen.append(start)
    return chosen


@dataclasses.dataclass(frozen=True)
class Segment:
    """A stretch of one source inside an output chunk (frames)."""

    source: int  # index into the source list
    source_start: int
    length: int
    chunk_offset: int


@dataclasses.dataclass(frozen=True)
class Chunk:
    """One output chunk of a joined stream: its span and the source pieces in it."""

    start: int
    length: int
    segments: tuple[Segment, ...]


def plan_chunks(lengths: list[int], gap: int, chunk: int) -> list[Chunk]:
    """Join sources of the given frame lengths with `gap` silent frames between
    them and cut the result into chunks of `chunk` frames. The final partial chunk
    is kept if at least half a chunk long (or if it is the only one)."""
    placed = []  # (source index, start in joined stream, length)
    pos = 0
    for i, n in enumerate(lengths):
        if n <= 0:
            continue
        if placed:
            pos += gap
        placed.append((i, pos, n))
        pos += n
    total = pos
    chunks: list[Chunk] = []
    start = 0
    while start < total:
        end = min(start + chunk, total)
        if end - start < chunk and chunks and (end - start) * 2 < chunk:
            break
        segs = []
        for i, s0, n in placed:
            a, b = max(start, s0), min(end, s0 + n)
            if a < b:
                segs.append(Segment(i, a - s0, b - a, a - start))
        chunks.append(Chunk(start, end - start, tuple(segs)))
        start = end
    return chunks


def silent_fraction(samples, channels: int, rate: int) -> float:
    """Share of 100 ms frames whose RMS (over all channels) is below SILENCE_DBFS."""
    step = max(1, rate // 10) * channels
    n = len(samples)
    if n == 0:
        return 1.0
    threshold = 10 ** (SILENCE_DBFS / 10)  # mean-square threshold
    silent = frames = 0
    for i in range(0, n, step):
        seg = samples[i:i + step]
        ms = math.fsum(map(float.__mul__, seg, seg)) / len(seg)
        frames += 1
        if ms < threshold:
            silent += 1
    return silent / frames


def slug(text: str) -> str:
    """File-name-safe lower-case form of a track name."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "track"


# ----------------------------------------------------------------------------
# Tools


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    """Run a tool; raise BuildError with its last stderr line on failure."""
    env = dict(os.environ, SOX_OPTS="-D -R", LC_ALL="C")
    try:
        p = subprocess.run(cmd, capture_output=True, env=env, **kw)
    except FileNotFoundError as e:
        raise BuildError(f"{cmd[0]} not found (run --check)") from e
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise BuildError(f"{cmd[0]} failed ({p.returncode}): {err[-1] if err else ''}")
    return p


def check_tools() -> list[str]:
    """Names of Debian packages whose tools are missing or lack a needed format."""
    missing = []
    if not shutil.which("sox"):
        missing += ["sox", "libsox-fmt-base"]
    else:
        out = subprocess.run(["sox", "-h"], capture_output=True, text=True).stdout
        formats = next((l for l in out.splitlines() if l.startswith("AUDIO FILE FORMATS")), "")
        if not {"ogg", "flac", "wav"} <= set(formats.split()):
            missing.append("libsox-fmt-base")
    if not shutil.which("ffmpeg"):
        missing.append("ffmpeg")
    if not shutil.which("fluidsynth"):
        missing.append("fluidsynth")
    if not shutil.which("apt-get"):
        missing.append("apt")
    if not shutil.which("dpkg-deb"):
        missing.append("dpkg")
    return missing


# ----------------------------------------------------------------------------
# Packages


def fetch_package(package: str, cache: Path) -> tuple[Path, str]:
    """Download a package's .deb into the cache (as any user); return it and its version.
    If the download fails but a cached .deb exists, use that one."""
    cache.mkdir(parents=True, exist_ok=True)
    try:
        run(["apt-get", "download", package], cwd=cache)
    except BuildError as e:
        log(f"  warning: apt-get download {package}: {e}; trying the cache")
    debs = sorted(cache.glob(f"{package}_*.deb"), key=lambda p: p.stat().st_mtime)
    if not debs:
        raise BuildError(f"no .deb for {package} (apt-get download failed; run apt-get update?)")
    deb = debs[-1]
    version = run(["dpkg-deb", "-f", str(deb), "Version"]).stdout.decode().strip()
    return deb, version


def unpack(deb: Path, dest: Path) -> None:
    """Extract a .deb's files (no install, no maintainer scripts)."""
    dest.mkdir(parents=True, exist_ok=True)
    run(["dpkg-deb", "-x", str(deb), str(dest)])


# ----------------------------------------------------------------------------
# Audio


@dataclasses.dataclass(frozen=True)
class Raw:
    """A decoded float32 interleaved native-endian file at a known rate/channels."""

    path: Path
    rate: int
    channels: int

    @property
    def frames(self) -> int:
        return self.path.stat().st_size // (4 * self.channels)

    def read(self, start: int, count: int) -> array.array:
        a = array.array("f")
        with open(self.path, "rb") as f:
            f.seek(start * 4 * self.channels)
            a.frombytes(f.read(count * 4 * self.channels))
        return a


RAW_ARGS = ["-t", "raw", "-e", "floating-point", "-b", "32"]


def source_format(path: Path) -> tuple[int, int, int]:
    """Sample rate, channel count and frame count as sox reports them."""
    text = run(["soxi", str(path)]).stdout.decode(errors="replace")
    try:
        rate = int(float(re.search(r"Sample Rate\s*:\s*([\d.]+)", text).group(1)))
        ch = int(re.search(r"Channels\s*:\s*(\d+)", text).group(1))
        frames = int(re.search(r"Duration\s*:.*=\s*(\d+) samples", text).group(1))
    except AttributeError as e:
        raise BuildError(f"soxi could not read the format of {path.name}") from e
    return rate, ch, frames


@dataclasses.dataclass(frozen=True)
class Track:
    """A source ready for sox: its inputs (several stems are mixed) and native format."""

    inputs: tuple[Path, ...]
    input_channels: tuple[int, ...]
    rate: int
    channels: int
    frames: int  # of the longest input; shorter stems are padded with silence


def open_track(inputs: list[Path], tmp: Path) -> Track:
    """Make inputs sox-readable (G.722 is decoded by ffmpeg to a float WAV) and read
    their format. Stems must share one sample rate (sox -m needs it)."""
    ready: list[Path] = []
    for src in inputs:
        if src.suffix.lower() == ".g722":
            fd, name = tempfile.mkstemp(suffix=".wav", dir=tmp)
            os.close(fd)
            wav = Path(name)
            run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "g722", "-i", str(src),
                 "-fflags", "+bitexact", "-flags:a", "+bitexact", "-c:a", "pcm_f32le", str(wav)])
            ready.append(wav)
        else:
            ready.append(src)
    formats = [source_format(p) for p in ready]
    rates = {f[0] for f in formats}
    if len(rates) != 1:
        raise BuildError(f"stems {', '.join(p.name for p in inputs)} differ in sample rate")
    return Track(tuple(ready), tuple(f[1] for f in formats), formats[0][0],
                 max(f[1] for f in formats), max(f[2] for f in formats))


def decode_window(track: Track, rate: int, ch: int, start: int, count: int) -> array.array:
    """Decode `count` source frames from `start` (stems mixed) as float32 at rate/ch,
    exactly round(count * rate / track.rate) frames long (zero-padded if short)."""
    fmt = []
    if len(track.inputs) == 1:
        # trim as the first effect lets sox seek in the input instead of decoding
        # everything before the window.
        cmd = ["sox", *SOX_FLAGS, str(track.inputs[0]), *RAW_ARGS, "-",
               "trim", f"{start}s", f"{count}s"]
        scratch = []
    else:
        # sox -m cannot seek, so each stem's window is cut (seeking) to a scratch
        # file first; -m then sums them, each scaled by 1/n so the mix cannot clip.
        scratch = []
        for path, c in zip(track.inputs, track.input_channels):
            fd, name = tempfile.mkstemp(suffix=".f32")
            os.close(fd)
            part = Path(name)
            scratch.append(part)
            run(["sox", *SOX_FLAGS, str(path), *RAW_ARGS, str(part),
                 "trim", f"{start}s", f"{count}s"])
            fmt += [*RAW_ARGS, "-r", str(track.rate), "-c", str(c), str(part)]
        cmd = ["sox", *SOX_FLAGS, "-m", *fmt, *RAW_ARGS, "-"]
    if ch != track.channels or len(track.inputs) > 1:
        cmd += ["channels", str(ch)]
    if rate != track.rate:
        cmd += ["rate", "-v", str(rate)]
    try:
        out = run(cmd).stdout
    finally:
        for part in scratch:
            part.unlink(missing_ok=True)
    want = int(round(count * rate / track.rate)) * ch
    a = array.array("f")
    a.frombytes(out[: len(out) - len(out) % 4])
    if len(a) > want:
        del a[want:]
    elif len(a) < want:
        a.extend(array.array("f", bytes(4 * (want - len(a)))))
    return a


def render_midi(mid: Path, sf2: Path, dest: Path) -> Path:
    """Render a MIDI file to a float WAV with FluidSynth (deterministic offline render)."""
    run(["fluidsynth", "-n", "-i", "-q", "-F", str(dest), "-T", "wav", "-O", "float",
         "-r", str(MIDI_RATE), "-o", "synth.cpu-cores=1", str(sf2), str(mid)])
    return dest


def write_flac(data: bytes, rate: int, ch: int, out: Path) -> str:
    """Encode float32 raw bytes to a 16-bit FLAC atomically; return its sha256."""
    partial = out.with_name(out.name + ".partial")
    run(["sox", *SOX_FLAGS, *RAW_ARGS, "-r", str(rate), "-c", str(ch), "-",
         "-t", "flac", "-b", str(OUTPUT_BITS), "-C", "8", str(partial)], input=data)
    digest = sha256_file(partial)
    os.replace(partial, out)
    return digest


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


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


def seconds(frames: int, rate: int) -> float:
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
        for i, rel in enumerate(p.sources):
            # Each decoded source goes to a scratch file so memory stays bounded.
            track = open_track([p.root / rel], tmp)
            dest = tmp / f"s{i:04d}.f32"
            dest.write_bytes(decode_window(track, rate, ch, 0, track.frames).tobytes())
            raws.append(Raw(dest, rate, ch))
        lengths = [r.frames for r in raws]
        chunks = plan_chunks(lengths, int(round(item.gap * rate)), int(round(item.len * rate)))
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
        log(f"  {item.name}: {len(p.sources)} source(s), "
            f"{sum(lengths) / rate:.1f}s joined -> {len(records)} chunk(s)")
        return records
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prepare(item: Item, out: Path, cache: Path, work_root: Path) -> Prepared:
    """Download and unpack an item's package(s) and list its sources."""
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
    return Prepared(item, root, work, out_dir, version, sources, soundfont)


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
    for rec in entry["files"]:
        f = out / rec["path"]
        if not f.is_file() or sha256_file(f) != rec["sha256"]:
            return False
    return True


# ----------------------------------------------------------------------------
# Driver


def write_json_atomic(path: Path, data) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    os.replace(partial, path)


def default_manifest() -> Path | None:
    for c in DEFAULT_MANIFEST_CANDIDATES:
        if c.is_file():
            return c
    return None


def build(args) -> int:
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
    built: list[str] = []
    skipped: list[str] = []
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
            except (BuildError, OSError) as e:
                failed[item.name] = str(e)
                log(f"  {item.name}: FAILED: {e}")
                continue
            log(f"  {item.name}: {item.package} {p.version}: {len(p.sources)} source file(s)")
            if item.mode == "excerpt":
                futs = [pool.submit(excerpt_task, p, i, rel) for i, rel in enumerate(p.sources)]
            else:
                futs = [pool.submit(concat_task, p)]
            pending.append((p, futs))
        for p, futs in pending:
            item = p.item
            records: list[dict] = []
            errors = []
            for f in futs:
                try:
                    records.extend(f.result())
                except (BuildError, OSError, ValueError) as e:
                    errors.append(str(e))
            shutil.rmtree(p.work, ignore_errors=True)
            for r in records:
                # Each file carries its own provenance and licence, so it can be
                # copied out of the set without losing them.
                r.update(package=item.package, version=p.version, license=item.license)
            if errors:
                failed[item.name] = "; ".join(errors)
                log(f"  {item.name}: FAILED: {failed[item.name]}")
                continue
            keep = {Path(r["path"]).name for r in records}
            for stale in p.out_dir.iterdir():
                if stale.name not in keep:
                    stale.unlink()
            total = sum(r["seconds"] for r in records)
            entries[item.name] = {
                "package": item.package,
                "version": p.version,
                "license": item.license,
                "category": item.category,
                "mode": item.mode,
                "fingerprint": item.fingerprint(),
                "seconds": round(total, 6),
                "files": records,
            }
            built.append(item.name)
            log(f"  {item.name}: done, {len(records)} file(s), {total / 60:.2f} min")
    shutil.rmtree(work_root, ignore_errors=True)

    ordered = {n: entries[n] for n in all_names if n in entries}
    write_json_atomic(manifest_out, {
        "generator": "Benchmarks/corpus/build_bench_set.py",
        "script_version": SCRIPT_VERSION,
        "source_manifest": manifest_path.name,
        "source_manifest_sha256": sha256_file(manifest_path),
        "licensing": "each output file inherits the licence of its package (field 'license'); "
                     "do not mix CC-BY-SA and GPL items into one file",
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
    log(f"total: {sum(e['seconds'] for e in ordered.values()) / 60:.2f} min in "
        f"{sum(len(e['files']) for e in ordered.values())} files; "
        f"wall {time.monotonic() - t0:.1f} s; manifest {manifest_out}")
    for name, err in failed.items():
        log(f"build_bench_set: error: {name}: {err}")
    return 1 if failed else 0


def install_line_for(missing: list[str]) -> str:
    return "apt-get install -y " + " ".join(dict.fromkeys(missing))


def main(argv: list[str] | None = None) -> int:
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
