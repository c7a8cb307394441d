/// How far the warm start must have run before each batch is solved, so that the two passes
/// can be one sweep over the batches (each batch read from memory once for both, instead of
/// streaming the batches, 1.35 MB on the pyramid, twice per sub-step).
///
/// The separate passes give every body all its warm-start impulses (in batch order) before
/// any of its solve impulses (in batch order). A sweep that warm-starts batch after batch ahead
/// of the solve keeps exactly that per-body order, bit for bit, if before solving batch n it
/// has warm-started every batch up to the last one holding a movable body of batch n: that
/// bound is what this records (a running maximum, so it never decreases).
struct WarmStartReach {
    /// For each batch n, how many batches (from the first) are warm-started before n is solved.
    private(set) var warmedBy: [Int32] = []
    /// Per body, the last batch with the body on a movable side (scratch).
    private var lastBatch: [Int32] = []

    /// Computes `warmedBy` for the batches of `slots` (`width` lanes each; -1 an unused lane),
    /// whose contact k joins bodies `keys[k] >> 32` and `keys[k] & 0xFFFF_FFFF` when keys are
    /// given for every contact, else `contacts[k].a` and `.b`; a body moves when its inverse
    /// mass (`masses[i].x`) is positive (the rule by which the passes store it).
    mutating func build(slots: UnsafeBufferPointer<Int32>, width: Int, keys: UnsafeBufferPointer<UInt64>,
                        contacts: UnsafeBufferPointer<ContactConstraint>, masses: UnsafeBufferPointer<SIMD2<Double>>) {
        let batchCount = slots.count / width
        let fromKeys = keys.count == contacts.count
        lastBatch.setCount(masses.count, filler: -1)
        warmedBy.setCount(batchCount, filler: 0)
        let pairKeys = fromKeys ? keys : nil
        lastBatch.withUnsafeMutableBufferPointer { last in
            for i in 0..<last.count { last[i] = -1 }
            for n in 0..<batchCount {
                for l in 0..<width {
                    let k = Int(slots[n * width + l])
                    if k < 0 { continue }
                    let (a, b) = ContactSchedule.bodies(of: k, contacts: contacts, keys: pairKeys)
                    if masses[a].x > 0 { last[a] = Int32(n) }
                    if masses[b].x > 0 { last[b] = Int32(n) }
                }
            }
            warmedBy.withUnsafeMutableBufferPointer { reach in
                var farthest = Int32(0)
                for n in 0..<batchCount {
                    var need = Int32(n)
                    for l in 0..<width {
                        let k = Int(slots[n * width + l])
                        if k < 0 { continue }
                        let (a, b) = ContactSchedule.bodies(of: k, contacts: contacts, keys: pairKeys)
                        if masses[a].x > 0 { need = max(need, last[a]) }
                        if masses[b].x > 0 { need = max(need, last[b]) }
                    }
                    farthest = max(farthest, need)
                    reach[n] = farthest + 1
                }
            }
        }
    }
}
