/// Warm starting from the solver's own record: the impulses a step accumulated stay in the
/// batch lanes, and the next narrow phase reads them there through the schedule's slots.
extension ContactSolver {
    /// Runs `body` with last step's accumulated impulses as the solver left them (the next
    /// narrow phase warm-starts from them; copying them back into the contact records, 1.7 MB
    /// on the pyramid, cost a pass of its own). Nil unless the last `prepare` was for `contactCount` contacts.
    func withImpulses<R>(contactCount: Int, _ body: (Impulses?) -> R) -> R {
        batches.withUnsafeBufferPointer { bp in
            schedule.slotOfContact.withUnsafeBufferPointer { slotOf in
                guard preparedCount == contactCount, let b = bp.baseAddress, let s = slotOf.baseAddress else { return body(nil) }
                return body(Impulses(batches: b, slotOfContact: s))
            }
        }
    }

    /// Last step's impulses seen through pointers, valid inside `withImpulses`.
    struct Impulses {
        let batches: UnsafePointer<ContactBatch>
        let slotOfContact: UnsafePointer<Int32>

        /// The normal and tangent impulse of point `point` (0 or 1) of last step's contact `k`.
        @inline(__always)
        func of(_ k: Int, point: Int) -> (normal: Double, tangent: Double) {
            // Slots are never negative: the batch and lane are a shift and a mask (four lanes).
            let slot = Int(UInt32(bitPattern: slotOfContact[k]))
            let b = batches + (slot >> 2)
            let l = slot & 3
            return point == 0
                ? (b.pointee.p1.normalImpulse[l], b.pointee.p1.tangentImpulse[l])
                : (b.pointee.p2.normalImpulse[l], b.pointee.p2.tangentImpulse[l])
        }
    }
}
