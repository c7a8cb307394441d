import QixDynamics
import QixMarkup

/// Draws chosen frames of a simulation side by side as an SVG film strip, so a person can look
/// at a scene: items' outlines with their ids, joints, ropes, anchors, snap points, the finger,
/// boundaries and the reference bounds, one clipped panel per frame with its frame and time.
public struct FilmStrip {
    /// One captured frame.
    public struct Panel {
        /// Frame number.
        public var frame: Int
        /// Time (seconds).
        public var time: Double
        /// What the frame shows.
        public var sketch: FrameSketch
        /// Item outlines with their ids.
        public var outlines: [(id: String, points: [Vector2])] { sketch.outlines.map { ($0.id, $0.points) } }
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

    /// Records the items' current outlines, the joints and snap points of `behaviors`, and the
    /// `finger`, as a panel.
    public mutating func capture(frame: Int, time: Double, items: [DynamicItem], behaviors: [DynamicBehavior] = [], finger: Vector2? = nil) {
        add(frame: frame, time: time, sketch: FrameSketch(items: items, behaviors: behaviors, finger: finger))
    }

    /// Adds a panel from outlines captured earlier (labels at each outline's mean corner).
    public mutating func add(frame: Int, time: Double, outlines: [(String, [Vector2])]) {
        let shapes = outlines.map { id, points in
            FrameSketch.Outline(id: id, points: points, center: (1 / Double(max(points.count, 1))) * points.reduce(.zero, +))
        }
        add(frame: frame, time: time, sketch: FrameSketch(outlines: shapes))
    }

    /// Adds a panel from a sketch captured earlier.
    public mutating func add(frame: Int, time: Double, sketch: FrameSketch) {
        panels.append(Panel(frame: frame, time: time, sketch: sketch))
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
        for panel in panels { for p in panel.sketch.allPoints { include(p) } }
        for s in segments { include(s.0); include(s.1) }
        if !lo.isFinite { return Rect(x: 0, y: 0, width: 100, height: 100) }
        let margin = 0.05 * max(hi.x - lo.x, hi.y - lo.y, 1)
        return Rect(x: lo.x - margin, y: lo.y - margin, width: hi.x - lo.x + 2 * margin, height: hi.y - lo.y + 2 * margin)
    }

    static func fmt(_ x: Double) -> String { SVGNumber.format(x) }

    /// Each item id's colour index: its order of first appearance in the strip, so a card keeps
    /// its colour from panel to panel and the HTML player gives it the same one.
    func colorIndices() -> [String: Int] {
        var out: [String: Int] = [:]
        for panel in panels { for o in panel.sketch.outlines where out[o.id] == nil { out[o.id] = out.count } }
        return out
    }

    /// The SVG document.
    public func svg(panelWidth: Double = 240, columns: Int = 4) -> String {
        let layout = Layout(area: region(), panelWidth: panelWidth, columns: columns, panelCount: panels.count,
                            legendEntries: legendEntries().count)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.fmt(layout.width))\" height=\"\(Self.fmt(layout.height))\" "
        out += "viewBox=\"0 0 \(Self.fmt(layout.width)) \(Self.fmt(layout.height))\" font-family=\"sans-serif\" font-size=\"11\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<defs>\n"
        for k in panels.indices {
            let box = layout.panelBox(k)
            out += "<clipPath id=\"panel-\(k + 1)\"><rect x=\"\(Self.fmt(box.origin.x))\" y=\"\(Self.fmt(box.origin.y))\" "
            out += "width=\"\(Self.fmt(box.size.x))\" height=\"\(Self.fmt(box.size.y))\"/></clipPath>\n"
        }
        out += "</defs>\n"
        let colors = colorIndices()
        for k in panels.indices { out += panel(k, layout: layout, colors: colors) }
        out += legend(layout: layout)
        return out + "</svg>\n"
    }

    /// One panel: its caption, its frame, and everything inside clipped to the frame, so items
    /// beyond the region do not spill over the neighbouring panels.
    func panel(_ k: Int, layout: Layout, colors: [String: Int]) -> String {
        let panel = panels[k], box = layout.panelBox(k)
        let drawing = SketchDrawing(origin: layout.area.origin, offset: box.origin, scale: layout.scale, colorIndex: colors)
        var out = "<g class=\"panel\" data-frame=\"\(panel.frame)\">\n"
        out += "<text class=\"caption\" x=\"\(Self.fmt(box.origin.x))\" y=\"\(Self.fmt(box.origin.y - 6))\">"
        out += "frame \(panel.frame), t = \(SVGNumber.format(panel.time, decimals: 3)) s</text>\n"
        out += "<rect x=\"\(Self.fmt(box.origin.x))\" y=\"\(Self.fmt(box.origin.y))\" width=\"\(Self.fmt(box.size.x))\" "
        out += "height=\"\(Self.fmt(box.size.y))\" fill=\"#f7f7f7\" stroke=\"#999\"/>\n"
        out += "<g clip-path=\"url(#panel-\(k + 1))\">\n"
        for s in segments {
            out += "<polyline class=\"boundary\" points=\"\(drawing.pair(s.0)) \(drawing.pair(s.1))\" stroke=\"#333\" stroke-width=\"2\" fill=\"none\"/>\n"
        }
        out += drawing.elements(panel.sketch)
        return out + "</g>\n</g>\n"
    }
}
