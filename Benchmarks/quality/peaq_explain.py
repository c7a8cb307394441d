#!/usr/bin/env python3
"""Which of PEAQ's model output variables cost a mark its basic ODG against an anchor.

PEAQ's basic version (ITU-R BS.1387, section 6) maps 11 model output variables (MOVs) to
the objective difference grade through a small neural network. This script reads the JSON
lines of `peaq_check.py --json` and, for every host and setting, recomputes that network
with one MOV at a time replaced by the anchor's (MP3-128 unless `--anchor`): the change of
the ODG says how much that variable costs the setting against the anchor on that host.
Positive: the setting would gain that much with the anchor's value.

The network's weights and scaling are the standard's; without clamping of the MOVs, as
GstPEAQ computes it, the recomputed ODG matches GstPEAQ's to the printed digits. Standard
library only:
    python3 Benchmarks/quality/peaq_check.py --json ... > peaq.json
    python3 Benchmarks/quality/peaq_explain.py peaq.json [--anchor MP3-128] [--setting "qix default"]
"""

import argparse
import json
import math
import sys

# The basic version's MOVs in the network's order, as peaq_check.py names them.
MOVS = ["BandwidthRefB", "BandwidthTestB", "Total NMRB", "WinModDiff1B", "ADBB", "EHSB",
        "AvgModDiff1B", "AvgModDiff2B", "RmsNoiseLoudB", "MFPDB", "RelDistFramesB"]
# BS.1387 table 14 (scaling) and table 15 (weights), basic version.
A_MIN = [393.916656, 361.965332, -24.045116, 1.110661, -0.206623, 0.074318, 1.113683,
         0.950345, 0.029985, 0.000101, 0.0]
A_MAX = [921.0, 881.131226, 16.212030, 107.137772, 2.886017, 13.933351, 63.257874,
         1145.018555, 14.819740, 1.0, 1.0]
W_X = [[-0.502657, 0.436333, 1.219602], [4.307481, 3.246017, 1.123743], [4.984241, -2.211189, -0.192096],
       [0.051056, -1.762424, 4.331315], [2.321580, 1.789971, -0.754560], [-5.303901, -3.452257, -10.814982],
       [2.730991, -6.111805, 1.519223], [0.624950, -1.331523, -5.955151], [3.102889, 0.871260, -5.922878],
       [-1.051468, -0.939882, -0.142913], [-1.804679, -0.503610, -0.620456]]
W_X_BIAS = [-2.518254, 0.654841, -2.207228]
W_Y = [-3.817048, 4.107138, 4.629582]
W_Y_BIAS = -0.307594
B_MIN, B_MAX = -3.98, 0.22


def sigmoid(x):
    """The network's activation."""
    return 1 / (1 + math.exp(-x))


def basic_odg(movs):
    """The basic version's ODG from its 11 MOVs (a list in `MOVS` order)."""
    hidden = list(W_X_BIAS)
    for i, value in enumerate(movs):
        scaled = (value - A_MIN[i]) / (A_MAX[i] - A_MIN[i])
        for j in range(3):
            hidden[j] += W_X[i][j] * scaled
    distortion_index = W_Y_BIAS + sum(w * sigmoid(h) for w, h in zip(W_Y, hidden))
    return B_MIN + (B_MAX - B_MIN) * sigmoid(distortion_index)


def attribution(movs, anchor):
    """ODG of `movs`, and per MOV (from Total NMR on; the bandwidths are the host's) the
    change of the ODG when that MOV alone takes the anchor's value."""
    base = basic_odg(movs)
    changes = {}
    for i in range(2, len(MOVS)):
        swapped = list(movs)
        swapped[i] = anchor[i]
        changes[MOVS[i]] = basic_odg(swapped) - base
    return base, changes


def read_rows(path):
    """peaq_check.py's JSON lines (rows without basic MOVs, such as failed ones, are skipped)."""
    rows = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not a JSON line ({error.msg})") from None
            if isinstance(row, dict) and isinstance(row.get("basic_movs"), dict) and "host" in row and "setting" in row:
                rows.append(row)
    return rows


def explain(rows, anchor_name, setting=None):
    """Lines of the report: per host and setting, its ODG, the anchor's, and the MOVs' costs."""
    by_host = {}
    for row in rows:
        by_host.setdefault(row["host"], {})[row["setting"]] = row
    lines = []
    for host, settings in by_host.items():
        anchor = settings.get(anchor_name)
        if anchor is None:
            continue
        anchor_movs = [anchor["basic_movs"].get(name, math.nan) for name in MOVS]
        for name, row in settings.items():
            if name == anchor_name or (setting is not None and name != setting):
                continue
            movs = [row["basic_movs"].get(name, math.nan) for name in MOVS]
            odg, changes = attribution(movs, anchor_movs)
            costs = sorted(changes.items(), key=lambda item: -item[1])
            shown = ", ".join(f"{mov} {movs[MOVS.index(mov)]:.2f} ({anchor_movs[MOVS.index(mov)]:.2f}) {change:+.2f}"
                              for mov, change in costs if abs(change) >= 0.01)
            lines.append(f"{host} | {name}: ODG {odg:+.2f}, {anchor_name} {basic_odg(anchor_movs):+.2f} | {shown or 'no MOV moves it by 0.01'}")
    return lines


def main():
    """Reads the JSON lines and prints one line per host and setting."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="peaq_check.py --json output")
    parser.add_argument("--anchor", default="MP3-128", help="the setting to compare against (default: %(default)s)")
    parser.add_argument("--setting", help="only this setting (default: every setting but the anchor)")
    args = parser.parse_args()
    try:
        rows = read_rows(args.json)
    except (OSError, ValueError) as error:
        sys.exit(f"peaq_explain: {error}")
    lines = explain(rows, args.anchor, args.setting)
    if not lines:
        sys.exit(f"peaq_explain: {args.json}: no host has both a setting and the anchor '{args.anchor}'")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
