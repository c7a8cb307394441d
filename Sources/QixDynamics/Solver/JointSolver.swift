/// Soft-step solving of joints (Box2D v3 distance, revolute, prismatic and weld joints).
struct JointSolver {
    var bodies: UnsafeMutablePointer<Body>
    var states: UnsafeMutablePointer<BodyState>
    var h: Double
    var invH: Double
    var jointSoftness: Softness

    func prepare(_ j: inout Joint) {
        let A = bodies[j.a], B = bodies[j.b]
        j.rA = A.q.rotate(j.localAnchorA - A.localCenter)
        j.rB = B.q.rotate(j.localAnchorB - B.localCenter)
        j.deltaCenter = B.center - A.center
        let mA = A.invMass, mB = B.invMass, iA = A.invInertia, iB = B.invInertia
        switch j.kind {
        case .distance:
            let d = j.deltaCenter + j.rB - j.rA
            let axis = d.normalized
            let crA = j.rA.cross(axis), crB = j.rB.cross(axis)
            let k = mA + mB + iA * crA * crA + iB * crB * crB
            j.axialMass = k > 0 ? 1 / k : 0
            j.springSoftness = Softness.make(hertz: j.hertz, zeta: j.dampingRatio, h: h)
        case .revolute, .weld:
            let k = iA + iB
            j.axialMass = k > 0 ? 1 / k : 0
        case .prismatic:
            j.axis = A.q.rotate(j.localAxisA).normalized
            let k = iA + iB
            j.axialMass = k > 0 ? 1 / k : 0
        }
    }

    func warmStart(_ j: inout Joint) {
        let mA = bodies[j.a].invMass, iA = bodies[j.a].invInertia
        let mB = bodies[j.b].invMass, iB = bodies[j.b].invInertia
        var sA = states[j.a], sB = states[j.b]
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        var P = Vector2.zero
        var angular = 0.0
        switch j.kind {
        case .distance where JointSolver.isPointSpring(j):
            P = j.linearImpulse
        case .distance:
            let d = (sB.dp - sA.dp) + j.deltaCenter + rB - rA
            P = (j.impulse + j.lowerImpulse - j.upperImpulse) * d.normalized
        case .revolute:
            P = j.linearImpulse
            angular = j.motorImpulse + j.lowerImpulse - j.upperImpulse
        case .weld:
            P = j.linearImpulse
            angular = j.angularImpulse
        case .prismatic:
            let axis = sA.dq.rotate(j.axis)
            P = (j.lowerImpulse - j.upperImpulse) * axis + j.perpendicularImpulse * axis.leftPerpendicular
            angular = j.angularImpulse
            let d = (sB.dp - sA.dp) + j.deltaCenter + rB - rA
            // The lever arm of A is measured to B's anchor, as in Box2D's prismatic joint.
            sA.v -= mA * P
            sA.w -= iA * ((d + rA).cross(P) + angular)
            sB.v += mB * P
            sB.w += iB * (rB.cross(P) + angular)
            if mA > 0 || iA > 0 { states[j.a] = sA }
            if mB > 0 || iB > 0 { states[j.b] = sB }
            return
        }
        sA.v -= mA * P
        sA.w -= iA * (rA.cross(P) + angular)
        sB.v += mB * P
        sB.w += iB * (rB.cross(P) + angular)
        if mA > 0 || iA > 0 { states[j.a] = sA }
        if mB > 0 || iB > 0 { states[j.b] = sB }
    }

    func solve(_ j: inout Joint, useBias: Bool) {
        switch j.kind {
        case .distance where JointSolver.isPointSpring(j): solvePointSpring(&j)
        case .distance: solveDistance(&j, useBias: useBias)
        case .revolute, .weld: solvePoint(&j, useBias: useBias)
        case .prismatic: solvePrismatic(&j, useBias: useBias)
        }
    }

    /// A one-sided soft limit: C >= 0 is allowed; returns the applied impulse.
    @inline(__always)
    func limitImpulse(C: Double, Cdot: Double, mass: Double, accumulated: inout Double, useBias: Bool) -> Double {
        var bias = 0.0, massScale = 1.0, impulseScale = 0.0
        if C > 0 {
            bias = C * invH
        } else if useBias {
            bias = jointSoftness.biasRate * C
            massScale = jointSoftness.massScale
            impulseScale = jointSoftness.impulseScale
        }
        let impulse = -massScale * mass * (Cdot + bias) - impulseScale * accumulated
        let newImpulse = max(accumulated + impulse, 0)
        let applied = newImpulse - accumulated
        accumulated = newImpulse
        return applied
    }

