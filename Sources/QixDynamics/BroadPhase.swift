/// Finds pairs of item bodies whose boxes overlap with a uniform hashed grid (O(n) for even
/// sizes, deterministic order: by lower body index, then cell, then higher body index).
///
/// The grid query only depends on the cells each box covers. Its result before the box test, the
/// candidate pairs in query order, is kept; when no box changed cells since (resting stacks,
/// slow motion), the next call only repeats the box tests on those candidates: the same pairs
/// in the same order, without hashing or walking buckets.
struct BroadPhase {
    private var cellLow: [SIMD2<Int32>] = []
    private var cellHigh: [SIMD2<Int32>] = []
    private var bucketStart: [Int32] = []
    private var entries: [Int32] = []
    private var oversize: [Int32] = []
    private var members: [Int32] = []
    private var fill: [Int32] = []
    /// Item positions (`items` indices) of the candidate pairs of the last full query, in order.
    private var candidates: [SIMD2<Int32>] = []
    /// The items, cell size and cells the candidates were found for.
    private var candidateItems: [Int32] = []
    private var candidateCellSize = 0.0
    private var candidateLow: [SIMD2<Int32>] = []
    private var candidateHigh: [SIMD2<Int32>] = []
    private var candidatesValid = false

    /// Appends candidate pairs (lower index first) of the `items` bodies to `pairs`.
    mutating func findPairs(bodies: UnsafeMutablePointer<Body>, items: [Int32], cellSize: Double, pairs: inout [SIMD2<Int32>]) {
        let n = items.count
        if n < 2 { return }
        let invCell = 1 / cellSize
        if cellLow.count < n {
            cellLow = Array(repeating: .zero, count: n)
            cellHigh = Array(repeating: .zero, count: n)
        }
        @inline(__always) func cell(_ x: Double) -> Int32 {
            // floor(clamp(c)) == clamp(floor(c)) (integer bounds), by truncation and a step down:
            // `rounded(.down)` is a libm call on baseline x86-64 (no SSE4.1 roundsd).
            let c = max(min(x * invCell, 1e9), -1e9)
            let t = Int32(c)
            return Double(t) > c ? t - 1 : t
        }
        var sameCells = candidatesValid && cellSize == candidateCellSize && items == candidateItems
        cellLow.withUnsafeMutableBufferPointer { low in
            cellHigh.withUnsafeMutableBufferPointer { high in
                for k in 0..<n {
                    let b = bodies[Int(items[k])]
                    low[k] = SIMD2(cell(b.lower.x), cell(b.lower.y))
                    high[k] = SIMD2(cell(b.upper.x), cell(b.upper.y))
                }
                if sameCells {
                    candidateLow.withUnsafeBufferPointer { oldLow in
                        candidateHigh.withUnsafeBufferPointer { oldHigh in
                            for k in 0..<n where low[k] != oldLow[k] || high[k] != oldHigh[k] {
                                sameCells = false
                                break
                            }
                        }
                    }
                }
            }
        }
        if !sameCells { query(bodies: bodies, items: items, cellSize: cellSize) }
        // The box test on the candidates, in query order.
        items.withUnsafeBufferPointer { it in
            candidates.withUnsafeBufferPointer { cp in
                for c in cp {
                    let bodyA = bodies[Int(it[Int(c.x)])], bodyB = bodies[Int(it[Int(c.y)])]
                    if bodyA.upper.x < bodyB.lower.x || bodyB.upper.x < bodyA.lower.x
                        || bodyA.upper.y < bodyB.lower.y || bodyB.upper.y < bodyA.lower.y { continue }
                    pairs.append(SIMD2(it[Int(c.x)], it[Int(c.y)]))
                }
            }
        }
        // Oversized boxes against everything, brute force.
        for k in oversize {
            let bodyA = bodies[Int(items[Int(k)])]
            for other in 0..<n where other != Int(k) {
                let isOversize = cellHigh[other].x - cellLow[other].x + 1 > 0 && oversize.contains(Int32(other))
                if isOversize && other < Int(k) { continue }
                let bodyB = bodies[Int(items[other])]
                if bodyA.upper.x < bodyB.lower.x || bodyB.upper.x < bodyA.lower.x
                    || bodyA.upper.y < bodyB.lower.y || bodyB.upper.y < bodyA.lower.y { continue }
                let i = items[Int(k)], j = items[other]
                pairs.append(i < j ? SIMD2(i, j) : SIMD2(j, i))
            }
        }
    }

