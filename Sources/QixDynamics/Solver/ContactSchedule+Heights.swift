/// The packing by heights: for scenes where the first-fit packing leaves lanes empty that the
/// order allows to fill. A base-20 pyramid: first fit 181 batches for 590 contacts (no chain of
/// contacts through shared bodies is longer than 143, and 148 batches would hold them all);
/// by heights 170, and the contact passes run 6 % fewer instructions. Base 50: 986 -> 946.
///
/// The contacts of one movable body must stay in contact order, batch after batch; that is the
/// only constraint (the sequential solve's bits depend on nothing else). First fit in contact
/// order fills early batches with contacts that could wait, while the long chains behind later
/// contacts start late. Here each batch takes, among the contacts whose earlier contacts on
/// both bodies are all in earlier batches, those with the longest chain still behind them
/// (Hu's list scheduling; ties by contact index), so the long chains start first.
extension ContactSchedule {
    /// Per contact: the next contact of each of its movable bodies (or -1) and the length of
    /// the longest chain of contacts starting at it; per contact, how many earlier contacts
    /// (at most one a body) must be in earlier batches.
    struct Chains {
        var nextA: [Int32] = []
        var nextB: [Int32] = []
        var height: [Int32] = []
        var waiting: [Int32] = []
        var longest = 0
    }

    /// The chains of `count` contacts joining `ends(k)`, by a backward sweep over the contacts.
    static func chains(count: Int, bodyCount: Int, movable: (Int) -> Bool, ends: (Int) -> (Int, Int)) -> Chains {
        var c = Chains()
        c.nextA = Array(repeating: -1, count: count)
        c.nextB = Array(repeating: -1, count: count)
        c.height = Array(repeating: 1, count: count)
        c.waiting = Array(repeating: 0, count: count)
        var next = Array(repeating: Int32(-1), count: bodyCount)
        for k in stride(from: count - 1, through: 0, by: -1) {
            let (a, b) = ends(k)
            var h: Int32 = 1
            if movable(a) {
                c.nextA[k] = next[a]
                if next[a] >= 0 { h = max(h, c.height[Int(next[a])] + 1); c.waiting[Int(next[a])] += 1 }
                next[a] = Int32(k)
            }
            if movable(b) {
                c.nextB[k] = next[b]
                if next[b] >= 0 { h = max(h, c.height[Int(next[b])] + 1); c.waiting[Int(next[b])] += 1 }
                next[b] = Int32(k)
            }
            c.height[k] = h
            c.longest = max(c.longest, Int(h))
        }
        return c
    }

    /// Each contact's slot (`slotOf`, `width` lanes a batch) packed by heights; returns the
    /// batch count. Ready contacts wait in a heap keyed by (longest height first, then index).
    static func packByHeights(_ c: inout Chains, count: Int, width: Int, slotOf: UnsafeMutableBufferPointer<Int32>) -> Int {
        var heap = ReadyHeap(capacity: count)
        for k in 0..<count where c.waiting[k] == 0 { heap.push(height: c.height[k], index: k) }
        var picked = [Int](repeating: 0, count: width)
        var batch = 0, placed = 0
        while placed < count {
            var lanes = 0
            while lanes < width, let k = heap.pop() {
                slotOf[k] = Int32(batch * width + lanes)
                picked[lanes] = k
                lanes += 1
            }
            for l in 0..<lanes {
                let k = picked[l]
                release(c.nextA[k], &c, &heap)
                release(c.nextB[k], &c, &heap)
            }
            placed += lanes
            batch += 1
        }
        return batch
    }

    /// One earlier contact of `next` is placed: when it was the last, `next` is ready.
    private static func release(_ next: Int32, _ c: inout Chains, _ heap: inout ReadyHeap) {
        guard next >= 0 else { return }
        let n = Int(next)
        c.waiting[n] -= 1
        if c.waiting[n] == 0 { heap.push(height: c.height[n], index: n) }
    }

    /// Repacks by heights when first fit (`batchCount` batches) is more than 5 % above what
    /// `width` lanes need, and the chains allow fewer batches; returns the batch count kept.
    /// (The pyramid at base 100 is within 3 %, rebuilt almost every step: no repacking there.
    /// At base 10 its 65 batches are its longest chain: nothing to gain, and built once.)
    mutating func repackIfShorter(batchCount: Int, width: Int, contacts: UnsafeBufferPointer<ContactConstraint>,
                                  keys: UnsafeBufferPointer<UInt64>, masses: UnsafeBufferPointer<SIMD2<Double>>) -> Int {
        let count = contacts.count, pairKeys = keys.count == count ? keys : nil
        let needed = (count + width - 1) / width
        guard batchCount * 20 > needed * 21 else { return batchCount }
        var c = Self.chains(count: count, bodyCount: masses.count, movable: { masses[$0].x > 0 },
                            ends: { Self.bodies(of: $0, contacts: contacts, keys: pairKeys) })
        guard c.longest < batchCount else { return batchCount }
        var packed = [Int32](repeating: 0, count: count)
        let packedCount = packed.withUnsafeMutableBufferPointer {
            Self.packByHeights(&c, count: count, width: width, slotOf: $0)
        }
        guard packedCount < batchCount else { return batchCount }
        slotOfContact = packed
        return packedCount
    }
}
