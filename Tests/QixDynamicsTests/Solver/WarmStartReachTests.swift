import Testing
@testable import QixDynamics

/// The warm-start reach: before batch n is solved, every batch up to the last one holding a
/// movable body of batch n must have been warm-started (static bodies do not count).
@Suite struct WarmStartReachTests {
    /// A chain 1-2, 2-3, 3-4 in three batches, plus a contact of the static body 0 with body 4
    /// beside 3-4: body 2 is last in batch 1 and bodies 3 and 4 in batch 2, so batch 0 needs
    /// two batches warm-started and the others all three.
    @Test(arguments: [true, false])
    func reachIsTheLastBatchOfTheBatchBodies(fromKeys: Bool) {
        let pairs = [(1, 2), (2, 3), (3, 4), (0, 4)]
        let contacts = pairs.map { ContactConstraint(a: $0.0, b: $0.1) }
        let keys = pairs.map { UInt64($0.0) << 32 | UInt64($0.1) }
        let slots: [Int32] = [0, -1, -1, -1, 1, -1, -1, -1, 2, 3, -1, -1]
        let masses: [SIMD2<Double>] = [.zero, SIMD2(1, 1), SIMD2(1, 1), SIMD2(1, 1), SIMD2(1, 1)]
        var reach = WarmStartReach()
        slots.withUnsafeBufferPointer { sl in contacts.withUnsafeBufferPointer { cp in
            keys.withUnsafeBufferPointer { kp in masses.withUnsafeBufferPointer { mp in
                reach.build(slots: sl, width: 4, keys: fromKeys ? kp : UnsafeBufferPointer(start: nil, count: 0),
                            contacts: cp, masses: mp)
            } }
        } }
        #expect(reach.warmedBy == [2, 3, 3])
    }

    /// A batch whose bodies all end in it needs only what came before and itself (the running
    /// maximum), and an empty batch needs only itself.
    @Test func reachIsARunningMaximum() {
        let pairs = [(1, 2), (3, 4), (1, 3)]
        let contacts = pairs.map { ContactConstraint(a: $0.0, b: $0.1) }
        // Batch 0: 1-2 and 3-4 (bodies 1 and 3 recur in batch 1); batch 1: 1-3; batch 2: empty.
        let slots: [Int32] = [0, 1, -1, -1, 2, -1, -1, -1, -1, -1, -1, -1]
        let masses = [SIMD2<Double>](repeating: SIMD2(1, 1), count: 5)
        var reach = WarmStartReach()
        slots.withUnsafeBufferPointer { sl in contacts.withUnsafeBufferPointer { cp in
            masses.withUnsafeBufferPointer { mp in
                reach.build(slots: sl, width: 4, keys: UnsafeBufferPointer(start: nil, count: 0), contacts: cp, masses: mp)
            }
        } }
        #expect(reach.warmedBy == [2, 2, 3])
    }
}
