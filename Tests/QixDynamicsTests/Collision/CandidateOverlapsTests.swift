import Testing
import QixTestSupport
@testable import QixDynamics

/// The C builds of the candidates' overlap test (`CandidateOverlaps`) must record what the
/// Swift loop (`EmittedPairs.recordOverlaps` with `.swift`) records: the same answer and the
/// same changed candidates, over rounds of moving boxes, touching and NaN ones among them.
@Suite struct CandidateOverlapsTests {
    /// `rounds` rounds of boxes and 300 candidate pairs among them: each round's answer and
    /// the candidates whose overlap changed, for `kernel`.
    static func record(kernel: ContactKernel, rounds: Int = 4) -> [[Int]] {
        var random = SplitMix64(seed: 11)
        let n = 60
        let candidates = (0..<300).map { _ in
            SIMD2(Int32(random.next() % UInt64(n)), Int32(random.next() % UInt64(n)))
        }
        var lower = (0..<n).map { _ in Vector2(Double(random.next() % 400), Double(random.next() % 400)) }
        var emitted = EmittedPairs()
        var results: [[Int]] = []
        for round in 0..<rounds {
            // Sizes 0 to 79: some boxes just touch (equal ends overlap), one goes NaN.
            var upper = lower.map { $0 + Vector2(Double(random.next() % 80), Double(random.next() % 80)) }
            if round == 2 { upper[7] = Vector2(.nan, 3) }
            let same = emitted.recordOverlaps(candidates, total: candidates.count, lower: lower, upper: upper,
                                              kernel: kernel)
            results.append([same ? 1 : 0] + (0..<candidates.count).filter { emitted.overlapChanged($0) })
            lower = lower.map { $0 + Vector2(Double(random.next() % 9) - 4, Double(random.next() % 9) - 4) }
        }
        return results
    }

    @Test func everyBuildRecordsTheSwiftOverlaps() {
        let reference = Self.record(kernel: .swift)
        #expect(reference.dropFirst().contains { $0.count > 1 })  // some overlaps change
        for kernel in ContactKernelTests.cKernels {
            #expect(Self.record(kernel: kernel) == reference, "\(kernel) differs from the Swift overlaps")
        }
    }
}
