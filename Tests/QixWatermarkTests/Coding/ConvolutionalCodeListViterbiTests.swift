import Testing
@testable import QixWatermark

/// The parallel list Viterbi decoder: the true best paths, in order.
struct ConvolutionalCodeListViterbiTests {
    let code = ConvolutionalCode(inputBits: 56)

    /// The path metric `decode` maximises: soft values signed by the codeword's bits.
    func metric(_ bits: [UInt8], _ soft: [Float]) -> Float {
        zip(code.encode(bits), soft).reduce(0) { $0 + ($1.0 == 1 ? $1.1 : -$1.1) }
    }

    @Test("size 1 is the plain decode; entries are distinct and best first; the second is the cheapest detour")
    func listShape() {
        for seed: UInt64 in 1...20 {
            let bits = ConvolutionalCodeTests().randomBits(56, seed: seed &* 31)
            let soft = ConvolutionalCodeDetourTests().noisy(bits, signal: 0.5, seed: seed)
            #expect(code.listDecode(soft, size: 1) == [code.decode(soft)])
            let list = code.listDecode(soft, size: 16)
            #expect(list.count == 16)
            #expect(list[0] == code.decode(soft))
            #expect(list[1] == code.decode(soft, alternatives: 1)[1], "seed \(seed)")
            #expect(Set(list.map { $0.map(String.init).joined() }).count == list.count)
            let metrics = list.map { metric($0, soft) }
            #expect(zip(metrics, metrics.dropFirst()).allSatisfy { $0 >= $1 - 1e-3 }, "seed \(seed): \(metrics)")
        }
    }

    @Test("a long list recovers more failed blocks than four detours")
    func longListRecoversMore() {
        var wrong = 0, byDetours = 0, byList = 0
        for seed in 1...200 {
            let bits = ConvolutionalCodeTests().randomBits(56, seed: UInt64(seed) &* 7919)
            let soft = ConvolutionalCodeDetourTests().noisy(bits, signal: 0.7, seed: UInt64(seed) &+ 1000)
            guard code.decode(soft) != bits else { continue }
            wrong += 1
            if code.decode(soft, alternatives: 4).contains(bits) { byDetours += 1 }
            if code.listDecode(soft, size: 64).contains(bits) { byList += 1 }
        }
        #expect(wrong >= 20, "only \(wrong) blocks failed: the test's noise is too weak")
        #expect(byList > byDetours, "list of 64 recovered \(byList), detours \(byDetours), of \(wrong)")
        #expect(byList * 10 >= wrong * 4, "list of 64 recovered \(byList) of \(wrong)")
    }

    @Test("non-finite soft values count as erasures")
    func nonFiniteValues() {
        let bits = ConvolutionalCodeTests().randomBits(56, seed: 3)
        var soft = code.encode(bits).map { $0 == 1 ? Float(1) : -1 }
        soft[10] = .nan
        soft[50] = .infinity
        #expect(code.listDecode(soft, size: 4)[0] == bits)
    }
}
