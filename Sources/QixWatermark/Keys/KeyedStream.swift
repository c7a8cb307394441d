/// A keyed pseudo-random stream for one named use of a key: HMAC-SHA-256 counter-mode
/// bytes from `WatermarkKey.derive`, read as integers, so every choice the watermark
/// makes (tile roles, signs, interleaving) is secret without the key.
struct KeyedStream {
    private let bytes: [UInt8]
    private var position = 0

    /// Draws `capacity` bytes for `label` up front (one HMAC per 32 bytes).
    init(key: WatermarkKey, label: String, capacity: Int) {
        bytes = key.derive("qixkit-wm-v1/" + label, count: capacity)
    }

    /// The next 32 bits.
    mutating func nextUInt32() -> UInt32 {
        precondition(position + 4 <= bytes.count, "keyed stream exhausted")
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(bytes[position + i]) }
        position += 4
        return value
    }

    /// A uniform integer in `0..<bound` (multiply-shift; bias below 2^-24 for our bounds).
    mutating func next(below bound: Int) -> Int {
        Int((UInt64(nextUInt32()) * UInt64(bound)) >> 32)
    }

    /// A sign, +1 or -1, with equal probability.
    mutating func nextSign() -> Float { nextUInt32() & 1 == 0 ? 1 : -1 }

    /// A keyed random permutation of `0..<count` (Fisher-Yates).
    mutating func permutation(_ count: Int) -> [Int] {
        var order = Array(0..<count)
        if count < 2 { return order }
        for i in stride(from: count - 1, to: 0, by: -1) {
            order.swapAt(i, next(below: i + 1))
        }
        return order
    }
}
