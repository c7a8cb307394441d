import QixDynamics
import QixMarkup

/// An animated SVG (SMIL, plays in any browser) of items' outlines over time, optionally wrapped
/// in a small HTML page, so a person can watch a simulation.
public struct OutlineAnimation {
    /// The region shown.
    public var viewport: Rect
    /// Seconds between captured frames.
    public var frameDuration: Double
    private var ids: [String] = []
    private var tracks: [[String]] = []
    private var frameCount = 0

    /// An animation of `viewport` captured every `frameDuration` seconds.
    public init(viewport: Rect, frameDuration: Double) {
        self.viewport = viewport
        self.frameDuration = frameDuration
    }

    /// Records the outlines of the items on screen now; items not listed are hidden in this frame.
    public mutating func capture(_ items: [DynamicItem]) {
        for item in items where !ids.contains(item.identifier) {
            ids.append(item.identifier)
            tracks.append(Array(repeating: "", count: frameCount))
        }
        for k in 0..<ids.count {
            if let item = items.first(where: { $0.identifier == ids[k] }) {
                tracks[k].append(item.outline.map { "\(FilmStrip.fmt($0.x)),\(FilmStrip.fmt($0.y))" }.joined(separator: " "))
            } else {
                tracks[k].append("")
            }
        }
        frameCount += 1
    }

    /// The animated SVG document.
    public func svg() -> String {
        let v = viewport
        let total = max(Double(frameCount) * frameDuration, frameDuration)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(FilmStrip.fmt(v.origin.x)) \(FilmStrip.fmt(v.origin.y)) "
        out += "\(FilmStrip.fmt(v.size.x)) \(FilmStrip.fmt(v.size.y))\" width=\"\(FilmStrip.fmt(min(v.size.x, 600)))\">\n"
        out += "<rect x=\"\(FilmStrip.fmt(v.origin.x))\" y=\"\(FilmStrip.fmt(v.origin.y))\" width=\"\(FilmStrip.fmt(v.size.x))\" height=\"\(FilmStrip.fmt(v.size.y))\" fill=\"#f4f4f4\" stroke=\"#999\"/>\n"
        let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]
        let hidden = "-100000,-100000 -100000,-100000 -100000,-100000"
        for (k, id) in ids.enumerated() {
            let color = palette[k % palette.count]
            let values = tracks[k].map { $0.isEmpty ? hidden : $0 }
            out += "<polygon points=\"\(values.first ?? hidden)\" fill=\"\(color)\" fill-opacity=\"0.35\" stroke=\"\(color)\" stroke-width=\"2\">"
            out += "<title>\(XMLText.escape(id))</title>"
            out += "<animate attributeName=\"points\" dur=\"\(FilmStrip.fmt(total))s\" repeatCount=\"indefinite\" calcMode=\"discrete\" "
            out += "values=\"\(values.joined(separator: ";"))\"/></polygon>\n"
        }
        return out + "</svg>\n"
    }

    /// An HTML page that plays the animation.
    public func html(title: String) -> String {
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(XMLText.escape(title))</title></head>\n<body>\n<h1>\(XMLText.escape(title))</h1>\n"
            + svg() + "</body></html>\n"
    }
}
