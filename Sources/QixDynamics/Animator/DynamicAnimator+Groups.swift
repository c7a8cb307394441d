/// Groups (`DynamicItemGroup`) in the world: each item keeps its own body and shape, welded to
/// the group's first item within the solve and set to one rigid motion after every step;
/// forces, impulses and fields on a group are spread over its bodies as a rigid body takes them.
extension DynamicAnimator {
    /// Calls `body` for each item of `items` that has a body of its own: the item, or each item
    /// of a group (a loop, not a flattened copy: the pyramid's behaviors name 5050 items).
    func forEachBodyItem(_ items: [DynamicItem], _ body: (DynamicItem) -> Void) {
        for item in items {
            if let group = item as? DynamicItemGroup {
                for member in group.items { body(member) }
            } else {
                body(item)
            }
        }
    }

    /// The record of `group` if a behavior in effect names it.
    func groupRecord(of group: DynamicItemGroup) -> GroupBody? {
        groupBodies.first { $0.group === group }
    }

    /// Finds the groups the behaviors name and keeps their records (a new one is placed from the
    /// group's own state before the next step); a group is anchored, or kept from turning, as a
    /// whole when any of its items is; a group's items stop colliding with one another.
    func refreshGroups() {
        var found: [GroupBody] = []
        for behavior in activeBehaviors {
            for case let group as DynamicItemGroup in behavior.involvedItems where !found.contains(where: { $0.group === group }) {
                found.append(groupRecord(of: group) ?? GroupBody(group: group, bodies: group.items.compactMap { bodyIndex(of: $0) }))
            }
        }
        groupBodies = found
        for record in groupBodies {
            let anchored = record.bodies.contains { world.bodies[$0].isAnchored }
            let fixed = record.bodies.contains { world.bodies[$0].fixedRotation }
            for i in record.bodies {
                world.bodies[i].isAnchored = anchored
                world.bodies[i].fixedRotation = fixed
            }
        }
        separateGroupItems()
    }

    /// Gives each item of a group its own collision bits where they shared one (the narrow phase
    /// pairs two items when their masks share a bit): for a bit that k items of a group hold,
    /// the first keeps it, the others each take a free bit, and every other item holding the bit
    /// takes all k, so it still meets each of them. Out of free bits (64 in all, one per
    /// collision behavior already), the remaining items keep colliding with each other.
    private func separateGroupItems() {
        var used: UInt64 = 0
        for i in 1..<world.bodies.count where world.bodies[i].enabled { used |= world.bodies[i].itemMask }
        for record in groupBodies {
            var shared: UInt64 = 0
            for i in record.bodies { shared |= world.bodies[i].itemMask }
            for bit in (0..<64).map({ UInt64(1) << UInt64($0) }) where shared & bit != 0 {
                let holders = record.bodies.filter { world.bodies[$0].itemMask & bit != 0 }
                var fresh: [UInt64] = [bit]
                while fresh.count < holders.count, used != UInt64.max {
                    let free = ~used & (used &+ 1)  // the lowest clear bit of `used`
                    used |= free
                    fresh.append(free)
                }
                let all = fresh.reduce(0, |)
                for i in 1..<world.bodies.count where world.bodies[i].itemMask & bit != 0 && !record.bodies.contains(i) {
                    world.bodies[i].itemMask |= all
                }
                for (k, i) in holders.enumerated() where k < fresh.count { world.bodies[i].itemMask = world.bodies[i].itemMask & ~bit | fresh[k] }
            }
        }
    }

    /// Places the bodies of groups that just joined from each group's state.
    func placeNewGroups() {
        for k in groupBodies.indices where groupBodies[k].needsPlacement {
            groupBodies[k].needsPlacement = false
            placeItems(of: groupBodies[k])
        }
    }

    /// Puts a group's bodies where its centre, angle and velocities put them.
    func placeItems(of record: GroupBody) {
        let g = record.group
        let q = Rotation(angle: g.angle)
        for (k, i) in record.bodies.enumerated() {
            world.setPlacement(i, origin: g.center + q.rotate(g.offsets[k]), angle: g.angle + g.angleOffsets[k])
            guard world.bodies[i].invMass > 0 else { continue }
            world.states[i].v = g.velocity + crossSV(g.angularVelocity, world.bodies[i].center - g.center)
            world.states[i].w = world.bodies[i].invInertia > 0 ? g.angularVelocity : 0
        }
    }

    /// The body a joint on `item` ties to: the item's own, or a group's first item's.
    func jointBody(of item: DynamicItem) -> Int? {
        if let group = item as? DynamicItemGroup { return bodyIndex(of: group.items[0]) }
        return bodyIndex(of: item)
    }

    /// A point given relative to `item`'s centre in its frame, in the frame of its joint body.
    func jointPoint(of item: DynamicItem, _ offset: Vector2) -> Vector2 {
        (item as? DynamicItemGroup)?.itemPoint(0, offset) ?? offset
    }

