import Testing
@testable import QixDynamics

/// The C body integration (`BodyIntegration`, four bodies in lanes and the rest one at a time)
/// must give exactly the Swift loops' bits, including the speed limits: the scenes that compare
/// contact kernels cover bodies at ordinary speeds, these bodies pass both limits.
@Suite struct BodyIntegrationTests {
    /// Seven free boxes (a group of four lanes and three left over) thrown past the linear
    /// limit (one so fast that v · v overflows) and spun past the angular one, in each kernel.
    static func thrown(with kernel: ContactKernel) -> [UInt64] {
        let items = (0..<7).map { k in Harness.box("b\(k)", at: Vector2(Double(400 * k), 0)) }
        let animator = DynamicAnimator()
        animator.world.contactSolver.kernel = kernel
        animator.addBehavior(Harness.undamped(items))
        animator.addBehavior(GravityBehavior(items: items))
        for (k, item) in items.enumerated() {
            let speed = k == 5 ? 1e200 : 2e4 * Double(k)
            animator.addVelocity(Vector2(speed, -0.5 * speed), angular: k % 2 == 0 ? 1e7 : -3, to: item)
        }
        Harness.run(animator, frames: 3)
        return items.flatMap { item in
            [item.velocity.x, item.velocity.y, item.angularVelocity, item.center.x, item.center.y, item.angle]
                .map(\.bitPattern)
        }
    }

    @Test func speedLimitsAreIdenticalWithEveryKernel() {
        let reference = Self.thrown(with: .swift)
        for kernel in ContactKernelTests.cKernels {
            #expect(Self.thrown(with: kernel) == reference, "\(kernel) differs from the Swift integration")
        }
    }
}
