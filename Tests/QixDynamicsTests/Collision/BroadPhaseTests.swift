import Testing
@testable import QixDynamics

/// The broad phase's kept candidates must give exactly the full grid query's pairs, order and
/// repeats included, while boxes drift, jump, grow past a cell and hash into shared buckets.
@Suite struct BroadPhaseTests {
    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func unit() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    static func body(center: Vector2, half: Vector2) -> Body {
        var b = Body(origin: center, angle: 0, q: .identity, localCenter: .zero, center: center)
        b.lower = center - half
        b.upper = center + half
        return b
    }

    /// Steps `count` boxes through `steps` moves and compares both ways of finding pairs. With
    /// `keepPairs` the pairs array is kept from step to step as the world keeps it (so the
    /// broad phase may reuse last step's pairs); `drift` is the size of a step's move.
    static func compare(count: Int, region: Double, steps: Int, jumpEvery: Int, largeBoxes: Bool, seed: UInt64,
                        keepPairs: Bool = false, drift: Double = 1.5) {
        var g = Generator(state: seed)
        let cellSize = 104.0
        // Body 0 stands for the ground and is not an item.
        var bodies = [body(center: .zero, half: Vector2(1, 1))]
        var halves: [Vector2] = []
        // A 2x2 block of cells two of which share a bucket, with boxes across the block and
        // around it, so that the query reports some pairs twice.
        var tableSize = 16
        while tableSize < 2 * count { tableSize <<= 1 }
        var block: SIMD2<Int32>?
        search: for y in Int32(0)..<400 {
            for x in Int32(0)..<400 {
                let h = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)].map { BroadPhase.hash($0.0, $0.1, tableSize - 1) }
                if Set(h).count < 4 {
                    block = SIMD2(x, y)
                    break search
                }
            }
        }
        #expect(block != nil)
        let corner = block ?? .zero
        let bridge = Vector2(Double(corner.x + 1) * cellSize, Double(corner.y + 1) * cellSize)
        for i in 0..<count {
            let half = Vector2(10 + 42 * g.unit(), 10 + 42 * g.unit())
            var center = Vector2(region * g.unit(), region * g.unit())
            if i % 10 == 0 { center = bridge + Vector2(80 * (g.unit() - 0.5), 60 * (g.unit() - 0.5)) }
            halves.append(half)
            bodies.append(body(center: center, half: half))
        }
        let items = (1...count).map { Int32($0) }
        let kept = BroadPhase()
        var actual: [SIMD2<Int32>] = []
        for step in 0..<steps {
            for i in 1...count {
                let jump = jumpEvery > 0 && (step + i) % jumpEvery == 0
                let d = jump ? 60.0 : drift
                var center = bodies[i].origin + Vector2(d * (g.unit() - 0.5), d * (g.unit() - 0.5))
                // Boxes across the shared bucket's cells stay across them.
                if (i - 1) % 10 == 0 && (center - bridge).lengthSquared > 60 * 60 { center = bridge }
                var half = halves[i - 1]
                if largeBoxes && i % 97 == step % 97 { half = Vector2(500, 40) }
                bodies[i] = body(center: center, half: half)
            }
            var expected: [SIMD2<Int32>] = []
            if keepPairs {
                actual.removeLast(actual.count - min(actual.count, kept.reusablePairCount))
            } else {
                actual = []
            }
            let fresh = BroadPhase()
            bodies.withUnsafeMutableBufferPointer { bp in
                fresh.queryPairs(bodies: bp.baseAddress!, items: items, cellSize: cellSize, pairs: &expected)
                kept.findPairs(bodies: bp.baseAddress!, items: items, cellSize: cellSize, pairs: &actual)
            }
            // Compared first so that a failure reports counts, not two long arrays.
            let same = actual == expected
            #expect(same, "step \(step): \(actual.count) pairs, the query finds \(expected.count)")
            if !same { return }
        }
    }

    /// Spread over many more cells than buckets, so boxes have cells sharing a bucket.
    @Test func driftingBoxesGiveTheQueryPairs() {
        Self.compare(count: 2000, region: 3000, steps: 30, jumpEvery: 0, largeBoxes: false, seed: 1)
    }

    /// Kept pairs: boxes creeping a twentieth of a point a step mostly keep last step's pairs,
    /// and the steps where a box changes cells or an overlap starts or ends must not.
    @Test func keptPairsGiveTheQueryPairs() {
        Self.compare(count: 2000, region: 3000, steps: 60, jumpEvery: 0, largeBoxes: false, seed: 4, keepPairs: true,
                     drift: 0.05)
        Self.compare(count: 800, region: 1500, steps: 40, jumpEvery: 300, largeBoxes: true, seed: 5, keepPairs: true,
                     drift: 0.5)
    }

    @Test func jumpingBoxesGiveTheQueryPairs() {
        Self.compare(count: 2000, region: 1500, steps: 30, jumpEvery: 50, largeBoxes: false, seed: 2)
    }

    @Test func boxesLargerThanCellsGiveTheQueryPairs() {
        Self.compare(count: 500, region: 1500, steps: 20, jumpEvery: 0, largeBoxes: true, seed: 3)
    }
}
