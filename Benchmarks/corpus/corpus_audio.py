"""Debian packages and audio tools for the benchmark corpus.

Fetches and unpacks packages (apt-get download, dpkg-deb -x: nothing installed),
decodes windows of sources with sox (ffmpeg for G.722, FluidSynth for MIDI), and
writes FLAC atomically. Every tool call is deterministic: sox runs with -D -R (no
dither, fixed random seed), ffmpeg with +bitexact, FluidSynth renders offline to float.
"""

from __future__ import annotations

import array
import dataclasses
import hashlib
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# The apt-get line that provides every tool this script runs.
INSTALL_LINE = "apt-get install -y sox libsox-fmt-base ffmpeg fluidsynth"
MIDI_RATE = 44100
# MIDI renders have no natural level (it is the synth's gain), so each excerpt is
# peak-normalised to this, like the committed dev clip a03.
MIDI_PEAK_DBFS = -1.0
OUTPUT_BITS = 16
SOX_FLAGS = ["-D", "-R", "-V1"]
RAW_ARGS = ["-t", "raw", "-e", "floating-point", "-b", "32"]

_print_lock = threading.Lock()


def log(msg: str) -> None:
    """Print one progress line on stderr (thread-safe)."""
    with _print_lock:
        print(msg, file=sys.stderr, flush=True)


class BuildError(Exception):
    """A failure that ends one manifest item (the others go on)."""


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


def tool_versions() -> dict[str, str]:
    """First version line of each audio tool, recorded in MANIFEST.json because
    bit-identical rebuilds need the same tool versions as well as the same packages."""
    versions = {}
    for tool, flag in (("sox", "--version"), ("ffmpeg", "-version"), ("fluidsynth", "--version")):
        try:
            p = subprocess.run([tool, flag], capture_output=True, text=True)
        except FileNotFoundError:
            continue
        lines = (p.stdout or p.stderr).strip().splitlines()
        versions[tool] = lines[0].strip() if lines else "unknown"
    return versions


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
        """Frames in the file."""
        return self.path.stat().st_size // (4 * self.channels)

    def read(self, start: int, count: int) -> array.array:
        """Read `count` frames from frame `start` (fewer at the end of the file)."""
        a = array.array("f")
        with open(self.path, "rb") as f:
            f.seek(start * 4 * self.channels)
            a.frombytes(f.read(count * 4 * self.channels))
        return a




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


def normalise_peak(samples: array.array, peak_dbfs: float) -> tuple[array.array, float]:
    """Scale samples so their peak is at peak_dbfs; return them and the gain in dB
    (rounded to 0.01 dB, which is the gain applied, so it is reproducible)."""
    peak = max(max(samples, default=0.0), -min(samples, default=0.0))
    if peak <= 0.0:
        return samples, 0.0
    gain_db = round(peak_dbfs - 20 * math.log10(peak), 2)
    g = 10 ** (gain_db / 20)
    return array.array("f", [x * g for x in samples]), gain_db


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
    """Hex sha256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()

