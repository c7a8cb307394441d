/// The timeline page's inline script: view and page switching, zoom (buttons, wheel, drag,
/// reset) and filters by channel and ID, all kept in the URL's hash so a view can be linked.
///
/// Progressive enhancement: without it the page shows every view in full, drawn by Swift;
/// with it, one view at a time, redrawn from the instants each element carries. Its tick
/// ladder, label placement and mark placement mirror `TimelineAxis` and `TimelineMarks`
/// (the numbers are written in from them), so a zoomed drawing reads like a static one.
enum TimelineScript {
    /// The script's text.
    static var source: String {
        let constants = """
            var C = {left: \(TimelineChart.left), width: \(TimelineChart.width), right: \(TimelineChart.right), \
            lane: \(TimelineChart.lane), top: \(TimelineChart.top), axis: \(TimelineChart.axisHeight), \
            font: \(TimelineAxis.fontSize), minWidth: \(TimelineMarks.minimumWidth), separation: \(TimelineMarks.separation)};
            var LADDER = [\(TimelineAxis.ladder.map { String(Int($0)) }.joined(separator: ", "))], WEEK_ORIGIN = \(Int(TimelineAxis.weekOrigin));

            """
        return "(function () {\n\"use strict\";\n" + constants + drawing + controls + "})();\n"
    }

    /// `TimelineAxis.minimumSpacing` of `step`, written into the script.
    static func spacing(_ step: Double) -> String { String(Int(TimelineAxis.minimumSpacing(step))) }

