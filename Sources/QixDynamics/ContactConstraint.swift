/// One solver point of a contact: fixed anchors for the step and accumulated impulses.
struct ContactPoint {
    var anchorA = Vector2.zero
    var anchorB = Vector2.zero
    var baseSeparation = 0.0
    var separation = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var maxNormalImpulse = 0.0
    var normalMass = 0.0
    var tangentMass = 0.0
    var relativeVelocity = 0.0
    var id: UInt32 = 0
}

/// A soft contact constraint between two bodies with up to two points (Box2D v3 soft step).
struct ContactConstraint {
    var a: Int
    var b: Int
    var key: UInt64
    var normal = Vector2.zero
    var friction = 0.0
    var restitution = 0.0
    var softness = Softness.rigid
    var pointCount = 0
    /// Inverse masses and inertias, copied at prepare so the inner loops never touch `Body`.
    var mA = 0.0
    var iA = 0.0
    var mB = 0.0
    var iB = 0.0
    var p0 = ContactPoint()
    var p1 = ContactPoint()
    var touching = false
}

/// The prepare / warm-start / solve / relax / restitution passes over contacts. Points are
/// updated in place (`inout` on the constraint's stored points), never copied in and out.
enum ContactSolver {
    static func prepare(
        _ c: inout ContactConstraint, bodies: UnsafeMutablePointer<Body>, states: UnsafeMutablePointer<BodyState>,
        contactSoftness: Softness, staticSoftness: Softness
    ) {
        let mA = bodies[c.a].invMass, iA = bodies[c.a].invInertia
        let mB = bodies[c.b].invMass, iB = bodies[c.b].invInertia
        c.mA = mA
        c.iA = iA
        c.mB = mB
        c.iB = iB
        c.softness = (mA == 0 || mB == 0) ? staticSoftness : contactSoftness
        let normal = c.normal
        let tangent = normal.rightPerpendicular
        let vA = states[c.a].v, wA = states[c.a].w
        let vB = states[c.b].v, wB = states[c.b].w
        @inline(__always) func point(_ cp: inout ContactPoint) {
            let rA = cp.anchorA, rB = cp.anchorB
            cp.baseSeparation = cp.separation - (rB - rA).dot(normal)
            cp.maxNormalImpulse = 0
            let rnA = rA.cross(normal), rnB = rB.cross(normal)
            let kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            cp.normalMass = kNormal > 0 ? 1 / kNormal : 0
            let rtA = rA.cross(tangent), rtB = rB.cross(tangent)
            let kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB
            cp.tangentMass = kTangent > 0 ? 1 / kTangent : 0
            let vrA = vA + crossSV(wA, rA)
            let vrB = vB + crossSV(wB, rB)
            cp.relativeVelocity = normal.dot(vrB - vrA)
        }
        point(&c.p0)
        if c.pointCount > 1 { point(&c.p1) }
    }

    @inline(__always)
    static func warmStart(_ c: inout ContactConstraint, bodies: UnsafeMutablePointer<Body>, states: UnsafeMutablePointer<BodyState>) {
        let mA = c.mA, iA = c.iA, mB = c.mB, iB = c.iB
        var sA = states[c.a], sB = states[c.b]
        let normal = c.normal, tangent = normal.rightPerpendicular
        @inline(__always) func point(_ cp: inout ContactPoint) {
            let P = cp.normalImpulse * normal + cp.tangentImpulse * tangent
            sA.w -= iA * cp.anchorA.cross(P)
            sA.v -= mA * P
            sB.w += iB * cp.anchorB.cross(P)
            sB.v += mB * P
        }
        point(&c.p0)
        if c.pointCount > 1 { point(&c.p1) }
        if mA > 0 { states[c.a] = sA }
        if mB > 0 { states[c.b] = sB }
    }

