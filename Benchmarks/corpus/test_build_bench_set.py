#!/usr/bin/env python3
"""Self-test for build_bench_set.py: the pure pieces, on tiny synthetic WAVs made
with sox in a temp dir. Run: python3 Benchmarks/corpus/test_build_bench_set.py"""

from __future__ import annotations

import array
import json
import math
import subprocess
import sys
import tempfile
import unittest
from unittest import mock
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_bench_set as bb  # noqa: E402
import corpus_audio as audio  # noqa: E402
import corpus_plan as plan  # noqa: E402

RATE = 8000


def sox(*args: str) -> None:
    subprocess.run(["sox", "-D", "-R", "-V1", *args], check=True)


def tone(path: Path, secs: float, freq: int = 440, ch: int = 1) -> Path:
    """A -6 dBFS sine of `secs` seconds."""
    sox("-n", "-r", str(RATE), "-c", str(ch), "-b", "16", str(path),
        "synth", str(secs), "sine", str(freq), "gain", "-6")
    return path


def silence(path: Path, secs: float, ch: int = 1) -> Path:
    sox("-n", "-r", str(RATE), "-c", str(ch), "-b", "16", str(path), "trim", "0", str(secs))
    return path


def item(**kw) -> plan.Item:
    base = {"name": "t", "package": "p", "license": "L", "glob": "*.wav", "mode": "excerpt",
            "len": 10}
    base.update(kw)
    return plan.parse_manifest({"items": [base]})[0]


def decode_flac(path: Path) -> array.array:
    out = subprocess.run(["sox", "-D", "-R", "-V1", str(path), "-t", "raw", "-e", "signed",
                          "-b", "16", "-"], check=True, capture_output=True).stdout
    return array.array("h", out)


class ManifestParsing(unittest.TestCase):
    def test_real_manifest_parses(self):
        path = bb.default_manifest()
        if path is None:
            self.skipTest("shared/corpus/manifest_bench.json not beside the repo")
        items = plan.load_manifest(path)
        self.assertGreater(len(items), 5)
        self.assertEqual(len({i.name for i in items}), len(items))
        sect = next(i for i in items if i.name == "music_rock_sectoid")
        self.assertEqual(sect.stems, ("song.ogg", "guitar.ogg"))
        self.assertEqual(sect.per_file, 2)
        midi = next(i for i in items if i.midi_sf)
        self.assertEqual(midi.midi_sf[0], "fluid-soundfont-gm")

    def test_defaults_and_types(self):
        it = item(len=15, gap=0.3, sr=16000, mode="concat")
        self.assertEqual((it.len, it.gap, it.sr, it.ch, it.per_file, it.max_clips),
                         (15.0, 0.3, 16000, None, 1, None))

    def test_bad_entries_are_rejected(self):
        bad = [
            {"items": "nope"},
            {"items": [{"name": "a", "package": "p", "license": "L", "glob": "*", "len": 3}]},
            {"items": [{"name": "a", "package": "p", "license": "L", "glob": "*", "len": 3,
                        "mode": "shuffle"}]},
            {"items": [{"name": "a", "package": "p", "license": "L", "glob": "*", "len": "3",
                        "mode": "concat"}]},
            {"items": [{"name": "a b", "package": "p", "license": "L", "glob": "*", "len": 3,
                        "mode": "concat"}]},
            {"items": [{"name": "a", "package": "p", "license": "L", "glob": "*", "len": 3,
                        "mode": "concat", "midi_sf": ["only-one"]}]},
        ]
        for data in bad:
            with self.assertRaises(ValueError, msg=json.dumps(data)):
                plan.parse_manifest(data)

    def test_duplicate_names_rejected(self):
        e = {"name": "a", "package": "p", "license": "L", "glob": "*", "len": 3, "mode": "concat"}
        with self.assertRaises(ValueError):
            plan.parse_manifest({"items": [e, dict(e)]})

    def test_fingerprint_follows_recipe(self):
        self.assertEqual(item(len=10).fingerprint(), item(len=10).fingerprint())
        self.assertNotEqual(item(len=10).fingerprint(), item(len=11).fingerprint())


