import Testing
@testable import QixWatermark

struct ConvolutionalCodeTests {
    let code = ConvolutionalCode(inputBits: 56)

    func randomBits(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(state >> 63)
        }
    }

    @Test func roundTripWithoutErrors() {
        let bits = randomBits(56, seed: 1)
        let coded = code.encode(bits)
        #expect(coded.count == code.codedBits)
        #expect(code.decode(coded.map { $0 == 1 ? 1 : -1 }) == bits)
    }

    @Test func correctsHardErrorsAndErasures() {
        for seed in 1...20 {
            let bits = randomBits(56, seed: UInt64(seed))
            var soft: [Float] = code.encode(bits).map { $0 == 1 ? 1 : -1 }
            // Flip 12 % of the coded bits and erase another 15 %, spread over the block.
            for i in stride(from: seed % 8, to: soft.count, by: 8) { soft[i] = -soft[i] }
            for i in stride(from: (seed + 3) % 7, to: soft.count, by: 7) { soft[i] = 0 }
            #expect(code.decode(soft) == bits, "seed \(seed)")
        }
    }

    @Test func softValuesOutvoteConfidentMinority() {
        let bits = randomBits(56, seed: 99)
        var soft: [Float] = code.encode(bits).map { $0 == 1 ? 1 : -1 }
        // A quarter of the bits wrong but weak: soft decoding weighs them less.
        for i in stride(from: 0, to: soft.count, by: 4) { soft[i] = -0.3 * soft[i] }
        #expect(code.decode(soft) == bits)
    }
}
