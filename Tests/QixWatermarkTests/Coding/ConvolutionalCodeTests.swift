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

    static func outputs(_ register: Int) -> (UInt8, UInt8, UInt8) {
        let g = ConvolutionalCode.generators
        return (UInt8((register & g[0]).nonzeroBitCount & 1), UInt8((register & g[1]).nonzeroBitCount & 1),
                UInt8((register & g[2]).nonzeroBitCount & 1))
    }

    @Test func decoderMatchesStateByStateReference() {
        var state: UInt64 = 7
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state) >> 11) / Float(1 << 52)
        }
        for trial in 0..<300 {
            let bits = randomBits(56, seed: UInt64(trial + 1000))
            var soft: [Float] = code.encode(bits).map { $0 == 1 ? 1 : -1 }
            for i in soft.indices {
                switch trial % 3 {
                case 0: soft[i] = (soft[i] + 1.6 * next()).rounded()   // integers: many exact ties
                case 1: soft[i] += 2 * next()                           // noisy, often undecodable
                default: soft[i] = next() < 0.3 ? 0 : soft[i] * (0.2 + next())
                }
            }
            #expect(code.decode(soft) == Self.referenceDecode(code, soft), "trial \(trial)")
        }
    }

    /// NaN and infinite soft values (a corrupt window) take the careful path: no crash,
    /// and the reference decoder's bits.
    @Test func nonFiniteSoftValuesDecodeAsTheReferenceDoes() {
        for trial in 0..<40 {
            let bits = randomBits(56, seed: UInt64(trial + 5000))
            var soft: [Float] = code.encode(bits).map { $0 == 1 ? 1 : -1 }
            let bad: [Float] = [.nan, .infinity, -.infinity, 1e31]
            for k in 0...(trial % 5) { soft[(trial * 37 + k * 53) % soft.count] = bad[(trial + k) % bad.count] }
            if trial % 8 == 0 { soft = soft.map { _ in .nan } }
            let decoded = code.decode(soft)
            #expect(decoded.count == 56)
            #expect(decoded == Self.referenceDecode(code, soft), "trial \(trial)")
        }
    }

    /// The state-by-state Viterbi decoder the optimised one must match bit for bit.
    static func referenceDecode(_ code: ConvolutionalCode, _ soft: [Float]) -> [UInt8] {
        let inputBits = code.inputBits
        let newest = ConvolutionalCode.constraintLength - 1
        let steps = inputBits + ConvolutionalCode.constraintLength - 1
        let states = (1 << (ConvolutionalCode.constraintLength - 1))
        // Branch outputs per (state, input) as signs, computed once.
        var branch = [Float](repeating: 0, count: states * 2 * 3)
        for state in 0..<states {
            for input in 0..<2 {
                let (a, b, c) = outputs(input << newest | state)
                let base = (state * 2 + input) * 3
                branch[base] = a == 1 ? 1 : -1
                branch[base + 1] = b == 1 ? 1 : -1
                branch[base + 2] = c == 1 ? 1 : -1
            }
        }
        let minusInfinity = -Float.greatestFiniteMagnitude
        var metric = [Float](repeating: minusInfinity, count: states)
        metric[0] = 0
        var next = [Float](repeating: minusInfinity, count: states)
        // decisions[step * states + newState] = previous state
        var decisions = [UInt16](repeating: 0, count: steps * states)
        branch.withUnsafeBufferPointer { branch in
            decisions.withUnsafeMutableBufferPointer { decisions in
                soft.withUnsafeBufferPointer { soft in
                    for step in 0..<steps {
                        let s0 = soft[3 * step], s1 = soft[3 * step + 1], s2 = soft[3 * step + 2]
                        let inputs = step < inputBits ? 2 : 1
                        metric.withUnsafeMutableBufferPointer { metric in
                            next.withUnsafeMutableBufferPointer { next in
                                for i in 0..<states { next[i] = minusInfinity }
                                for state in 0..<states {
                                    let current = metric[state]
                                    if current == minusInfinity { continue }
                                    for input in 0..<inputs {
                                        let base = (state * 2 + input) * 3
                                        let candidate = current + branch[base] * s0 + branch[base + 1] * s1 + branch[base + 2] * s2
                                        let target = (input << newest | state) >> 1
                                        if candidate > next[target] {
                                            next[target] = candidate
                                            decisions[step * states + target] = UInt16(state)
                                        }
                                    }
                                }
                            }
                        }
                        swap(&metric, &next)
                    }
                }
            }
        }
        var bits = [UInt8](repeating: 0, count: steps)
        var state = 0
        for step in stride(from: steps - 1, through: 0, by: -1) {
            bits[step] = UInt8(state >> (newest - 1))   // the input that entered at this step
            state = Int(decisions[step * states + state])
        }
        return Array(bits.prefix(inputBits))
    }

}
