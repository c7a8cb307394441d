#!/usr/bin/env python3
"""PEAQ (ITU-R BS.1387) of `qix embed` on the corpus hosts, with MP3 at 128 kbit/s as the anchor.

PEAQ is the objective stand-in for a listening test on small impairments: it grades the test
audio against the reference on the listening test's difference scale (ODG: 0 imperceptible,
-1 perceptible but not annoying, ... -4 very annoying). This script marks every host with
`qix embed` at each setting asked for and prints, per host and setting:

- PEAQ basic and advanced ODG of the marked excerpt against the original, from GstPEAQ
  (an open implementation that does not claim BS.1387's conformance tolerances; identical
  audio scores about +0.2, its ceiling);
- Total NMR (dB), basic version's noise-to-mask ratio: how far the mark stays under the
  masked threshold on average (negative is under);
- with `--visqol`, ViSQOL v3 in audio mode of the same pair (both mixed to mono, 48 kHz),
  as `quality_check.py` does it, and its drop from the host scored against itself;
- SNR of the mark (marked - original, all channels, full band).

Each host gives one excerpt: its first `--seconds` (15 to 20 s, the length PEAQ's test items
have; shorter hosts are taken whole), as 48 kHz stereo float WAV (sox `rate -v`; mono hosts
are duplicated), since GstPEAQ's ear model runs at 48 kHz. The same host coded as MP3 at
128 kbit/s (ffmpeg, libmp3lame) is the anchor row: the quality the mark should not fall below.
ffmpeg drops the encoder delay when it decodes (the LAME tag says how much); the decoded file
is still checked against the original by cross-correlation and shifted if it is not aligned.
With `--audiowmark`, audiowmark's default mark is a second anchor.

After the rows, a summary per setting: basic and advanced ODG mean and worst, the hosts
whose basic (and advanced) ODG is worse than their MP3-128 row's, and the mean ViSQOL drop.

GstPEAQ (LGPL, https://github.com/HSU-ANT/gstpeaq) is built outside the repository (see
Benchmarks/quality/README.md); `--peaq` takes its `peaq` binary, install prefix or build
folder: the figures come from its GStreamer element through `gst-launch-1.0`, which also
prints the model output variables the `peaq` command keeps to itself. Needs `sox`, `ffmpeg`
(with libmp3lame), `gst-launch-1.0` and, from PyPI (test helpers, not dependencies of QixKit):
    python3 -m venv /tmp/qv && /tmp/qv/bin/pip install numpy soundfile
    /tmp/qv/bin/pip install visqol-python    # for --visqol only
    /tmp/qv/bin/python Benchmarks/quality/peaq_check.py --peaq ~/gstpeaq/install/bin/peaq \\
        --embed-options "--strength 0.5" [--audiowmark PATH] [--visqol] [--jobs 2]
"""

import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

try:
    import numpy as np
    import soundfile
except ImportError as error:  # pragma: no cover - depends on the machine
    np = soundfile = None
    MISSING_MODULE = error.name
else:
    MISSING_MODULE = None

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RATE = 48000
MESSAGE = "12345678"
AUDIOWMARK_MESSAGE = "0123456789abcdef0123456789abcdef"
ANCHOR = "MP3-128"
AUDIOWMARK = "audiowmark"
# Largest offset the alignment looks for: an MP3 decoded without its LAME tag starts 1105
# samples late (576 of encoder delay, 529 of the decoder's).
MAX_LAG = 4800

# From the benchmark set (Benchmarks/corpus/README.md): music of four kinds and speech in two
# languages, each another piece or passage than the corpus clip cut from the same item, so no
# excerpt is scored twice.
BENCH_HOSTS = [
    "corpus/bench/music_metal_muldjord/01_armygeddon_0059s.flac",
    "corpus/bench/music_game_hyperrogue/07_hr3-caves_0017s.flac",
    "corpus/bench/music_orchestral_wesnoth/02_battle_0095s.flac",
    "corpus/bench/music_midi_openmsx_fluidr3/13_linns-basket_0075s.flac",
    "corpus/bench/speech_en_female_asterisk/speech_en_female_asterisk_002.flac",
    "corpus/bench/speech_cs_dialogue_fillets/speech_cs_dialogue_fillets_004.flac",
]

