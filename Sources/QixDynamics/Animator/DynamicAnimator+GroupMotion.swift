/// The motion of groups: one rigid motion for a group's bodies after every step, and forces,
/// impulses, velocities and fields on a group spread over its bodies as a rigid body takes them.
extension DynamicAnimator {
    /// A group's mass, centre of mass, velocities, inertia and charge, summed over its moving bodies.
    func groupMotion(_ record: GroupBody) -> GroupMotion {
        var m = GroupMotion()
        var moment = Vector2.zero, momentum = Vector2.zero
        for i in record.bodies where world.bodies[i].invMass > 0 {
            let mass = world.bodies[i].mass
            m.mass += mass
            moment += mass * world.bodies[i].center
            momentum += mass * world.states[i].v
            m.charge += world.material(of: i).charge
        }
        guard m.mass > 0 else { return m }
        m.center = (1 / m.mass) * moment
        m.velocity = (1 / m.mass) * momentum
        for i in record.bodies where world.bodies[i].invMass > 0 {
            let r = world.bodies[i].center - m.center
            m.inertia += world.bodies[i].inertia + world.bodies[i].mass * r.lengthSquared
            m.spin += world.bodies[i].inertia * world.states[i].w + world.bodies[i].mass * r.cross(world.states[i].v)
            m.turns = m.turns && !world.bodies[i].fixedRotation
        }
        m.angularVelocity = m.turns && m.inertia > 0 ? m.spin / m.inertia : 0
        return m
    }

    /// Sets each moving group's bodies to one rigid motion after a world step: the same centre
    /// of mass, momentum and angular momentum (so contacts and forces on single items act on the
    /// whole group), at the inertia-weighted mean of the angles the items give the group; the
    /// group item takes that motion's state. The angular velocity divides the angular momentum
    /// by the inertia of the rigid shape: within a step each item moves on a straight line,
    /// which keeps the momentum but moves the items outward, and the inertia of those places
    /// slowed a spinning group by 0.1 % per second.
    func rigidifyGroups() {
        for record in groupBodies {
            var m = groupMotion(record)
            guard m.mass > 0 else { continue }
            let g = record.group
            var angleSum = 0.0, weightSum = 0.0, local = Vector2.zero
            for (k, i) in record.bodies.enumerated() {
                let b = world.bodies[i]
                let weight = b.inertia + b.mass * (b.center - m.center).lengthSquared
                angleSum += weight * (b.angle - g.angleOffsets[k])
                weightSum += weight
                local += b.mass * (g.offsets[k] + g.offsetRotations[k].rotate(b.localCenter))
            }
            let angle = weightSum > 0 ? angleSum / weightSum : g.angle
            let q = Rotation(angle: angle)
            let localCenter = (1 / m.mass) * local
            let origin = m.center - q.rotate(localCenter)
            if m.turns { m.angularVelocity = m.spin / rigidInertia(record, about: localCenter) }
            for (k, i) in record.bodies.enumerated() {
                world.setPlacement(i, origin: origin + q.rotate(g.offsets[k]), angle: angle + g.angleOffsets[k])
                world.states[i].v = m.velocity + crossSV(m.angularVelocity, world.bodies[i].center - m.center)
                world.states[i].w = world.bodies[i].invInertia > 0 ? m.angularVelocity : 0
            }
            g.center = origin
            g.angle = angle
            g.velocity = m.velocity + crossSV(m.angularVelocity, origin - m.center)
            g.angularVelocity = m.angularVelocity
        }
        retuneGroupSprings()
    }

    /// A group's moment of inertia about `center` (its centre of mass in the group's frame), from
    /// the items' places in the group rather than where a step left them.
    private func rigidInertia(_ record: GroupBody, about center: Vector2) -> Double {
        let g = record.group
        var inertia = 0.0
        for (k, i) in record.bodies.enumerated() {
            let r = g.offsets[k] + g.offsetRotations[k].rotate(world.bodies[i].localCenter) - center
            inertia += world.bodies[i].inertia + world.bodies[i].mass * r.lengthSquared
        }
        return inertia
    }

    /// Adds `force` (mass × points/s²) acting at `point` (reference coordinates; nil: the centre
    /// of mass) to a group for the coming step: each body gets the force and torque that give
    /// it the group's linear and angular acceleration.
    func applyGroupForce(_ record: GroupBody, _ force: Vector2, at point: Vector2?) {
        let m = groupMotion(record)
        guard m.mass > 0 else { return }
        let a = (1 / m.mass) * force
        let alpha = m.turns && m.inertia > 0 ? (point.map { ($0 - m.center).cross(force) } ?? 0) / m.inertia : 0
        for i in record.bodies {
            let b = world.bodies[i]
            world.bodies[i].force += b.mass * (a + crossSV(alpha, b.center - m.center))
            world.bodies[i].torque += b.inertia * alpha
        }
    }

    /// Adds velocity to a group at once: `v` to its centre of mass, `angular` about it; an
    /// impulse `v` (points/s × mass) at `point` when `point` is given instead.
    func addGroupVelocity(_ record: GroupBody, _ v: Vector2, angular: Double, impulseAt point: Vector2? = nil) {
        let m = groupMotion(record)
        guard m.mass > 0 else { return }
        var dv = v, dw = m.turns ? angular : 0
        if let point {
            dv = (1 / m.mass) * v
            dw = m.turns && m.inertia > 0 ? (point - m.center).cross(v) / m.inertia : 0
        }
        for i in record.bodies {
            world.states[i].v += dv + crossSV(dw, world.bodies[i].center - m.center)
            if world.bodies[i].invInertia > 0 { world.states[i].w += dw }
        }
    }

    /// Applies a field to a group as one body at its centre of mass, with its mass and charge:
    /// a velocity field sets the centre's velocity, a magnetic one turns it, the others push.
    func applyField(_ field: FieldBehavior, to record: GroupBody) {
        let m = groupMotion(record)
        guard m.mass > 0 else { return }
        var target = m.velocity
        switch field.kind {
        case .velocity:
            guard field.region.contains(m.center - field.position) else { return }
            target = field.strength * field.direction
        case .magnetic:
            let rate = field.magneticTurnRate(at: m.center, mass: m.mass, charge: m.charge)
            target = Rotation(angle: -rate * PhysicsConstants.stepDuration).rotate(m.velocity)
        default:
            let a = field.acceleration(at: m.center, velocity: m.velocity, mass: m.mass, charge: m.charge, time: elapsedTime)
            applyGroupForce(record, m.mass * a, at: nil)
            return
        }
        for i in record.bodies { world.states[i].v += target - m.velocity }
    }
}
