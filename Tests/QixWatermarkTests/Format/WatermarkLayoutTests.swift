import Testing
@testable import QixWatermark

struct WatermarkLayoutTests {
    typealias P = WatermarkParameters

    @Test func keyDerivationIsDeterministicAndKeyed() throws {
        let key = WatermarkKey.publicTestKey
        let other = try WatermarkKey(hex: "00112233445566778899aabbccddeeff")
        #expect(key.derive("a", count: 40) == key.derive("a", count: 40))
        #expect(key.derive("a", count: 40) != key.derive("b", count: 40))
        #expect(key.derive("a", count: 40) != other.derive("a", count: 40))
        #expect(Array(key.derive("a", count: 40).prefix(10)) == key.derive("a", count: 10))
        let a = WatermarkLayout(key: key), b = WatermarkLayout(key: key), c = WatermarkLayout(key: other)
        #expect(a.sign == b.sign && a.codedBit == b.codedBit)
        #expect(a.sign != c.sign && a.codedBit != c.codedBit)
    }

    @Test func syncIsSpreadAndEveryCodedBitIsCarried() {
        let first = WatermarkLayout(key: .publicTestKey, format: .convolutional)
        let second = WatermarkLayout(key: .publicTestKey, format: .polar)
        for layout in [first, second] {
            for slot in 0..<P.slotsPerFrame {
                let sync = (0..<P.bandCount).filter { layout.codedBit[slot * P.bandCount + $0] < 0 }
                #expect(sync.count == P.syncTilesPerSlot)
            }
            #expect(abs(layout.sign.reduce(0, +)) < 80)
        }
        // Format 1: 192 coded bits, each on two or three tiles; format 2: 432, one each.
        for (layout, uses) in [(first, 2...3), (second, 1...1)] {
            var count = [Int](repeating: 0, count: layout.code.codedBits)
            for bit in layout.codedBit where bit >= 0 { count[bit] += 1 }
            #expect(uses.contains(count.min()!) && uses.contains(count.max()!), "format \(layout.format)")
        }
    }

    /// The formats share every keyed choice but the sync polarity, which tells formats 1 and 2
    /// apart; format 3 is format 2's tiles and code on another band layout.
    @Test func formatsDifferInSyncPolarityAndCode() {
        let first = WatermarkLayout(key: .publicTestKey, format: .convolutional)
        let second = WatermarkLayout(key: .publicTestKey, format: .polar)
        #expect(first.codedBit.map { $0 < 0 } == second.codedBit.map { $0 < 0 })
        for tile in first.sign.indices {
            #expect(second.sign[tile] == (first.codedBit[tile] < 0 ? -first.sign[tile] : first.sign[tile]))
        }
        #expect(first.code.codedBits == 192 && second.code.codedBits == 432)
        let third = WatermarkLayout(key: .publicTestKey, format: .interleaved)
        #expect(third.sign == second.sign && third.codedBit == second.codedBit && third.code.codedBits == 432)
        #expect(WatermarkFormat.interleaved.bandLayout == .interleaved && WatermarkFormat.polar.bandLayout == .halves)
        #expect(WatermarkLayout(key: .publicTestKey).format == .interleaved)
    }
}
