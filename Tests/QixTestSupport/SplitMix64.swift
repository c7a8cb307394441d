/// SplitMix64 (Steele, Lea and Flood): a small seeded generator, so that a test's random inputs
/// are the same on every run and a failure reproduces from its seed. QixEval's
/// `SeededGenerator` is the same generator, but it is a library of the watermark stack, which
/// the engine's and the cards' tests do not depend on.
public struct SplitMix64: RandomNumberGenerator {
    /// The generator's whole state: the seed, advanced by one odd constant per draw.
    public var state: UInt64

    /// A generator whose draws follow from `seed` alone.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
