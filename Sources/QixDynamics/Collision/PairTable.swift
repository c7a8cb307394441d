/// Last step's contacts grouped by their first body, for warm starting: finding the contact of a
/// pair scans the few contacts of its first body (a counting sort per step, no hashing). Only
/// looked up, never iterated for results, so it cannot disturb determinism; with unique pairs
/// the answer is the contact of that pair, as with any map.
struct PairTable {
    /// `order[start[a]..<start[a + 1]]` are the indices of the contacts whose first body is `a`.
    private var start: [Int32] = []
    private var order: [Int32] = []
    private var second: [Int32] = []

    /// Groups contacts by first body, from their pair keys (`first << 32 | second`, bodies below
    /// `bodyCount`): a compact array, so the large contact records are not read again.
    mutating func rebuild(keys: UnsafeBufferPointer<UInt64>, bodyCount: Int) {
        if start.count != bodyCount + 1 { start = Array(repeating: 0, count: bodyCount + 1) }
        if order.count < keys.count {
            // Every slot is written below: no fill first.
            order = [Int32](unsafeUninitializedCapacity: keys.count) { _, n in n = keys.count }
            second = [Int32](unsafeUninitializedCapacity: keys.count) { _, n in n = keys.count }
        }
        start.withUnsafeMutableBufferPointer { start in
            order.withUnsafeMutableBufferPointer { order in
                second.withUnsafeMutableBufferPointer { second in
                    PairTable.group(keys, bodyCount: bodyCount, start: start.baseAddress!, order: order.baseAddress!,
                                    second: second.baseAddress!)
                }
            }
        }
    }

    /// The counting sort of `rebuild` on pointers, with wrapping arithmetic: the counts are at
    /// most the key count, which is far below 2^31, so the overflow checks the plain operators
    /// made (a third of the sort's instructions; the table is built every step where the
    /// broad phase repeats a pair, as on the base-10 pyramid) can never fire.
    private static func group(_ keys: UnsafeBufferPointer<UInt64>, bodyCount: Int, start: UnsafeMutablePointer<Int32>,
                              order: UnsafeMutablePointer<Int32>, second: UnsafeMutablePointer<Int32>) {
        start.update(repeating: 0, count: bodyCount + 1)
        for k in 0..<keys.count { start[Int(keys[k] >> 32) &+ 1] &+= 1 }
        for i in 0..<bodyCount { start[i &+ 1] &+= start[i] }
        // Fill each group in contact order, then shift the starts back.
        for k in 0..<keys.count {
            let a = Int(keys[k] >> 32)
            let slot = Int(start[a])
            order[slot] = Int32(truncatingIfNeeded: k)
            second[slot] = Int32(truncatingIfNeeded: keys[k] & 0xFFFF_FFFF)
            start[a] &+= 1
        }
        var i = bodyCount
        while i > 0 {
            start[i] = start[i &- 1]
            i &-= 1
        }
        start[0] = 0
    }

    /// Runs `body` with the table's arrays for the C narrow phase (`QixPairTable`: the group
    /// starts, `bodyCount + 1` of them, and each slot's contact index and second body).
    func withArrays<R>(_ body: (UnsafePointer<Int32>?, Int, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R) -> R {
        start.withUnsafeBufferPointer { s in order.withUnsafeBufferPointer { o in second.withUnsafeBufferPointer { c in
            body(s.baseAddress, s.count, o.baseAddress, c.baseAddress)
        } } }
    }

    /// The index of the contact between `a` and `b` (first and second body), or nil.
    func find(_ a: Int, _ b: Int) -> Int? {
        start.withUnsafeBufferPointer { start in
            second.withUnsafeBufferPointer { second in
                if a + 1 >= start.count { return nil }
                for slot in Int(start[a])..<Int(start[a + 1]) where second[slot] == Int32(b) { return Int(order[slot]) }
                return nil
            }
        }
    }
}
