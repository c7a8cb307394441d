import Testing
import QixDSP

/// Growing Float buffers with zeros, across the zero block's size.
@Suite("Zero fill")
struct ArrayZeroFillTests {
    @Test("appendZeros keeps what is there and adds exactly the zeros asked for")
    func appendsZeros() {
        for count in [0, 1, 16_383, 16_384, 16_385, 40_000] {
            var buffer: [Float] = [1, 2, 3]
            buffer.appendZeros(count)
            #expect(buffer.count == 3 + count)
            #expect(Array(buffer.prefix(3)) == [1, 2, 3])
            #expect(buffer.dropFirst(3).allSatisfy { $0 == 0 })
        }
    }
}
