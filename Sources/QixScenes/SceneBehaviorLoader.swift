import QixDynamics
/// Reading the behavior objects of a scene file.
extension SceneContext {
    mutating func behavior(_ raw: JSONValue, path: String) throws(JSONPathError) -> DynamicBehavior {
        let r = try JSONObjectReader(raw, path: path)
        let type = try r.requiredString("type")
        let b: DynamicBehavior
        switch type {
        case "gravity": b = try gravity(r)
        case "collision": b = try collision(r)
        case "attachment": b = try attachment(r)
        case "snap": b = try snap(r)
        case "push": b = try push(r)
        case "itemProperties": b = try itemProperties(r)
        case "field": b = try field(r)
        default:
            throw JSONPathError(r.path("type"), "unknown behavior type \"\(type)\" (gravity, collision, attachment, snap, push, itemProperties, field)")
        }
        if let id = try r.string("id") {
            if behaviorIndex[id] != nil { throw JSONPathError(r.path("id"), "duplicate behavior id \"\(id)\"") }
            behaviorIndex[id] = b
        }
        return b
    }

    private func nonNegative(_ r: JSONObjectReader, _ key: String) throws(JSONPathError) -> Double? {
        guard let x = try r.number(key) else { return nil }
        if x < 0 { throw JSONPathError(r.path(key), "must not be negative") }
        return x
    }

    /// Direction from `direction` or from `angle` + `magnitude`.
    private func direction(_ r: JSONObjectReader, defaultAngle: Double, defaultMagnitude: Double) throws(JSONPathError) -> Vector2 {
        if let d = try r.vector("direction") {
            if r.has("angle") || r.has("magnitude") { throw JSONPathError(r.path("direction"), "give either direction or angle and magnitude") }
            return d
        }
        let angle = try r.number("angle") ?? defaultAngle
        let magnitude = try r.number("magnitude") ?? defaultMagnitude
        let sc = DeterministicMath.sinCos(angle)
        return Vector2(magnitude * sc.cos, magnitude * sc.sin)
    }

    private func gravity(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        try r.allowOnly(["id", "type", "items", "magnitude", "angle", "direction"])
        let g = GravityBehavior(items: try itemList(r))
        g.gravityDirection = try direction(r, defaultAngle: Double.pi / 2, defaultMagnitude: 1)
        return g
    }

    private func collision(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        try r.allowOnly(["id", "type", "items", "mode", "referenceBoundsAsBoundary", "insets", "boundaries"])
        let c = CollisionBehavior(items: try itemList(r))
        switch try r.string("mode") ?? "everything" {
        case "everything": c.collisionMode = .everything
        case "items": c.collisionMode = .items
        case "boundaries": c.collisionMode = .boundaries
        case let other: throw JSONPathError(r.path("mode"), "unknown mode \"\(other)\" (items, boundaries, everything)")
        }
        c.translatesReferenceBoundsIntoBoundary = try r.bool("referenceBoundsAsBoundary") ?? false
        if let insets = try r.array("insets") {
            guard insets.count == 4 else { throw JSONPathError(r.path("insets"), "expected [top, left, bottom, right]") }
            var v: [Double] = []
            for (k, x) in insets.enumerated() { v.append(try JSONObjectReader.number(x, path: "\(r.path("insets"))[\(k)]")) }
            c.referenceBoundsInsets = (v[0], v[1], v[2], v[3])
        }
        var seen: [String] = []
        for (k, raw) in (try r.array("boundaries") ?? []).enumerated() {
            let br = try JSONObjectReader(raw, path: "\(r.path("boundaries"))[\(k)]")
            try br.allowOnly(["id", "from", "to", "path", "closed"])
            let id = try br.requiredString("id")
            if seen.contains(id) { throw JSONPathError(br.path("id"), "duplicate boundary id \"\(id)\"") }
            seen.append(id)
            if let points = try br.array("path") {
                if br.has("from") || br.has("to") { throw JSONPathError(br.path("path"), "give either from/to or path") }
                var vertices: [Vector2] = []
                for (j, p) in points.enumerated() { vertices.append(try JSONObjectReader.vector(p, path: "\(br.path("path"))[\(j)]")) }
                guard vertices.count >= 2 else { throw JSONPathError(br.path("path"), "needs at least 2 points") }
                c.addBoundary(identifier: id, path: vertices, isClosed: try br.bool("closed") ?? true)
            } else {
                if br.has("closed") { throw JSONPathError(br.path("closed"), "only a path can be closed or open") }
                let from = try br.requiredVector("from"), to = try br.requiredVector("to")
                if from == to { throw JSONPathError(br.path("to"), "segment has zero length") }
                c.addBoundary(identifier: id, from: from, to: to)
            }
        }
        return c
    }

