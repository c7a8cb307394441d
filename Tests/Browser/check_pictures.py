#!/usr/bin/env python3
"""Renders a card deck's pictures in headless Chromium (Debian's `chromium` package) and checks
what a browser really shows, which the Swift tests of the generated text cannot:

- the HTML player, paused at several times through `#t=SECONDS`, dumped with `--dump-dom`:
  its controls are there, the time readout names the frame shown, every item is one polygon
  of its own point count (hidden items hidden, never squashed into another polygon, which
  Chromium drew as stray 45-degree lines) at the place the run's data gives;
- screenshots of the player and of the film strip, compared with the PNGs checked in under
  `Tests/Browser/reference/` within a tolerance (fonts and anti-aliasing differ by a few
  levels and pixels between machines; a moved card or a missing rope differs by more).

    python3 Tests/Browser/check_pictures.py [--qix .build/debug/qix] [--update]

`--update` rewrites the reference PNGs (on purpose, after a change to the pictures).
Exit 0 when every check passes, 1 when one fails, 77 when Chromium is not installed.
Standard library only.
"""

import argparse
import html.parser
import json
import math
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = Path(__file__).resolve().parent / "reference"
DECK = ROOT / "corpus/scenes/cards/three-pages.deck.json"
GESTURES = ROOT / "corpus/scenes/cards/fling-sequence.gestures.json"
# Entrance, finger down on page 1, page 1 falling, finger down on page 2, after the end.
STILLS = [0.5, 1.6, 2.0, 4.1, 9.0]
# The player's screenshots: a finger down on each of the first two pages.
SCREENSHOTS = [1.6, 4.1]
# A pixel differs when a channel moves more than this; a picture differs when more than
# MAX_DIFFERING of its pixels do (128 of the player's 640 000: a few glyph edges, less than one
# rope, which is about 250) or the mean channel difference exceeds MAX_MEAN.
PIXEL_THRESHOLD = 48
MAX_DIFFERING = 0.0002
MAX_MEAN = 1.0


def find_chromium():
    """The Chromium binary (Debian names it `chromium`), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(browser, profile, args, url):
    """Runs headless Chromium on `url` and returns its stdout. A fresh profile per run and a
    fixed scale keep the result independent of the machine's settings; --no-sandbox because
    CI containers run as root."""
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
               "--font-render-hinting=none", f"--user-data-dir={profile}", *args, url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"chromium failed ({done.returncode}): {done.stderr[-500:]}")
    return done.stdout


class DOM(html.parser.HTMLParser):
    """The elements of a dumped page: tag, attributes, text, and the id of the enclosing
    element that has one (the item group a polygon belongs to)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.stack = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        owner = next((e["attrs"].get("id") for e in reversed(self.stack) if "id" in e["attrs"]), None)
        element = {"tag": tag, "attrs": dict(attrs), "text": "", "owner": owner}
        self.elements.append(element)
        if tag not in ("input", "meta", "br", "img", "link"):
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1]["tag"] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.stack:
            element["text"] += data

    def by_id(self, ident):
        return next((e for e in self.elements if e["attrs"].get("id") == ident), None)


def points(text):
    """The pairs of an SVG `points` attribute."""
    numbers = [float(v) for v in re.split(r"[ ,]+", text.strip()) if v]
    return list(zip(numbers[0::2], numbers[1::2]))


def placed(shape, placement):
    """An item's outline at a track placement, as the player computes it."""
    x, y, angle = placement
    c, s = math.cos(angle), math.sin(angle)
    return [(x + c * u - s * v, y + s * u + c * v) for u, v in zip(shape[0::2], shape[1::2])]