PEAQ_LINE = re.compile(
    r"^\s*([A-Za-z][A-Za-z0-9 ]*?)\s*[:=]\s*([-+]?(?:nan|inf|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?))\s*$",
    re.IGNORECASE | re.MULTILINE)
PEAQ_NAMES = {"Objective Difference Grade": "odg", "Distortion Index": "di"}


class ToolError(Exception):
    """A tool failed or is missing; the message is the one line to print."""


def run(command, env=None):
    """Runs a command and returns it done; raises ToolError with its stderr when it fails."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env)
    except FileNotFoundError:
        raise ToolError(f"{command[0]}: not found") from None
    if done.returncode != 0:
        message = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise ToolError(f"{' '.join(command[:2])} ... failed: {message[-1] if message else f'exit {done.returncode}'}")
    return done


def progress(text):
    """One line of progress on stderr."""
    print(f"peaq_check: {text}", file=sys.stderr, flush=True)


def parse_peaq_output(text):
    """GstPEAQ's console lines ('Total NMRB: -12.3', 'EHSB = 0.4', ...) as {name: value}.

    The ODG and distortion index are named 'odg' and 'di'; every model output variable keeps
    GstPEAQ's name (B for the basic version's, A for the advanced one's). Raises ValueError
    when there is no ODG (the element did not run to the end)."""
    values = {}
    for name, value in PEAQ_LINE.findall(text):
        values[PEAQ_NAMES.get(name, name)] = float(value)
    if "odg" not in values:
        raise ValueError("no 'Objective Difference Grade' line in GstPEAQ's output")
    return values


def plugin_folder(peaq):
    """The folder holding libgstpeaq.so for a `peaq` binary, its install prefix or its build tree."""
    base = os.path.abspath(peaq if os.path.isdir(peaq) else os.path.dirname(os.path.abspath(peaq)))
    # Build tree (libtool keeps the plugin in src/.libs), install prefix or its bin/, or the
    # plugin folder itself.
    for below in ("src/.libs", ".libs", "lib/gstreamer-1.0", "../lib/gstreamer-1.0", "../src/.libs", "."):
        folder = os.path.normpath(os.path.join(base, below))
        if os.path.isfile(os.path.join(folder, "libgstpeaq.so")):
            return folder
    return None


def peaq_command(gst_launch, reference, test, advanced):
    """The gst-launch-1.0 pipeline that feeds both WAV files to GstPEAQ's element."""
    command = [gst_launch, "-q"]
    for path, pad in ((reference, "ref"), (test, "test")):
        command += ["filesrc", f"location={path}", "!", "wavparse", "!", "audioconvert", "!",
                    "audioresample", "!", f"peaq.{pad}"]
    return command + ["peaq", "name=peaq", f"advanced={'true' if advanced else 'false'}"]


def measure_peaq(tools, reference, test, advanced):
    """GstPEAQ's ODG and model output variables of `test` against `reference`."""
    env = dict(os.environ)
    if tools["plugins"]:
        env["GST_PLUGIN_PATH"] = tools["plugins"]
    done = run(peaq_command(tools["gst-launch"], reference, test, advanced), env=env)
    try:
        return parse_peaq_output(done.stdout)
    except ValueError as error:
        raise ToolError(f"GstPEAQ on {os.path.basename(test)}: {error}; stderr: {done.stderr.strip()[-200:]}") from None


