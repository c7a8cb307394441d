import QixDynamics
import QixMarkup

/// Writes a `FrameSketch` as SVG elements into one panel: reference coordinates mapped by a
/// scale and an offset, colours by item id, marker sizes in picture pixels so they read the
/// same at any zoom.
struct SketchDrawing {
    /// The reference point drawn at the panel's top-left corner.
    var origin: Vector2
    /// Where that corner lies in the picture.
    var offset: Vector2
    /// Picture pixels per point.
    var scale: Double
    /// Each item id's colour index (stable across panels, so a card keeps its colour).
    var colorIndex: [String: Int]

    /// A finger's contact patch is about 44 points across (Apple's minimum touch target).
    static let fingerRadius = 22.0

    /// The picture coordinates of reference point `p`.
    func map(_ p: Vector2) -> (x: String, y: String) {
        (SVGNumber.format(offset.x + (p.x - origin.x) * scale), SVGNumber.format(offset.y + (p.y - origin.y) * scale))
    }

    /// `x,y` of reference point `p`, for `points` lists.
    func pair(_ p: Vector2) -> String {
        let m = map(p)
        return "\(m.x),\(m.y)"
    }

    /// The stroke attributes of each link style.
    static func strokeAttributes(_ style: FrameSketch.LinkStyle) -> String {
        switch style {
        case .rod: return "stroke=\"#333\" stroke-width=\"1.5\""
        case .spring: return "stroke=\"#555\" stroke-width=\"1.2\" stroke-dasharray=\"5 3\""
        case .rope: return "stroke=\"#a0522d\" stroke-width=\"1.6\" stroke-dasharray=\"1 3\" stroke-linecap=\"round\""
        case .joint: return "stroke=\"#333\" stroke-width=\"2.5\""
        case .snap: return "stroke=\"#2a9d3a\" stroke-width=\"1\" stroke-dasharray=\"3 2\""
        }
    }

    /// The whole sketch: outlines, links, anchors, snap points, labels, then the finger on top.
    func elements(_ sketch: FrameSketch) -> String {
        var out = ""
        for o in sketch.outlines {
            let color = Palette.color(colorIndex[o.id] ?? 0)
            out += "<polygon class=\"item\" data-id=\"\(XMLText.escape(o.id))\" points=\"\(o.points.map(pair).joined(separator: " "))\" "
            out += "fill=\"\(color)\" fill-opacity=\"0.25\" stroke=\"\(color)\" stroke-width=\"1.5\"><title>\(XMLText.escape(o.id))</title></polygon>\n"
        }
        for link in sketch.links { out += line(link) }
        for a in sketch.anchors { out += anchor(a) }
        for s in sketch.snapPoints { out += snapPoint(s) }
        for o in sketch.outlines { out += label(o) }
        if let finger = sketch.finger { out += fingerMark(finger) }
        return out
    }

    /// One link as a `<line>` whose class names its style.
    func line(_ link: FrameSketch.Link) -> String {
        let a = map(link.from), b = map(link.to)
        return "<line class=\"\(link.style.rawValue)\" x1=\"\(a.x)\" y1=\"\(a.y)\" x2=\"\(b.x)\" y2=\"\(b.y)\" \(Self.strokeAttributes(link.style))/>\n"
    }

    /// An anchor: a small dark square.
    func anchor(_ p: Vector2) -> String {
        let m = map(p)
        return "<rect class=\"anchor\" x=\"\(m.x)\" y=\"\(m.y)\" width=\"6\" height=\"6\" transform=\"translate(-3 -3)\" fill=\"#222\"/>\n"
    }

    /// A snap point: a green cross.
    func snapPoint(_ p: Vector2) -> String {
        let m = map(p)
        return "<path class=\"snap-point\" transform=\"translate(\(m.x) \(m.y))\" d=\"M-4 -4L4 4M-4 4L4 -4\" stroke=\"#2a9d3a\" stroke-width=\"2\" fill=\"none\"/>\n"
    }

    /// An item's id at its centre, haloed in white so it reads over lines and other cards.
    func label(_ o: FrameSketch.Outline) -> String {
        let m = map(o.center)
        return "<text class=\"label\" x=\"\(m.x)\" y=\"\(m.y)\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"12\" font-weight=\"bold\" "
            + "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">\(XMLText.escape(o.id))</text>\n"
    }

    /// The finger: a translucent red disc of a fingertip's size (at least 5 pixels).
    func fingerMark(_ p: Vector2) -> String {
        let m = map(p)
        let r = SVGNumber.format(max(5, Self.fingerRadius * scale))
        return "<circle class=\"finger\" cx=\"\(m.x)\" cy=\"\(m.y)\" r=\"\(r)\" fill=\"#e63946\" fill-opacity=\"0.35\" stroke=\"#e63946\" stroke-width=\"1.5\"/>\n"
    }
}
