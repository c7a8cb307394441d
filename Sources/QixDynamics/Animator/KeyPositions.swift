/// The positions of distinct pair keys in their list, for looking many keys up in a few: an
/// open-addressing table (linear probing) at least twice the keys' count, hashed by a fixed
/// multiplication, so no `Hasher` seed and the same probes in every run. Only answers "where
/// is this key", never iterated, so nothing depends on the table's order.
struct KeyPositions {
    private let keys: [UInt64]
    /// Each slot's position in `keys`, or -1.
    private var slots: [Int32]
    private let shift: UInt64

    /// The table of `keys` (distinct).
    init(_ keys: [UInt64]) {
        self.keys = keys
        var bits = 4
        while 1 << bits < 2 * keys.count { bits += 1 }
        shift = UInt64(64 - bits)
        slots = [Int32](repeating: -1, count: 1 << bits)
        let mask = (1 << bits) - 1
        for (position, key) in keys.enumerated() {
            var slot = KeyPositions.slot(of: key, shift: shift)
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: position)
        }
    }

    /// Fibonacci hashing: the top bits of the key times 2^64 / golden ratio.
    @inline(__always)
    private static func slot(of key: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The position of `key` in the list, or nil.
    @inline(__always)
    func position(of key: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = KeyPositions.slot(of: key, shift: shift)
        return slots.withUnsafeBufferPointer { s in keys.withUnsafeBufferPointer { k in
            while true {
                let at = Int(s[slot])
                if at < 0 { return nil }
                if k[at] == key { return at }
                slot = (slot + 1) & mask
            }
        } }
    }
}
