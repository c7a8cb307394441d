import QixDynamics
import QixMarkup

/// A self-contained HTML player of a run: the items' outlines with their ids and the finger,
/// with play and pause, a scrubber and a time readout. Each frame stores only every item's
/// centre and angle (its outline is stored once), so an hour-long deck stays a small file, and
/// every item is always one polygon of its own point count: a hidden item is hidden, never
/// squashed into a different polygon (which Chromium drew as stray lines).
public struct OutlineAnimation {
    /// Where an item is in one frame: centre and angle, rounded as the file writes them.
    struct Placement: Equatable {
        var x: Double, y: Double, angle: Double
    }

    /// The region shown.
    public var viewport: Rect
    /// Item ids in order of first appearance (their colour indices).
    private(set) var ids: [String] = []
    /// Each item's outline relative to its centre at angle 0.
    private(set) var shapes: [[Vector2]] = []
    /// `tracks[item][frame]`: the item's placement, nil while it is not on screen.
    private(set) var tracks: [[Placement?]] = []
    /// Each captured frame's number and time.
    private(set) var frames: [Int] = []
    private(set) var times: [Double] = []
    /// The finger in each captured frame, if one is down.
    private(set) var fingers: [Vector2?] = []
    /// The distinct sets of links, and which one each captured frame shows.
    private(set) var linkSets: [[Link]] = []
    private(set) var linkSetIndex: [[Link]: Int] = [:]
    private(set) var linkFrames: [Int] = []

    /// An animation of `viewport`.
    public init(viewport: Rect) {
        self.viewport = viewport
    }

    /// The number of frames captured.
    public var frameCount: Int { frames.count }

    /// Records frame `frame` at `time`: the `items` on screen (others are hidden in it), the
    /// joints, ropes and snaps of `behaviors` between them, and the `finger`.
    public mutating func capture(frame: Int, time: Double, items: [DynamicItem], behaviors: [DynamicBehavior] = [], finger: Vector2? = nil) {
        for item in items where !ids.contains(item.identifier) {
            ids.append(item.identifier)
            // The outline turned back to angle 0 about the centre: the shape the player turns.
            let q = Rotation(angle: item.angle)
            shapes.append(item.outline.map { p in
                let v = q.inverseRotate(p - item.center)
                return Vector2(Self.round(v.x, 2), Self.round(v.y, 2))
            })
            tracks.append(Array(repeating: nil, count: frames.count))
        }
        for k in ids.indices {
            let item = items.first { $0.identifier == ids[k] }
            tracks[k].append(item.map { Placement(x: Self.round($0.center.x, 1), y: Self.round($0.center.y, 1), angle: Self.round($0.angle, 4)) })
        }
        frames.append(frame)
        times.append(time)
        fingers.append(finger.map { Vector2(Self.round($0.x, 1), Self.round($0.y, 1)) })
        let set = links(of: behaviors, finger: finger)
        if linkSetIndex[set] == nil {
            linkSetIndex[set] = linkSets.count
            linkSets.append(set)
        }
        linkFrames.append(linkSetIndex[set] ?? 0)
    }

    /// `x` rounded to `decimals` places, so the SVG, the data and the player agree exactly.
    static func round(_ x: Double, _ decimals: Int) -> Double {
        guard x.isFinite else { return 0 }
        return Double(SVGNumber.format(x, decimals: decimals)) ?? 0
    }

    /// The outline of item `k` placed at `p`, as an SVG `points` list (one pair per corner).
    func points(_ k: Int, at p: Placement) -> String {
        let q = Rotation(angle: p.angle)
        return shapes[k].map { v in
            let w = Vector2(p.x, p.y) + q.rotate(v)
            return "\(SVGNumber.format(w.x, decimals: 1)),\(SVGNumber.format(w.y, decimals: 1))"
        }.joined(separator: " ")
    }

