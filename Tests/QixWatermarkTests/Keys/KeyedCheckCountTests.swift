import Testing
@testable import QixWatermark

/// The count behind the false-ID bound: a candidate checked again is not a new chance,
/// and forgetting old candidates may only overcount.
struct KeyedCheckCountTests {
    static func bits(_ value: UInt64) -> [UInt8] { (0..<56).map { UInt8(value >> UInt64(55 - $0) & 1) } }

    @Test func repeatsAreNotNewChancesAndForgottenOnesCountAgain() {
        var count = KeyedCheckCount()
        count.record(Self.bits(7))
        count.record(Self.bits(7))
        count.record(Self.bits(8))
        #expect(count.checks == 3 && count.distinct == 2)
        // Push 7 out of memory: then it is new again.
        for value in 100..<(100 + UInt64(KeyedCheckCount.memory)) { count.record(Self.bits(value)) }
        let before = count.distinct
        count.record(Self.bits(7))
        #expect(count.distinct == before + 1)
        count.record(Self.bits(UInt64(99 + KeyedCheckCount.memory)))   // the newest is still remembered
        #expect(count.distinct == before + 1 && count.checks == 3 + KeyedCheckCount.memory + 2)
    }
}
