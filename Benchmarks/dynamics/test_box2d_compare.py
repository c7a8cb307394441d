#!/usr/bin/env python3
"""Tests of box2d_compare.py: the QixKit scene is Box2D's pyramid in points, the layout of
corpus/scenes/pyramid-5050.json, so both engines run the same bodies; and QixKit's figures are
read from `qix sim --stats` (a stand-in qix script prints the lines).

    python3 Benchmarks/dynamics/test_box2d_compare.py
"""
import json, os, sys, unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import box2d_compare  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))


class PyramidSceneTests(unittest.TestCase):
    def test_body_count_and_rows(self):
        for base in (1, 10, 20, 100):
            items = box2d_compare.pyramid_scene(base)["items"]
            self.assertEqual(len(items), base * (base + 1) // 2)
            rows = {item["center"][1] for item in items}
            self.assertEqual(len(rows), base)

    def test_same_layout_as_the_corpus_pyramid(self):
        """Each box's offset from the first equals the corpus scene's, box for box."""
        with open(os.path.join(REPO, "corpus", "scenes", "pyramid-5050.json")) as f:
            corpus = json.load(f)["items"]
        ours = box2d_compare.pyramid_scene(100)["items"]
        self.assertEqual([i["id"] for i in ours], [i["id"] for i in corpus])
        origin, corpus_origin = ours[0]["center"], corpus[0]["center"]
        for a, b in zip(ours, corpus):
            self.assertEqual([a["center"][0] - origin[0], a["center"][1] - origin[1]],
                             [b["center"][0] - corpus_origin[0], b["center"][1] - corpus_origin[1]])
            self.assertEqual(a["size"], [100, 100])

    def test_bottom_row_rests_on_the_ground_inside_the_bounds(self):
        scene = box2d_compare.pyramid_scene(20)
        ground = scene["behaviors"][1]["boundaries"][0]
        bottom = max(item["center"][1] for item in scene["items"])
        self.assertEqual(bottom + 50, ground["from"][1])
        _, _, width, height = scene["referenceBounds"]
        for item in scene["items"]:
            x, y = item["center"]
            self.assertTrue(50 <= x <= width - 50 and 50 <= y <= height - 50, item)
        self.assertEqual(scene["behaviors"][0]["items"], [i["id"] for i in scene["items"]])


class QixCellTests(unittest.TestCase):
    """qix_cell reads `qix sim --stats`: the best CPU per simulated second of its runs and the
    peak, from the `stats:` line among other stderr lines; a qix without --stats is an error."""

    def fake_qix(self, script):
        import stat, tempfile
        directory = tempfile.mkdtemp(prefix="fake-qix-")
        path = os.path.join(directory, "qix")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + script)
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        return path

    def test_best_of_runs_and_peak(self):
        counter = os.path.join(os.path.dirname(self.fake_qix("")), "n")
        qix = self.fake_qix(
            f'n=$(cat {counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {counter}\n'
            'echo "qix: simulated 30 frames" >&2\n'
            'echo "stats: {\\"cpu_seconds_per_simulated_second\\": 0.$((5-n)), \\"peak_kb\\": 1000$n}" >&2\n')
        best, peak = box2d_compare.qix_cell(qix, "scene.json", 3)
        self.assertAlmostEqual(best, 0.2)
        self.assertEqual(peak, 10003)

    def test_missing_stats_line_is_an_error(self):
        qix = self.fake_qix('echo "qix: simulated 30 frames" >&2\n')
        with self.assertRaises(SystemExit) as caught:
            box2d_compare.qix_cell(qix, "scene.json", 1)
        self.assertIn("no stats line", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
