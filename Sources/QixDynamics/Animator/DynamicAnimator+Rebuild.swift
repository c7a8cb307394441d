/// Turning the behavior list into bodies, materials, collision groups and joints. Runs at the
/// start of a frame after any behavior changed; joint impulses survive for warm starting.
extension DynamicAnimator {
    /// Rebuilds the world from the behaviours: which bodies take part, their materials, the
    /// gravity and collision groups, their masses, then the joints.
    func rebuild() {
        needsRebuildCleared()
        enableUsedBodies()
        resetMaterials()
        var density = Array(repeating: 1.0, count: world.bodies.count)
        world.gravity = applyBehaviors(density: &density)
        refreshGroups()
        updateMasses(density: density)
        world.compactMaterials()
        placeNewGroups()
        rebuildJoints()
        world.invalidateLists()
    }

    /// Membership: the items referenced by any behavior (bodies made in behavior order) are
    /// enabled, and reloaded from their item when they come back; all others are disabled.
    private func enableUsedBodies() {
        reserveNewBodies()
        var used = Array(repeating: false, count: world.bodies.count)
        for behavior in activeBehaviors {
            forEachBodyItem(behavior.involvedItems) { item in
                let index = ensureBody(item)
                if index >= used.count { used.append(contentsOf: Array(repeating: false, count: index - used.count + 1)) }
                used[index] = true
            }
        }
        for i in 1..<world.bodies.count where itemByBodyAt(i) != nil {
            let inUse = i < used.count && used[i]
            if world.bodies[i].enabled != inUse {
                world.bodies[i].enabled = inUse
                if inUse, let item = itemByBodyAt(i) { reload(i, from: item) }
            }
        }
    }

    /// Makes room in the world for the bodies of the largest behavior's new items and for the
    /// boundary segments of the collision behaviors (at most one per path point, four for the
    /// reference bounds): most scenes name every item in one behavior, so the body arrays are
    /// allocated once, at their size, before the items and then the boundaries are added.
    private func reserveNewBodies() {
        var most = 0, segments = 0
        for behavior in activeBehaviors {
            var new = 0
            forEachBodyItem(behavior.involvedItems) { item in if bodyIndex(of: item) == nil { new += 1 } }
            most = max(most, new)
            if let c = behavior as? CollisionBehavior {
                segments += (c.translatesReferenceBoundsIntoBoundary ? 4 : 0) + c.boundaries.reduce(0) { $0 + $1.points.count }
            }
        }
        if most + segments > 0 { world.reserveBodies(most + segments) }
    }

    /// Materials: UIKit's effective defaults for every item body, before the item behaviors apply theirs.
    private func resetMaterials() {
        for i in 1..<world.bodies.count where itemByBodyAt(i) != nil {
            // The defaults, keeping the density (`updateMasses` compares it).
            world.changeMaterial(of: i) { m in m = BodyMaterial(density: m.density) }
            var b = world.bodies[i]
            b.isAnchored = false
            b.fixedRotation = false
            b.itemMask = 0
            b.boundaryMask = 0
            world.bodies[i] = b
        }
    }

    /// Applies item, gravity and collision behaviors in order (a later one wins) and returns
    /// the world's gravity; collision behaviors get a group bit each and their boundaries.
    private func applyBehaviors(density: inout [Double]) -> Vector2 {
        var gravity = Vector2.zero
        var collisionGroup = 0
        for behavior in activeBehaviors {
            if let p = behavior as? DynamicItemBehavior {
                applyItemProperties(p, density: &density)
            } else if let g = behavior as? GravityBehavior {
                gravity = PhysicsConstants.gravityUnit * g.gravityDirection
                forEachBodyItem(g.items) { item in
                    if let i = bodyIndex(of: item) { world.changeMaterial(of: i) { $0.gravityScale = 1 } }
                }
            } else if let c = behavior as? CollisionBehavior {
                let bit: UInt64 = 1 << UInt64(collisionGroup % 64)
                collisionGroup += 1
                forEachBodyItem(c.items) { item in
                    guard let i = bodyIndex(of: item) else { return }
                    if c.collisionMode.contains(.items) { world.bodies[i].itemMask |= bit }
                    if c.collisionMode.contains(.boundaries) { world.bodies[i].boundaryMask |= bit }
                }
                rebuildBoundaries(c, group: bit)
            }
        }
        return gravity
    }

