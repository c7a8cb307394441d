/// Soft values for decoder tests: a codeword's signs (bit 1 positive) times `signal`, plus
/// seeded noise of unit-ish spread (a sum of four uniforms), the same for every code.
func noisySoftValues(_ coded: [UInt8], signal: Float, seed: UInt64) -> [Float] {
    var state = seed
    func uniform() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    return coded.map { bit in
        let noise = (uniform() + uniform() + uniform() + uniform() - 2) * 1.7
        return (bit == 1 ? signal : -signal) + noise
    }
}
