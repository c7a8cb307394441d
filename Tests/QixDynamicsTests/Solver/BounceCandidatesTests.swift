import Testing
@testable import QixDynamics

/// The C test of which batches the restitution pass looks at (`BounceCandidates`) must leave
/// every bit as the Swift pass over all batches does: boxes of differing elasticity dropped
/// onto the floor and onto each other, stepped with every kernel side by side.
@Suite struct BounceCandidatesTests {
    /// Twelve boxes dropped from staggered heights (some onto others), elasticity 0 to 1.
    static func bouncing(with kernel: ContactKernel) -> (DynamicAnimator, [DynamicItem]) {
        let items = (0..<12).map { (k: Int) -> DynamicItem in
            let x: Double = 60 + 45 * Double(k % 6)
            let y: Double = 100 + 130 * Double(k / 6) + 17 * Double(k % 5)
            return Harness.box("b\(k)", at: Vector2(x, y), size: Vector2(40, 40), angle: 0.1 * Double(k % 3))
        }
        let animator = Harness.bounded(items, bounds: Rect(x: 0, y: 0, width: 400, height: 600))
        animator.world.contactSolver.kernel = kernel
        for (k, item) in items.enumerated() {
            let properties = DynamicItemBehavior(items: [item])
            properties.elasticity = Double(k % 5) / 4
            animator.addBehavior(properties)
        }
        return (animator, items)
    }

    @Test func bouncesAreIdenticalWithEveryKernel() {
        let kernels: [ContactKernel] = [.swift] + ContactKernelTests.cKernels
        let runs = kernels.map(Self.bouncing)
        var rebounds = 0
        for frame in 1...150 {
            for (animator, _) in runs { _ = animator.advance(by: 1 / 60.0) }
            let reference = runs[0].0.world.states
            // A box moving up after having fallen: a bounce happened somewhere.
            rebounds += runs[0].1.filter { $0.velocity.y < -50 }.count
            for (k, run) in runs.enumerated().dropFirst() {
                let difference = ContactKernelTests.firstDifference(run.0.world.states, reference)
                #expect(difference == nil, "\(kernels[k]) differs from the Swift kernel at frame \(frame)")
                if difference != nil { return }
            }
        }
        #expect(rebounds > 0)
    }
}