    /// The properties a `DynamicItemBehavior` sets on its items (those it leaves nil keep theirs).
    private func applyItemProperties(_ p: DynamicItemBehavior, density: inout [Double]) {
        forEachBodyItem(p.items) { item in
            guard let i = bodyIndex(of: item) else { return }
            // Clamped to UIKit's documented 0...1: above 1 each bounce adds energy until the state diverges.
            world.changeMaterial(of: i) { m in
                if let v = p.elasticity { m.restitution = v >= 0 ? min(v, 1) : 0 }
                if let v = p.friction { m.friction = v }
                if let v = p.resistance { m.linearDamping = v }
                if let v = p.angularResistance { m.angularDamping = v }
                if let v = p.charge { m.charge = v }
            }
            if let v = p.isAnchored { world.bodies[i].isAnchored = v }
            if let v = p.allowsRotation { world.bodies[i].fixedRotation = !v }
            if let v = p.density { density[i] = v }
        }
    }

    /// Masses from the densities, then inverse masses from the flags; a body that starts to
    /// move takes its item's velocity.
    private func updateMasses(density: [Double]) {
        for i in 1..<world.bodies.count where itemByBodyAt(i) != nil {
            if world.material(of: i).density != density[i] { world.updateMass(i, density: density[i]) }
            let wasMovable = world.bodies[i].invMass > 0
            world.refreshInverseMass(i)
            if !wasMovable, world.bodies[i].invMass > 0, let item = itemByBodyAt(i) {
                world.states[i].v = item.velocity
                world.states[i].w = world.bodies[i].invInertia > 0 ? item.angularVelocity : 0
            }
        }
    }

    private func rebuildBoundaries(_ c: CollisionBehavior, group: UInt64) {
        var segments: [(Vector2, Vector2)] = []
        var names: [String?] = []
        if c.translatesReferenceBoundsIntoBoundary, let r = referenceBounds {
            let inset = c.referenceBoundsInsets
            let x0 = r.origin.x + inset.left, y0 = r.origin.y + inset.top
            let x1 = r.origin.x + r.size.x - inset.right, y1 = r.origin.y + r.size.y - inset.bottom
            let corners = [Vector2(x0, y0), Vector2(x1, y0), Vector2(x1, y1), Vector2(x0, y1)]
            for k in 0..<4 {
                segments.append((corners[k], corners[(k + 1) % 4]))
                names.append(nil)
            }
        }
        for boundary in c.boundaries {
            let n = boundary.points.count
            let edges = boundary.isClosed ? n : n - 1
            // An edge of zero length has no normal; a path may repeat a point (or a closed
            // two-point path double back), and those edges are skipped.
            for k in 0..<max(edges, 0) where boundary.points[k] != boundary.points[(k + 1) % n] {
                segments.append((boundary.points[k], boundary.points[(k + 1) % n]))
                names.append(boundary.identifier)
            }
        }
        let same = segments.count == c.boundarySegments.count
            && zip(segments, c.boundarySegments).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        if !same {
            for b in c.boundaryBodies { world.bodies[b].enabled = false }
            c.boundaryBodies = []
            // Room for the segments too: one more body past an exact reservation for the items
            // would double the body arrays.
            world.reserveBodies(segments.count)
            for (k, s) in segments.enumerated() {
                let index = world.addBoundarySegment(from: s.0, to: s.1, group: group)
                registerBoundary(index, name: names[k])
                c.boundaryBodies.append(index)
            }
            c.boundarySegments = segments
        }
        for b in c.boundaryBodies {
            world.bodies[b].boundaryGroup = group
            world.bodies[b].enabled = true
        }
    }

