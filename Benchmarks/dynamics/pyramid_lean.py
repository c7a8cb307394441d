#!/usr/bin/env python3
"""How far a pyramid leans: the top box's sideways move and the fastest box's speed over time.

A pyramid that keeps jittering creeps to one side (at 5 sub-steps with a fixed sweep order the
base-100 pyramid's top box moved 62 points in 8 s). This runs `qix sim SCENE --trace -` and
prints, at each of --times (seconds), the top box's move along x from its start and the
fastest item's speed (points/s); the top box is the item whose centre starts highest.

    swift build -c release --product qix
    python3 Benchmarks/dynamics/pyramid_lean.py corpus/scenes/pyramid-5050.json --times 2 4 8

The trace is read line by line and only the chosen frames are parsed. Standard library only.
"""
import argparse, json, os, re, subprocess, sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scene")
    ap.add_argument("--qix", default=os.path.join(REPO, ".build", "release", "qix"))
    ap.add_argument("--times", type=float, nargs="+", default=[2, 4, 6, 8])
    args = ap.parse_args()
    with open(args.scene) as f:
        scene = json.load(f)
    rate = scene.get("frameRate", 60)
    top = min(scene["items"], key=lambda item: item["center"][1])  # y grows downwards
    wanted = {int(round(t * rate)): t for t in args.times}
    run = subprocess.Popen([args.qix, "sim", args.scene, "--duration", str(max(args.times)), "--trace", "-", "--quiet"],
                           stdout=subprocess.PIPE, text=True)
    for line in run.stdout:
        frame = re.match(r'\{"frame": ?(\d+)', line)
        if not frame or int(frame.group(1)) not in wanted:
            continue
        items = json.loads(line)["items"]
        item = next(i for i in items if i["id"] == top["id"])
        fastest = max((i["velocity"][0] ** 2 + i["velocity"][1] ** 2) ** 0.5 for i in items)
        print(f"t = {wanted[int(frame.group(1))]:g} s: top box {top['id']} dx {item['center'][0] - top['center'][0]:+.2f} "
              f"points, fastest box {fastest:.1f} points/s", flush=True)
    return run.wait()


if __name__ == "__main__":
    sys.exit(main())
