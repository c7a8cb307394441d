/// A binary min-heap of contacts ready to be scheduled, ordered by the longest chain behind
/// them (longest first), then by contact index (lowest first), so the packing is deterministic.
struct ReadyHeap {
    private var keys: [UInt64] = []

    /// An empty heap with room for `capacity` contacts.
    init(capacity: Int) { keys.reserveCapacity(capacity) }

    /// Adds contact `index` whose chain is `height` long.
    mutating func push(height: Int32, index: Int) {
        keys.append(UInt64(UInt32.max - UInt32(height)) << 32 | UInt64(index))
        var i = keys.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if keys[parent] <= keys[i] { break }
            keys.swapAt(parent, i)
            i = parent
        }
    }

    /// Removes and returns the contact with the longest chain (lowest index among equals).
    mutating func pop() -> Int? {
        guard let top = keys.first else { return nil }
        let last = keys.removeLast()
        if !keys.isEmpty {
            keys[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < keys.count && keys[l] < keys[m] { m = l }
                if r < keys.count && keys[r] < keys[m] { m = r }
                if m == i { break }
                keys.swapAt(m, i)
                i = m
            }
        }
        return Int(top & 0xFFFF_FFFF)
    }
}