    func solveDistance(_ j: inout Joint, useBias: Bool) {
        let mA = bodies[j.a].invMass, iA = bodies[j.a].invInertia
        let mB = bodies[j.b].invMass, iB = bodies[j.b].invInertia
        var sA = states[j.a], sB = states[j.b]
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        let d = (sB.dp - sA.dp) + j.deltaCenter + rB - rA
        let length = d.length
        let axis = d.normalized
        @inline(__always) func apply(_ impulse: Double) {
            let P = impulse * axis
            sA.v -= mA * P
            sA.w -= iA * rA.cross(P)
            sB.v += mB * P
            sB.w += iB * rB.cross(P)
        }
        @inline(__always) func cdot() -> Double {
            let vr = (sB.v + crossSV(sB.w, rB)) - (sA.v + crossSV(sA.w, rA))
            return axis.dot(vr)
        }
        if j.enableSpring {
            if j.hertz > 0 {
                let C = length - j.length
                let s = j.springSoftness
                let impulse = -s.massScale * j.axialMass * (cdot() + s.biasRate * C) - s.impulseScale * j.impulse
                j.impulse += impulse
                apply(impulse)
            }
            if j.enableLimit {
                let lowerApplied = limitImpulse(C: length - j.minLength, Cdot: cdot(), mass: j.axialMass,
                                                accumulated: &j.lowerImpulse, useBias: useBias)
                apply(lowerApplied)
                let upperApplied = limitImpulse(C: j.maxLength - length, Cdot: -cdot(), mass: j.axialMass,
                                                accumulated: &j.upperImpulse, useBias: useBias)
                apply(-upperApplied)
            }
        } else {
            let C = length - j.length
            var bias = 0.0, massScale = 1.0, impulseScale = 0.0
            if useBias {
                bias = jointSoftness.biasRate * C
                massScale = jointSoftness.massScale
                impulseScale = jointSoftness.impulseScale
            }
            let impulse = -massScale * j.axialMass * (cdot() + bias) - impulseScale * j.impulse
            j.impulse += impulse
            apply(impulse)
        }
        states[j.a] = sA
        states[j.b] = sB
    }

    func relativeAngle(_ j: Joint) -> Double {
        (bodies[j.b].angle0 + states[j.b].dAngle) - (bodies[j.a].angle0 + states[j.a].dAngle) - j.referenceAngle
    }

    /// Pin (revolute) and fixed (weld): a shared point, plus friction, angle range or locked angle.
    func solvePoint(_ j: inout Joint, useBias: Bool) {
        let mA = bodies[j.a].invMass, iA = bodies[j.a].invInertia
        let mB = bodies[j.b].invMass, iB = bodies[j.b].invInertia
        var sA = states[j.a], sB = states[j.b]
        if j.kind == .revolute {
            solveMotor(&j, &sA, &sB, iA: iA, iB: iB)
            solveAngleRange(&j, &sA, &sB, iA: iA, iB: iB, useBias: useBias)
        } else {
            solveAngleLock(&j, &sA, &sB, iA: iA, iB: iB, useBias: useBias)
        }
        solvePointLock(&j, &sA, &sB, mA: mA, iA: iA, mB: mB, iB: iB, softness: useBias ? jointSoftness : nil)
        states[j.a] = sA
        states[j.b] = sB
    }

    /// A pin's friction: the motor at zero speed, its impulse capped by `maxMotorTorque`.
    @inline(__always)
    private func solveMotor(_ j: inout Joint, _ sA: inout BodyState, _ sB: inout BodyState, iA: Double, iB: Double) {
        if !(j.maxMotorTorque > 0) { return }
        let Cdot = sB.w - sA.w
        let maxImpulse = h * j.maxMotorTorque
        let old = j.motorImpulse
        j.motorImpulse = min(max(old - j.axialMass * Cdot, -maxImpulse), maxImpulse)
        let impulse = j.motorImpulse - old
        sA.w -= iA * impulse
        sB.w += iB * impulse
    }

    /// A pin's angle range: a one-sided soft limit at each end.
    @inline(__always)
    private func solveAngleRange(_ j: inout Joint, _ sA: inout BodyState, _ sB: inout BodyState, iA: Double, iB: Double,
                                 useBias: Bool) {
        if !(j.lower > -Double.infinity || j.upper < Double.infinity) { return }
        let angle = relativeAngle(j)
        let lowerApplied = limitImpulse(C: angle - j.lower, Cdot: sB.w - sA.w, mass: j.axialMass,
                                        accumulated: &j.lowerImpulse, useBias: useBias)
        sA.w -= iA * lowerApplied
        sB.w += iB * lowerApplied
        let upperApplied = limitImpulse(C: j.upper - angle, Cdot: sA.w - sB.w, mass: j.axialMass,
                                        accumulated: &j.upperImpulse, useBias: useBias)
        sA.w += iA * upperApplied
        sB.w -= iB * upperApplied
    }

    /// A weld's locked angle (soft with the joint softness while biased).
    @inline(__always)
    private func solveAngleLock(_ j: inout Joint, _ sA: inout BodyState, _ sB: inout BodyState, iA: Double, iB: Double,
                                useBias: Bool) {
        var bias = 0.0, massScale = 1.0, impulseScale = 0.0
        if useBias {
            bias = jointSoftness.biasRate * relativeAngle(j)
            massScale = jointSoftness.massScale
            impulseScale = jointSoftness.impulseScale
        }
        let impulse = -massScale * j.axialMass * (sB.w - sA.w + bias) - impulseScale * j.angularImpulse
        j.angularImpulse += impulse
        sA.w -= iA * impulse
        sB.w += iB * impulse
    }

