import Testing
@testable import QixWatermark

/// List decoding by single detours from the most likely path.
struct ConvolutionalCodeDetourTests {
    let code = ConvolutionalCode(inputBits: 56)

    /// The codeword of `bits` through `noisySoftValues`.
    func noisy(_ bits: [UInt8], signal: Float, seed: UInt64) -> [Float] {
        noisySoftValues(code.encode(bits), signal: signal, seed: seed)
    }

    @Test("the first entry is the plain decode, the others differ from it and from each other, cheapest first")
    func listShape() {
        let bits = ConvolutionalCodeTests().randomBits(56, seed: 5)
        let soft = noisy(bits, signal: 0.5, seed: 11)
        let list = code.decode(soft, alternatives: 6)
        #expect(list.count == 7)
        #expect(list[0] == code.decode(soft))
        #expect(Set(list.map { $0.map(String.init).joined() }).count == list.count)
        #expect(code.decode(soft, alternatives: 0) == [code.decode(soft)])
    }

    @Test("when the most likely path is wrong, a runner-up is often right")
    func runnersUpRecoverBlocks() {
        var wrong = 0, recovered = 0
        for seed in 1...300 {
            let bits = ConvolutionalCodeTests().randomBits(56, seed: UInt64(seed) &* 7919)
            let soft = noisy(bits, signal: 0.8, seed: UInt64(seed))
            let list = code.decode(soft, alternatives: 4)
            guard list[0] != bits else { continue }
            wrong += 1
            if list.dropFirst().contains(bits) { recovered += 1 }
        }
        // At this noise a fair share of the blocks fail; single detours mend some of them.
        #expect(wrong >= 20, "only \(wrong) blocks failed: the test's noise is too weak")
        #expect(recovered * 10 >= wrong * 2, "runners-up recovered \(recovered) of \(wrong)")
    }
}