    @inline(__always)
    static func solve(
        _ c: inout ContactConstraint, bodies: UnsafeMutablePointer<Body>, states: UnsafeMutablePointer<BodyState>,
        invH: Double, useBias: Bool
    ) {
        let mA = c.mA, iA = c.iA, mB = c.mB, iB = c.iB
        var sA = states[c.a], sB = states[c.b]
        let normal = c.normal, tangent = normal.rightPerpendicular
        let dp = sB.dp - sA.dp
        let softness = c.softness
        @inline(__always) func normalPoint(_ cp: inout ContactPoint) {
            let rA = cp.anchorA, rB = cp.anchorB
            let d = dp + (sB.dq.rotate(rB) - sA.dq.rotate(rA))
            let s = d.dot(normal) + cp.baseSeparation
            var bias = 0.0, massScale = 1.0, impulseScale = 0.0
            if s > 0 {
                bias = s * invH
            } else if useBias {
                bias = max(softness.biasRate * s, -PhysicsConstants.contactPushMaxVelocity)
                massScale = softness.massScale
                impulseScale = softness.impulseScale
            }
            let vrA = sA.v + crossSV(sA.w, rA)
            let vrB = sB.v + crossSV(sB.w, rB)
            let vn = (vrB - vrA).dot(normal)
            let impulse = -cp.normalMass * massScale * (vn + bias) - impulseScale * cp.normalImpulse
            applyNormalImpulse(impulse, at: &cp, normal: normal, &sA, &sB, mA: mA, iA: iA, mB: mB, iB: iB)
        }
        let friction = c.friction
        @inline(__always) func frictionPoint(_ cp: inout ContactPoint) {
            let rA = cp.anchorA, rB = cp.anchorB
            let vrA = sA.v + crossSV(sA.w, rA)
            let vrB = sB.v + crossSV(sB.w, rB)
            let vt = (vrB - vrA).dot(tangent)
            var impulse = -cp.tangentMass * vt
            let maxFriction = friction * cp.normalImpulse
            let newImpulse = min(max(cp.tangentImpulse + impulse, -maxFriction), maxFriction)
            impulse = newImpulse - cp.tangentImpulse
            cp.tangentImpulse = newImpulse
            let P = impulse * tangent
            sA.v -= mA * P
            sA.w -= iA * rA.cross(P)
            sB.v += mB * P
            sB.w += iB * rB.cross(P)
        }
        let two = c.pointCount > 1
        normalPoint(&c.p0)
        if two { normalPoint(&c.p1) }
        frictionPoint(&c.p0)
        if two { frictionPoint(&c.p1) }
        if mA > 0 { states[c.a] = sA }
        if mB > 0 { states[c.b] = sB }
    }

    /// Accumulates a normal impulse at one contact point, clamped so that the total never
    /// pulls (contacts only push), and applies the change to both bodies. Shared by the
    /// solve and restitution passes, with the same operations in the same order.
    @inline(__always)
    static func applyNormalImpulse(_ impulse: Double, at cp: inout ContactPoint, normal: Vector2,
                                   _ sA: inout BodyState, _ sB: inout BodyState,
                                   mA: Double, iA: Double, mB: Double, iB: Double) {
        let newImpulse = max(cp.normalImpulse + impulse, 0)
        let applied = newImpulse - cp.normalImpulse
        cp.normalImpulse = newImpulse
        cp.maxNormalImpulse = max(cp.maxNormalImpulse, applied)
        let P = applied * normal
        sA.v -= mA * P
        sA.w -= iA * cp.anchorA.cross(P)
        sB.v += mB * P
        sB.w += iB * cp.anchorB.cross(P)
    }

    static func restitution(_ c: inout ContactConstraint, bodies: UnsafeMutablePointer<Body>, states: UnsafeMutablePointer<BodyState>) {
        if c.restitution == 0 { return }
        let mA = c.mA, iA = c.iA, mB = c.mB, iB = c.iB
        var sA = states[c.a], sB = states[c.b]
        let normal = c.normal
        let restitution = c.restitution
        @inline(__always) func point(_ cp: inout ContactPoint) {
            if cp.relativeVelocity > -PhysicsConstants.restitutionThreshold || cp.maxNormalImpulse == 0 { return }
            let rA = cp.anchorA, rB = cp.anchorB
            let vrA = sA.v + crossSV(sA.w, rA)
            let vrB = sB.v + crossSV(sB.w, rB)
            let vn = (vrB - vrA).dot(normal)
            let impulse = -cp.normalMass * (vn + restitution * cp.relativeVelocity)
            applyNormalImpulse(impulse, at: &cp, normal: normal, &sA, &sB, mA: mA, iA: iA, mB: mB, iB: iB)
        }
        point(&c.p0)
        if c.pointCount > 1 { point(&c.p1) }
        if mA > 0 { states[c.a] = sA }
        if mB > 0 { states[c.b] = sB }
    }
}