def check_still(dom, data, seconds):
    """The problems of the player paused at `seconds`, as a list of sentences."""
    problems = []
    play, scrub, readout = dom.by_id("play"), dom.by_id("scrub"), dom.by_id("time")
    if not play or play["tag"] != "button" or play["text"].strip() != "Play":
        problems.append("no paused Play button")
    if not scrub or scrub["attrs"].get("type") != "range":
        problems.append("no range scrubber")
    match = re.fullmatch(r"t = (\d+\.\d\d) s / (\d+\.\d\d) s, frame (\d+)", (readout or {"text": ""})["text"].strip())
    times = data["times"]
    frame = max([k for k, t in enumerate(times) if t <= seconds + 1e-9] or [0])
    if not match:
        problems.append(f"time readout {readout and readout['text']!r} is not 't = S s / S s, frame N'")
    elif int(match.group(3)) != data["frames"][frame] or abs(float(match.group(1)) - times[frame]) > 0.006:
        problems.append(f"readout {match.group(0)!r} at t={seconds}, expected frame {data['frames'][frame]}")
    for k, item in enumerate(data["items"]):
        count = len(item["shape"]) // 2
        polygons = [e for e in dom.elements if e["tag"] == "polygon" and e["owner"] == f"item-{k}"]
        group = dom.by_id(f"item-{k}")
        if len(polygons) != 1 or group is None:
            problems.append(f"item {item['id']}: {len(polygons)} polygons")
            continue
        drawn = points(polygons[0]["attrs"].get("points", ""))
        if len(drawn) != count:
            problems.append(f"item {item['id']}: a polygon of {len(drawn)} points over an outline of {count}")
        track = data["tracks"][k]
        inside = 0 <= frame - track[0] < len(track) - 1
        placement = track[1 + frame - track[0]] if inside else 0
        visible = group["attrs"].get("visibility") == "visible"
        if bool(placement) != visible:
            problems.append(f"item {item['id']}: visibility {group['attrs'].get('visibility')} at frame {frame}")
        if placement and len(drawn) == count:
            worst = max(abs(a - b) for p, q in zip(drawn, placed(item["shape"], placement)) for a, b in zip(p, q))
            if worst > 0.11:
                problems.append(f"item {item['id']}: drawn {worst:.2f} points from its place")
    problems += check_links(dom, data, frame)
    finger = dom.by_id("finger")
    if finger is None or (finger["attrs"].get("visibility") == "visible") != bool(data["finger"][frame]):
        problems.append(f"finger shown wrongly at frame {frame}")
    if any(e["tag"] == "script" and "src" in e["attrs"] for e in dom.elements):
        problems.append("an external script")
    return problems


def link_end(data, end, frame):
    """Where a link's end is in `frame`, as the player computes it (None: on a hidden item)."""
    if end == "f":
        return data["finger"][frame] or None
    if len(end) == 2:
        return end
    track = data["tracks"][end[0]]
    inside = 0 <= frame - track[0] < len(track) - 1
    placement = track[1 + frame - track[0]] if inside else 0
    if not placement:
        return None
    return placed([end[1], end[2]], placement)[0]


def check_links(dom, data, frame):
    """The frame's links are drawn as lines of their style between their ends."""
    expected = []
    for style, a, b in data["linkSets"][data["links"][frame]]:
        p, q = link_end(data, a, frame), link_end(data, b, frame)
        if p is not None and q is not None:
            expected.append((style, p, q))
    lines = [e for e in dom.elements if e["tag"] == "line" and e["owner"] == "links"]
    if len(lines) != len(expected):
        return [f"{len(lines)} link lines at frame {frame}, expected {len(expected)}"]
    problems = []
    for line, (style, p, q) in zip(lines, expected):
        drawn = [float(line["attrs"].get(k, "nan")) for k in ("x1", "y1", "x2", "y2")]
        if line["attrs"].get("class") != style or max(abs(a - b) for a, b in zip(drawn, [*p, *q])) > 0.11:
            problems.append(f"link {style} drawn as {line['attrs']} at frame {frame}")
    return problems


