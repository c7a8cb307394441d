import Testing
@testable import QixWatermark

/// Format 2's polar code and its list decoder.
struct PolarCodeTests {
    let code = PolarCode(inputBits: 56, codedBits: 432, designZ: WatermarkFormat.polarDesignZ)

    /// The codeword of `bits` through `noisySoftValues`.
    func noisy(_ bits: [UInt8], signal: Float, seed: UInt64) -> [Float] {
        noisySoftValues(code.encode(bits), signal: signal, seed: seed)
    }

    @Test func constructionKeepsTheReliablePositions() {
        #expect(code.informationPositions.count == 56)
        #expect(code.sentPositions.count == 432)
        // Quasi-uniform puncturing drops bit-reversed 0..<80; a punctured position never
        // carries information, and the last position (the most reliable) always does.
        #expect(!code.sentPositions.contains(PolarCode.bitReverse(79)))
        #expect(code.informationPositions.last == 511)
        #expect(code.frozen.filter { !$0 }.count == 56)
        // The all-frozen nodes cover exactly the frozen positions.
        var covered = [Bool](repeating: false, count: 512)
        var position = 0
        while position < 512 {
            let level = code.frozenNodeLevel[position]
            let size = level >= 0 ? 1 << level : 1
            for p in position..<(position + size) { covered[p] = level >= 0 }
            position += size
        }
        #expect(covered == code.frozen)
    }

    @Test func encodingIsLinear() {
        let a = ConvolutionalCodeTests().randomBits(56, seed: 3), b = ConvolutionalCodeTests().randomBits(56, seed: 4)
        let sum = zip(a, b).map { $0 ^ $1 }
        #expect(code.encode(sum) == zip(code.encode(a), code.encode(b)).map { $0 ^ $1 })
        #expect(code.encode([UInt8](repeating: 0, count: 56)).allSatisfy { $0 == 0 })
    }

    /// The packed generator rows give the butterfly's codeword, x = u F^(x9) at the sent positions.
    @Test func encodingMatchesTheTransform() {
        for seed in 1...20 {
            let bits = ConvolutionalCodeTests().randomBits(56, seed: UInt64(seed))
            var u = [UInt8](repeating: 0, count: PolarCode.length)
            for (k, position) in code.informationPositions.enumerated() { u[position] = bits[k] }
            let x = PolarCode.transform(u)
            #expect(code.encode(bits) == code.sentPositions.map { x[$0] })
        }
    }

    @Test func roundTripWithoutNoiseAndThroughErasures() {
        for seed in 1...20 {
            let bits = ConvolutionalCodeTests().randomBits(56, seed: UInt64(seed))
            let clean = code.encode(bits).map { Float($0 == 1 ? 1 : -1) }
            #expect(code.decode(clean) == bits)
            #expect(code.listDecode(clean, size: 8)[0] == bits)
            // Erasures (0, or not finite) carry nothing and break nothing: with one coded
            // bit in six erased the block is still on the list.
            var erased = clean
            for i in stride(from: 0, to: erased.count, by: 6) { erased[i] = i % 12 == 0 ? 0 : .nan }
            #expect(code.listDecode(erased, size: 8).contains(bits))
        }
    }

    @Test func listIsOrderedDistinctAndDeterministic() {
        let bits = ConvolutionalCodeTests().randomBits(56, seed: 9)
        let soft = noisy(bits, signal: 0.35, seed: 17)
        let list = code.listDecode(soft, size: 16)
        #expect(list.count == 16)
        #expect(Set(list.map { $0.map(String.init).joined() }).count == 16)
        #expect(list == code.listDecode(soft, size: 16))
        #expect(code.decode(soft, alternatives: 4) == code.listDecode(soft, size: 5))
        #expect(code.mostLikely(soft) == code.listDecode(soft, size: PolarCode.mostLikelyListSize)[0])
    }

    /// What format 2 is for: with the keyed check choosing from the list, far more blocks
    /// decode than with successive cancellation alone, and more than format 1's code
    /// with an equal list on the same number of tiles.
    @Test func listDecodingWithACheckBeatsFormatOne() {
        let conv = ConvolutionalCode(inputBits: 56)
        var polarPlain = 0, polarList = 0, convList = 0
        for seed in 1...120 {
            let bits = ConvolutionalCodeTests().randomBits(56, seed: UInt64(seed) &* 104_729)
            let soft = noisy(bits, signal: 0.55, seed: UInt64(seed))
            if code.decode(soft) == bits { polarPlain += 1 }
            // A check on the last 24 bits stands in for the keyed check.
            if code.listDecode(soft, size: 32).first(where: { $0.suffix(24) == bits.suffix(24) }) == bits { polarList += 1 }
            // Format 1 spreads the same 432 tiles over 192 coded bits (summed soft values).
            var convSoft = [Float](repeating: 0, count: 192)
            let convCoded = conv.encode(bits)
            let tileNoise = noisy(bits, signal: 0, seed: UInt64(seed) &+ 99)
            for t in 0..<432 { convSoft[t % 192] += (convCoded[t % 192] == 1 ? 0.55 : -0.55) + tileNoise[t] }
            if conv.listDecode(convSoft, size: 32).first(where: { $0.suffix(24) == bits.suffix(24) }) == bits { convList += 1 }
        }
        #expect(polarList > polarPlain + 10, "list \(polarList), plain \(polarPlain)")
        #expect(polarList > convList, "polar \(polarList), convolutional \(convList)")
    }
}