def default_hosts(repo):
    """The 9 corpus hosts and, when corpus/bench/ exists, the fixed benchmark files: (paths, missing)."""
    hosts = sorted(glob.glob(os.path.join(repo, "corpus", "clips", "a0*.flac")))
    missing = []
    if os.path.isdir(os.path.join(repo, "corpus", "bench")):
        for relative in BENCH_HOSTS:
            path = os.path.join(repo, relative)
            (hosts if os.path.isfile(path) else missing).append(path)
    return hosts, missing


def host_label(path):
    """Short name of a host: 'a01 music' for a corpus clip, 'item/nn' for a benchmark file."""
    name = os.path.basename(path)
    parts = name.split("_")
    if re.fullmatch(r"a\d\d", parts[0]) and len(parts) > 1:
        return f"{parts[0]} {parts[1]}"
    stem = os.path.splitext(name)[0]
    item = os.path.basename(os.path.dirname(path))
    number = stem[len(item) + 1:] if stem.startswith(item + "_") else parts[0]
    return f"{item}/{number}"


def settings(embed_options):
    """The qix settings to measure: the default, then each --embed-options string, as (label, options)."""
    chosen = [("qix default", [])]
    for text in embed_options:
        options = shlex.split(text)
        if options and ("qix " + " ".join(options)) not in [label for label, _ in chosen]:
            chosen.append(("qix " + " ".join(options), options))
    return chosen


def finite(values):
    """The values that are numbers (not None, not NaN)."""
    return [value for value in values if value is not None and not math.isnan(value)]


def mean(values):
    """Mean of the finite values, None when there are none."""
    values = finite(values)
    return math.fsum(values) / len(values) if values else None


def summarize(rows, anchor=ANCHOR):
    """Per setting, in first-seen order: ODG means and worsts, hosts worse than the anchor (each version), ViSQOL drop."""
    anchor_odg = {version: {row["host"]: row[f"{version}_odg"] for row in rows if row["setting"] == anchor}
                  for version in ("basic", "advanced")}
    groups = {}
    for row in rows:
        groups.setdefault(row["setting"], []).append(row)
    summary = []
    for setting, group in groups.items():
        entry = {"setting": setting, "hosts": len(group)}
        for version in ("basic", "advanced"):
            scored = [row for row in group if finite([row[f"{version}_odg"]])]
            worst = min(scored, key=lambda row: row[f"{version}_odg"], default=None)
            entry[f"{version}_mean"] = mean(row[f"{version}_odg"] for row in scored)
            entry[f"{version}_worst"] = worst[f"{version}_odg"] if worst else None
            entry[f"{version}_worst_host"] = worst["host"] if worst else None
        # The basic version misjudges speech recorded at 16 kHz (README.md, validation):
        # the advanced version's count is given beside it.
        for version in ("basic", "advanced"):
            compared = [row for row in group if setting != anchor and row["host"] in anchor_odg[version]
                        and len(finite([row[f"{version}_odg"], anchor_odg[version][row["host"]]])) == 2]
            entry[f"{version}_compared"] = len(compared)
            entry[f"{version}_worse_than_anchor"] = [row["host"] for row in compared
                                                     if row[f"{version}_odg"] < anchor_odg[version][row["host"]]]
        drops = [row["visqol_identical"] - row["visqol"] for row in group
                 if len(finite([row.get("visqol"), row.get("visqol_identical")])) == 2]
        entry["visqol_drop_mean"] = mean(drops)
        entry["visqol_drop_worst"] = max(drops) if drops else None
        summary.append(entry)
    return summary


def shown(value, digits=2):
    """A figure for the tables: fixed decimals, '-' when absent, 'nan' when GstPEAQ gave none."""
    if value is None:
        return "-"
    if math.isnan(value):
        # BS.1387 averages the bandwidth variables over the frames whose reference bandwidth
        # passes 346 FFT bins (8.1 kHz); on a host band-limited to 8 kHz there may be none,
        # and the basic version's ODG is undefined.
        return "nan"
    return f"{value:.{digits}f}"


