import QixDynamics
/// Reads a scene file (see CONTRACTS.md) into a `Scene`, naming the JSON path of any problem:
/// unknown fields, wrong types, NaN or infinite numbers, unknown or duplicate ids.
public enum SceneLoader {
    /// Parses and checks scene JSON.
    public static func load(_ bytes: [UInt8]) throws(JSONPathError) -> Scene {
        let root = try JSONObjectReader(try JSONValue.parse(bytes), path: "")
        try root.allowOnly(["referenceBounds", "frameRate", "duration", "items", "behaviors", "timeline"])
        var bounds: Rect?
        if let raw = try root.array("referenceBounds") {
            guard raw.count == 4 else { throw JSONPathError("referenceBounds", "expected [x, y, width, height]") }
            var v: [Double] = []
            for (k, x) in raw.enumerated() { v.append(try JSONObjectReader.number(x, path: "referenceBounds[\(k)]")) }
            guard v[2] > 0, v[3] > 0 else { throw JSONPathError("referenceBounds", "width and height must be positive") }
            bounds = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        }
        let frameRate = try root.number("frameRate", default: 60, in: 1...1000)
        let duration = try root.number("duration")
        // The same limit as `qix sim --duration`: a run of an hour at most.
        if let duration, !(duration > 0 && duration <= 3600) {
            throw JSONPathError("duration", "must be more than 0 and at most 3600 seconds")
        }

        guard let rawItems = try root.array("items") else { throw JSONPathError("items", "missing required field") }
        var context = SceneContext()
        context.items.reserveCapacity(rawItems.count)  // one allocation at the scene's size, not doubling
        for (k, raw) in rawItems.enumerated() { try context.addItem(raw, path: "items[\(k)]") }

        let animator = DynamicAnimator(referenceBounds: bounds)
        var segments: [(Vector2, Vector2)] = []
        for (k, raw) in (try root.array("behaviors") ?? []).enumerated() {
            let b = try context.behavior(raw, path: "behaviors[\(k)]")
            animator.addBehavior(b)
            segments += context.segments(of: b)
        }
        var timeline: [TimelineAction] = []
        for (k, raw) in (try root.array("timeline") ?? []).enumerated() {
            let action = try context.action(raw, path: "timeline[\(k)]")
            if case .addBehavior(let b) = action.change { segments += context.segments(of: b) }
            timeline.append(action)
        }
        // Stable sort by time keeps file order among equal times.
        let ordered = timeline.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        return Scene(referenceBounds: bounds, frameRate: frameRate, duration: duration, items: context.items, animator: animator,
                     boundarySegments: segments, timeline: ordered)
    }
}

/// What the loader knows while reading: items and behaviors by id.
struct SceneContext {
    var items: [DynamicItem] = []
    var itemIndex: [String: Int] = [:]
    var behaviorIndex: [String: DynamicBehavior] = [:]

    mutating func addItem(_ raw: JSONValue, path: String) throws(JSONPathError) {
        let r = try JSONObjectReader(raw, path: path)
        try r.allowOnly(["id", "center", "size", "angle", "shape", "velocity", "angularVelocity"])
        let id = try r.requiredString("id")
        if itemIndex[id] != nil { throw JSONPathError(r.path("id"), "duplicate item id \"\(id)\"") }
        let center = try r.requiredVector("center")
        let size = try r.requiredVector("size")
        guard size.x > 0, size.y > 0 else { throw JSONPathError(r.path("size"), "width and height must be positive") }
        var shape = ItemShape.rectangle
        if let s = r.value("shape") {
            switch s {
            case .string("rectangle"): shape = .rectangle
            case .string("ellipse"): shape = .ellipse
            case .string(let other): throw JSONPathError(r.path("shape"), "unknown shape \"\(other)\" (rectangle, ellipse or {\"path\": ...})")
            case .object:
                let sr = try JSONObjectReader(s, path: r.path("shape"))
                try sr.allowOnly(["path"])
                guard let points = try sr.array("path") else { throw JSONPathError(sr.path("path"), "missing required field") }
                var vertices: [Vector2] = []
                for (k, p) in points.enumerated() { vertices.append(try JSONObjectReader.vector(p, path: "\(sr.path("path"))[\(k)]")) }
                shape = .path(vertices)
            default: throw JSONPathError(r.path("shape"), "expected a shape name or {\"path\": ...}, found \(s.typeName)")
            }
        }
        let item: DynamicItem
        let angle = try r.number("angle") ?? 0
        do throws(DynamicsError) {
            item = try DynamicItem(identifier: id, center: center, size: size, angle: angle, shape: shape)
        } catch {
            if case .invalidShape(_, let e) = error { throw JSONPathError(r.path("shape"), e.description) }
            throw JSONPathError(r.path("size"), error.description)
        }
        item.velocity = try r.vector("velocity") ?? .zero
        item.angularVelocity = try r.number("angularVelocity") ?? 0
        itemIndex[id] = items.count
        items.append(item)
    }

