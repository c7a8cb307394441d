#!/usr/bin/env python3
"""The checks of check_pictures.py on made-up pages and pictures, without a browser: a
squashed polygon, a wrongly hidden card, missing controls and a moved picture are caught.

    python3 Tests/Browser/test_check_pictures.py
"""

import struct
import sys
import tempfile
import unittest
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_pictures  # noqa: E402

DATA = {"items": [{"id": "a", "color": "#000000", "shape": [-10, -5, 10, -5, 10, 5, -10, 5]}],
        "frames": [2, 4], "times": [0.0333, 0.0667],
        "tracks": [[0, [100, 200, 0]]], "finger": [0, [50, 60]],
        "linkSets": [[["spring", [100, 150], [0, 0, 5]]], []], "links": [0, 1]}


def page(polygon="90,195 110,195 110,205 90,205", visibility="visible", finger="hidden",
         readout="t = 0.03 s / 0.07 s, frame 2", controls=True,
         links='<line class="spring" x1="100" y1="150" x2="100" y2="205"></line>'):
    """A dumped player page showing frame 0 of DATA, with one thing changed."""
    buttons = ('<button id="play" type="button">Play</button><input id="scrub" type="range" min="0" max="1">'
               if controls else "")
    return (f'<html><body><svg id="stage"><g id="item-0" class="item" visibility="{visibility}">'
            f'<polygon points="{polygon}"></polygon><text class="label">a</text></g>'
            f'<g id="links">{links}</g><circle id="finger" visibility="{finger}"></circle></svg>'
            f'<div class="controls">{buttons}<output id="time">{readout}</output></div></body></html>')


def write_png(path, width, height, pixel):
    """An RGB PNG whose pixel (x, y) is `pixel(x, y)`, with filter 0 on every row."""
    raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class StillTests(unittest.TestCase):
    def check(self, text, seconds=0.04):
        return check_pictures.check_still(check_pictures.DOM(text), DATA, seconds)

    def test_a_correct_still_passes(self):
        self.assertEqual(self.check(page()), [])

    def test_a_squashed_polygon_is_caught(self):
        problems = self.check(page(polygon="0,0 0,0 0,0"))
        self.assertTrue(any("polygon of 3 points over an outline of 4" in p for p in problems), problems)

    def test_a_card_drawn_away_from_its_place_is_caught(self):
        problems = self.check(page(polygon="91,195 111,195 111,205 91,205"))
        self.assertTrue(any("points from its place" in p for p in problems), problems)

    def test_visibility_and_finger_follow_the_data(self):
        self.assertTrue(any("visibility" in p for p in self.check(page(visibility="hidden"))))
        hidden_card = page(visibility="hidden", finger="visible", readout="t = 0.07 s / 0.07 s, frame 4", links="")
        self.assertEqual(self.check(hidden_card, seconds=0.07), [])
        self.assertTrue(any("finger" in p for p in self.check(page(finger="visible"))))

    def test_links_must_run_between_their_ends(self):
        self.assertTrue(any("link spring" in p for p in self.check(page(links='<line class="spring" x1="100" y1="150" x2="100" y2="200"></line>'))))
        self.assertTrue(any("link lines" in p for p in self.check(page(links=""))))

    def test_missing_controls_and_a_wrong_readout_are_caught(self):
        problems = self.check(page(controls=False, readout="0.03"))
        self.assertEqual(len(problems), 3, problems)


class PictureTests(unittest.TestCase):
    def test_png_round_trip_and_comparison(self):
        with tempfile.TemporaryDirectory() as folder:
            a, b, c = (Path(folder) / name for name in ("a.png", "b.png", "c.png"))
            write_png(a, 20, 10, lambda x, y: (x * 10, y * 20, 7))
            write_png(b, 20, 10, lambda x, y: (x * 10 + 1, y * 20, 7))
            write_png(c, 20, 10, lambda x, y: (255, 255, 255) if x < 5 else (x * 10, y * 20, 7))
            width, height, rows = check_pictures.read_png(a)
            self.assertEqual((width, height, rows[2][3:6]), (20, 10, bytes([10, 40, 7])))
            share, mean = check_pictures.compare(a, b)
            self.assertEqual(share, 0)
            self.assertAlmostEqual(mean, 1 / 3)
            share, _ = check_pictures.compare(a, c)
            self.assertGreater(share, 0.2)


if __name__ == "__main__":
    unittest.main()