    /// The hashed-grid query on the cells in `cellLow`/`cellHigh`: fills `candidates` (pairs
    /// sharing the cell of the corner max(lowA, lowB), each once) and `oversize`.
    private mutating func query(bodies: UnsafeMutablePointer<Body>, items: [Int32], cellSize: Double) {
        let n = items.count
        var tableSize = 16
        while tableSize < 2 * n { tableSize <<= 1 }
        let mask = tableSize - 1
        // Reused between steps (a fresh 2n-entry table per step cost as much as the queries).
        if bucketStart.count != tableSize + 1 {
            bucketStart = Array(repeating: 0, count: tableSize + 1)
            fill = bucketStart
        } else {
            bucketStart.withUnsafeMutableBufferPointer { for i in 0..<$0.count { $0[i] = 0 } }
        }
        oversize.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)

        @inline(__always) func hash(_ x: Int32, _ y: Int32) -> Int {
            let h = UInt32(bitPattern: x) &* 0x9E37_79B1 ^ UInt32(bitPattern: y) &* 0x85EB_CA77
            return Int(h ^ (h >> 15)) & mask
        }
        // Count.
        for k in 0..<n {
            let lo = cellLow[k], hi = cellHigh[k]
            let span = (Int(hi.x) - Int(lo.x) + 1) * (Int(hi.y) - Int(lo.y) + 1)
            if span > 16 {
                oversize.append(Int32(k))
                continue
            }
            members.append(Int32(k))
            for y in lo.y...hi.y { for x in lo.x...hi.x { bucketStart[hash(x, y) + 1] += 1 } }
        }
        for i in 0..<tableSize { bucketStart[i + 1] += bucketStart[i] }
        let total = Int(bucketStart[tableSize])
        if entries.count < total { entries = Array(repeating: 0, count: total) }
        fill.withUnsafeMutableBufferPointer { fill in
            bucketStart.withUnsafeBufferPointer { for i in 0..<$0.count { fill[i] = $0[i] } }
        }
        for k in members {
            let lo = cellLow[Int(k)], hi = cellHigh[Int(k)]
            for y in lo.y...hi.y {
                for x in lo.x...hi.x {
                    let h = hash(x, y)
                    entries[Int(fill[h])] = k
                    fill[h] += 1
                }
            }
        }
        // Query: each pair is reported once, in the cell holding the corner max(lowA, lowB).
        for k in members {
            let ki = Int(k)
            let lo = cellLow[ki], hi = cellHigh[ki]
            for y in lo.y...hi.y {
                for x in lo.x...hi.x {
                    let h = hash(x, y)
                    for e in Int(bucketStart[h])..<Int(bucketStart[h + 1]) {
                        let other = Int(entries[e])
                        if other <= ki { continue }
                        let olo = cellLow[other]
                        if max(lo.x, olo.x) != x || max(lo.y, olo.y) != y { continue }
                        let ohi = cellHigh[other]
                        if x > ohi.x || y > ohi.y || x < olo.x || y < olo.y { continue }
                        candidates.append(SIMD2(Int32(ki), Int32(other)))
                    }
                }
            }
        }
        candidateItems = items
        candidateCellSize = cellSize
        candidateLow = Array(cellLow[0..<n])
        candidateHigh = Array(cellHigh[0..<n])
        candidatesValid = true
    }
}
