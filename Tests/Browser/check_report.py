#!/usr/bin/env python3
"""Renders `qix report DB --html` of a generated week of airings in headless Chromium (Debian's
`chromium` package) and checks what a browser really shows, which the Swift tests of the
generated text cannot:

- every channel has its lane and its name in every drawing, the quiet one too;
- no text of a drawing (channel names, tick labels) reaches past the drawing's edges, and no
  two tick labels overlap, measured with getBBox() by a script this check adds to a copy of
  the page, which writes its measurements into the page for `--dump-dom` to read;
- the week view draws as many marks as the week has airings, none touching another;
- the page's script redraws what QixKit drew (same marks, same ticks), and its zoom, read
  from the URL hash, still gives round ticks;
- the filters, set through the URL hash (`#channel=...&id=...`), hide the other lanes, marks
  and table rows;
- the zoom, pan and reset buttons, a channel check box, the ID buttons and paging, clicked by
  a script, change the drawing's window, the hash and the count as they should;
- screenshots of the whole-period view and of the day with the gap, compared with the PNGs
  checked in under `Tests/Browser/reference/` within check_pictures.py's tolerance.

The database is written here with Python's sqlite3 in the airings schema, version 2
(`Sources/QixScan/AiringsSchema.swift`): `qix report` only reads it, and scanning a week of
audio to make it would take an hour. 3 channels from Monday 2026-11-16 for a week: `alpha`
with 3 spots a day a quarter of an hour apart (two IDs), `beta` with 2 a day and a 20-minute
gap on Wednesday, `gamma` with none.

    python3 Tests/Browser/check_report.py [--qix .build/debug/qix] [--update] [--keep]

`--update` rewrites the reference PNGs (on purpose, after a change to the page).
Exit 0 when every check passes, 1 when one fails, 77 when Chromium is not installed.
Standard library only.
"""

import argparse
import html
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_pictures import ROOT, check_screenshot, chromium, find_chromium  # noqa: E402

MONDAY = datetime(2026, 11, 16, tzinfo=timezone.utc)
CHANNELS = ["alpha", "beta", "gamma"]
# (channel, ID, day, "HH:MM:SS") of every spot, 30 s each.
SPOTS = ([("alpha", "22222222" if k == 1 else "11111111", day, at)
          for day in range(7) for k, at in enumerate(["08:00:00", "08:15:00", "08:30:00"])]
         + [("beta", "33333333", day, at) for day in range(7) for at in ["12:00:00", "20:00:00"]])
# Wednesday's beta recording stops at 14:00 and the next starts at 14:20.
GAP = (2, "14:00:00", "14:20:00")
SPOT_SECONDS = 30
SCREENSHOTS = [("report-overall.png", ""), ("report-day-gap.png", "#view=day&page=2026-11-18")]
WINDOW = "--window-size=1240,480"

SCHEMA = """
CREATE TABLE scans (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, started_at TEXT NOT NULL, finished_at TEXT,
  qixkit_version TEXT NOT NULL, key_fingerprint TEXT NOT NULL, host TEXT NOT NULL, shard TEXT);
CREATE TABLE recordings (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime REAL NOT NULL,
  fingerprint TEXT NOT NULL, duration REAL, channel TEXT, wallclock_start TEXT,
  status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT, key_fingerprint TEXT NOT NULL, scan_uuid TEXT NOT NULL,
  wallclock_end TEXT, declared_duration REAL, damage TEXT);
CREATE TABLE detections (id INTEGER PRIMARY KEY, recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
  message TEXT NOT NULL, start REAL NOT NULL, "end" REAL NOT NULL, score REAL NOT NULL);
CREATE INDEX detections_by_recording ON detections(recording_id, start);
CREATE INDEX recordings_by_channel ON recordings(channel, wallclock_start);
PRAGMA user_version = 2;
"""


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def at(day, clock):
    """The instant `clock` ("HH:MM:SS") on day `day` of the week."""
    h, m, s = (int(v) for v in clock.split(":"))
    return MONDAY + timedelta(days=day, hours=h, minutes=m, seconds=s)


