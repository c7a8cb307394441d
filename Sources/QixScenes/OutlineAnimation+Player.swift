import QixMarkup

extension OutlineAnimation {
    /// The run as JSON for the player: items (id, colour, outline at angle 0), frame numbers,
    /// times, each item's track (the index of its first shown frame, then `[x, y, angle]` or 0
    /// when hidden, up to its last shown frame), the finger track, the link sets and each
    /// frame's link set. It
    /// holds no `<`, `>` or `&` (strings escape them), so it can sit in a script element and
    /// the page still parses as XML.
    func dataJSON() -> String {
        let f = SVGNumber.format
        let items = ids.indices.map { k in
            let shape = shapes[k].map { "\(f($0.x, 2)),\(f($0.y, 2))" }.joined(separator: ",")
            return "{\"id\":\(Self.scriptSafe(JSONLine.quoted(ids[k]))),\"color\":\"\(Palette.color(k))\",\"shape\":[\(shape)]}"
        }
        // A track starts with the index of the item's first shown frame and ends at its last:
        // a deck of many pages stores nothing for a card before and after its page.
        let tracksText = tracks.map { track in
            let first = track.firstIndex { $0 != nil } ?? 0, last = track.lastIndex { $0 != nil } ?? -1
            let shown = first <= last ? track[first...last].map { p in p.map { "[\(f($0.x, 1)),\(f($0.y, 1)),\(f($0.angle, 4))]" } ?? "0" } : []
            return "[" + ([String(first)] + shown).joined(separator: ",") + "]"
        }
        let fingerText = fingers.map { p in p.map { "[\(f($0.x, 1)),\(f($0.y, 1))]" } ?? "0" }
        var out = "{\"items\":[\(items.joined(separator: ","))],\n\"frames\":[\(frames.map(String.init).joined(separator: ","))],\n"
        out += "\"times\":[\(times.map { f($0, 4) }.joined(separator: ","))],\n"
        out += "\"tracks\":[\(tracksText.joined(separator: ",\n"))],\n\"finger\":[\(fingerText.joined(separator: ","))],\n"
        out += linksJSON() + "}"
        return out
    }

    /// A JSON string literal with `<`, `>` and `&` as `\u` escapes: no id can close the script
    /// element or start markup.
    static func scriptSafe(_ json: String) -> String {
        var out = ""
        for c in json {
            switch c {
            case "&": out += "\\u0026"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            default: out.append(c)
            }
        }
        return out
    }

    /// The page's style: the stage at most 80 % of the window high, controls under it.
    static let style = """
        body{font-family:sans-serif;margin:16px;color:#222}h1{font-size:16px;font-weight:normal}\
        #stage{display:block;max-height:80vh;height:auto}\
        .controls{display:flex;align-items:center;gap:8px;margin-top:8px;max-width:600px}\
        #scrub{flex:1}#play{min-width:64px}#time{font-variant-numeric:tabular-nums;white-space:nowrap}
        """

    /// The links' look, inside the SVG so the stage draws the same alone or in the page (the
    /// film strip's strokes, in points of the screen).
    static let linkStyle = """
        #links line{fill:none}.rod{stroke:#333;stroke-width:1.5}\
        .spring{stroke:#555;stroke-width:1.2;stroke-dasharray:5 3}\
        .rope{stroke:#a0522d;stroke-width:2;stroke-dasharray:1 4;stroke-linecap:round}\
        .joint{stroke:#333;stroke-width:2.5}.snap{stroke:#2a9d3a;stroke-width:1;stroke-dasharray:3 2}\
        .snap-point{stroke:#2a9d3a;stroke-width:2;fill:none}.anchor{fill:#222}
        """

