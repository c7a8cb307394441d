import QixDynamics

extension OutlineAnimation {
    /// One end of a link in the player, stored so that it moves with what it is tied to.
    enum LinkEnd: Hashable {
        /// A point of item `index`, at `offset` from its centre in the item's frame.
        case item(index: Int, offset: Vector2)
        /// A fixed point (an anchor or a snap point).
        case point(Vector2)
        /// The finger (a drag's anchor follows it every frame).
        case finger
    }

    /// A line of the player: a joint, rope, spring or snap pull.
    struct Link: Hashable {
        var style: FrameSketch.LinkStyle
        /// The first end (the anchor or snap point when there is one) and the second.
        var from: LinkEnd, to: LinkEnd
    }

    /// The links of `behaviors` between items already known to the player. Ends on items are
    /// stored as offsets, a drag's anchor as the finger, so the set stays the same from frame
    /// to frame while nothing is added or removed, and the file stores it once.
    func links(of behaviors: [DynamicBehavior], finger: Vector2?) -> [Link] {
        var out: [Link] = []
        func itemEnd(_ item: DynamicItem, _ offset: Vector2) -> LinkEnd? {
            ids.firstIndex(of: item.identifier).map { .item(index: $0, offset: Vector2(Self.round(offset.x, 1), Self.round(offset.y, 1))) }
        }
        func fixedEnd(_ p: Vector2) -> LinkEnd { p == finger ? .finger : .point(Vector2(Self.round(p.x, 1), Self.round(p.y, 1))) }
        for behavior in FrameSketch.withChildren(behaviors) {
            if let snap = behavior as? SnapBehavior, let end = itemEnd(snap.item, .zero) {
                out.append(Link(style: .snap, from: fixedEnd(snap.snapPoint), to: end))
            }
            guard let attachment = behavior as? AttachmentBehavior else { continue }
            let style = FrameSketch.style(of: attachment)
            let ends = zip(attachment.items, attachment.offsets).map { itemEnd($0, $1) }
            if ends.count == 2, let a = ends[0], let b = ends[1] {
                out.append(Link(style: style, from: a, to: b))
            } else if ends.count == 1, let a = ends[0] {
                out.append(Link(style: style, from: fixedEnd(attachment.anchorPoint), to: a))
            }
        }
        return out
    }

    /// Where `end` is in frame `index`, or nil when it is on an item not shown then.
    func position(of end: LinkEnd, frame index: Int) -> Vector2? {
        switch end {
        case .point(let p): return p
        case .finger: return fingers[index]
        case .item(let k, let offset):
            guard let p = tracks[k][index] else { return nil }
            return Vector2(p.x, p.y) + Rotation(angle: p.angle).rotate(offset)
        }
    }

    /// The links, anchors and snap points of frame `index` as SVG (what the player redraws).
    func linkElements(frame index: Int) -> String {
        guard index < linkFrames.count else { return "" }
        let f = SVGNumber.format
        var out = ""
        for link in linkSets[linkFrames[index]] {
            guard let a = position(of: link.from, frame: index), let b = position(of: link.to, frame: index) else { continue }
            out += "<line class=\"\(link.style.rawValue)\" x1=\"\(f(a.x, 1))\" y1=\"\(f(a.y, 1))\" x2=\"\(f(b.x, 1))\" y2=\"\(f(b.y, 1))\"/>"
            if case .point = link.from {
                out += link.style == .snap
                    ? "<path class=\"snap-point\" transform=\"translate(\(f(a.x, 1)) \(f(a.y, 1)))\" d=\"M-6 -6L6 6M-6 6L6 -6\"/>"
                    : "<rect class=\"anchor\" x=\"\(f(a.x - 4, 1))\" y=\"\(f(a.y - 4, 1))\" width=\"8\" height=\"8\"/>"
            }
        }
        return out
    }

    /// The link sets as JSON: per set, `[style, from, to]` with ends `[k, dx, dy]` (on item k),
    /// `[x, y]` (a fixed point) or `"f"` (the finger).
    func linksJSON() -> String {
        let f = SVGNumber.format
        func end(_ e: LinkEnd) -> String {
            switch e {
            case .item(let k, let o): return "[\(k),\(f(o.x, 1)),\(f(o.y, 1))]"
            case .point(let p): return "[\(f(p.x, 1)),\(f(p.y, 1))]"
            case .finger: return "\"f\""
            }
        }
        let sets = linkSets.map { set in "[" + set.map { "[\"\($0.style.rawValue)\",\(end($0.from)),\(end($0.to))]" }.joined(separator: ",") + "]" }
        return "\"linkSets\":[\(sets.joined(separator: ",\n"))],\n\"links\":[\(linkFrames.map(String.init).joined(separator: ","))]"
    }
}