class SourceSelection(unittest.TestCase):
    def test_glob_exclude_and_cap(self):
        with tempfile.TemporaryDirectory() as d:
            root = Path(d)
            for rel in ["a/x/beep1.wav", "a/x/hello.wav", "a/y/world.wav", "a/y/tone-2.wav",
                        "a/y/notes.txt", "a/z/deep/zeta.wav", "B.wav"]:
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_bytes(b"")
            it = item(glob="a/**/*.wav", exclude=["beep", "tone"])
            self.assertEqual(plan.select_sources(root, it),
                             ["a/x/hello.wav", "a/y/world.wav", "a/z/deep/zeta.wav"])
            it = item(glob="/a/*/*.wav", exclude=["beep"], max_clips=2)
            self.assertEqual(plan.select_sources(root, it), ["a/x/hello.wav", "a/y/tone-2.wav"])
            # Concat items keep every source: there max_clips caps the output chunks.
            it = item(glob="/a/*/*.wav", exclude=["beep"], max_clips=2, mode="concat")
            self.assertEqual(len(plan.select_sources(root, it)), 3)

    def test_exclude_matches_file_name_not_folder(self):
        with tempfile.TemporaryDirectory() as d:
            root = Path(d)
            (root / "silence").mkdir()
            (root / "silence" / "speech.wav").write_bytes(b"")
            self.assertEqual(plan.select_sources(root, item(glob="*/*.wav", exclude=["silence"])),
                             ["silence/speech.wav"])


