"""Manifest items and the pure cut planning for the benchmark corpus.

What a manifest entry means (parse_manifest), which files of a package it takes
(select_sources), where excerpts go (choose_windows, silent_fraction) and how joined
sources are cut into chunks (plan_chunks). No tools run here, so all of it is
covered by test_build_bench_set.py on synthetic data.
"""

from __future__ import annotations

import dataclasses
import glob as globmod
import hashlib
import json
import math
import os
import re
from pathlib import Path

# Bump when the output of an unchanged manifest item would change (cut rule, encoder
# settings, levels, naming): it is part of each item's fingerprint in MANIFEST.json,
# so stale outputs are rebuilt.
SCRIPT_VERSION = 2

# Order in which excerpt windows are tried, as fractions of the track length: the
# rule is "30 %, then 60 %, 10 %, ... if that window is mostly silent".
WINDOW_FRACTIONS = (0.30, 0.60, 0.10, 0.45, 0.75, 0.20, 0.85, 0.0)
# A 100 ms frame quieter than this (RMS over all channels) counts as silent.
SILENCE_DBFS = -50.0
# A window is "mostly silent" when more than this fraction of its frames are silent.
MOSTLY_SILENT = 0.5
VALID_MODES = ("excerpt", "concat")


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
    """One typed field of a manifest entry (ints accepted where floats are wanted)."""
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
    names containing an `exclude` word. For excerpt items `max_clips` caps the source
    files; for concat items it caps the output chunks (concat_task), since joined
    speech is cut into many clips and the manifest's ~75 minutes count those."""
    pattern = item.glob.lstrip("/")
    found = sorted(
        os.path.relpath(p, root)
        for p in globmod.glob(str(root / pattern), recursive=True)
        if os.path.isfile(p)
    )
    kept = [p for p in found if not any(x in os.path.basename(p) for x in item.exclude)]
    if item.max_clips is not None and item.mode != "concat":
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
        """True if a window at `start` overlaps none already chosen."""
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

