#!/usr/bin/env python3
"""QixDynamics against Box2D v3 side by side on Box2D's pyramid, at bases 10, 20, 50 and 100.

Both engines step at 1/120 s, the step QixKit uses for UIKit Dynamics' semantics (Box2D with its
default 4 sub-steps, one thread, sleeping off, as its own benchmark runs). Each run settles the
pyramid for 0.1 s and measures the next 0.4 s, before QixKit's animator can pause (a base-20
pyramid comes to rest at 1.2 s). Each engine measures itself, inside its process, over the same
steps (`qix sim --stats --stats-after 0.1`, and the driver's own clock), so loading and start-up
are not counted. It prints CPU seconds per simulated second for both engines,
their ratio (QixKit / Box2D, under 1 = QixKit faster), each process's peak resident memory,
and the memory per body: the growth of the peak from the smallest base to the largest.

Box2D is built from its public source outside this repository and never committed:

    git clone https://github.com/erincatto/box2d /tmp/box2d
    cmake -S /tmp/box2d -B /tmp/box2d/build -DCMAKE_BUILD_TYPE=Release -DBOX2D_AVX2=ON \\
          -DBOX2D_SAMPLES=OFF -DBOX2D_UNIT_TESTS=OFF -DBOX2D_VALIDATE=OFF
    cmake --build /tmp/box2d/build --target box2d -j2
    swift build -c release --product qix
    python3 Benchmarks/dynamics/box2d_compare.py --box2d /tmp/box2d [--qix .build/release/qix] [--runs 3]

The driver `box2d_pyramid.c` beside this script is compiled against that build. The machine is
shared and noisy: each cell is the best of --runs. Standard library only.
"""
import argparse, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
STEP = 1 / 120
SETTLE, MEASURE = 0.1, 0.4


def pyramid_scene(base):
    """Box2D's pyramid in QixKit's units: 100-point boxes (1 m = 100 points) on a ground edge."""
    width = 100 * base + 4000
    height = 100 * base + 200
    left = 2000
    items, ids = [], []
    for i in range(base):
        for j in range(i, base):
            x = left + 50 * (i + 1) + 100 * (j - i)
            y = height - 50 - 100 * i
            ids.append(f"b{i}_{j}")
            items.append({"id": ids[-1], "center": [x, y], "size": [100, 100]})
    return {"referenceBounds": [0, 0, width, height], "frameRate": 60, "duration": 1, "items": items,
            "behaviors": [{"type": "gravity", "items": ids},
                          {"type": "collision", "items": ids, "mode": "everything",
                           "boundaries": [{"id": "ground", "from": [-width, height], "to": [2 * width, height]}]}]}


def qix_cell(qix, scene, runs):
    """QixKit's CPU seconds per simulated second (best of `runs`) and peak KB, from `qix sim
    --stats`: measured inside the process over the same steps as Box2D's driver, so neither
    loading the scene nor starting the program is counted."""
    best, peak = None, 0
    for _ in range(runs):
        result = subprocess.run([qix, "sim", scene, "--duration", f"{SETTLE + MEASURE}", "--stats",
                                 "--stats-after", f"{SETTLE}", "-q"], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"box2d_compare: qix sim {scene} failed: {result.stderr.strip()}")
        line = next((l for l in result.stderr.splitlines() if l.startswith("stats: ")), None)
        if line is None:
            sys.exit(f"box2d_compare: qix sim printed no stats line (a qix older than --stats?)")
        stats = json.loads(line[len("stats: "):])
        value = stats["cpu_seconds_per_simulated_second"]
        best = value if best is None else min(best, value)
        peak = stats["peak_kb"]
    return best, peak


def box2d_cell(driver, base, runs):
    """Box2D's CPU seconds per simulated second (best of `runs`, its own clock) and peak KB."""
    best, peak = None, 0
    for _ in range(runs):
        out = subprocess.run([driver, str(base), str(round(MEASURE / STEP)), str(round(SETTLE / STEP)), f"{STEP:.9f}", "4"],
                             capture_output=True, text=True, check=True)
        line = json.loads(out.stdout)
        value = line["cpu_seconds"] / MEASURE
        best = value if best is None else min(best, value)
        peak = line["peak_kb"]
    return best, peak


def build_driver(box2d, work):
    """Compiles box2d_pyramid.c against the Box2D build in `box2d` (its source folder)."""
    library = next((os.path.join(root, "libbox2d.a") for root, _, files in os.walk(box2d) if "libbox2d.a" in files), None)
    if library is None:
        sys.exit(f"box2d_compare: no libbox2d.a under {box2d}; build Box2D first (see --help)")
    driver = os.path.join(work, "box2d_pyramid")
    subprocess.run(["cc", "-O2", "-mavx2", "-I", os.path.join(box2d, "include"), os.path.join(HERE, "box2d_pyramid.c"),
                    library, "-lm", "-o", driver], check=True)
    return driver


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--box2d", required=True, help="Box2D's source folder, built (libbox2d.a somewhere under it)")
    ap.add_argument("--qix", default=os.path.join(REPO, ".build", "release", "qix"))
    ap.add_argument("--bases", default="10,20,50,100")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    if not os.access(a.qix, os.X_OK):
        sys.exit(f"box2d_compare: no qix at {a.qix}; run swift build -c release --product qix")
    work = tempfile.mkdtemp(prefix="box2d-compare-")
    driver = build_driver(a.box2d, work)
    rows = []
    print(f"{'base':>5} {'bodies':>6} {'QixKit s/s':>11} {'Box2D s/s':>10} {'ratio':>6} {'QixKit KB':>10} {'Box2D KB':>9}")
    for base in [int(b) for b in a.bases.split(",")]:
        scene = os.path.join(work, f"pyramid-{base}.json")
        with open(scene, "w") as f:
            json.dump(pyramid_scene(base), f)
        q, q_peak = qix_cell(a.qix, scene, a.runs)
        b, b_peak = box2d_cell(driver, base, a.runs)
        bodies = base * (base + 1) // 2
        rows.append((base, bodies, q, b, q_peak, b_peak))
        print(f"{base:>5} {bodies:>6} {q:>11.4f} {b:>10.4f} {q / b:>6.2f} {q_peak:>10} {b_peak:>9}", flush=True)
    if len(rows) > 1:
        (_, n0, _, _, q0, b0), (_, n1, _, _, q1, b1) = rows[0], rows[-1]
        print(f"memory per body (peak growth from base {rows[0][0]} to {rows[-1][0]}): "
              f"QixKit {1024 * (q1 - q0) / (n1 - n0):.0f} bytes, Box2D {1024 * (b1 - b0) / (n1 - n0):.0f} bytes")


if __name__ == "__main__":
    main()
