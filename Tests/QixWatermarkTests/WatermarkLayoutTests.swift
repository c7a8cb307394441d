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

    @Test func syncIsSpreadAndEveryCodedBitIsCarriedTwice() {
        let layout = WatermarkLayout(key: .publicTestKey)
        for slot in 0..<P.slotsPerFrame {
            let sync = (0..<P.bandCount).filter { layout.codedBit[slot * P.bandCount + $0] < 0 }
            #expect(sync.count == P.syncTilesPerSlot)
        }
        var uses = [Int](repeating: 0, count: layout.code.codedBits)
        for bit in layout.codedBit where bit >= 0 { uses[bit] += 1 }
        #expect(uses.min()! >= 2)
        #expect(abs(layout.sign.reduce(0, +)) < 80)
    }
}
