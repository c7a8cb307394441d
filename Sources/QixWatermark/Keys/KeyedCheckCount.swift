/// How many payload candidates were tested against the key, and how many of them were new.
///
/// A candidate tested again gives the same answer, so only new ones add a 2^-24 chance of a
/// false ID on audio without this key's mark: `distinct` times 2^-24 bounds the false IDs
/// of everything searched. A listener searches overlapping windows every second and meets
/// the same candidates again and again. "New" looks back over the last `memory` candidates
/// (older ones count again), so `distinct` can only err on the safe side, in bounded memory.
public struct KeyedCheckCount: Sendable {
    /// Candidates tested.
    public private(set) var checks = 0
    /// Candidates not among the `memory` tested before them.
    public private(set) var distinct = 0
    /// How many recent candidates are remembered.
    public static let memory = 1 << 16

    private var recent: [UInt64] = []
    private var oldest = 0
    private var seen: Set<UInt64> = []

    /// An empty count.
    public init() {}

    /// Records one candidate (payload bits, at most 64).
    mutating func record(_ bits: [UInt8]) {
        checks += 1
        var packed: UInt64 = 0
        for bit in bits.prefix(64) { packed = packed << 1 | UInt64(bit & 1) }
        guard seen.insert(packed).inserted else { return }
        distinct += 1
        if recent.count < Self.memory {
            recent.append(packed)
        } else {
            seen.remove(recent[oldest])
            recent[oldest] = packed
            oldest = (oldest + 1) % Self.memory
        }
    }
}