    /// The stage as a static SVG showing frame `index` (0-based), with the element ids the
    /// player moves: `links` (lines, anchors, snap points), `item-K` groups (polygon and
    /// label) and `finger`.
    public func svg(frame index: Int = 0) -> String {
        let v = viewport, f = SVGNumber.format
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"stage\" viewBox=\"\(f(v.origin.x, 2)) \(f(v.origin.y, 2)) \(f(v.size.x, 2)) \(f(v.size.y, 2))\" "
        out += "width=\"\(f(min(v.size.x, 600), 2))\" font-family=\"sans-serif\" font-size=\"20\">\n"
        out += "<style>\(Self.linkStyle)</style>\n"
        out += "<rect x=\"\(f(v.origin.x, 2))\" y=\"\(f(v.origin.y, 2))\" width=\"\(f(v.size.x, 2))\" height=\"\(f(v.size.y, 2))\" fill=\"#f4f4f4\" stroke=\"#999\"/>\n"
        // Lines under the cards, whose fills are translucent, so the ids stay readable on top.
        out += "<g id=\"links\">\(linkElements(frame: index))</g>\n"
        for k in ids.indices {
            let shown = index < frames.count ? tracks[k][index] : nil
            // A hidden item keeps the placement of a frame where it is shown, so its polygon
            // always has its own point count.
            guard let place = shown ?? tracks[k].lazy.compactMap({ $0 }).first else { continue }
            let color = Palette.color(k)
            out += "<g id=\"item-\(k)\" class=\"item\" visibility=\"\(shown == nil ? "hidden" : "visible")\">"
            out += "<polygon points=\"\(points(k, at: place))\" fill=\"\(color)\" fill-opacity=\"0.35\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            out += "<text class=\"label\" x=\"\(f(place.x, 1))\" y=\"\(f(place.y, 1))\" text-anchor=\"middle\" dominant-baseline=\"central\" font-weight=\"bold\" "
            out += "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">\(XMLText.escape(ids[k]))</text></g>\n"
        }
        let finger = index < fingers.count ? fingers[index] : nil
        out += "<circle id=\"finger\" cx=\"\(f(finger?.x ?? 0, 1))\" cy=\"\(f(finger?.y ?? 0, 1))\" r=\"\(f(SketchDrawing.fingerRadius, 1))\" "
        out += "visibility=\"\(finger == nil ? "hidden" : "visible")\" fill=\"#e63946\" fill-opacity=\"0.35\" stroke=\"#e63946\" stroke-width=\"2\"/>\n"
        return out + "</svg>\n"
    }

    /// The self-contained HTML page (no external scripts or styles) that plays the run. It
    /// starts playing; `#t=SECONDS` in the address shows that time paused instead.
    public func html(title: String) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>\(XMLText.escape(title))</title>\n"
        out += "<style>\(Self.style)</style></head>\n<body>\n<h1>\(XMLText.escape(title))</h1>\n"
        out += svg(frame: 0)
        out += "<div class=\"controls\"><button id=\"play\" type=\"button\" aria-pressed=\"false\">Play</button>"
        out += "<input id=\"scrub\" type=\"range\" min=\"0\" max=\"\(max(0, frames.count - 1))\" step=\"1\" value=\"0\" aria-label=\"frame\"/>"
        out += "<output id=\"time\">\(readout(0))</output></div>\n"
        out += "<script type=\"application/json\" id=\"qix-data\">\(dataJSON())</script>\n"
        out += "<script>//<![CDATA[\n\(Self.player)//]]>\n</script>\n</body></html>\n"
        return out
    }

    /// The time readout of frame `index`, as the player writes it.
    func readout(_ index: Int) -> String {
        guard index < frames.count, let last = times.last else { return "t = 0.00 s" }
        return "t = \(Self.fixed(times[index])) s / \(Self.fixed(last)) s, frame \(frames[index])"
    }

    /// `x` with exactly two decimals, as JavaScript's `toFixed(2)` writes it.
    static func fixed(_ x: Double) -> String {
        let hundredths = Int64((x * 100).rounded())
        let whole = hundredths / 100, rest = abs(hundredths % 100)
        return "\(hundredths < 0 && whole == 0 ? "-" : "")\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }
}
