import Testing
@testable import QixDynamics

/// The continuous stage's pieces: the convex distance, the rotating time of impact, and the
/// sweep's checks that stop pass-throughs without pausing items that slide.
@Suite struct TimeOfImpactTests {
    /// A rectangle's vertices and outward normals, centred on the origin.
    static func rectangle(_ w: Double, _ h: Double) -> ConvexGeometry {
        ConvexGeometry.polygon([Vector2(-w / 2, -h / 2), Vector2(w / 2, -h / 2), Vector2(w / 2, h / 2), Vector2(-w / 2, h / 2)])
    }

    static func distance(_ a: [Vector2], _ an: [Vector2], _ b: [Vector2], _ bn: [Vector2]) -> (distance: Double, normal: Vector2) {
        a.withUnsafeBufferPointer { pa in
            an.withUnsafeBufferPointer { na in
                b.withUnsafeBufferPointer { pb in bn.withUnsafeBufferPointer { nb in ConvexDistance.between(pa, na, pb, nb) } }
            }
        }
    }

    @Test func distanceIsExactApartAndNegativeWhenOverlapping() {
        let square = Self.rectangle(2, 2)
        let moved = { (d: Vector2) in square.vertices.map { $0 + d } }
        // Face to face, 3 apart.
        let face = Self.distance(square.vertices, square.normals, moved(Vector2(5, 0)), square.normals)
        #expect(abs(face.distance - 3) < 1e-12 && abs(face.normal.x - 1) < 1e-12)
        // Corner to corner on the diagonal: the separating-axis gap (3) would undercount.
        let corner = Self.distance(square.vertices, square.normals, moved(Vector2(5, 5)), square.normals)
        #expect(abs(corner.distance - 3 * 2.0.squareRoot()) < 1e-12)
        // Overlapping by 0.5: minus the depth.
        let overlap = Self.distance(square.vertices, square.normals, moved(Vector2(1.5, 0)), square.normals)
        #expect(abs(overlap.distance + 0.5) < 1e-12)
        // A point against a segment (a circle's core against a boundary).
        let segment = ConvexGeometry.segment(Vector2(0, -10), Vector2(0, 10))
        let point = Self.distance(segment.vertices, segment.normals, [Vector2(4, 3)], [.zero])
        #expect(abs(point.distance - 4) < 1e-12 && abs(point.normal.x - 1) < 1e-12)
    }

    /// A 60 x 10 rod turning a quarter turn on the spot next to a wall: no translation sweep
    /// sees it, the rotating one stops it when its end comes within the target of the wall and
    /// never lets it closer before.
    @Test func aTurningRodIsStoppedBeforeItsEndReachesTheWall() {
        let rod = Self.rectangle(60, 10)
        let wall = ConvexGeometry.segment(Vector2(20, -100), Vector2(20, 100))
        var toi = TimeOfImpact()
        let sweep = Sweep(localCenter: .zero, c0: .zero, c1: .zero, a0: Double.pi / 2, a1: 0, q1: .identity)
        rod.vertices.withUnsafeBufferPointer { rv in
            rod.normals.withUnsafeBufferPointer { rn in
                wall.vertices.withUnsafeBufferPointer { wv in
                    wall.normals.withUnsafeBufferPointer { wn in
                        let b = TimeOfImpact.Shape(vertices: rv.baseAddress!, normals: rn.baseAddress!, count: 4, radius: 0)
                        let a = TimeOfImpact.Shape(vertices: wv.baseAddress!, normals: wn.baseAddress!, count: 2, radius: 0)
                        let target = TimeOfImpact.target(a, b)
                        let t = toi.fraction(of: b, along: sweep, reach: 30.5, against: a, at: Transform(p: .zero, q: .identity),
                                             target: target, before: 1)
                        guard let t else { Issue.record("the turning rod was not stopped"); return }
                        #expect(t > 0 && t < 1)
                        // The farthest x of the rod at fraction s: its corner (30, 5) turned.
                        func reachX(_ s: Double) -> Double {
                            let q = sweep.rotation(at: s)
                            return rod.vertices.map { q.rotate($0).x }.max()!
                        }
                        let gap = 20 - reachX(t)
                        #expect(gap > target - 1e-9 && gap < target + 0.25 * PhysicsConstants.linearSlop, "gap \(gap)")
                        for k in 0..<100 { #expect(20 - reachX(t * Double(k) / 100) > target) }
                        #expect(toi.iterations < TimeOfImpact.maxIterations)
                    }
                }
            }
        }
    }

    /// A box resting on the floor and pushed along it at 3 000 points/s is not put back by the
    /// sweep (Box2D's check against pausing on smooth segments): it covers nearly its whole
    /// step's travel, friction taking the rest.
    @Test func aBoxSlidingOnTheFloorIsNotPaused() {
        let box = Harness.box("b", at: Vector2(200, 1000 - 20), size: Vector2(40, 40))
        let animator = Harness.bounded([box], bounds: Rect(x: 0, y: 0, width: 4000, height: 1000))
        let undamped = Harness.undamped([box])
        undamped.friction = 0
        animator.addBehavior(undamped)
        Harness.run(animator, frames: 30)
        let start = box.center
        box.velocity = Vector2(3000, 0)
        animator.updateItem(usingCurrentState: box)
        for _ in 0..<10 { _ = animator.advance(by: PhysicsConstants.stepDuration) }
        #expect(abs(box.center.x - start.x - 250) < 1, "moved \(box.center.x - start.x)")
        #expect(abs(box.center.y - start.y) < 0.5)
    }
}