    /// The player: shows a frame by turning each item's stored outline to its placement and
    /// redrawing the frame's links from their ends, plays in real time from the frame shown,
    /// pauses, scrubs, and reads `#t=` for a still.
    static let player = """
        (function () {
          "use strict";
          var D = JSON.parse(document.getElementById("qix-data").textContent);
          var n = D.times.length, frame = 0, playing = false, clock0 = 0, time0 = 0;
          var play = document.getElementById("play"), scrub = document.getElementById("scrub");
          var readout = document.getElementById("time"), finger = document.getElementById("finger");
          var groups = D.items.map(function (item, k) { return document.getElementById("item-" + k); });
          var links = document.getElementById("links"), SVG = "http://www.w3.org/2000/svg";
          function at(k, f) { var track = D.tracks[k]; return f >= track[0] ? track[1 + f - track[0]] : 0; }
          function end(e, f) {
            if (e === "f") return D.finger[f] || null;
            if (e.length === 2) return e;
            var s = at(e[0], f);
            if (!s) return null;
            var c = Math.cos(s[2]), si = Math.sin(s[2]);
            return [s[0] + c * e[1] - si * e[2], s[1] + si * e[1] + c * e[2]];
          }
          function add(name, attributes) {
            var e = document.createElementNS(SVG, name);
            for (var key in attributes) e.setAttribute(key, attributes[key]);
            links.appendChild(e);
          }
          function drawLinks(f) {
            links.textContent = "";
            (D.linkSets[D.links[f]] || []).forEach(function (link) {
              var a = end(link[1], f), b = end(link[2], f);
              if (!a || !b) return;
              add("line", {"class": link[0], x1: a[0].toFixed(1), y1: a[1].toFixed(1), x2: b[0].toFixed(1), y2: b[1].toFixed(1)});
              if (link[1] === "f") return;
              if (link[1].length === 2 && link[0] === "snap") {
                add("path", {"class": "snap-point", transform: "translate(" + a[0] + " " + a[1] + ")", d: "M-6 -6L6 6M-6 6L6 -6"});
              } else if (link[1].length === 2) {
                add("rect", {"class": "anchor", x: (a[0] - 4).toFixed(1), y: (a[1] - 4).toFixed(1), width: 8, height: 8});
              }
            });
          }
          function place(k, s) {
            var shape = D.items[k].shape, c = Math.cos(s[2]), si = Math.sin(s[2]), pts = [];
            for (var i = 0; i + 1 < shape.length; i += 2) {
              pts.push((s[0] + c * shape[i] - si * shape[i + 1]).toFixed(1) + "," + (s[1] + si * shape[i] + c * shape[i + 1]).toFixed(1));
            }
            groups[k].querySelector("polygon").setAttribute("points", pts.join(" "));
            var label = groups[k].querySelector("text");
            label.setAttribute("x", s[0]);
            label.setAttribute("y", s[1]);
          }
          function show(f) {
            frame = f;
            scrub.value = String(f);
            for (var k = 0; k < groups.length; k++) {
              var s = at(k, f);
              if (s) place(k, s);
              groups[k].setAttribute("visibility", s ? "visible" : "hidden");
            }
            drawLinks(f);
            var p = D.finger[f];
            if (p) { finger.setAttribute("cx", p[0]); finger.setAttribute("cy", p[1]); }
            finger.setAttribute("visibility", p ? "visible" : "hidden");
            readout.textContent = "t = " + D.times[f].toFixed(2) + " s / " + D.times[n - 1].toFixed(2) + " s, frame " + D.frames[f];
          }
          function frameAt(t) {
            var lo = 0, hi = n - 1;
            while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (D.times[mid] <= t) lo = mid; else hi = mid - 1; }
            return lo;
          }
          function tick(now) {
            if (!playing) return;
            var f = frameAt(time0 + (now - clock0) / 1000);
            if (f !== frame) show(f);
            if (f >= n - 1) setPlaying(false); else requestAnimationFrame(tick);
          }
          function setPlaying(on) {
            playing = on && n > 1;
            play.textContent = playing ? "Pause" : "Play";
            play.setAttribute("aria-pressed", playing ? "true" : "false");
            if (!playing) return;
            if (frame >= n - 1) show(0);
            time0 = D.times[frame];
            clock0 = performance.now();
            requestAnimationFrame(tick);
          }
          play.addEventListener("click", function () { setPlaying(!playing); });
          scrub.addEventListener("input", function () { setPlaying(false); show(Number(scrub.value)); });
          document.addEventListener("keydown", function (e) {
            if (e.target !== document.body) return;
            if (e.key === " ") { e.preventDefault(); setPlaying(!playing); }
            if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
              setPlaying(false);
              show(Math.max(0, Math.min(n - 1, frame + (e.key === "ArrowRight" ? 1 : -1))));
            }
          });
          if (n === 0) return;
          var still = /[#&]t=([0-9.]+)/.exec(location.hash);
          show(still ? frameAt(Number(still[1]) + 1e-9) : 0);
          if (!still) setPlaying(true);
        })();

        """
}