    private func attachment(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        try r.allowOnly(["id", "type", "kind", "item", "items", "anchor", "offset", "offsets", "length", "frequency", "damping",
                         "frictionTorque", "range", "axis"])
        let kindName = try r.string("kind") ?? "distance"
        let kind: AttachmentBehavior.Kind
        switch kindName {
        case "distance": kind = .distance
        case "pin": kind = .pin
        case "sliding": kind = .sliding
        case "fixed": kind = .fixed
        case "limit": kind = .limit
        default: throw JSONPathError(r.path("kind"), "unknown kind \"\(kindName)\" (distance, pin, sliding, fixed, limit)")
        }
        var items: [DynamicItem]
        var offsets: [Vector2]
        if r.has("items") {
            if r.has("item") { throw JSONPathError(r.path("item"), "give either item or items") }
            items = try itemList(r)
            guard items.count == 2 else { throw JSONPathError(r.path("items"), "an attachment joins exactly 2 items") }
            offsets = [.zero, .zero]
            if let raw = try r.array("offsets") {
                guard raw.count == 2 else { throw JSONPathError(r.path("offsets"), "expected two [x, y] offsets") }
                offsets = [try JSONObjectReader.vector(raw[0], path: "\(r.path("offsets"))[0]"),
                           try JSONObjectReader.vector(raw[1], path: "\(r.path("offsets"))[1]")]
            }
            if r.has("offset") { throw JSONPathError(r.path("offset"), "item-to-item attachments take offsets") }
        } else {
            items = [try item(try r.required("item"), path: r.path("item"))]
            offsets = [try r.vector("offset") ?? .zero]
            if r.has("offsets") { throw JSONPathError(r.path("offsets"), "anchor attachments take offset") }
        }
        let anchor = try r.vector("anchor")
        let needsAnchor = items.count == 1 || kind == .pin || kind == .sliding || kind == .fixed
        if needsAnchor && anchor == nil { throw JSONPathError(r.path("anchor"), "missing required field") }
        if !needsAnchor && anchor != nil { throw JSONPathError(r.path("anchor"), "item-to-item \(kindName) attachments have no anchor") }
        let a = AttachmentBehavior(kind: kind, items: items, offsets: offsets, anchor: anchor ?? .zero)
        a.length = try nonNegative(r, "length")
        a.frequency = try nonNegative(r, "frequency") ?? 0
        a.damping = try nonNegative(r, "damping") ?? 0
        a.frictionTorque = try nonNegative(r, "frictionTorque") ?? 0
        if let range = try r.array("range") {
            guard range.count == 2 else { throw JSONPathError(r.path("range"), "expected [lower, upper]") }
            let lo = try JSONObjectReader.number(range[0], path: "\(r.path("range"))[0]")
            let hi = try JSONObjectReader.number(range[1], path: "\(r.path("range"))[1]")
            guard lo <= hi else { throw JSONPathError(r.path("range"), "lower is above upper") }
            a.attachmentRange = lo...hi
        }
        if let axis = try r.vector("axis") {
            guard axis != .zero else { throw JSONPathError(r.path("axis"), "must not be zero") }
            a.axisOfTranslation = axis
        }
        return a
    }

    private func snap(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        try r.allowOnly(["id", "type", "item", "point", "damping"])
        let s = SnapBehavior(item: try item(try r.required("item"), path: r.path("item")), snapTo: try r.requiredVector("point"))
        s.damping = try r.number("damping", default: 0.5, in: 0...1)
        return s
    }