def row_table(rows, with_visqol):
    """The per-host table (markdown) as lines."""
    lines = ["| host | setting | seconds | basic ODG | advanced ODG | Total NMR (dB) | "
             + ("ViSQOL | " if with_visqol else "") + "SNR (dB) |",
             "|---|---|---:|---:|---:|---:|" + ("---:|" if with_visqol else "") + "---:|"]
    for row in rows:
        visqol = f"{shown(row.get('visqol'), 3)} | " if with_visqol else ""
        lines.append(f"| {row['host']} | {row['setting']} | {shown(row['seconds'], 1)} | {shown(row['basic_odg'])} | "
                     f"{shown(row['advanced_odg'])} | {shown(row['total_nmr_db'], 1)} | {visqol}{shown(row['snr_db'], 1)} |")
    return lines


def worse_cell(entry, version):
    """'k of n: hosts' for the hosts whose ODG is worse than the anchor's, '-' for the anchor itself."""
    if not entry[f"{version}_compared"]:
        return "-"
    worse = entry[f"{version}_worse_than_anchor"]
    return f"{len(worse)} of {entry[f'{version}_compared']}" + (": " + ", ".join(worse) if worse else "")


def summary_table(summary, with_visqol, anchor=ANCHOR):
    """The per-setting summary (markdown) as lines."""
    lines = [f"| setting | hosts | basic ODG mean | basic worst | advanced ODG mean | advanced worst | basic worse than {anchor} "
             f"| advanced worse than {anchor} |" + (" ViSQOL drop mean / worst |" if with_visqol else ""),
             "|---|---:|---:|---|---:|---|---|---|" + ("---:|" if with_visqol else "")]
    for entry in summary:
        visqol = f" {shown(entry['visqol_drop_mean'], 3)} / {shown(entry['visqol_drop_worst'], 3)} |" if with_visqol else ""
        lines.append(f"| {entry['setting']} | {entry['hosts']} | {shown(entry['basic_mean'])} | "
                     f"{shown(entry['basic_worst'])} ({entry['basic_worst_host'] or '-'}) | {shown(entry['advanced_mean'])} | "
                     f"{shown(entry['advanced_worst'])} ({entry['advanced_worst_host'] or '-'}) | "
                     f"{worse_cell(entry, 'basic')} | {worse_cell(entry, 'advanced')} |{visqol}")
    return lines


def excerpt_seconds(duration, seconds):
    """How much of a host the excerpt takes: `seconds`, or all of a shorter host."""
    return min(duration, seconds)


def make_excerpt(sox, host, out, seconds):
    """The host's first `seconds` as 48 kHz stereo float WAV (sox, very high quality resampling)."""
    run([sox, host, "-b", "32", "-e", "floating-point", out, "trim", "0", f"{seconds:.3f}",
         "channels", "2", "rate", "-v", str(RATE)])


def best_lag(reference, test, max_lag=MAX_LAG):
    """The shift (samples) that best lines `test` up with `reference`: test[n + lag] ~ reference[n]."""
    size = 1 << int(math.ceil(math.log2(len(reference) + len(test))))
    spectrum = np.fft.rfft(test, size) * np.conj(np.fft.rfft(reference, size))
    correlation = np.fft.irfft(spectrum, size)
    # Index k holds lag k, index size - k lag -k.
    candidates = np.concatenate((correlation[: max_lag + 1], correlation[size - max_lag:]))
    lags = np.concatenate((np.arange(max_lag + 1), np.arange(-max_lag, 0)))
    return int(lags[int(np.argmax(candidates))])


