#!/usr/bin/env python3
"""Unit tests of the ABX kit's bookkeeping: the trial plan, the binomial p-value and the scoring
of answers (no audio; `python3 Benchmarks/quality/test_abx_kit.py`)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abx_kit  # noqa: E402


class ABXKitTests(unittest.TestCase):
    def test_binomial_tail(self):
        self.assertAlmostEqual(abx_kit.binomial_tail(0, 16), 1.0)
        self.assertAlmostEqual(abx_kit.binomial_tail(16, 16), 2 ** -16)
        # The thresholds the docs quote: 12 of 16 is p = 0.038, 14 of 16 p = 0.002.
        self.assertAlmostEqual(abx_kit.binomial_tail(12, 16), 0.0384, places=4)
        self.assertAlmostEqual(abx_kit.binomial_tail(14, 16), 0.0021, places=4)
        self.assertAlmostEqual(abx_kit.binomial_tail(9, 16), 0.4018, places=4)

    def test_plan_is_balanced_and_seeded(self):
        plan = abx_kit.plan_trials(["pair-01", "pair-02"], 16, seed=7)
        for answers in plan.values():
            self.assertEqual(sorted(set(answers)), ["A", "B"])
            self.assertEqual(answers.count("A"), 8)
        self.assertEqual(plan, abx_kit.plan_trials(["pair-01", "pair-02"], 16, seed=7))
        self.assertNotEqual(plan, abx_kit.plan_trials(["pair-01", "pair-02"], 16, seed=8))
        self.assertEqual(len(abx_kit.plan_trials(["p"], 5, seed=1)["p"]), 5)

    def key(self):
        return {"pairs": {
            "pair-01": {"host": "a01.flac", "setting": "1.9/0.5", "x": ["A", "B", "B", "A"]},
            "pair-02": {"host": "a01.flac", "setting": "3.0/0.7", "x": ["B", "A", "A", "B"]},
        }}

    def test_score_counts_right_answers_per_pair_and_setting(self):
        rows = [{"pair": "pair-01", "trial": str(t + 1), "answer": a} for t, a in enumerate("ABBA")]
        rows += [{"pair": "pair-02", "trial": str(t + 1), "answer": a} for t, a in enumerate("baB ")]
        per_pair, per_setting = abx_kit.score(self.key(), rows)
        self.assertEqual([(p[0], p[3], p[4]) for p in per_pair], [("pair-01", 4, 4), ("pair-02", 2, 3)])
        self.assertAlmostEqual(per_pair[0][5], 1 / 16)
        self.assertEqual(per_setting["1.9/0.5"][:2], (4, 4))
        self.assertEqual(per_setting["3.0/0.7"][:2], (2, 3))

    def test_verdicts_pool_answers_and_correct_for_many_pairs(self):
        per_setting = {"1.9/0.5": (70, 144, 0.5), "3.0/0.7": (90, 144, 0.002), "4.0/0.7": (75, 144, 0.3)}
        per_pair = [("pair-01", "a01", "1.9/0.5", 13, 16, 0.0106)]
        per_pair += [(f"pair-1{i}", "a0x", "1.9/0.5", 8, 16, 0.6) for i in range(8)]
        per_pair += [("pair-20", "a02", "4.0/0.7", 15, 16, 0.0003)]
        per_pair += [(f"pair-3{i}", "a0x", "4.0/0.7", 7, 16, 0.77) for i in range(8)]
        judged = abx_kit.verdicts(per_pair, per_setting)
        # 0.0106 is not under 0.05 / 9 = 0.0056: one pair of nine that lucky is no evidence.
        self.assertEqual(judged["1.9/0.5"], "not heard")
        self.assertEqual(judged["3.0/0.7"], "heard (pooled)")
        self.assertEqual(judged["4.0/0.7"], "heard (pair-20)")

    def test_score_refuses_bad_answers(self):
        for row in ({"pair": "pair-09", "trial": "1", "answer": "A"},
                    {"pair": "pair-01", "trial": "1", "answer": "C"},
                    {"pair": "pair-01", "trial": "5", "answer": "A"}):
            with self.assertRaises(ValueError):
                abx_kit.score(self.key(), [row])

    def test_best_window_finds_the_loudest_stretch(self):
        self.assertEqual(abx_kit.best_window([0, 1, 5, 5, 1, 0], 2), 2)
        self.assertEqual(abx_kit.best_window([3, 3, 1, 3, 3], 2), 0)
        self.assertEqual(abx_kit.best_window([1, 2], 5), 0)
        self.assertEqual(abx_kit.best_window([0, 0, 0, 9], 1), 3)

    def test_setting_parsing(self):
        self.assertEqual(abx_kit.parse_setting("3/0.7"), (3.0, 0.7))
        for bad in ("3", "3/0.95", "0/0.5", "x/y"):
            with self.assertRaises(Exception):
                abx_kit.parse_setting(bad)


if __name__ == "__main__":
    unittest.main()
