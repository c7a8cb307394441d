import Testing
@testable import QixDynamics

/// `PairKeySort` must give exactly `sort()`'s order for the shapes the world produces (runs by
/// first body, local disorder, boundary tails, several steps) and for anything else.
@Suite struct PairKeySortTests {
    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    /// Keys shaped like one frame of touching contacts: per step, ascending first bodies with
    /// their second bodies in arbitrary order, then boundary contacts per boundary.
    static func frameKeys(steps: Int, bodies: Int, boundaries: Int, _ g: inout Generator) -> [UInt64] {
        var keys: [UInt64] = []
        for _ in 0..<steps {
            for a in 1..<bodies {
                var seconds = (0..<g.next(4)).map { _ in a + 1 + g.next(bodies) }
                seconds.shuffle(using: &g)
                for b in seconds { keys.append(UInt64(a) << 32 | UInt64(b)) }
            }
            for boundary in 0..<boundaries {
                for a in 1..<bodies where g.next(3) == 0 { keys.append(UInt64(a) << 32 | UInt64(bodies + 1 + boundary)) }
            }
        }
        return keys
    }

    @Test func framesSortLikeSort() {
        var g = Generator(state: 0x9E37_79B9_7F4A_7C15)
        for steps in 1...3 {
            for boundaries in 0...4 {
                var keys = Self.frameKeys(steps: steps, bodies: 300, boundaries: boundaries, &g)
                let expected = keys.sorted()
                PairKeySort.sort(&keys)
                #expect(keys == expected)
            }
        }
    }

    @Test func arbitraryListsSortLikeSort() {
        var g = Generator(state: 12345)
        for n in [0, 1, 2, 3, 10, 100, 1000] {
            var keys = (0..<n).map { _ in UInt64(g.next(50)) << 32 | UInt64(g.next(50)) }
            let expected = keys.sorted()
            PairKeySort.sort(&keys)
            #expect(keys == expected)
            var descending = expected.reversed() as [UInt64]
            PairKeySort.sort(&descending)
            #expect(descending == expected)
        }
    }
}

extension PairKeySortTests.Generator: RandomNumberGenerator {
    mutating func next() -> UInt64 {
        UInt64(next(Int.max))
    }
}
