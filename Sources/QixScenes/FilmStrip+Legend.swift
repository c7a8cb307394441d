import QixDynamics

extension FilmStrip {
    /// One symbol the strip uses, with the word that explains it.
    enum LegendEntry: Equatable {
        case link(FrameSketch.LinkStyle)
        case anchor, snapPoint, finger

        /// The word under the symbol.
        var word: String {
            switch self {
            case .link(let style): return style == .snap ? "snap pull" : style.rawValue
            case .anchor: return "anchor"
            case .snapPoint: return "snap point"
            case .finger: return "finger"
            }
        }
    }

    /// The symbols some panel draws, in a fixed order (a legend for absent symbols is noise).
    func legendEntries() -> [LegendEntry] {
        let sketches = panels.map(\.sketch)
        var out: [LegendEntry] = FrameSketch.LinkStyle.allCases.filter { style in
            sketches.contains { $0.links.contains { $0.style == style } }
        }.map { .link($0) }
        if sketches.contains(where: { !$0.anchors.isEmpty }) { out.append(.anchor) }
        if sketches.contains(where: { !$0.snapPoints.isEmpty }) { out.append(.snapPoint) }
        if sketches.contains(where: { $0.finger != nil }) { out.append(.finger) }
        return out
    }

    /// The legend rows under the panels, wrapped to the picture's width.
    func legend(layout: Layout) -> String {
        let entries = legendEntries()
        if entries.isEmpty { return "" }
        let perRow = max(1, Int((layout.width - 2 * layout.gap) / Layout.legendEntryWidth))
        let top = layout.height - layout.legendHeight
        var out = "<g class=\"legend\">\n"
        for (k, entry) in entries.enumerated() {
            let x = layout.gap + Double(k % perRow) * Layout.legendEntryWidth
            let y = top + Double(k / perRow) * 20 + 10
            // Symbols are drawn by the panels' own code at a scale of 1, so the legend shows
            // exactly what the panels show.
            let drawing = SketchDrawing(origin: .zero, offset: Vector2(x, y), scale: 1, colorIndex: [:])
            switch entry {
            case .link(let style): out += drawing.line(FrameSketch.Link(style: style, from: .zero, to: Vector2(22, 0)))
            case .anchor: out += drawing.anchor(Vector2(11, 0))
            case .snapPoint: out += drawing.snapPoint(Vector2(11, 0))
            case .finger:
                out += "<circle class=\"finger\" cx=\"\(Self.fmt(x + 11))\" cy=\"\(Self.fmt(y))\" r=\"6\" fill=\"#e63946\" fill-opacity=\"0.35\" stroke=\"#e63946\" stroke-width=\"1.5\"/>\n"
            }
            out += "<text x=\"\(Self.fmt(x + 28))\" y=\"\(Self.fmt(y + 4))\">\(entry.word)</text>\n"
        }
        return out + "</g>\n"
    }
}