    private func rebuildJoints() {
        let old = world.joints
        var joints: [Joint] = []
        for behavior in activeBehaviors {
            if let a = behavior as? AttachmentBehavior {
                guard var j = makeJoint(a) else { a.jointIndex = -1; continue }
                carryGroups(&j, a)
                if a.jointIndex >= 0, a.jointIndex < old.count, old[a.jointIndex].kind == j.kind { j.takeImpulses(from: old[a.jointIndex]) }
                a.jointIndex = joints.count
                joints.append(j)
            } else if let s = behavior as? SnapBehavior {
                guard let i = jointBody(of: s.item) else { continue }
                let start = joints.count
                for (k, spring) in snapSprings(s).enumerated() {
                    var j = Joint(kind: .distance, a: World.ground, b: i, localAnchorA: spring.anchor,
                                  localAnchorB: jointPoint(of: s.item, spring.corner))
                    j.length = SnapBehavior.springLength
                    j.enableSpring = true
                    j.hertz = SnapBehavior.frequency
                    j.dampingRatio = s.damping
                    if !groupBodies.isEmpty { tuneSpring(&j, nil, s.item, hertz: j.hertz, damping: j.dampingRatio) }
                    if s.jointStart >= 0, s.jointStart + k < old.count { j.takeImpulses(from: old[s.jointStart + k]) }
                    joints.append(j)
                }
                s.jointStart = start
            }
        }
        appendGroupWelds(to: &joints, old: old)
        world.joints = joints
    }

    /// The four springs of a snap: two opposite corners, each tied horizontally and vertically.
    func snapSprings(_ s: SnapBehavior) -> [(anchor: Vector2, corner: Vector2)] {
        let half = 0.5 * s.item.size
        let c1 = Vector2(-half.x, -half.y), c2 = Vector2(half.x, half.y)
        let d = SnapBehavior.springLength
        let p = s.snapPoint
        return [(p + c1 + Vector2(-d, 0), c1), (p + c1 + Vector2(0, -d), c1),
                (p + c2 + Vector2(d, 0), c2), (p + c2 + Vector2(0, d), c2)]
    }

    private func makeJoint(_ a: AttachmentBehavior) -> Joint? {
        let first = a.items[0]
        guard let i0 = jointBody(of: first) else { return nil }
        let i1 = a.items.count == 2 ? jointBody(of: a.items[1]) : nil
        if a.items.count == 2 && i1 == nil { return nil }
        let kind: Joint.Kind
        switch a.kind {
        case .distance, .limit: kind = a.actsAsPin ? .revolute : .distance
        case .pin: kind = .revolute
        case .sliding: kind = .prismatic
        case .fixed: kind = .weld
        }
        var j: Joint
        if kind == .distance {
            if let i1 {
                j = Joint(kind: .distance, a: i0, b: i1, localAnchorA: a.offsets[0], localAnchorB: a.offsets[1])
            } else {
                j = Joint(kind: .distance, a: World.ground, b: i0, localAnchorA: a.anchorPoint, localAnchorB: a.offsets[0])
            }
            let length = a.length ?? 0
            j.length = length
            if a.kind == .limit {
                j.enableSpring = true
                j.enableLimit = true
                j.minLength = 0
                j.maxLength = length
            } else if a.frequency > 0 {
                j.enableSpring = true
                j.hertz = a.frequency
                j.dampingRatio = a.damping
            }
            return j
        }
        if let i1 {
            j = Joint(kind: kind, a: i0, b: i1, localAnchorA: a.frozenLocalA ?? .zero, localAnchorB: a.frozenLocalB ?? .zero)
            j.localAxisA = Rotation(angle: first.angle).inverseRotate(a.axisOfTranslation.normalized)
        } else {
            j = Joint(kind: kind, a: World.ground, b: i0, localAnchorA: a.anchorPoint, localAnchorB: a.frozenLocalB ?? .zero)
            j.localAxisA = a.axisOfTranslation.normalized
        }
        j.referenceAngle = a.referenceAngle
        if a.kind == .pin || a.kind == .sliding {
            j.lower = a.attachmentRange.lowerBound
            j.upper = a.attachmentRange.upperBound
        }
        // frictionTorque is in newton-points (a UIKit newton, 100 points/s² on mass 1, at a 1-point
        // lever); the solver's torques are mass × points²/s², 100 times larger.
        if a.kind == .pin { j.maxMotorTorque = a.frictionTorque * PhysicsConstants.pushUnit }
        return j
    }

    /// Moves the ground ends of anchor attachments and snaps without rebuilding.
    func updateAnchors() {
        anchorsMovedCleared()
        for behavior in activeBehaviors {
            if let a = behavior as? AttachmentBehavior, a.jointIndex >= 0, a.items.count == 1 {
                world.joints[a.jointIndex].localAnchorA = a.anchorPoint
            } else if let s = behavior as? SnapBehavior, s.jointStart >= 0 {
                for (k, spring) in snapSprings(s).enumerated() { world.joints[s.jointStart + k].localAnchorA = spring.anchor }
            }
        }
    }
}