    func item(_ v: JSONValue, path: String) throws(JSONPathError) -> DynamicItem {
        guard case .string(let id) = v else { throw JSONPathError(path, "expected an item id, found \(v.typeName)") }
        guard let k = itemIndex[id] else { throw JSONPathError(path, "unknown item id \"\(id)\"") }
        return items[k]
    }

    func itemList(_ r: JSONObjectReader, _ key: String = "items") throws(JSONPathError) -> [DynamicItem] {
        guard let raw = try r.array(key) else { throw JSONPathError(r.path(key), "missing required field") }
        var out: [DynamicItem] = []
        out.reserveCapacity(raw.count)  // one allocation at the list's size, not doubling
        var seen = Set<ObjectIdentifier>()  // membership only, never iterated
        for (k, v) in raw.enumerated() {
            let it = try item(v, path: "\(r.path(key))[\(k)]")
            if !seen.insert(ObjectIdentifier(it)).inserted { throw JSONPathError("\(r.path(key))[\(k)]", "item listed twice") }
            out.append(it)
        }
        return out
    }

    func segments(of b: DynamicBehavior) -> [(Vector2, Vector2)] {
        guard let c = b as? CollisionBehavior else { return [] }
        var out: [(Vector2, Vector2)] = []
        for boundary in c.boundaries {
            let n = boundary.points.count
            for k in 0..<(boundary.isClosed ? n : n - 1) { out.append((boundary.points[k], boundary.points[(k + 1) % n])) }
        }
        return out
    }

    mutating func action(_ raw: JSONValue, path: String) throws(JSONPathError) -> TimelineAction {
        let r = try JSONObjectReader(raw, path: path)
        let time = try r.requiredNumber("time")
        guard time >= 0 else { throw JSONPathError(r.path("time"), "must not be negative") }
        let name = try r.requiredString("action")
        switch name {
        case "addBehavior":
            try r.allowOnly(["time", "action", "behavior"])
            return TimelineAction(time: time, change: .addBehavior(try behavior(try r.required("behavior"), path: r.path("behavior"))))
        case "removeBehavior":
            try r.allowOnly(["time", "action", "behavior"])
            return TimelineAction(time: time, change: .removeBehavior(try behaviorRef(r)))
        case "setAnchor":
            try r.allowOnly(["time", "action", "behavior", "anchor"])
            guard let a = try behaviorRef(r) as? AttachmentBehavior else { throw JSONPathError(r.path("behavior"), "not an attachment") }
            return TimelineAction(time: time, change: .setAnchor(a, try r.requiredVector("anchor")))
        case "setSnapPoint":
            try r.allowOnly(["time", "action", "behavior", "point"])
            guard let s = try behaviorRef(r) as? SnapBehavior else { throw JSONPathError(r.path("behavior"), "not a snap") }
            return TimelineAction(time: time, change: .setSnapPoint(s, try r.requiredVector("point")))
        case "addLinearVelocity":
            try r.allowOnly(["time", "action", "item", "velocity"])
            return TimelineAction(time: time, change: .addLinearVelocity(try item(try r.required("item"), path: r.path("item")),
                                                                          try r.requiredVector("velocity")))
        case "addAngularVelocity":
            try r.allowOnly(["time", "action", "item", "velocity"])
            return TimelineAction(time: time, change: .addAngularVelocity(try item(try r.required("item"), path: r.path("item")),
                                                                           try r.requiredNumber("velocity")))
        default:
            throw JSONPathError(r.path("action"), "unknown action \"\(name)\" (addBehavior, removeBehavior, setAnchor, setSnapPoint, addLinearVelocity, addAngularVelocity)")
        }
    }

    func behaviorRef(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        let id = try r.requiredString("behavior")
        guard let b = behaviorIndex[id] else { throw JSONPathError(r.path("behavior"), "unknown behavior id \"\(id)\"") }
        return b
    }
}