    /// The shared point: a 2 x 2 solve of the anchors' relative velocity, plus their separation
    /// under `softness` (the joints' while biased, a point spring's own in every pass; nil: rigid).
    @inline(__always)
    func solvePointLock(_ j: inout Joint, _ sA: inout BodyState, _ sB: inout BodyState, mA: Double, iA: Double,
                        mB: Double, iB: Double, softness: Softness?) {
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        let Cdot = (sB.v + crossSV(sB.w, rB)) - (sA.v + crossSV(sA.w, rA))
        var bias = Vector2.zero, massScale = 1.0, impulseScale = 0.0
        if let softness {
            let separation = (sB.dp - sA.dp) + (rB - rA) + j.deltaCenter
            bias = softness.biasRate * separation
            massScale = softness.massScale
            impulseScale = softness.impulseScale
        }
        let solved = JointSolver.pointMassSolve(Cdot + bias, rA, rB, mA: mA, iA: iA, mB: mB, iB: iB)
        let impulse = -massScale * solved - impulseScale * j.linearImpulse
        j.linearImpulse += impulse
        sA.v -= mA * impulse
        sA.w -= iA * rA.cross(impulse)
        sB.v += mB * impulse
        sB.w += iB * rB.cross(impulse)
    }

    /// K⁻¹ rhs for the 2 x 2 point mass matrix K of anchors `rA` and `rB` (zero when K is singular).
    @inline(__always)
    static func pointMassSolve(_ rhs: Vector2, _ rA: Vector2, _ rB: Vector2, mA: Double, iA: Double, mB: Double,
                               iB: Double) -> Vector2 {
        let k11 = mA + mB + rA.y * rA.y * iA + rB.y * rB.y * iB
        let k12 = -rA.y * rA.x * iA - rB.y * rB.x * iB
        let k22 = mA + mB + rA.x * rA.x * iA + rB.x * rB.x * iB
        let det = k11 * k22 - k12 * k12
        if det == 0 { return .zero }
        let invDet = 1 / det
        return Vector2(invDet * (k22 * rhs.x - k12 * rhs.y), invDet * (k11 * rhs.y - k12 * rhs.x))
    }

    /// Sliding: no relative rotation, no motion across the axis, optional translation range.
    func solvePrismatic(_ j: inout Joint, useBias: Bool) {
        let mA = bodies[j.a].invMass, iA = bodies[j.a].invInertia
        let mB = bodies[j.b].invMass, iB = bodies[j.b].invInertia
        var sA = states[j.a], sB = states[j.b]
        solveAngleLock(&j, &sA, &sB, iA: iA, iB: iB, useBias: useBias)
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        let d = (sB.dp - sA.dp) + j.deltaCenter + rB - rA
        let axis = sA.dq.rotate(j.axis)
        let translation = axis.dot(d)
        @inline(__always) func along(_ dir: Vector2) -> (mass: Double, a: Double, b: Double) {
            let a = (d + rA).cross(dir), b = rB.cross(dir)
            let k = mA + mB + iA * a * a + iB * b * b
            return (k > 0 ? 1 / k : 0, a, b)
        }
        @inline(__always) func apply(_ impulse: Double, _ dir: Vector2, _ a: Double, _ b: Double) {
            let P = impulse * dir
            sA.v -= mA * P
            sA.w -= iA * impulse * a
            sB.v += mB * P
            sB.w += iB * impulse * b
        }
        if j.lower > -Double.infinity || j.upper < Double.infinity {
            let (mass, a, b) = along(axis)
            let cdot = axis.dot(sB.v - sA.v) + b * sB.w - a * sA.w
            let lowerApplied = limitImpulse(C: translation - j.lower, Cdot: cdot, mass: mass,
                                            accumulated: &j.lowerImpulse, useBias: useBias)
            apply(lowerApplied, axis, a, b)
            let cdot2 = axis.dot(sB.v - sA.v) + b * sB.w - a * sA.w
            let upperApplied = limitImpulse(C: j.upper - translation, Cdot: -cdot2, mass: mass,
                                            accumulated: &j.upperImpulse, useBias: useBias)
            apply(-upperApplied, axis, a, b)
        }
        let perp = axis.leftPerpendicular
        let (mass, a, b) = along(perp)
        let cdot = perp.dot(sB.v - sA.v) + b * sB.w - a * sA.w
        var bias = 0.0, massScale = 1.0, impulseScale = 0.0
        if useBias {
            bias = jointSoftness.biasRate * perp.dot(d)
            massScale = jointSoftness.massScale
            impulseScale = jointSoftness.impulseScale
        }
        let impulse = -massScale * mass * (cdot + bias) - impulseScale * j.perpendicularImpulse
        j.perpendicularImpulse += impulse
        apply(impulse, perp, a, b)
        states[j.a] = sA
        states[j.b] = sB
    }
}
