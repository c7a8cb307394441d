#!/usr/bin/env python3
"""Unit tests of the PEAQ check's bookkeeping: GstPEAQ's output, the summary arithmetic, the
host selection and the pipeline it runs (no audio, no GstPEAQ needed;
`python3 Benchmarks/quality/test_peaq_check.py`)."""

import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peaq_check  # noqa: E402
import peaq_explain  # noqa: E402

# GstPEAQ's element printing its basic version's variables (a 15 s host against itself).
BASIC_OUTPUT = """   BandwidthRefB: 917.088905
  BandwidthTestB: 917.088905
      Total NMRB: -138.047329
    WinModDiff1B: 0.000000
            ADBB: 0.000000
            EHSB: 0.000000
    AvgModDiff1B: 0.000000
    AvgModDiff2B: 0.000000
   RmsNoiseLoudB: 0.000000
           MFPDB: 0.000000
  RelDistFramesB: 0.000000
Objective Difference Grade: 0.216
"""

# The advanced version's, and the `peaq` command's two lines.
ADVANCED_OUTPUT = """RmsModDiffA = 1.250000
RmsNoiseLoudAsymA = 0.031000
SegmentalNMRB = -153.359174
EHSB = -nan
AvgLinDistA = 0.000007
Objective Difference Grade: -0.212
"""
COMMAND_OUTPUT = "Objective Difference Grade: -3.517\nDistortion Index: -2.089\n"


def row(host, setting, basic, advanced=0.0, visqol=None, identical=None):
    """A measured row as peaq_check.measure makes it (figures only)."""
    return {"host": host, "setting": setting, "basic_odg": basic, "advanced_odg": advanced,
            "visqol": visqol, "visqol_identical": identical}


class ParsingTests(unittest.TestCase):
    def test_basic_output_gives_odg_and_total_nmr(self):
        values = peaq_check.parse_peaq_output(BASIC_OUTPUT)
        self.assertAlmostEqual(values["odg"], 0.216)
        self.assertAlmostEqual(values["Total NMRB"], -138.047329)
        self.assertAlmostEqual(values["BandwidthRefB"], 917.088905)
        self.assertEqual(len(values), 12)

    def test_advanced_output_with_equals_signs_and_nan(self):
        values = peaq_check.parse_peaq_output(ADVANCED_OUTPUT)
        self.assertAlmostEqual(values["odg"], -0.212)
        self.assertAlmostEqual(values["SegmentalNMRB"], -153.359174)
        self.assertAlmostEqual(values["RmsModDiffA"], 1.25)
        self.assertTrue(math.isnan(values["EHSB"]))

    def test_command_output_and_missing_odg(self):
        values = peaq_check.parse_peaq_output(COMMAND_OUTPUT)
        self.assertEqual((values["odg"], values["di"]), (-3.517, -2.089))
        with self.assertRaises(ValueError):
            peaq_check.parse_peaq_output("Error: peaq element could not be instantiated\n")
        with self.assertRaises(ValueError):
            peaq_check.parse_peaq_output(BASIC_OUTPUT.replace("Objective Difference Grade: 0.216\n", ""))

    def test_pipeline_feeds_reference_and_test_pads(self):
        command = peaq_check.peaq_command("gst-launch-1.0", "/t/ref.wav", "/t/test.wav", advanced=True)
        text = " ".join(command)
        self.assertIn("location=/t/ref.wav ! wavparse ! audioconvert ! audioresample ! peaq.ref", text)
        self.assertIn("location=/t/test.wav ! wavparse ! audioconvert ! audioresample ! peaq.test", text)
        self.assertEqual(command[-3:], ["peaq", "name=peaq", "advanced=true"])
        self.assertEqual(peaq_check.peaq_command("g", "a", "b", advanced=False)[-1], "advanced=false")