class ExcerptWindows(unittest.TestCase):
    def test_pure_choice_skips_silent_window(self):
        silent = {300: 1.0}  # the 30 % window is silent
        starts = plan.choose_windows(1000, 100, 1, lambda s: silent.get(s, 0.0))
        self.assertEqual(starts, [600])
        starts = plan.choose_windows(1000, 100, 2, lambda s: silent.get(s, 0.0))
        self.assertEqual(starts, [600, 100])

    def test_only_needed_windows_are_scored(self):
        calls = []
        starts = plan.choose_windows(1000, 100, 1, lambda s: calls.append(s) or 0.0)
        self.assertEqual((starts, calls), ([300], [300]))

    def test_short_track_and_all_silent(self):
        self.assertEqual(plan.choose_windows(50, 100, 2, lambda s: 0.0), [0])
        # Everything silent: the least silent candidate wins.
        scores = {300: 0.9, 600: 0.7, 100: 0.95}
        starts = plan.choose_windows(1000, 100, 1, lambda s: scores.get(s, 1.0))
        self.assertEqual(starts, [600])

    def test_windows_never_overlap_and_fit(self):
        starts = plan.choose_windows(250, 100, 3, lambda s: 0.0)
        self.assertTrue(all(0 <= s <= 150 for s in starts))
        for a in starts:
            for b in starts:
                self.assertTrue(a == b or abs(a - b) >= 100)

    def test_silent_window_in_real_audio(self):
        # 100 s track: tone, 14 s of silence covering the 30 % window, tone.
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            parts = [tone(d / "a.wav", 28), silence(d / "b.wav", 14), tone(d / "c.wav", 58, 660)]
            sox(*map(str, parts), str(d / "track.wav"))
            track = audio.open_track([d / "track.wav"], d)
            self.assertEqual((track.rate, track.channels, track.frames), (RATE, 1, 100 * RATE))
            win = 10 * RATE
            frac = lambda s: plan.silent_fraction(  # noqa: E731
                audio.decode_window(track, RATE, 1, s, win), 1, RATE)
            self.assertEqual(frac(30 * RATE), 1.0)
            self.assertEqual(frac(60 * RATE), 0.0)
            self.assertEqual(plan.choose_windows(track.frames, win, 1, frac), [60 * RATE])

    def test_decode_window_is_exact_length_after_resampling(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            track = audio.open_track([tone(d / "a.wav", 3, ch=2)], d)
            a = audio.decode_window(track, 22050, 1, RATE, RATE)  # 1 s from 1 s, mono 22.05k
            self.assertEqual(len(a), 22050)
            self.assertGreater(max(a), 0.4)

    def test_excerpt_task_writes_named_flac_with_provenance(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            root, out = d / "pkg", d / "out"
            (root / "songs" / "Big Song").mkdir(parents=True)
            (out / "t").mkdir(parents=True)
            tone(root / "songs" / "Big Song" / "song.wav", 40, 440, 2)
            tone(root / "songs" / "Big Song" / "guitar.wav", 40, 880, 2)
            it = item(glob="songs/*/song.wav", stems=["song.wav", "guitar.wav"], ch=2, sr=16000)
            p = bb.Prepared(it, root, d, out / "t", "1.0", plan.select_sources(root, it))
            recs = bb.excerpt_task(p, 0, p.sources[0])
            self.assertEqual(len(recs), 1)
            r = recs[0]
            self.assertEqual(r["path"], "t/01_big-song_0012s.flac")  # 30 % of 40 s
            self.assertEqual((r["rate"], r["channels"], r["seconds"]), (16000, 2, 10.0))
            self.assertEqual([s["file"] for s in r["sources"]],
                             ["songs/Big Song/song.wav", "songs/Big Song/guitar.wav"])
            flac = out / r["path"]
            self.assertEqual(audio.sha256_file(flac), r["sha256"])
            self.assertEqual(len(decode_flac(flac)), 10 * 16000 * 2)


class Levels(unittest.TestCase):
    def test_normalise_peak(self):
        a = array.array("f", [0.0, 0.1, -0.25, 0.2])
        b, gain = audio.normalise_peak(a, -1.0)
        self.assertAlmostEqual(gain, round(-1.0 - 20 * math.log10(0.25), 2))
        self.assertAlmostEqual(max(map(abs, b)), 10 ** (-1 / 20), places=3)
        self.assertEqual(audio.normalise_peak(array.array("f", [0.0] * 4), -1.0)[1], 0.0)


class ConcatAndChunks(unittest.TestCase):
    def test_plan(self):
        chunks = plan.plan_chunks([10, 20, 5], gap=2, chunk=12)
        # joined: 0-10 src0, 12-32 src1, 34-39 src2; 39 frames -> 3 chunks, 3-frame tail dropped
        self.assertEqual([(c.start, c.length) for c in chunks], [(0, 12), (12, 12), (24, 12)])
        S = plan.Segment
        self.assertEqual(chunks[0].segments, (S(0, 0, 10, 0),))
        self.assertEqual(chunks[1].segments, (S(1, 0, 12, 0),))
        self.assertEqual(chunks[2].segments, (S(1, 12, 8, 0), S(2, 0, 2, 10)))

    def test_tail_rules(self):
        self.assertEqual([c.length for c in plan.plan_chunks([18], 0, 12)], [12, 6])  # half kept
        self.assertEqual([c.length for c in plan.plan_chunks([17], 0, 12)], [12])  # < half dropped
        self.assertEqual([c.length for c in plan.plan_chunks([5], 0, 12)], [5])  # only chunk kept
        self.assertEqual(plan.plan_chunks([0, 0], 3, 12), [])
        # zero-length sources get no gap
        self.assertEqual([c.length for c in plan.plan_chunks([4, 0, 4], 2, 100)], [10])

    def test_concat_task_audio(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            root, out = d / "pkg", d / "out"
            (root / "v").mkdir(parents=True)
            (out / "s").mkdir(parents=True)
            tone(root / "v" / "one.wav", 1.0, 440)
            tone(root / "v" / "two.wav", 1.0, 660, ch=2)  # stereo source mixed to mono
            it = item(name="s", glob="v/*.wav", mode="concat", gap=0.5, len=1, sr=RATE)
            p = bb.Prepared(it, root, d, out / "s", "1.0", plan.select_sources(root, it))
            recs = bb.concat_task(p)
            self.assertEqual([r["seconds"] for r in recs], [1.0, 1.0, 0.5])
            second = decode_flac(out / recs[1]["path"])
            self.assertEqual(len(second), RATE)
            self.assertEqual(max(map(abs, second[: RATE // 2])), 0)  # the gap
            self.assertGreater(max(map(abs, second[RATE // 2:])), 8000)  # second tone
            self.assertEqual(recs[1]["sources"],
                             [{"file": "v/two.wav", "start": 0.0, "length": 0.5, "at": 0.5}])

    def test_flac_is_bit_identical_on_rewrite(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            data = array.array("f", [((i * 37) % 200 - 100) / 300 for i in range(RATE)]).tobytes()
            a = audio.write_flac(data, RATE, 1, d / "a.flac")
            b = audio.write_flac(data, RATE, 1, d / "b.flac")
            self.assertEqual(a, b)
            self.assertFalse((d / "a.flac.partial").exists())


class Idempotency(unittest.TestCase):
    def test_up_to_date_needs_same_recipe_and_hashes(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d)
            (out / "t").mkdir()
            (out / "t" / "a.flac").write_bytes(b"abc")
            it = item()
            entry = {"fingerprint": it.fingerprint(), "version": "1",
                     "files": [{"path": "t/a.flac", "sha256": audio.sha256_file(out / "t/a.flac")}]}
            with mock.patch.object(bb, "candidate_version", return_value="2"):
                self.assertFalse(bb.up_to_date(it, entry, out))  # apt would fetch a newer one
            with mock.patch.object(bb, "candidate_version", return_value="1"):
                self.assertTrue(bb.up_to_date(it, entry, out))
            self.enterContext(mock.patch.object(bb, "candidate_version", return_value=None))
            self.assertTrue(bb.up_to_date(it, entry, out))
            self.assertFalse(bb.up_to_date(item(package=it.package, len=11), entry, out))
            self.assertFalse(bb.up_to_date(it, None, out))
            self.assertFalse(bb.up_to_date(it, {**entry, "files": [{"path": "t/a.flac"}]}, out))
            (out / "t" / "a.flac").write_bytes(b"abd")
            self.assertFalse(bb.up_to_date(it, entry, out))
            (out / "t" / "a.flac").unlink()
            self.assertFalse(bb.up_to_date(it, entry, out))


def main() -> int:
    """Run the suite and close with a plain 'N passed, N failed' line for CI logs."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    bad = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - bad - skipped
    print(f"{passed} passed, {bad} failed" + (f", {skipped} skipped" if skipped else ""))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