    /// Re-expresses a joint built for `attachment`'s items on their joint bodies when one of the
    /// items is a group: anchors and axis in the first item's frame, reference angle between
    /// the first items' angles. Plain items are left alone (the same bits as before groups).
    func carryGroups(_ j: inout Joint, _ attachment: AttachmentBehavior) {
        guard attachment.items.contains(where: { $0 is DynamicItemGroup }) else { return }
        let itemA: DynamicItem? = attachment.items.count == 2 ? attachment.items[0] : nil
        let itemB = attachment.items.count == 2 ? attachment.items[1] : attachment.items[0]
        func turn(_ item: DynamicItem?) -> Double { (item as? DynamicItemGroup)?.angleOffsets[0] ?? 0 }
        if let itemA { j.localAnchorA = jointPoint(of: itemA, j.localAnchorA) }
        j.localAnchorB = jointPoint(of: itemB, j.localAnchorB)
        j.referenceAngle += turn(itemB) - turn(itemA)
        j.localAxisA = Rotation(angle: turn(itemA)).inverseRotate(j.localAxisA)
        tuneSpring(&j, itemA, itemB, hertz: j.hertz, damping: j.dampingRatio)
    }

    /// Tunes a spring of `hertz` and `damping` on a group's joint body to the group's mass. The
    /// solver scales a soft spring's impulse by the mass along its axis of the bodies it joins,
    /// which for a group is its first item's alone: a 1 Hz spring on a group of two equal boxes
    /// swung at 0.71 Hz. Frequency and damping ratio are multiplied by √(carried / true mass
    /// along the axis), which gives the spring the stiffness and damping it has on the whole
    /// group where the bodies stand now (`retuneGroupSprings()` redoes it after every step).
    func tuneSpring(_ j: inout Joint, _ itemA: DynamicItem?, _ itemB: DynamicItem, hertz: Double, damping: Double) {
        guard j.enableSpring, hertz > 0 else { return }
        j.hertz = hertz
        j.dampingRatio = damping
        let pA = j.a == World.ground ? j.localAnchorA : world.bodies[j.a].transform.apply(j.localAnchorA)
        let pB = world.bodies[j.b].transform.apply(j.localAnchorB)
        guard (pB - pA).lengthSquared > 0 else { return }
        let axis = (pB - pA).normalized
        var carried = 0.0, whole = 0.0
        for (body, item, p) in [(j.a, itemA, pA), (j.b, itemB, pB)] where body != World.ground {
            let b = world.bodies[body]
            let lever = (p - b.center).cross(axis)
            carried += b.invMass + b.invInertia * lever * lever
            guard let group = item as? DynamicItemGroup, let record = groupRecord(of: group) else {
                whole += b.invMass + b.invInertia * lever * lever
                continue
            }
            let m = groupMotion(record)
            guard m.mass > 0 else { continue }
            let arm = (p - m.center).cross(axis)
            whole += 1 / m.mass + (m.turns && m.inertia > 0 ? arm * arm / m.inertia : 0)
        }
        guard carried > 0, whole > 0 else { return }
        let scale = (carried / whole).squareRoot()
        j.hertz = hertz * scale
        j.dampingRatio = damping * scale
    }

    /// Tunes the springs of attachments and snaps on groups to where the group now stands.
    func retuneGroupSprings() {
        for behavior in activeBehaviors {
            if let a = behavior as? AttachmentBehavior, a.jointIndex >= 0, a.frequency > 0, a.kind == .distance,
               a.items.contains(where: { $0 is DynamicItemGroup }) {
                tuneSpring(&world.joints[a.jointIndex], a.items.count == 2 ? a.items[0] : nil, a.items[a.items.count - 1],
                           hertz: a.frequency, damping: a.damping)
            } else if let s = behavior as? SnapBehavior, s.jointStart >= 0, s.item is DynamicItemGroup {
                for k in 0..<4 {
                    tuneSpring(&world.joints[s.jointStart + k], nil, s.item, hertz: SnapBehavior.frequency, damping: s.damping)
                }
            }
        }
    }

    /// Welds each group's items to its first (none for an anchored group: nothing moves), keeping
    /// last frame's impulses of the same welds for warm starting.
    func appendGroupWelds(to joints: inout [Joint], old: [Joint]) {
        for k in groupBodies.indices {
            let record = groupBodies[k], g = record.group
            let start = joints.count
            guard !world.bodies[record.bodies[0]].isAnchored else { groupBodies[k].weldStart = -1; continue }
            for m in 1..<record.bodies.count {
                var j = Joint(kind: .weld, a: record.bodies[0], b: record.bodies[m], localAnchorA: g.itemPoint(0, g.offsets[m]),
                              localAnchorB: .zero)
                j.referenceAngle = g.angleOffsets[m] - g.angleOffsets[0]
                let previous = record.weldStart + m - 1
                if record.weldStart >= 0, previous < old.count, old[previous].kind == .weld, old[previous].b == record.bodies[m] {
                    j.takeImpulses(from: old[previous])
                }
                joints.append(j)
            }
            groupBodies[k].weldStart = start
        }
    }
}