    /// Ticks, labels and marks, as `TimelineAxis`, `TimelineMarks` and `TimelineChart` draw them.
    static let drawing = #"""
        var SVGNS = "http://www.w3.org/2000/svg";
        function all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
        function fmt(v) { return String(Math.round(v * 100) / 100); }
        function spacing(step) { return step >= 86400 ? \#(spacing(86_400)) : step < 60 ? \#(spacing(1)) : \#(spacing(60)); }
        function stepFor(span, width) {
          span = Math.max(span, 1);
          for (var i = 0; i < LADDER.length; i++) if (LADDER[i] / span * width >= spacing(LADDER[i])) return LADDER[i];
          return LADDER[LADDER.length - 1];
        }
        function ticks(from, to, width) {
          var step = stepFor(to - from, width), origin = step >= 604800 ? WEEK_ORIGIN : 0, out = [];
          var first = Math.ceil((from - origin) / step) * step + origin;
          for (var k = 0; first + k * step <= to + 1e-6; k++) {
            var t = first + k * step, s = new Date(t * 1000).toISOString();
            var label = step < 60 ? s.slice(11, 19) : step < 86400 ? s.slice(11, 16) : s.slice(0, 10);
            out.push({t: t, label: label, date: step < 86400 && (k === 0 || t % 86400 === 0) ? s.slice(0, 10) : null});
          }
          return out;
        }
        function textWidth(text) { return text.length * C.font * 0.62; }
        function placeLabel(x, width, lo, hi) {
          if (x - width / 2 < lo) return [Math.max(x, lo), "start"];
          if (x + width / 2 > hi) return [Math.min(x, hi), "end"];
          return [x, "middle"];
        }
        function placeMarks(spans, lo, hi) {
          var placed = [];
          spans.forEach(function (span) {
            var x = span.x, last = placed[placed.length - 1];
            if (last) {
              x = Math.max(x, last.x + C.minWidth + C.separation);
              last.width = Math.min(last.width, x - C.separation - last.x);
            }
            placed.push({x: x, width: Math.max(span.width, C.minWidth)});
          });
          for (var i = placed.length - 1, limit = hi; i >= 0; i -= 1) {
            placed[i].x = Math.max(lo, Math.min(placed[i].x, limit - placed[i].width));
            limit = placed[i].x - C.separation;
          }
          return placed;
        }
        function overlaps(t0, t1, from, to) { return t0 < to && (t0 >= from || t1 > from); }
        function add(parent, name, attributes, text) {
          var e = document.createElementNS(SVGNS, name);
          for (var key in attributes) e.setAttribute(key, attributes[key]);
          if (text) e.textContent = text;
          parent.appendChild(e);
        }
        function show(node, on) { if (on) node.removeAttribute("display"); else node.setAttribute("display", "none"); }
        function drawTicks(svg, from, to, bottom) {
          var g = svg.querySelector("g.ticks"), hi = C.left + C.width + C.right - 2;
          g.textContent = "";
          ticks(from, to, C.width).forEach(function (tick) {
            var x = C.left + C.width * (tick.t - from) / (to - from);
            var at = placeLabel(x, textWidth(tick.label), 2, hi);
            add(g, "line", {x1: fmt(x), y1: C.top, x2: fmt(x), y2: fmt(bottom + 4)});
            add(g, "text", {x: fmt(at[0]), y: fmt(bottom + 15), "text-anchor": at[1]}, tick.label);
            if (!tick.date) return;
            var under = placeLabel(x, textWidth(tick.date), 2, hi);
            add(g, "text", {"class": "date", x: fmt(under[0]), y: fmt(bottom + 28), "text-anchor": under[1]}, tick.date);
          });
        }
        function t(node, name) { return +node.getAttribute(name); }
        function layoutLane(lane, from, to) {
          var scale = function (s) { return C.left + C.width * (Math.min(Math.max(s, from), to) - from) / (to - from); };
          all("rect.coverage, rect.gap", lane).forEach(function (r) {
            var inside = overlaps(t(r, "data-t0"), t(r, "data-t1"), from, to);
            show(r, inside);
            if (!inside) return;
            r.setAttribute("x", fmt(scale(t(r, "data-t0"))));
            r.setAttribute("width", fmt(Math.max(1, scale(t(r, "data-t1")) - scale(t(r, "data-t0")))));
          });
          var marks = all("rect.airing", lane).filter(function (r) {
            var on = idShown(r.getAttribute("data-id")) && overlaps(t(r, "data-t0"), t(r, "data-t1"), from, to);
            show(r, on);
            return on;
          });
          marks.sort(function (a, b) { return t(a, "data-t0") - t(b, "data-t0") || (a.getAttribute("data-id") < b.getAttribute("data-id") ? -1 : 1); });
          var spans = marks.map(function (r) { var a = scale(t(r, "data-t0")); return {x: a, width: scale(t(r, "data-t1")) - a}; });
          placeMarks(spans, C.left, C.left + C.width).forEach(function (p, i) {
            marks[i].setAttribute("x", fmt(p.x));
            marks[i].setAttribute("width", fmt(p.width));
          });
        }
        function layout(svg) {
          var from = svg.qixWindow[0], to = svg.qixWindow[1], y = C.top;
          all("g.lane", svg).forEach(function (lane) {
            var on = channelShown(lane.getAttribute("data-channel"));
            show(lane, on);
            if (!on) return;
            lane.setAttribute("transform", "translate(0 " + fmt(y) + ")");
            layoutLane(lane, from, to);
            y += C.lane;
          });
          var width = C.left + C.width + C.right, height = y + C.axis;
          svg.setAttribute("height", fmt(height));
          svg.setAttribute("viewBox", "0 0 " + fmt(width) + " " + fmt(height));
          svg.setAttribute("data-shown-from", fmt(from));
          svg.setAttribute("data-shown-to", fmt(to));
          drawTicks(svg, from, to, y);
          svg.qixFilter = filterKey();
        }

        """#

    /// State, URL hash, buttons, checkboxes, wheel and drag.
    static let controls = #"""
        var state = {view: "overall", channels: null, ids: null}, page = {week: null, day: null};
        var charts = all("svg.timeline"), channelBoxes = all("#channel-filter input"), idBoxes = all("#id-filter input");
        function filterKey() { return JSON.stringify([state.channels, state.ids]); }
        function channelShown(name) { return !state.channels || state.channels.indexOf(name) >= 0; }
        function idShown(id) { return !state.ids || state.ids.indexOf(id) >= 0; }
        function visibleCharts() {
          return charts.filter(function (svg) { var f = svg.closest("figure"); return !f.hidden && !f.closest("section").hidden; });
        }
        function setWindow(svg, from, to) {
          var lo = t(svg, "data-from"), hi = t(svg, "data-to"), span = Math.min(Math.max(to - from, 60), hi - lo);
          from = Math.min(Math.max(from, lo), hi - span);
          svg.qixWindow = [from, from + span];
          layout(svg);
        }
        function zoom(svg, factor, at) {
          var w = svg.qixWindow;
          if (at == null) at = (w[0] + w[1]) / 2;
          setWindow(svg, at - (at - w[0]) * factor, at + (w[1] - at) * factor);
        }
        function timeAt(svg, clientX) {
          var box = svg.getBoundingClientRect(), w = svg.qixWindow;
          var x = (clientX - box.left) * (C.left + C.width + C.right) / box.width;
          return w[0] + (x - C.left) / C.width * (w[1] - w[0]);
        }
        function readHash() {
          var h = {};
          location.hash.replace(/^#/, "").split("&").forEach(function (part) {
            var i = part.indexOf("=");
            if (part) h[i < 0 ? part : part.slice(0, i)] = i < 0 ? "" : part.slice(i + 1);
          });
          function list(v) { return v == null ? null : v === "" ? [] : v.split(",").map(decodeURIComponent); }
          state.view = ["overall", "week", "day", "all"].indexOf(h.view) >= 0 ? h.view : "overall";
          if (h.page && page.hasOwnProperty(state.view)) page[state.view] = decodeURIComponent(h.page);
          state.channels = list(h.channel);
          state.ids = list(h.id);
          return {from: h.from && Date.parse(decodeURIComponent(h.from)) / 1000, to: h.to && Date.parse(decodeURIComponent(h.to)) / 1000};
        }
        function writeHash() {
          var parts = [], shown = visibleCharts();
          if (state.view !== "overall") parts.push("view=" + state.view);
          if (page[state.view]) parts.push("page=" + encodeURIComponent(page[state.view]));
          if (state.channels) parts.push("channel=" + state.channels.map(encodeURIComponent).join(","));
          if (state.ids) parts.push("id=" + state.ids.map(encodeURIComponent).join(","));
          if (shown.length === 1 && (shown[0].qixWindow[0] > t(shown[0], "data-from") || shown[0].qixWindow[1] < t(shown[0], "data-to"))) {
            parts.push("from=" + new Date(Math.round(shown[0].qixWindow[0]) * 1000).toISOString().replace(".000Z", "Z"));
            parts.push("to=" + new Date(Math.round(shown[0].qixWindow[1]) * 1000).toISOString().replace(".000Z", "Z"));
          }
          try { history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname + location.search); } catch (e) {}
        }
        function showPages() {
          all("section.view").forEach(function (s) { s.hidden = state.view !== "all" && s.id !== "view-" + state.view; });
          Object.keys(page).forEach(function (view) {
            var figures = all("#view-" + view + " figure");
            if (!figures.some(function (f) { return f.getAttribute("data-page") === page[view]; })) page[view] = figures.length ? figures[0].getAttribute("data-page") : null;
            figures.forEach(function (f) { f.hidden = state.view !== "all" && f.getAttribute("data-page") !== page[view]; });
          });
          all("#views button").forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-view") === state.view)); });
          document.getElementById("pager").hidden = !page.hasOwnProperty(state.view);
          if (page.hasOwnProperty(state.view)) {
            var keys = all("#view-" + state.view + " figure").map(function (f) { return f.getAttribute("data-page"); });
            document.getElementById("page").textContent = (keys.indexOf(page[state.view]) + 1) + " of " + keys.length;
          }
        }
        function apply() {
          showPages();
          channelBoxes.forEach(function (box) { box.checked = channelShown(box.value); });
          idBoxes.forEach(function (box) { box.checked = idShown(box.value); });
          // Only what is on screen is redrawn, and only when the filters changed since it was
          // drawn: a year's report holds hundreds of drawings and tens of thousands of marks.
          visibleCharts().forEach(function (svg) { if (svg.qixFilter !== filterKey()) layout(svg); });
          var shown = 0, rows = all("table.airings tbody tr");
          rows.forEach(function (row) {
            row.hidden = !(idShown(row.getAttribute("data-id")) && channelShown(row.getAttribute("data-channel")));
            if (!row.hidden) shown += 1;
          });
          all("table.coverage tbody tr").forEach(function (row) { row.hidden = !channelShown(row.getAttribute("data-channel")); });
          document.getElementById("shown").textContent = shown + " of " + rows.length + " airings shown";
        }
        function fromHash() {
          var zoomed = readHash();
          apply();
          if (zoomed.from && zoomed.to) visibleCharts().forEach(function (svg) { setWindow(svg, zoomed.from, zoomed.to); });
        }
        function turnPage(step) {
          var figures = all("#view-" + state.view + " figure"), keys = figures.map(function (f) { return f.getAttribute("data-page"); });
          var k = Math.min(Math.max(keys.indexOf(page[state.view]) + step, 0), keys.length - 1);
          page[state.view] = keys[k];
          apply();
          writeHash();
        }
        function checked(boxes) {
          var on = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
          return on.length === boxes.length ? null : on;
        }
        function onClick(id, action) { document.getElementById(id).addEventListener("click", function () { action(); writeHash(); }); }
        charts.forEach(function (svg) {
          svg.qixWindow = [t(svg, "data-from"), t(svg, "data-to")];
          svg.qixFilter = filterKey();
          svg.setAttribute("data-shown-from", svg.getAttribute("data-from"));
          svg.setAttribute("data-shown-to", svg.getAttribute("data-to"));
          svg.addEventListener("wheel", function (e) {
            e.preventDefault();
            zoom(svg, e.deltaY < 0 ? 0.8 : 1.25, timeAt(svg, e.clientX));
            writeHash();
          }, {passive: false});
          var drag = null;
          svg.addEventListener("pointerdown", function (e) { drag = {x: e.clientX, window: svg.qixWindow.slice()}; svg.setPointerCapture(e.pointerId); });
          svg.addEventListener("pointermove", function (e) {
            if (!drag) return;
            var shift = timeAt(svg, drag.x) - timeAt(svg, e.clientX);
            setWindow(svg, drag.window[0] + shift, drag.window[1] + shift);
          });
          svg.addEventListener("pointerup", function () { drag = null; writeHash(); });
        });
        all("#views button").forEach(function (b) {
          b.addEventListener("click", function () { state.view = b.getAttribute("data-view"); apply(); writeHash(); });
        });
        onClick("prev", function () { turnPage(-1); });
        onClick("next", function () { turnPage(1); });
        onClick("zoom-in", function () { visibleCharts().forEach(function (svg) { zoom(svg, 0.5); }); });
        onClick("zoom-out", function () { visibleCharts().forEach(function (svg) { zoom(svg, 2); }); });
        onClick("pan-left", function () { visibleCharts().forEach(function (svg) { var w = svg.qixWindow, d = (w[1] - w[0]) / 4; setWindow(svg, w[0] - d, w[1] - d); }); });
        onClick("pan-right", function () { visibleCharts().forEach(function (svg) { var w = svg.qixWindow, d = (w[1] - w[0]) / 4; setWindow(svg, w[0] + d, w[1] + d); }); });
        onClick("zoom-reset", function () { visibleCharts().forEach(function (svg) { setWindow(svg, t(svg, "data-from"), t(svg, "data-to")); }); });
        onClick("ids-all", function () { state.ids = null; apply(); });
        onClick("ids-none", function () { state.ids = []; apply(); });
        document.getElementById("channel-filter").addEventListener("change", function () { state.channels = checked(channelBoxes); apply(); writeHash(); });
        document.getElementById("id-filter").addEventListener("change", function () { state.ids = checked(idBoxes); apply(); writeHash(); });
        window.addEventListener("hashchange", fromHash);
        document.getElementById("controls").hidden = false;
        fromHash();

        """#
}
