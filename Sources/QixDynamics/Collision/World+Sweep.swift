extension World {
    /// Sweeps one fast body against `statics` and `movers` and puts it back at the first impact.
    func sweep(_ body: UnsafeMutablePointer<Body>, against statics: [Int32], movers: [Int32],
               _ B: UnsafeMutablePointer<Body>, _ shapes: ShapeSource, _ toi: inout TimeOfImpact) {
        let sweep = Sweep(body)
        let reach = Self.reach(body)
        // Swept box: both end placements grown by the farthest point of the outline and the slop.
        let r = reach + body.pointee.radius + PhysicsConstants.linearSlop
        let lower = Vector2(min(sweep.c0.x, sweep.c1.x) - r, min(sweep.c0.y, sweep.c1.y) - r)
        let upper = Vector2(max(sweep.c0.x, sweep.c1.x) + r, max(sweep.c0.y, sweep.c1.y) + r)
        var first = 1.0
        for other32 in statics {
            let s = UnsafePointer(B + Int(other32))
            let collides = s.pointee.isBoundary ? body.pointee.boundaryMask & s.pointee.boundaryGroup != 0
                : body.pointee.itemMask & s.pointee.itemMask != 0
            if !collides || !s.pointee.enabled { continue }
            if upper.x < s.pointee.lower.x || s.pointee.upper.x < lower.x || upper.y < s.pointee.lower.y
                || s.pointee.upper.y < lower.y { continue }
            if s.pointee.isBoundary && s.pointee.shapeCount == 2 && slides(body, along: s, shapes) { continue }
            if let t = impact(body, sweep, reach, s, shapes, before: first, &toi) { first = t }
        }
        for other32 in movers where B + Int(other32) != body {
            let m = UnsafePointer(B + Int(other32))
            if body.pointee.itemMask & m.pointee.itemMask == 0 { continue }
            let mr = Self.reach(m) + m.pointee.radius
            if upper.x < m.pointee.center.x - mr || m.pointee.center.x + mr < lower.x
                || upper.y < m.pointee.center.y - mr || m.pointee.center.y + mr < lower.y { continue }
            if !passes(body, sweep, reach, m) { continue }
            if let t = impact(body, sweep, reach, m, shapes, before: first, &toi) { first = t }
        }
        if first < 1 { place(body, sweep, at: first) }
    }

    /// Whether `body` and the moving `other` move far enough relative to each other this step to
    /// go through one another: more than half the smaller inner radius (Box2D's fast test, on
    /// the relative motion). Closer than that the contacts hold them, and a sweep would only
    /// slow items that brush past: without this test a tumbling card 160 points wide was stopped
    /// against its neighbour three steps running in the fling-sequence golden card run; with it
    /// the golden card runs sweep 48 of 584 such pairs and stop none.
    func passes(_ body: UnsafePointer<Body>, _ sweep: Sweep, _ reach: Double, _ other: UnsafePointer<Body>) -> Bool {
        let otherMove = other.pointee.center - other.pointee.center0
        let otherTurn = abs(other.pointee.angle - other.pointee.angle0)
        let relative = (sweep.move - otherMove).length + abs(sweep.turn) * reach
            + (otherTurn == 0 ? 0 : otherTurn * Self.reach(other))
        let slop = PhysicsConstants.linearSlop
        let inner = min(max(body.pointee.innerRadius, slop), max(other.pointee.innerRadius, slop))
        return relative > PhysicsConstants.fastFraction * inner
    }

    /// The first impact of `body` moving along `sweep` with `other` (standing, or moving from
    /// its start to its final placement), before `maxFraction`. When the two already touch at
    /// the start (Box2D gives up on the full shape then), three sweeps still stop a pass-through
    /// without pausing a body that slides: the full shape may sink at most a slop deeper into a
    /// static shape than it starts (a corner hit that swings a thin item's long side into the
    /// wall: throw 828 of `TunnellingTests` went 18 points in, then through); Box2D's circle
    /// round the centre of mass, a quarter of the inner radius, which only a centre going
    /// through reaches, and which may not sink a slop deeper if it starts that close; and the
    /// centre may not cross a boundary segment.
    func impact(_ body: UnsafePointer<Body>, _ sweep: Sweep, _ reach: Double, _ other: UnsafePointer<Body>,
                _ shapes: ShapeSource, before maxFraction: Double, _ toi: inout TimeOfImpact) -> Double? {
        let a = shapes.shape(other), b = shapes.shape(body)
        let xf = other.pointee.transform
        // A moving item is swept too: two cards falling side by side at 11 000 points/s were
        // stopped against each other's final placements, one after the other, every step.
        let moving = other.pointee.invMass > 0 ? Sweep(other) : nil
        let reachA = moving == nil ? 0 : Self.reach(other)
        let target = TimeOfImpact.target(a, b)
        guard let t = toi.fraction(of: b, along: sweep, reach: reach, against: a, at: xf, moving: moving, reachA: reachA,
                                   target: target, before: maxFraction) else { return nil }
        if t > 0 { return t }
        var first = maxFraction
        // Against static shapes only: between two moving items the contact's give would read as
        // sinking, and the item would be stopped again and again while it pushes the other.
        let deeper = min(target, toi.startDistance) - PhysicsConstants.linearSlop
        if moving == nil, let t = toi.fraction(of: b, along: sweep, reach: reach, against: a, at: xf, target: deeper,
                                               before: first), t > 0 { first = t }
        var center = body.pointee.localCenter
        let core = withUnsafePointer(to: &center) { p in
            // The circle's one vertex is the centre of mass: the turn does not move it.
            let circle = TimeOfImpact.Shape(vertices: p, normals: p, count: 1, radius: 0.25 * body.pointee.innerRadius)
            let coreTarget = TimeOfImpact.target(a, circle)
            let t = toi.fraction(of: circle, along: sweep, reach: 0, against: a, at: xf, moving: moving, reachA: reachA,
                                 target: coreTarget, before: first)
            if t != 0 { return t }
            // The centre is already that close: it may still not go a slop deeper (a spinning
            // item's centre came to 1.3 points off a 12-point plank, then went through it).
            let deeperCore = min(coreTarget, toi.startDistance) - PhysicsConstants.linearSlop
            return toi.fraction(of: circle, along: sweep, reach: 0, against: a, at: xf, moving: moving, reachA: reachA,
                                target: deeperCore, before: first)
        }
        if let core, core > 0 { first = core }
        if other.pointee.isBoundary && other.pointee.shapeCount == 2,
           let crossing = centerCrossing(sweep, body.pointee.innerRadius, segment: other, shapes), crossing < first {
            first = crossing
        }
        return first < maxFraction ? first : nil
    }

    /// The fraction at which the centre of mass, crossing the boundary segment's line between
    /// its ends, is still the core's target distance (or its start distance, if nearer) in front.
    func centerCrossing(_ sweep: Sweep, _ innerRadius: Double, segment: UnsafePointer<Body>,
                        _ shapes: ShapeSource) -> Double? {
        let (p1, p2) = segmentEnds(segment, shapes)
        let e = p2 - p1
        let s1 = (sweep.c0 - p1).cross(e), s2 = (sweep.c1 - p1).cross(e)
        if (s1 < 0) == (s2 < 0) || s1 == s2 { return nil }
        let u = s1 / (s1 - s2)
        let along = (sweep.center(at: u) - p1).dot(e)
        if along < 0 || along > e.lengthSquared { return nil }
        // Signed distances in points, on the start side.
        let length = e.length
        let d1 = abs(s1) / length, d2 = abs(s2) / length
        let keep = min(d1, max(PhysicsConstants.linearSlop, 0.25 * innerRadius - PhysicsConstants.linearSlop))
        return (d1 - keep) / (d1 + d2)
    }

    /// Box2D's check against pausing on smooth segments: the centre starts on one side of the
    /// segment's line, nears it by less than a slop and ends more than the core radius in front,
    /// so it cannot go through, and an item sliding along a floor is not stopped by its sweep.
    /// (Box2D allows nearing by the core radius, but only sweeps bodies that move more than
    /// twice that: a 100-point box falling 9.2 points a step sank 7.2 points into the floor.)
    func slides(_ body: UnsafePointer<Body>, along segment: UnsafePointer<Body>, _ shapes: ShapeSource) -> Bool {
        let (p1, p2) = segmentEnds(segment, shapes)
        let length = (p2 - p1).length
        if length <= PhysicsConstants.linearSlop { return false }
        let e = (1 / length) * (p2 - p1)
        var s1 = (body.pointee.center0 - p1).cross(e)
        var s2 = (body.pointee.center - p1).cross(e)
        // Two-sided: measure from the side the centre starts on.
        if s1 < 0 {
            s1 = -s1
            s2 = -s2
        }
        let core = 0.25 * body.pointee.innerRadius
        return s1 - s2 < min(core, PhysicsConstants.linearSlop) && s2 > core
    }

    /// A boundary segment's two ends in the world.
    func segmentEnds(_ segment: UnsafePointer<Body>, _ shapes: ShapeSource) -> (Vector2, Vector2) {
        let xf = segment.pointee.transform, start = segment.pointee.shapeStart
        return (xf.apply(shapes.vertices[start]), xf.apply(shapes.vertices[start + 1]))
    }

    /// Puts `body` at fraction `t` of its sweep (velocity kept).
    func place(_ body: UnsafeMutablePointer<Body>, _ sweep: Sweep, at t: Double) {
        let q = sweep.rotation(at: t)
        if sweep.turn != 0 {
            body.pointee.angle = sweep.angle(at: t)
            body.pointee.q = q
        }
        body.pointee.center = sweep.center(at: t)
        body.pointee.origin = body.pointee.center - q.rotate(body.pointee.localCenter)
    }
}