def recordings():
    """(channel, start, end) of every recording: a day each, Wednesday's beta in two."""
    spans = []
    for channel in CHANNELS:
        for day in range(7):
            if channel == "beta" and day == GAP[0]:
                spans += [(channel, at(day, "00:00:00"), at(day, GAP[1])), (channel, at(day, GAP[2]), at(day + 1, "00:00:00"))]
            else:
                spans.append((channel, at(day, "00:00:00"), at(day + 1, "00:00:00")))
    return spans


def build_database(path):
    """Writes the week's scan database at `path`, as `qix scan` would have stored it."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO scans (uuid, started_at, finished_at, qixkit_version, key_fingerprint, host) "
               "VALUES ('u', '2026-11-23T01:00:00Z', '2026-11-23T02:00:00Z', 'check', 'k', 'ci')")
    for channel, start, end in recordings():
        seconds = (end - start).total_seconds()
        name = f"{channel}/{channel}_{start.strftime('%Y%m%d_%H%M%S')}.flac"
        row = db.execute("INSERT INTO recordings (path, size, mtime, fingerprint, duration, channel, wallclock_start, status,"
                         " key_fingerprint, scan_uuid, wallclock_end) VALUES (?, 1, 0, 'f', ?, ?, ?, 'done', 'k', 'u', ?)",
                         (name, seconds, channel, iso(start), iso(end))).lastrowid
        for spot_channel, ident, day, clock in SPOTS:
            offset = (at(day, clock) - start).total_seconds()
            if spot_channel == channel and 0 <= offset < seconds:
                db.execute('INSERT INTO detections (recording_id, message, start, "end", score) VALUES (?, ?, ?, ?, 9)',
                           (row, ident, offset, offset + SPOT_SECONDS))
    db.commit()
    db.close()


# Added to a copy of the page, after the page's own script: measures what Chromium laid out and
# writes it into <pre id="check"> for --dump-dom.
MEASURE = """<script>
window.addEventListener("load", function () {
  function shown(e) { var r = e.getBoundingClientRect(); return r.width > 0 || r.height > 0; }
  function own(e) { return Array.prototype.filter.call(e.childNodes, function (n) { return n.nodeType === 3; }).map(function (n) { return n.data; }).join(""); }
  var out = {figures: [], airings: [], coverage: [], shownText: (document.getElementById("shown") || {}).textContent};
  document.querySelectorAll("figure").forEach(function (f) {
    var svg = f.querySelector("svg.timeline"), box = svg.viewBox.baseVal;
    var figure = {page: f.getAttribute("data-page"), view: f.closest("section").id, shown: shown(svg),
                  width: box.width, height: box.height, texts: [], lanes: [], marks: []};
    svg.querySelectorAll("text").forEach(function (t) {
      var b = t.getBBox(), lane = t.closest("g.lane"), dy = lane ? lane.transform.baseVal.consolidate().matrix.f : 0;
      figure.texts.push({text: own(t), cls: t.getAttribute("class") || "", anchor: t.getAttribute("text-anchor"),
                         x: b.x, y: b.y + dy, w: b.width, h: b.height, shown: shown(t)});
    });
    svg.querySelectorAll("g.lane").forEach(function (g) { figure.lanes.push({channel: g.getAttribute("data-channel"), shown: shown(g)}); });
    svg.querySelectorAll("rect.airing, rect.gap").forEach(function (r) {
      var b = r.getBBox();
      figure.marks.push({cls: r.getAttribute("class"), channel: r.closest("g.lane").getAttribute("data-channel"), id: r.getAttribute("data-id"),
                         t0: +r.getAttribute("data-t0"), x: b.x, w: b.width, shown: shown(r)});
    });
    out.figures.push(figure);
  });
  document.querySelectorAll("table.airings tbody tr").forEach(function (r) { if (shown(r)) out.airings.push([r.getAttribute("data-id"), r.getAttribute("data-channel")]); });
  document.querySelectorAll("table.coverage tbody tr").forEach(function (r) { if (shown(r)) out.coverage.push(r.getAttribute("data-channel")); });
  var pre = document.createElement("pre");
  pre.id = "check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


# Added to a copy of the page instead of MEASURE: uses the controls as a person would and logs
# the window of the whole-period drawing, the hash and the count after each step.
INTERACT = """<script>
window.addEventListener("load", function () {
  var log = [], svg = document.querySelector("#view-overall svg");
  function click(selector) { document.querySelector(selector).click(); }
  function note(step) {
    log.push(step + " " + svg.getAttribute("data-shown-from") + ".." + svg.getAttribute("data-shown-to") + " "
             + location.hash + " " + document.getElementById("shown").textContent);
  }
  note("start");
  click("#zoom-in"); note("zoom-in");
  click("#pan-right"); note("pan-right");
  click("#zoom-out"); note("zoom-out");
  click("#zoom-reset"); note("reset");
  var beta = document.querySelector("#channel-filter input[value=beta]");
  beta.checked = false;
  beta.dispatchEvent(new Event("change", {bubbles: true})); note("beta-off");
  click("#ids-none"); note("ids-none");
  click("#ids-all"); note("ids-all");
  click("#views button[data-view=day]"); click("#next"); note("day-next");
  var pre = document.createElement("pre");
  pre.id = "check";
  pre.textContent = JSON.stringify(log);
  document.body.appendChild(pre);
});
</script>
"""
# What INTERACT logs on the generated week (the whole period is 1794787200..1795392000).
INTERACTION = [
    "start 1794787200..1795392000  35 of 35 airings shown",
    "zoom-in 1794938400..1795240800 #from=2026-11-17T18:00:00Z&to=2026-11-21T06:00:00Z 35 of 35 airings shown",
    "pan-right 1795014000..1795316400 #from=2026-11-18T15:00:00Z&to=2026-11-22T03:00:00Z 35 of 35 airings shown",
    "zoom-out 1794787200..1795392000  35 of 35 airings shown",
    "reset 1794787200..1795392000  35 of 35 airings shown",
    "beta-off 1794787200..1795392000 #channel=alpha,gamma 21 of 35 airings shown",
    "ids-none 1794787200..1795392000 #channel=alpha,gamma&id= 0 of 35 airings shown",
    "ids-all 1794787200..1795392000 #channel=alpha,gamma 21 of 35 airings shown",
    "day-next 1794787200..1795392000 #view=day&page=2026-11-17&channel=alpha,gamma 21 of 35 airings shown",
]


def interact(browser, profile, text, out):
    """The steps INTERACT logs, as a list of problems against INTERACTION."""
    page = out / "interact.html"
    page.write_text(text.replace("</body>", INTERACT + "</body>"))
    dom = chromium(browser, profile, ["--dump-dom", "--virtual-time-budget=5000", WINDOW], page.as_uri())
    match = re.search(r'<pre id="check">(.*?)</pre>', dom, re.S)
    log = json.loads(html.unescape(match.group(1))) if match else ["(the script failed)"]
    return [f"controls: after {want.split()[0]}: {got!r}, expected {want!r}" for got, want in zip(log + [""] * 9, INTERACTION) if got != want]


def measure(browser, profile, page, fragment):
    """The measurements of `page` (with MEASURE added) opened at `fragment`."""
    dom = chromium(browser, profile, ["--dump-dom", "--virtual-time-budget=5000", WINDOW], page.as_uri() + fragment)
    match = re.search(r'<pre id="check">(.*?)</pre>', dom, re.S)
    if not match:
        raise RuntimeError(f"no measurements in the page at {fragment!r}: did its script fail?")
    return json.loads(html.unescape(match.group(1)))


def clipped(figure, slack=0.5):
    """The shown texts of a drawing whose box reaches past its edges."""
    return [f"{t['text']!r} spans x {t['x']:.1f}..{t['x'] + t['w']:.1f}, y {t['y']:.1f}..{t['y'] + t['h']:.1f} "
            f"in a {figure['width']:g}x{figure['height']:g} drawing"
            for t in figure["texts"] if t["shown"] and (t["x"] < -slack or t["y"] < -slack or t["x"] + t["w"] > figure["width"] + slack
                                                       or t["y"] + t["h"] > figure["height"] + slack)]


def overlapping(boxes, slack=0.0):
    """The pairs of (name, x, width) whose x ranges overlap, in x order."""
    boxes = sorted(boxes, key=lambda b: b[1])
    return [(a[0], b[0]) for a, b in zip(boxes, boxes[1:]) if a[1] + a[2] > b[1] + slack]


def label_overlaps(figure):
    """Tick labels of one line that overlap each other."""
    problems = []
    for cls in ("", "date"):
        texts = [(t["text"], t["x"], t["w"]) for t in figure["texts"] if t["shown"] and t["cls"] == cls]
        problems += [f"tick labels {a!r} and {b!r} overlap" for a, b in overlapping(texts, slack=0.5)]
    return problems


def check_drawing(figure, channels):
    """Every channel's lane and name, nothing clipped, no crossing labels, marks apart."""
    where = f"{figure['view']} {figure['page']}"
    problems = [f"{where}: {p}" for p in clipped(figure) + label_overlaps(figure)]
    lanes = [lane["channel"] for lane in figure["lanes"] if lane["shown"]]
    names = [t["text"] for t in figure["texts"] if t["shown"] and t["cls"] == "channel"]
    for channel in channels:
        if channel not in lanes or channel not in names:
            problems.append(f"{where}: channel {channel} has {'no lane' if channel not in lanes else 'no name'}")
    for channel in channels:
        marks = [(m["id"], m["x"], m["w"]) for m in figure["marks"] if m["shown"] and m["cls"] == "airing" and m["channel"] == channel]
        problems += [f"{where}: on {channel}, marks {a} and {b} touch" for a, b in overlapping(marks, slack=-1.0)]
        problems += [f"{where}: on {channel}, mark {m[0]} is {m[2]:.2f} px wide" for m in marks if m[2] < 1]
    return problems


def check_week(figure, spots):
    """The week's drawing has a distinct mark per airing of that week, on its channel."""
    start = datetime.fromisoformat(figure["page"]).replace(tzinfo=timezone.utc)
    expected = sorted((channel, ident) for channel, ident, day, clock in spots if start <= at(day, clock) < start + timedelta(days=7))
    drawn = sorted((m["channel"], m["id"]) for m in figure["marks"] if m["shown"] and m["cls"] == "airing" and m["w"] >= 1)
    if drawn != expected:
        return [f"week {figure['page']}: {len(drawn)} marks drawn for {len(expected)} airings"]
    return []


def check_filtered(result, channels, ids, spots):
    """With only `channels` and `ids` asked for, nothing else shows, and all of those do."""
    problems = []
    for figure in (f for f in result["figures"] if f["shown"]):
        shown = {lane["channel"] for lane in figure["lanes"] if lane["shown"]}
        if shown != set(channels):
            problems.append(f"{figure['page']}: lanes {sorted(shown)} shown for {sorted(channels)}")
        stray = {(m["channel"], m["id"]) for m in figure["marks"] if m["shown"] and m["cls"] == "airing"} - {(c, i) for c in channels for i in ids}
        if stray:
            problems.append(f"{figure['page']}: marks of {sorted(stray)} shown through the filter")
    expected = sorted((ident, channel) for channel, ident, _, _ in spots if channel in channels and ident in ids)
    if sorted(tuple(r) for r in result["airings"]) != expected:
        problems.append(f"{len(result['airings'])} airing rows shown, expected {len(expected)}")
    if sorted(result["coverage"]) != sorted(channels):
        problems.append(f"coverage rows {result['coverage']} shown for {channels}")
    return problems


def same_drawing(static, scripted):
    """Where the script's redrawing of a figure differs from QixKit's (marks and tick labels)."""
    def marks(figure):
        return sorted((m["cls"], m["channel"], m["id"] or "", m["t0"], round(m["x"], 1), round(m["w"], 1)) for m in figure["marks"])

    def ticks(figure):
        return [(t["text"], t["anchor"], round(t["x"])) for t in figure["texts"] if t["cls"] != "channel"]
    problems = []
    if marks(static) != marks(scripted):
        problems.append(f"{static['page']}: the script moved marks: {sorted(set(marks(static)) ^ set(marks(scripted)))[:4]}")
    if ticks(static) != ticks(scripted):
        problems.append(f"{static['page']}: the script drew other ticks: {ticks(static)[:3]} vs {ticks(scripted)[:3]}")
    return problems


def round_ticks(figure):
    """Tick labels of a zoomed drawing that are not at a round time (whole minutes, or seconds
    on a step of 5 at least: the old axis labelled 10:03:39)."""
    return [f"{figure['page']}: tick label {t['text']!r} is not a round time" for t in figure["texts"]
            if t["shown"] and t["cls"] == "" and not re.fullmatch(r"\d\d:\d\d(:[0-5][05])?|\d{4}-\d\d-\d\d", t["text"])]


def render(qix, out):
    """The database and its report page, made in `out` with the names a user would give, and
    two copies of the page with MEASURE added: as it is, and without its own script (what a
    reader without scripts sees)."""
    build_database(out / "airings.sqlite")
    subprocess.run([str(Path(qix).resolve()), "report", "airings.sqlite", "--html", "report.html", "-q"],
                   check=True, cwd=out, stdout=subprocess.DEVNULL)
    page = out / "report.html"
    text = page.read_text()
    scripted, static = out / "scripted.html", out / "static.html"
    scripted.write_text(text.replace("</body>", MEASURE + "</body>"))
    static.write_text(re.sub(r"<script>.*?</script>", "", text, flags=re.S).replace("</body>", MEASURE + "</body>"))
    return page, scripted, static


def checks(browser, profile, scripted, static):
    """Every DOM check, as a list of problems."""
    problems = []
    drawn = {(f["view"], f["page"]): f for f in measure(browser, profile, static, "")["figures"]}
    for figure in drawn.values():
        problems += ["without script: " + p for p in check_drawing(figure, CHANNELS)]
    weeks = [f for f in drawn.values() if f["view"] == "view-week"]
    problems += [p for f in weeks for p in check_week(f, SPOTS)] or ([] if weeks else ["no week view"])
    # A filter that keeps everything makes the script redraw every figure: it must draw what QixKit wrote.
    for figure in measure(browser, profile, scripted, "#view=all&channel=alpha,beta,gamma&id=11111111,22222222,33333333")["figures"]:
        problems += same_drawing(drawn[(figure["view"], figure["page"])], figure)
    filtered = measure(browser, profile, scripted, "#channel=alpha,gamma&id=11111111")
    problems += ["filter: " + p for p in check_filtered(filtered, ["alpha", "gamma"], ["11111111"], SPOTS)]
    if filtered["shownText"] != "14 of 35 airings shown":
        problems.append(f"filter: the count reads {filtered['shownText']!r}")
    zoomed = measure(browser, profile, scripted, "#view=day&page=2026-11-18&from=2026-11-18T13:30:00Z&to=2026-11-18T15:00:00Z")
    for figure in (f for f in zoomed["figures"] if f["shown"]):
        problems += ["zoom: " + p for p in check_drawing(figure, CHANNELS) + round_ticks(figure)]
        gaps = [m for m in figure["marks"] if m["cls"] == "gap" and m["shown"]]
        if len(gaps) != 1 or abs(gaps[0]["w"] - 1000 * 1200 / 5400) > 1:
            problems.append(f"zoom: the 20-minute gap is drawn as {[round(g['w'], 1) for g in gaps]} px, expected 222.2")
    if [f["page"] for f in zoomed["figures"] if f["shown"]] != ["2026-11-18"]:
        problems.append("zoom: the day view does not show exactly its page")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qix", default=str(ROOT / ".build/debug/qix"), help="the qix binary")
    parser.add_argument("--update", action="store_true", help="rewrite the reference screenshots")
    parser.add_argument("--keep", action="store_true", help="keep the page, database and screenshots")
    args = parser.parse_args()
    browser = find_chromium()
    if browser is None:
        print("check_report: chromium is not installed (apt-get install chromium): skipped", file=sys.stderr)
        return 77
    start = time.monotonic()
    out = Path(tempfile.mkdtemp(prefix="check_report."))
    page, scripted, static = render(args.qix, out)
    problems = checks(browser, out / "profile", scripted, static)
    problems += interact(browser, out / "profile", page.read_text(), out)
    for name, fragment in SCREENSHOTS:
        shot = out / name
        chromium(browser, out / "profile", [f"--screenshot={shot}", WINDOW, "--virtual-time-budget=2000"], page.as_uri() + fragment)
        problems += check_screenshot(name, shot, args.update)
    for problem in problems:
        print(f"check_report: {problem}", file=sys.stderr)
    print(f"check_report: 5 page states, {len(SCREENSHOTS)} screenshots, "
          f"{'updated' if args.update else 'compared'} in {time.monotonic() - start:.1f} s" + (f"; kept in {out}" if args.keep else ""))
    if not problems and not args.keep:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
