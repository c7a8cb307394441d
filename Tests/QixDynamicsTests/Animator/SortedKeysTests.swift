import Testing
import QixTestSupport
@testable import QixDynamics

/// `SortedKeys.changes` (one walk over three sorted lists, with a shortcut for keys at the head
/// of the lists before and at the end) must give the set answer: began = (earlier or last)
/// minus previous, ended = (previous or earlier) minus last, each ascending and once.
@Suite struct SortedKeysTests {
    /// A sorted list of keys from a small range (so the lists overlap), some repeated.
    static func keys(_ random: inout SplitMix64, count: Int) -> [UInt64] {
        (0..<count).map { _ in (random.next() % 40) << 32 | random.next() % 3 }.sorted()
    }

    @Test func changesAreTheSetDifferences() {
        var random = SplitMix64(seed: 5)
        for round in 0..<400 {
            let previous = Self.keys(&random, count: Int(random.next() % 30))
            let earlier = round % 3 == 0 ? [] : Self.keys(&random, count: Int(random.next() % 30))
            let last = Self.keys(&random, count: Int(random.next() % 30))
            let (began, ended) = SortedKeys.changes(previous: previous, earlier: earlier, last: last)
            let p = Set(previous), e = Set(earlier), l = Set(last)
            #expect(began == e.union(l).subtracting(p).sorted())
            #expect(ended == p.union(e).subtracting(l).sorted())
        }
    }
}
