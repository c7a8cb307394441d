#!/usr/bin/env python3
"""The checks of check_report.py on made-up measurements, without a browser: a clipped label,
crossing tick labels, a missing lane, merged marks, a leaky filter and a redrawing that moved
a mark are caught; and the generated database holds the week it promises.

    python3 Tests/Browser/test_check_report.py
"""

import sqlite3
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_report  # noqa: E402


def text(label, x, w=30, cls="", y=100, shown=True):
    return {"text": label, "cls": cls, "anchor": "middle", "x": x, "y": y, "w": w, "h": 12, "shown": shown}


def mark(channel, ident, x, w=3, t0=0, shown=True, cls="airing"):
    return {"cls": cls, "channel": channel, "id": ident, "t0": t0, "x": x, "w": w, "shown": shown}


def figure(texts=None, lanes=("a", "b"), marks=(), page="2026-11-16", view="view-week"):
    names = [text(name, 100, cls="channel", y=10 + 28 * k) for k, name in enumerate(lanes)]
    return {"page": page, "view": view, "shown": True, "width": 1174, "height": 130,
            "texts": names + (texts if texts is not None else [text("00:00", 150), text("12:00", 650)]),
            "lanes": [{"channel": name, "shown": True} for name in lanes], "marks": list(marks)}


class DrawingTests(unittest.TestCase):
    def test_a_clean_drawing_passes(self):
        self.assertEqual(check_report.check_drawing(figure(marks=[mark("a", "1", 200), mark("a", "2", 204)]), ["a", "b"]), [])

    def test_a_label_past_an_edge_is_caught(self):
        problems = check_report.check_drawing(figure(texts=[text("00:00", 1160)]), ["a", "b"])
        self.assertTrue(any("'00:00' spans x 1160.0..1190.0" in p for p in problems), problems)
        self.assertTrue(check_report.clipped(figure(texts=[text("x", -3)])))
        self.assertFalse(check_report.clipped(figure(texts=[text("x", -3, shown=False)])))

    def test_crossing_tick_labels_are_caught(self):
        problems = check_report.check_drawing(figure(texts=[text("23:00", 1100), text("00:00", 1120)]), ["a", "b"])
        self.assertEqual(problems, ["view-week 2026-11-16: tick labels '23:00' and '00:00' overlap"])

    def test_a_missing_lane_or_name_is_caught(self):
        self.assertEqual(check_report.check_drawing(figure(lanes=["a"]), ["a", "b"]), ["view-week 2026-11-16: channel b has no lane"])

    def test_touching_or_thin_marks_are_caught(self):
        problems = check_report.check_drawing(figure(marks=[mark("a", "1", 200), mark("a", "2", 203.5), mark("b", "3", 300, w=0.3)]), ["a", "b"])
        self.assertEqual(len(problems), 2, problems)


class WeekAndFilterTests(unittest.TestCase):
    SPOTS = [("a", "1", 0, "08:00:00"), ("a", "2", 0, "08:15:00"), ("b", "1", 7, "08:00:00")]

    def test_a_week_needs_a_mark_per_airing(self):
        good = figure(marks=[mark("a", "1", 200), mark("a", "2", 204)])
        self.assertEqual(check_report.check_week(good, self.SPOTS), [])
        merged = figure(marks=[mark("a", "1", 200)])
        self.assertEqual(check_report.check_week(merged, self.SPOTS), ["week 2026-11-16: 1 marks drawn for 2 airings"])

    def test_a_filter_must_hide_lanes_marks_and_rows(self):
        result = {"figures": [figure(lanes=["a"], marks=[mark("a", "1", 200)])], "airings": [["1", "a"]], "coverage": ["a"]}
        self.assertEqual(check_report.check_filtered(result, ["a"], ["1"], self.SPOTS), [])
        leaky = {"figures": [figure(lanes=["a", "b"], marks=[mark("a", "1", 200), mark("a", "2", 204)])],
                 "airings": [["1", "a"], ["2", "a"]], "coverage": ["a", "b"]}
        self.assertEqual(len(check_report.check_filtered(leaky, ["a"], ["1"], self.SPOTS)), 4)

    def test_the_redrawing_must_match(self):
        static = figure(marks=[mark("a", "1", 200), mark("a", "2", 204)])
        self.assertEqual(check_report.same_drawing(static, figure(marks=[mark("a", "1", 200), mark("a", "2", 204)])), [])
        self.assertEqual(len(check_report.same_drawing(static, figure(marks=[mark("a", "1", 200), mark("a", "2", 206)]))), 1)
        self.assertEqual(len(check_report.same_drawing(figure(), figure(texts=[text("00:00", 150)]))), 1)

    def test_zoomed_ticks_must_be_round(self):
        self.assertEqual(check_report.round_ticks(figure(texts=[text("13:35", 10), text("2026-11-18", 20), text("10:03:39", 30)])),
                         ["2026-11-16: tick label '10:03:39' is not a round time"])
        self.assertEqual(check_report.round_ticks(figure(texts=[text("10:03:05", 30), text("10:03", 35), text("00:00:39", 40, cls="channel")])), [])


class DatabaseTests(unittest.TestCase):
    def test_the_generated_week(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "airings.sqlite"
            check_report.build_database(path)
            db = sqlite3.connect(path)
            self.assertEqual(db.execute("PRAGMA user_version").fetchone(), (2,))
            channels = db.execute("SELECT channel, count(*), sum(duration) FROM recordings GROUP BY channel ORDER BY channel").fetchall()
            self.assertEqual(channels, [("alpha", 7, 604800.0), ("beta", 8, 604800.0 - 1200), ("gamma", 7, 604800.0)])
            self.assertEqual(db.execute("SELECT count(*) FROM detections").fetchone(), (35,))
            # Wednesday's afternoon beta recording starts at 14:20; its 20:00 spot is 5 h 40 min in.
            row = db.execute("SELECT d.start FROM detections d JOIN recordings r ON r.id = d.recording_id "
                             "WHERE r.wallclock_start = '2026-11-18T14:20:00Z'").fetchall()
            self.assertEqual(row, [(20400.0,)])
            db.close()


if __name__ == "__main__":
    unittest.main()