    private func push(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        try r.allowOnly(["id", "type", "items", "mode", "magnitude", "angle", "direction", "offsets", "active"])
        let items = try itemList(r)
        let mode: PushBehavior.Mode
        switch try r.string("mode") ?? "continuous" {
        case "continuous": mode = .continuous
        case "instantaneous": mode = .instantaneous
        case let other: throw JSONPathError(r.path("mode"), "unknown mode \"\(other)\" (continuous, instantaneous)")
        }
        let p = PushBehavior(items: items, mode: mode)
        p.pushDirection = try direction(r, defaultAngle: 0, defaultMagnitude: 0)
        if let raw = try r.array("offsets") {
            guard raw.count == items.count else { throw JSONPathError(r.path("offsets"), "expected one [x, y] per item") }
            for (k, v) in raw.enumerated() {
                p.setTargetOffsetFromCenter(try JSONObjectReader.vector(v, path: "\(r.path("offsets"))[\(k)]"), for: items[k])
            }
        }
        if let active = try r.bool("active") { p.active = active }
        return p
    }

    private func itemProperties(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        try r.allowOnly(["id", "type", "items", "elasticity", "friction", "density", "resistance", "angularResistance", "charge",
                         "allowsRotation", "anchored"])
        let p = DynamicItemBehavior(items: try itemList(r))
        if let e = try r.number("elasticity") {
            // UIKit's documented range ("0 inelastic ... 1 elastic"); above 1 every bounce adds energy.
            guard e >= 0 && e <= 1 else { throw JSONPathError(r.path("elasticity"), "must be in 0...1 (0 inelastic, 1 elastic)") }
            p.elasticity = e
        }
        p.friction = try nonNegative(r, "friction")
        if let d = try r.number("density") {
            guard d > 0 else { throw JSONPathError(r.path("density"), "must be positive") }
            p.density = d
        }
        p.resistance = try nonNegative(r, "resistance")
        p.angularResistance = try nonNegative(r, "angularResistance")
        p.charge = try r.number("charge")
        p.allowsRotation = try r.bool("allowsRotation")
        p.isAnchored = try r.bool("anchored")
        return p
    }

    private func field(_ r: JSONObjectReader) throws(JSONPathError) -> DynamicBehavior {
        try r.allowOnly(["id", "type", "kind", "items", "position", "region", "strength", "falloff", "minimumRadius", "direction",
                         "smoothness", "animationSpeed"])
        let kindName = try r.requiredString("kind")
        // A custom field needs a Swift block, which a scene file cannot hold.
        guard let kind = FieldBehavior.Kind(rawValue: kindName), kind != .custom else {
            let names = FieldBehavior.Kind.allCases.filter { $0 != .custom }.map(\.rawValue).joined(separator: ", ")
            throw JSONPathError(r.path("kind"), "unknown field kind \"\(kindName)\" (\(names))")
        }
        let f = FieldBehavior(kind: kind, items: try itemList(r))
        f.position = try r.vector("position") ?? .zero
        if let raw = r.value("region") {
            let rr = try JSONObjectReader(raw, path: r.path("region"))
            try rr.allowOnly(["radius", "size"])
            if let radius = try rr.number("radius") {
                guard radius > 0, !rr.has("size") else { throw JSONPathError(rr.path("radius"), "a positive radius, or a size") }
                f.region = .circle(radius: radius)
            } else if let size = try rr.vector("size") {
                guard size.x > 0, size.y > 0 else { throw JSONPathError(rr.path("size"), "width and height must be positive") }
                f.region = .rectangle(size: size)
            } else {
                throw JSONPathError(r.path("region"), "expected {\"radius\": r} or {\"size\": [w, h]}")
            }
        }
        f.strength = try r.number("strength") ?? 1
        f.falloff = try nonNegative(r, "falloff") ?? 0
        f.minimumRadius = try nonNegative(r, "minimumRadius") ?? 1e-3
        f.direction = try r.vector("direction") ?? .zero
        f.smoothness = try r.number("smoothness", default: 0, in: 0...1)
        f.animationSpeed = try nonNegative(r, "animationSpeed") ?? 1
        return f
    }
}
