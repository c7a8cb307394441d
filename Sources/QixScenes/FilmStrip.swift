import QixDynamics
import QixMarkup

/// Draws chosen frames of a simulation side by side as an SVG film strip, so a person can look
/// at a scene: items' outlines, boundaries and the reference bounds, one panel per frame.
public struct FilmStrip {
    /// One captured frame.
    public struct Panel {
        /// Frame number.
        public var frame: Int
        /// Time (seconds).
        public var time: Double
        /// Item outlines with their ids.
        public var outlines: [(id: String, points: [Vector2])]
    }

    /// The region shown in each panel (nil: fit everything captured).
    public var viewport: Rect?
    /// Static segments drawn in every panel.
    public var segments: [(Vector2, Vector2)]
    /// Captured panels in order.
    public private(set) var panels: [Panel] = []

    /// A film strip over `viewport` with static `segments`.
    public init(viewport: Rect?, segments: [(Vector2, Vector2)]) {
        self.viewport = viewport
        self.segments = segments
    }

    /// The frame numbers (1-based) of `count` panels spread evenly over `frames` frames.
    public static func chosenFrames(count: Int, of frames: Int) -> [Int] {
        if frames <= 0 || count <= 0 { return [] }
        if count == 1 || frames == 1 { return [frames] }
        var out: [Int] = []
        for k in 0..<count {
            let f = 1 + Int((Double(k) * Double(frames - 1) / Double(count - 1)).rounded())
            if out.last != f { out.append(f) }
        }
        return out
    }

    /// Records the items' current outlines as a panel.
    public mutating func capture(frame: Int, time: Double, items: [DynamicItem]) {
        panels.append(Panel(frame: frame, time: time, outlines: items.map { ($0.identifier, $0.outline) }))
    }

    /// Adds a panel from outlines captured earlier.
    public mutating func add(frame: Int, time: Double, outlines: [(String, [Vector2])]) {
        panels.append(Panel(frame: frame, time: time, outlines: outlines.map { (id: $0.0, points: $0.1) }))
    }

    /// The region drawn: the viewport, or the box around everything captured plus a margin.
    func region() -> Rect {
        if let viewport { return viewport }
        var lo = Vector2(Double.infinity, Double.infinity), hi = Vector2(-Double.infinity, -Double.infinity)
        func include(_ p: Vector2) {
            guard p.isFinite else { return }
            lo = Vector2(min(lo.x, p.x), min(lo.y, p.y))
            hi = Vector2(max(hi.x, p.x), max(hi.y, p.y))
        }
        for panel in panels { for o in panel.outlines { for p in o.points { include(p) } } }
        for s in segments { include(s.0); include(s.1) }
        if !lo.isFinite { return Rect(x: 0, y: 0, width: 100, height: 100) }
        let margin = 0.05 * max(hi.x - lo.x, hi.y - lo.y, 1)
        return Rect(x: lo.x - margin, y: lo.y - margin, width: hi.x - lo.x + 2 * margin, height: hi.y - lo.y + 2 * margin)
    }

    static func fmt(_ x: Double) -> String {
        let r = (x * 100).rounded() / 100
        // Whole numbers print without ".0"; beyond 1e15 (or not finite) `String` prints the
        // Double itself, since converting it to Int64 would trap past 9.2e18.
        return r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : String(r)
    }

    /// The SVG document.
    public func svg(panelWidth: Double = 240, columns: Int = 4) -> String {
        let area = region()
        let scale = panelWidth / area.size.x
        let panelHeight = area.size.y * scale
        let gap = 12.0, label = 18.0
        let cols = max(1, min(columns, panels.count))
        let rows = max(1, (panels.count + cols - 1) / cols)
        let width = Double(cols) * (panelWidth + gap) + gap
        let height = Double(rows) * (panelHeight + label + gap) + gap
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.fmt(width))\" height=\"\(Self.fmt(height))\" "
        out += "viewBox=\"0 0 \(Self.fmt(width)) \(Self.fmt(height))\" font-family=\"sans-serif\" font-size=\"11\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]
        for (k, panel) in panels.enumerated() {
            let x0 = gap + Double(k % cols) * (panelWidth + gap)
            let y0 = gap + Double(k / cols) * (panelHeight + label + gap)
            func map(_ p: Vector2) -> String {
                "\(Self.fmt(x0 + (p.x - area.origin.x) * scale)),\(Self.fmt(y0 + label + (p.y - area.origin.y) * scale))"
            }
            out += "<g>\n<text x=\"\(Self.fmt(x0))\" y=\"\(Self.fmt(y0 + 12))\">frame \(panel.frame), t = \(Self.fmt(panel.time)) s</text>\n"
            out += "<rect x=\"\(Self.fmt(x0))\" y=\"\(Self.fmt(y0 + label))\" width=\"\(Self.fmt(panelWidth))\" height=\"\(Self.fmt(panelHeight))\" fill=\"#f7f7f7\" stroke=\"#999\"/>\n"
            for s in segments {
                out += "<polyline points=\"\(map(s.0)) \(map(s.1))\" stroke=\"#333\" stroke-width=\"2\" fill=\"none\"/>\n"
            }
            for (i, o) in panel.outlines.enumerated() {
                let color = palette[i % palette.count]
                out += "<polygon points=\"\(o.points.map(map).joined(separator: " "))\" fill=\"\(color)\" fill-opacity=\"0.25\" stroke=\"\(color)\"><title>\(XMLText.escape(o.id))</title></polygon>\n"
            }
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }
}
