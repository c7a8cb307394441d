import Testing
@testable import QixDynamics

/// The C placements of the moving items (`BodyPlacement`: the step's new centres, angles,
/// rotations by `sinCos`, and origins, four bodies in lanes) must give exactly the Swift loop's
/// bits: for angles in every quadrant, large ones, one past sinCos's range (NaN rotation) and a
/// body that does not turn.
@Suite struct BodyPlacementTests {
    static let angles: [Double] = [-7, -2, 0.3, 2, 3.5, 5, 100, 1e6, 2e15]

    /// Free boxes far apart at `angles`, spun (all but one) and thrown, placed by `kernel`: the
    /// bits of every centre, angle, rotation and origin after one frame.
    static func placed(with kernel: ContactKernel) -> [UInt64] {
        let items = angles.enumerated().map { k, angle in
            Harness.box("b\(k)", at: Vector2(Double(1000 * k), Double(-300 * k)), size: Vector2(60, 140), angle: angle)
        }
        let animator = DynamicAnimator()
        animator.world.contactSolver.kernel = kernel
        animator.addBehavior(Harness.undamped(items))
        for (k, item) in items.enumerated() {
            animator.addVelocity(Vector2(30 * Double(k), -70), angular: k == 4 ? 0 : 1.5 - 0.4 * Double(k), to: item)
        }
        Harness.run(animator, frames: 1)
        return (1..<animator.world.bodies.count).flatMap { i -> [UInt64] in
            let b = animator.world.bodies[i]
            return [b.center.x, b.center.y, b.angle, b.q.c, b.q.s, b.origin.x, b.origin.y].map(\.bitPattern)
        }
    }

    @Test func placementsAreIdenticalWithEveryKernel() {
        let reference = Self.placed(with: .swift)
        for kernel in ContactKernelTests.cKernels {
            #expect(Self.placed(with: kernel) == reference, "\(kernel) differs from the Swift placements")
        }
    }
}