def align_to(reference_path, decoded_path, out):
    """Writes the decoded file lined up with the reference and cut or padded to its length; returns the shift."""
    reference, _ = soundfile.read(reference_path, dtype="float64", always_2d=True)
    decoded, _ = soundfile.read(decoded_path, dtype="float64", always_2d=True)
    window = min(len(reference), len(decoded), 10 * RATE)
    lag = best_lag(reference[:window].mean(axis=1), decoded[:window].mean(axis=1)) if window else 0
    shifted = decoded[lag:] if lag >= 0 else np.concatenate((np.zeros((-lag, decoded.shape[1])), decoded))
    aligned = np.zeros_like(reference)
    count = min(len(reference), len(shifted))
    aligned[:count, : shifted.shape[1]] = shifted[:count, : reference.shape[1]]
    soundfile.write(out, aligned.astype(np.float32), RATE, subtype="FLOAT")
    return lag


def snr_db(reference_path, test_path):
    """SNR (dB) of test - reference over all channels, full band."""
    reference, _ = soundfile.read(reference_path, dtype="float64", always_2d=True)
    test, _ = soundfile.read(test_path, dtype="float64", always_2d=True)
    count = min(len(reference), len(test))
    reference, delta = reference[:count], test[:count] - reference[:count]
    signal, noise = float(np.sum(reference * reference)), float(np.sum(delta * delta))
    if noise == 0:
        return math.inf
    return 10 * math.log10(signal / noise) if signal > 0 else -math.inf


def qix_mark(tools, original, out, options, key):
    """Marks the excerpt with `qix embed`; returns the level its report line gives ('watermark ... dB under the audio')."""
    done = run([tools["qix"], "embed", original, out, "--message", MESSAGE, "--key", key] + options)
    level = re.search(r"watermark [-0-9.]+ dB under the audio", done.stderr)
    return level.group(0) if level else done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""


