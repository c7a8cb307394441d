import Testing
import QixTestSupport
@testable import QixDynamics

/// `KeyPositions` must find every key of its list at its position and no other key, at every
/// table size (from an empty list to a table many times larger than its first size).
@Suite struct KeyPositionsTests {
    @Test func everyKeyIsFoundAtItsPositionAndNoOtherKey() {
        var random = SplitMix64(seed: 3)
        for count in [0, 1, 2, 7, 8, 9, 100, 1_000] {
            // Pair keys: first body in the high half, second in the low; neighbours collide often.
            let keys = Array(Set((0..<count).map { _ in (random.next() % 500) << 32 | random.next() % 500 })).sorted()
            let positions = KeyPositions(keys)
            for (position, key) in keys.enumerated() { #expect(positions.position(of: key) == position) }
            let present = Set(keys)
            for _ in 0..<200 {
                let key = (random.next() % 500) << 32 | random.next() % 500
                if !present.contains(key) { #expect(positions.position(of: key) == nil) }
            }
        }
    }
}