class SummaryTests(unittest.TestCase):
    def rows(self):
        """Three hosts, two qix settings and the anchor; host c has no anchor row."""
        return [
            row("a", "qix default", -0.10, -0.20, 4.60, 4.70), row("a", "MP3-128", -0.50, -0.60, 4.50, 4.70),
            row("b", "qix default", -0.90, -0.80, 4.40, 4.72), row("b", "MP3-128", -0.80, -0.70, 4.60, 4.72),
            row("c", "qix default", -0.20, float("nan")),
            row("a", "qix --strength 0.5", 0.10, 0.05), row("b", "qix --strength 0.5", -0.30, -0.10),
        ]

    def test_means_and_worsts(self):
        summary = {entry["setting"]: entry for entry in peaq_check.summarize(self.rows())}
        self.assertEqual(list(summary), ["qix default", "MP3-128", "qix --strength 0.5"])
        default = summary["qix default"]
        self.assertEqual(default["hosts"], 3)
        self.assertAlmostEqual(default["basic_mean"], -0.4)
        self.assertEqual((default["basic_worst"], default["basic_worst_host"]), (-0.9, "b"))
        # The NaN of host c is left out of the advanced mean, not counted as 0.
        self.assertAlmostEqual(default["advanced_mean"], -0.5)
        self.assertEqual((default["advanced_worst"], default["advanced_worst_host"]), (-0.8, "b"))

    def test_hosts_worse_than_the_anchor(self):
        summary = {entry["setting"]: entry for entry in peaq_check.summarize(self.rows())}
        self.assertEqual(summary["qix default"]["basic_worse_than_anchor"], ["b"])
        self.assertEqual(summary["qix default"]["basic_compared"], 2)
        self.assertEqual(summary["qix default"]["advanced_worse_than_anchor"], ["b"])
        # Host c's advanced ODG is NaN: not compared, whatever the anchor says.
        self.assertEqual(summary["qix default"]["advanced_compared"], 2)
        self.assertEqual(summary["qix --strength 0.5"]["basic_worse_than_anchor"], [])
        self.assertEqual(summary["qix --strength 0.5"]["advanced_worse_than_anchor"], [])
        self.assertEqual(summary["MP3-128"]["basic_worse_than_anchor"], [])
        self.assertEqual(summary["MP3-128"]["basic_compared"], 0)

    def test_visqol_drop(self):
        summary = {entry["setting"]: entry for entry in peaq_check.summarize(self.rows())}
        self.assertAlmostEqual(summary["qix default"]["visqol_drop_mean"], (0.10 + 0.32) / 2)
        self.assertAlmostEqual(summary["qix default"]["visqol_drop_worst"], 0.32)
        self.assertIsNone(summary["qix --strength 0.5"]["visqol_drop_mean"])

    def test_tables_show_the_figures(self):
        rows = self.rows()
        for one in rows:
            one.update(seconds=20.0, total_nmr_db=-12.34, snr_db=40.0)
        lines = peaq_check.row_table(rows, with_visqol=True)
        self.assertEqual(len(lines), 2 + len(rows))
        self.assertIn("| a | qix default | 20.0 | -0.10 | -0.20 | -12.3 | 4.600 | 40.0 |", lines)
        summary = peaq_check.summary_table(peaq_check.summarize(rows), with_visqol=False)
        self.assertIn("| qix default | 3 | -0.40 | -0.90 (b) | -0.50 | -0.80 (b) | 1 of 2: b | 1 of 2: b |", summary)
        self.assertIn("| qix --strength 0.5 | 2 | -0.10 | -0.30 (b) | -0.03 | -0.10 (b) | 0 of 2 | 0 of 2 |", summary)
        self.assertIn("| MP3-128 | 2 | -0.65 | -0.80 (b) | -0.65 | -0.70 (b) | - | - |", summary)


class HostTests(unittest.TestCase):
    def make(self, root, relative):
        """An empty file at root/relative."""
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").close()
        return path

    def test_corpus_hosts_only_without_bench(self):
        with tempfile.TemporaryDirectory() as root:
            for name in ("a02_music_x.flac", "a01_speech_y.flac", "r01_rir_z.flac", "a03_crowd.wav"):
                self.make(root, os.path.join("corpus", "clips", name))
            hosts, missing = peaq_check.default_hosts(root)
            self.assertEqual([os.path.basename(path) for path in hosts], ["a01_speech_y.flac", "a02_music_x.flac"])
            self.assertEqual(missing, [])

    def test_bench_files_follow_when_bench_exists(self):
        with tempfile.TemporaryDirectory() as root:
            self.make(root, os.path.join("corpus", "clips", "a01_music_x.flac"))
            for relative in peaq_check.BENCH_HOSTS[1:]:
                self.make(root, relative)
            hosts, missing = peaq_check.default_hosts(root)
            self.assertEqual(len(hosts), 1 + len(peaq_check.BENCH_HOSTS) - 1)
            self.assertEqual(missing, [os.path.join(root, peaq_check.BENCH_HOSTS[0])])
            self.assertEqual(hosts[1:], [os.path.join(root, relative) for relative in peaq_check.BENCH_HOSTS[1:]])

    def test_fixed_bench_set_is_six_files_of_music_and_speech(self):
        self.assertEqual(len(peaq_check.BENCH_HOSTS), 6)
        kinds = {relative.split("/")[2].split("_")[0] for relative in peaq_check.BENCH_HOSTS}
        self.assertEqual(kinds, {"music", "speech"})

    def test_labels(self):
        self.assertEqual(peaq_check.host_label("corpus/clips/a04_speech_en-female_x.flac"), "a04 speech")
        self.assertEqual(peaq_check.host_label("corpus/bench/speech_cs_dialogue_fillets/speech_cs_dialogue_fillets_002.flac"),
                         "speech_cs_dialogue_fillets/002")
        self.assertEqual(peaq_check.host_label("corpus/bench/music_rock_sectoid/03_song_12.5s.flac"), "music_rock_sectoid/03")

    def test_excerpt_length(self):
        self.assertEqual(peaq_check.excerpt_seconds(24.7, 20), 20)
        self.assertEqual(peaq_check.excerpt_seconds(10.03, 20), 10.03)

    def test_settings_always_start_with_the_default(self):
        self.assertEqual(peaq_check.settings([]), [("qix default", [])])
        chosen = peaq_check.settings(["--strength 0.5", "--profile venue", "--strength  0.5", ""])
        self.assertEqual(chosen, [("qix default", []), ("qix --strength 0.5", ["--strength", "0.5"]),
                                  ("qix --profile venue", ["--profile", "venue"])])

    def test_plugin_folder_in_build_tree_and_install_prefix(self):
        with tempfile.TemporaryDirectory() as root:
            self.make(root, "build/src/.libs/libgstpeaq.so")
            self.make(root, "build/src/peaq")
            self.make(root, "prefix/lib/gstreamer-1.0/libgstpeaq.so")
            self.make(root, "prefix/bin/peaq")
            self.assertEqual(peaq_check.plugin_folder(os.path.join(root, "build")), os.path.join(root, "build/src/.libs"))
            self.assertEqual(peaq_check.plugin_folder(os.path.join(root, "build/src/peaq")), os.path.join(root, "build/src/.libs"))
            self.assertEqual(peaq_check.plugin_folder(os.path.join(root, "prefix/bin/peaq")),
                             os.path.join(root, "prefix/lib/gstreamer-1.0"))
            self.assertIsNone(peaq_check.plugin_folder(root))


