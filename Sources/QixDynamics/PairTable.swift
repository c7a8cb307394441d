/// An open-addressing map from a body-pair key to last step's contact index, for warm starting.
/// Only looked up, never iterated, so it cannot disturb determinism.
struct PairTable {
    private var keys: [UInt64] = []
    private var values: [Int32] = []
    private var mask = 0
    private static let empty = UInt64.max

    /// Fills the table with `count` keys read by `key(i)`.
    mutating func rebuild(count: Int, key: (Int) -> UInt64) {
        var capacity = 16
        while capacity < 2 * count { capacity <<= 1 }
        if keys.count != capacity {
            keys = Array(repeating: PairTable.empty, count: capacity)
            values = Array(repeating: -1, count: capacity)
        } else {
            for i in 0..<capacity { keys[i] = PairTable.empty }
        }
        mask = capacity - 1
        for i in 0..<count {
            let k = key(i)
            var slot = PairTable.slot(k) & mask
            while keys[slot] != PairTable.empty { slot = (slot + 1) & mask }
            keys[slot] = k
            values[slot] = Int32(i)
        }
    }

    /// The stored index for `key`, or nil.
    func find(_ key: UInt64) -> Int? {
        if keys.isEmpty { return nil }
        var slot = PairTable.slot(key) & mask
        while true {
            let k = keys[slot]
            if k == key { return Int(values[slot]) }
            if k == PairTable.empty { return nil }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always) static func slot(_ key: UInt64) -> Int {
        var h = key &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return Int(truncatingIfNeeded: h)
    }
}
