/// What a body is made of: its bounce, friction, damping, gravity scale, density and charge.
/// Bodies with the same material share one entry of `World.materials` (the 5050 boxes of a
/// pyramid have one), and a body keeps a 4-byte index to it instead of seven `Double`s.
struct BodyMaterial: Hashable {
    var restitution = 0.2
    var friction = 0.2
    var linearDamping = 0.1
    var angularDamping = 0.1
    var gravityScale = 0.0
    var density = 1.0
    var charge = 0.0

    /// The fields as bit patterns (no allocation): two materials are one only when every bit
    /// agrees (0.0 and -0.0 stay apart, so sharing never changes a result).
    private var bits: SIMD8<UInt64> {
        SIMD8(restitution.bitPattern, friction.bitPattern, linearDamping.bitPattern, angularDamping.bitPattern,
              gravityScale.bitPattern, density.bitPattern, charge.bitPattern, 0)
    }

    /// Bit-for-bit equality.
    static func == (a: BodyMaterial, b: BodyMaterial) -> Bool { a.bits == b.bits }

    /// Hashes the bit patterns.
    func hash(into hasher: inout Hasher) { hasher.combine(bits) }
}