class AlignmentTests(unittest.TestCase):
    def test_best_lag_finds_a_known_shift(self):
        if peaq_check.np is None:
            self.skipTest("numpy is not installed")
        noise = peaq_check.np.random.default_rng(7).standard_normal(20000)
        self.assertEqual(peaq_check.best_lag(noise[3000:13000], noise[3000 - 1105:13000 - 1105], 2000), 1105)
        self.assertEqual(peaq_check.best_lag(noise[3000:13000], noise[3000 + 529:13000 + 529], 2000), -529)
        self.assertEqual(peaq_check.best_lag(noise[:5000], noise[:5000], 100), 0)



class ExplainTests(unittest.TestCase):
    """peaq_explain.py: the standard's network, and each MOV's cost against the anchor."""

    # GstPEAQ's basic MOVs of a marked rock host (format 3, level 0.6) and of its MP3-128.
    MARKED = [902.458037, 902.458037, -19.44, 4.37, -1.67, 0.24, 4.37, 7.30, 0.10, 0.99, 0.0]
    MP3 = [844.588905, 710.780939, -11.748466, 11.890088, 1.319729, 0.229556, 11.889296, 20.278684,
           0.233282, 1.0, 0.034139]

    def test_network_matches_gstpeaq(self):
        # GstPEAQ printed ODG -0.819 for these MOVs (the MP3-128 row of a01).
        self.assertAlmostEqual(peaq_explain.basic_odg(self.MP3), -0.819, places=3)

    def test_identical_movs_cost_nothing(self):
        odg, changes = peaq_explain.attribution(self.MP3, self.MP3)
        self.assertAlmostEqual(odg, -0.819, places=3)
        self.assertTrue(all(change == 0 for change in changes.values()))

    def test_anchor_noise_costs_the_mark(self):
        # The anchor's larger noise-to-mask ratio and distorted blocks would cost the mark.
        _, changes = peaq_explain.attribution(self.MARKED, self.MP3)
        self.assertLess(changes["Total NMRB"], -0.05)
        self.assertLess(changes["ADBB"], -0.2)
        self.assertNotIn("BandwidthRefB", changes)

    def test_report_needs_the_anchor(self):
        rows = [{"host": "a01", "setting": "qix default", "basic_movs": dict(zip(peaq_explain.MOVS, self.MARKED))}]
        self.assertEqual(peaq_explain.explain(rows, "MP3-128"), [])
        rows.append({"host": "a01", "setting": "MP3-128", "basic_movs": dict(zip(peaq_explain.MOVS, self.MP3))})
        lines = peaq_explain.explain(rows, "MP3-128")
        self.assertEqual(len(lines), 1)
        self.assertIn("MP3-128 -0.82", lines[0])

    def test_bad_lines_name_the_file_and_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            handle.write('{"host": "a"}\nnot json\n')
        try:
            with self.assertRaises(ValueError) as caught:
                peaq_explain.read_rows(handle.name)
            self.assertIn(f"{handle.name}:2", str(caught.exception))
        finally:
            os.unlink(handle.name)

if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    skipped = len(result.skipped)
    print(f"{result.testsRun - failed - skipped} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    sys.exit(1 if failed else 0)