def mp3_roundtrip(tools, original, out):
    """Codes the excerpt as MP3 at 128 kbit/s and back, aligned with the original; returns the shift."""
    base = os.path.splitext(out)[0]
    quiet = [tools["ffmpeg"], "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
    run(quiet + ["-i", original, "-c:a", "libmp3lame", "-b:a", "128k", base + ".mp3"])
    run(quiet + ["-i", base + ".mp3", "-c:a", "pcm_f32le", "-ar", str(RATE), "-ac", "2", base + ".decoded.wav"])
    return align_to(original, base + ".decoded.wav", out)


def audiowmark_mark(tools, original, out):
    """Marks the excerpt with audiowmark's defaults (128-bit message, its default key); returns the shift."""
    base = os.path.splitext(out)[0]
    run([tools["audiowmark"], "add", "--quiet", original, base + ".raw.wav", AUDIOWMARK_MESSAGE])
    return align_to(original, base + ".raw.wav", out)


def mono48k(sox, path):
    """The file mixed to mono at 48 kHz as float WAV (ViSQOL's audio-mode input): its path."""
    out = os.path.splitext(path)[0] + ".mono.wav"
    run([sox, path, "-b", "32", "-e", "floating-point", "-c", "1", out, "remix", "-"])
    return out


def visqol_audio():
    """A ViSQOL v3 measure in audio mode (48 kHz); raises ToolError naming the missing package."""
    try:
        from visqol import VisqolApi
    except ImportError:
        raise ToolError("--visqol needs visqol-python: pip install visqol-python (see the module's doc)") from None
    api = VisqolApi()
    api.create(mode="audio")
    lock = threading.Lock()

    def measure(reference, degraded):
        """MOS-LQO of `degraded` against `reference` (one at a time: the API keeps state)."""
        with lock:
            return float(api.measure(reference, degraded).moslqo)
    return measure


def find_tools(args):
    """The tools the run needs, as {name: path}; raises ToolError naming the first one missing."""
    tools = {}
    for name in ("sox", "ffmpeg", "gst-launch-1.0"):
        tools[name.replace("-1.0", "")] = shutil.which(name)
        if not tools[name.replace("-1.0", "")]:
            package = {"sox": "sox", "ffmpeg": "ffmpeg", "gst-launch-1.0": "gstreamer1.0-tools"}[name]
            raise ToolError(f"{name}: not found; apt-get install -y {package}")
    peaq = args.peaq or shutil.which("peaq")
    if not peaq or not os.path.exists(peaq):
        raise ToolError(f"GstPEAQ: {peaq or 'peaq'} not found; build it (Benchmarks/quality/README.md) and pass --peaq")
    tools["plugins"] = plugin_folder(peaq)
    if tools["plugins"] is None and run_quietly(["gst-inspect-1.0", "peaq"]) != 0:
        raise ToolError(f"GstPEAQ: no libgstpeaq.so beside {peaq} and no 'peaq' element installed; pass its build folder")
    if "libmp3lame" not in run([tools["ffmpeg"], "-hide_banner", "-encoders"]).stdout:
        raise ToolError("ffmpeg: no libmp3lame encoder (Debian's ffmpeg has it)")
    tools["qix"] = args.qix or default_qix()
    if not os.access(tools["qix"], os.X_OK):
        raise ToolError(f"{tools['qix']}: not found; build it with swift build -c release --product qix")
    if args.audiowmark:
        if not os.access(args.audiowmark, os.X_OK):
            raise ToolError(f"audiowmark: {args.audiowmark} not found or not executable")
        tools["audiowmark"] = args.audiowmark
    return tools


def run_quietly(command):
    """A command's exit status, its output dropped; 127 when it does not exist."""
    try:
        return subprocess.run(command, capture_output=True).returncode
    except FileNotFoundError:
        return 127


def default_qix():
    """The release qix of this checkout: `swift build -c release --show-bin-path`/qix."""
    if not shutil.which("swift"):
        raise ToolError("swift: not found; pass --qix PATH")
    done = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise ToolError(f"swift build --show-bin-path failed in {REPO}; pass --qix PATH")
    return os.path.join(done.stdout.strip(), "qix")


def key_file(tools, key, directory):
    """The key file to mark with: --key's file or hex digits, else a new one from `qix keygen`."""
    path = os.path.join(directory, "peaq.key")
    if key and os.path.isfile(key):
        return key
    if key:
        if not re.fullmatch(r"[0-9a-fA-F]{32}", key):
            raise ToolError(f"--key: {key} is neither a key file nor 32 hex digits")
        with open(path, "w") as file:
            file.write(key + "\n")
        return path
    run([tools["qix"], "keygen", path])
    return path


def measure(tools, host, number, variant, key, visqol):
    """One row: the host's excerpt marked or coded as `variant` (the run's `number`th), scored against the excerpt."""
    label, kind, options = variant
    original = host["wav"]
    test = os.path.join(os.path.dirname(original), f"{host['tag']}.v{number}.wav")
    note = ""
    if kind == "qix":
        note = qix_mark(tools, original, test, options, key)
    else:
        lag = mp3_roundtrip(tools, original, test) if kind == "mp3" else audiowmark_mark(tools, original, test)
        note = f"aligned (shift {lag} samples)"
    basic = measure_peaq(tools, original, test, advanced=False)
    advanced = measure_peaq(tools, original, test, advanced=True)
    row = {"host": host["label"], "path": host["path"], "setting": label, "seconds": host["seconds"],
           "basic_odg": basic["odg"], "advanced_odg": advanced["odg"], "total_nmr_db": basic.get("Total NMRB"),
           "snr_db": snr_db(original, test), "basic_movs": basic, "advanced_movs": advanced}
    if visqol:
        row["visqol"] = visqol(host["mono"], mono48k(tools["sox"], test))
        row["visqol_identical"] = host["visqol_identical"]
    progress(f"{host['label']}: {label}: basic {basic['odg']:.2f}, advanced {advanced['odg']:.2f}"
             + (f", ViSQOL {row['visqol']:.3f}" if visqol else "") + (f" ({note})" if note else ""))
    return row


def main():
    """Parses the options, measures every host and setting, prints the tables or JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peaq", help="GstPEAQ's peaq binary, install prefix or build folder (default: peaq on PATH)")
    parser.add_argument("--qix", help="the qix binary (default: swift build -c release --show-bin-path, /qix)")
    parser.add_argument("--embed-options", action="append", default=[], metavar="OPTIONS",
                        help="one more qix setting, e.g. '--strength 0.5' (repeatable; the default is always measured; "
                             "a one-word setting needs the = form: --embed-options=--flag)")
    parser.add_argument("--audiowmark", help="audiowmark binary: adds its default mark as an anchor row")
    parser.add_argument("--hosts", nargs="+", metavar="FILE",
                        help="host files (default: corpus/clips/a0*.flac and, with corpus/bench/, 6 of its files)")
    parser.add_argument("--seconds", type=float, default=20.0, help="excerpt length, 15 to 20 s (default: %(default)s)")
    parser.add_argument("--key", help="key file or 32 hex digits (default: a new key from qix keygen)")
    parser.add_argument("--visqol", action="store_true", help="also ViSQOL (audio mode, 48 kHz mono; slow)")
    parser.add_argument("--json", action="store_true", help="one JSON object per host and setting instead of tables")
    parser.add_argument("--jobs", type=int, default=1, help="hosts and settings measured at once (default: %(default)s)")
    args = parser.parse_args()
    if not 15 <= args.seconds <= 20:
        parser.error("--seconds: PEAQ's items are 15 to 20 s long")
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
    # A stopped run still removes its temporary folder (some 30 MB of WAV per host).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("peaq_check: stopped"))
    if MISSING_MODULE:
        sys.exit(f"peaq_check: {MISSING_MODULE} is missing: pip install numpy soundfile (see the module's doc)")
    try:
        tools = find_tools(args)
        if args.hosts:
            paths, missing = args.hosts, [path for path in args.hosts if not os.path.isfile(path)]
            if missing:
                raise ToolError(f"{missing[0]}: no such host file")
        else:
            paths, missing = default_hosts(REPO)
            for path in missing:
                progress(f"{os.path.relpath(path, REPO)}: not in corpus/bench/, left out")
        if not paths:
            raise ToolError("no hosts: corpus/clips/a0*.flac is empty; pass --hosts")
        visqol = visqol_audio() if args.visqol else None
        variants = [(label, "qix", options) for label, options in settings(args.embed_options)]
        variants.append((ANCHOR, "mp3", []))
        if args.audiowmark:
            variants.append((AUDIOWMARK, "audiowmark", []))
        with tempfile.TemporaryDirectory(prefix="peaq_check.") as directory:
            key = key_file(tools, args.key, directory)
            hosts = []
            for index, path in enumerate(paths):
                seconds = excerpt_seconds(soundfile.info(path).duration, args.seconds)
                host = {"path": path, "label": host_label(path), "tag": f"h{index:02d}", "seconds": seconds}
                host["wav"] = os.path.join(directory, host["tag"] + ".wav")
                make_excerpt(tools["sox"], path, host["wav"], seconds)
                if visqol:
                    host["mono"] = mono48k(tools["sox"], host["wav"])
                    host["visqol_identical"] = visqol(host["mono"], host["mono"])
                hosts.append(host)
            progress(f"{len(hosts)} host(s), {len(variants)} setting(s) with the anchors, {args.jobs} at once")
            pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
            futures = [pool.submit(measure, tools, host, number, variant, key, visqol)
                       for host in hosts for number, variant in enumerate(variants)]
            try:
                rows = [future.result() for future in futures]
            finally:
                # On a failure, what has not started is dropped: the first error is the one to see.
                pool.shutdown(wait=True, cancel_futures=True)
    except ToolError as error:
        sys.exit(f"peaq_check: {error}")
    if args.json:
        for row in rows:
            print(json.dumps(row, allow_nan=True))
        return
    print("\n".join(row_table(rows, bool(visqol))))
    print()
    print("\n".join(summary_table(summarize(rows), bool(visqol))))


if __name__ == "__main__":
    main()