def read_png(path):
    """(width, height, rows of RGB triples) of an 8-bit, non-interlaced RGB or RGBA PNG, the
    kind Chromium writes."""
    blob = Path(path).read_bytes()
    if blob[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    offset, chunks, header = 8, [], None
    while offset < len(blob):
        length, kind = struct.unpack(">I4s", blob[offset:offset + 8])
        body = blob[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        offset += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA without interlace is read")
    channels = 3 if color == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(b for i, b in enumerate(line) if i % channels < 3))
        previous = line
    return width, height, rows


def compare(actual, reference):
    """(share of pixels that differ, mean channel difference), or None when the sizes differ."""
    wa, ha, ra = read_png(actual)
    wb, hb, rb = read_png(reference)
    if (wa, ha) != (wb, hb):
        return None
    differing, total = 0, 0
    for row_a, row_b in zip(ra, rb):
        deltas = [abs(a - b) for a, b in zip(row_a, row_b)]
        total += sum(deltas)
        differing += sum(1 for i in range(0, len(deltas), 3) if max(deltas[i:i + 3]) > PIXEL_THRESHOLD)
    return differing / (wa * ha), total / (wa * ha * 3)


def check_screenshot(name, actual, update):
    """Compares a screenshot with its reference (or, with --update, makes it the reference)."""
    reference = REFERENCE / name
    if update:
        REFERENCE.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(actual, reference)
        return []
    if not reference.exists():
        return [f"{name}: no reference (run with --update)"]
    result = compare(actual, reference)
    if result is None:
        return [f"{name}: size differs from the reference (actual kept at {actual})"]
    share, mean = result
    print(f"  {name}: {share:.2%} of pixels differ, mean difference {mean:.2f}")
    if share > MAX_DIFFERING or mean > MAX_MEAN:
        return [f"{name}: {share:.2%} of pixels differ (at most {MAX_DIFFERING:.2%}), mean {mean:.2f} (at most {MAX_MEAN}); actual kept at {actual}"]
    return []


def render(qix, out):
    """The deck's player page and a 4-panel film strip, through the CLI as a user makes them."""
    # Paths relative to the checkout: the page's title names the deck as given, and the
    # screenshot must not depend on where the checkout lies.
    base = [str(Path(qix).resolve()), "cards", str(DECK.relative_to(ROOT)), "--gestures", str(GESTURES.relative_to(ROOT)), "-q"]
    subprocess.run(base + ["--render", str(out / "run.html")], check=True, cwd=ROOT)
    subprocess.run(base + ["--render", str(out / "strip.svg"), "--render-frames", "4"], check=True, cwd=ROOT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qix", default=str(ROOT / ".build/debug/qix"), help="the qix binary")
    parser.add_argument("--update", action="store_true", help="rewrite the reference screenshots")
    args = parser.parse_args()
    browser = find_chromium()
    if browser is None:
        print("check_pictures: chromium is not installed (apt-get install chromium): skipped", file=sys.stderr)
        return 77
    start = time.monotonic()
    out = Path(tempfile.mkdtemp(prefix="check_pictures."))
    profile = out / "profile"
    render(args.qix, out)
    page = (out / "run.html").as_uri()
    data = json.loads(re.search(r'id="qix-data">(.*?)</script>', (out / "run.html").read_text(), re.S).group(1))
    problems = []
    for seconds in STILLS:
        dom = DOM(chromium(browser, profile, ["--dump-dom"], f"{page}#t={seconds}"))
        problems += [f"t={seconds}: {p}" for p in check_still(dom, data, seconds)]
    for seconds in SCREENSHOTS:
        shot = out / f"player-t{seconds}.png"
        chromium(browser, profile, [f"--screenshot={shot}", "--window-size=640,1000"], f"{page}#t={seconds}")
        problems += check_screenshot(shot.name, shot, args.update)
    size = re.search(r'width="([\d.]+)" height="([\d.]+)"', (out / "strip.svg").read_text())
    shot = out / "strip.png"
    window = f"--window-size={round(float(size.group(1)))},{round(float(size.group(2)))}"
    chromium(browser, profile, [f"--screenshot={shot}", window], (out / "strip.svg").as_uri())
    problems += check_screenshot(shot.name, shot, args.update)
    for problem in problems:
        print(f"check_pictures: {problem}", file=sys.stderr)
    print(f"check_pictures: {len(STILLS)} stills, {len(SCREENSHOTS) + 1} screenshots, "
          f"{'updated' if args.update else 'compared'} in {time.monotonic() - start:.1f} s")
    if not problems:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
