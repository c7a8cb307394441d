/// Finds pairs of item bodies whose boxes overlap with a uniform hashed grid (O(n) for even
/// sizes, deterministic order: by lower body index, then cell, then higher body index).
struct BroadPhase {
    private var cellLow: [SIMD2<Int32>] = []
    private var cellHigh: [SIMD2<Int32>] = []
    private var bucketStart: [Int32] = []
    private var entries: [Int32] = []
    private var oversize: [Int32] = []
    private var members: [Int32] = []
    private var fill: [Int32] = []

    /// Appends candidate pairs (lower index first) of the `items` bodies to `pairs`.
    mutating func findPairs(bodies: UnsafeMutablePointer<Body>, items: [Int32], cellSize: Double, pairs: inout [SIMD2<Int32>]) {
        let n = items.count
        if n < 2 { return }
        var tableSize = 16
        while tableSize < 2 * n { tableSize <<= 1 }
        let mask = tableSize - 1
        let invCell = 1 / cellSize
        if cellLow.count < n {
            cellLow = Array(repeating: .zero, count: n)
            cellHigh = Array(repeating: .zero, count: n)
        }
        // Reused between steps (a fresh 2n-entry table per step cost as much as the queries).
        if bucketStart.count != tableSize + 1 {
            bucketStart = Array(repeating: 0, count: tableSize + 1)
            fill = bucketStart
        } else {
            bucketStart.withUnsafeMutableBufferPointer { for i in 0..<$0.count { $0[i] = 0 } }
        }
        oversize.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)

        @inline(__always) func cell(_ x: Double) -> Int32 {
            // floor(clamp(c)) == clamp(floor(c)) (integer bounds), by truncation and a step down:
            // `rounded(.down)` is a libm call on baseline x86-64 (no SSE4.1 roundsd).
            let c = max(min(x * invCell, 1e9), -1e9)
            let t = Int32(c)
            return Double(t) > c ? t - 1 : t
        }
        @inline(__always) func hash(_ x: Int32, _ y: Int32) -> Int {
            let h = UInt32(bitPattern: x) &* 0x9E37_79B1 ^ UInt32(bitPattern: y) &* 0x85EB_CA77
            return Int(h ^ (h >> 15)) & mask
        }
        // Count.
        for k in 0..<n {
            let b = bodies[Int(items[k])]
            let lo = SIMD2(cell(b.lower.x), cell(b.lower.y))
            let hi = SIMD2(cell(b.upper.x), cell(b.upper.y))
            cellLow[k] = lo
            cellHigh[k] = hi
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
            let bodyA = bodies[Int(items[ki])]
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
                        let bodyB = bodies[Int(items[other])]
                        if bodyA.upper.x < bodyB.lower.x || bodyB.upper.x < bodyA.lower.x
                            || bodyA.upper.y < bodyB.lower.y || bodyB.upper.y < bodyA.lower.y { continue }
                        pairs.append(SIMD2(items[ki], items[other]))
                    }
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
}
