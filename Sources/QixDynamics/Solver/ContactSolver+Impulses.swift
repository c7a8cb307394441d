/// Warm starting from the solver's own record: the impulses a step accumulated stay in the
/// batch lanes, and the next narrow phase reads them there through the schedule's slots.
extension ContactSolver {
    /// Runs `body` with last step's accumulated impulses as the solver left them (the next
    /// narrow phase warm-starts from them; copying them back into the contact records, 1.7 MB
    /// on the pyramid, cost a pass of its own). Nil unless the last `prepare` was for `contactCount` contacts.
    /// Mutating, although it changes nothing: called on the world's solver from inside the
    /// narrow phase's closures, a non-mutating call copied the whole solver first (14 retains
    /// and releases a step); a mutating one works on it in place.
    mutating func withImpulses<R>(contactCount: Int, _ body: (Impulses?) -> R) -> R {
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

        /// Both points' normal and tangent impulses of one contact (the second's mean nothing
        /// for a contact of one point).
        struct Points {
            let batch: UnsafePointer<ContactBatch>
            let lane: Int
            /// The first point's normal and tangent impulse.
            var first: (Double, Double) { (batch.pointee.p1.normalImpulse[lane], batch.pointee.p1.tangentImpulse[lane]) }
            /// The second point's normal and tangent impulse.
            var second: (Double, Double) { (batch.pointee.p2.normalImpulse[lane], batch.pointee.p2.tangentImpulse[lane]) }
        }

        /// The points of last step's contact `k` (one slot lookup for both).
        @inline(__always)
        func points(of k: Int) -> Points {
            // Slots are never negative: the batch and lane are a shift and a mask (four lanes).
            let slot = Int(UInt32(bitPattern: slotOfContact[k]))
            return Points(batch: batches + (slot >> 2), lane: slot & 3)
        }
    }
}
