/// Finds pairs of item bodies whose boxes overlap with a uniform hashed grid (O(n) for even
/// sizes, deterministic order: by lower body index, then cell, then higher body index).
///
/// The order is that of the grid query: for each item (ascending), its pairs by the cell that
/// holds the corner max(lowA, lowB) (rows, then columns), then by the other item; a pair whose
/// other item covers several cells hashing to that corner's bucket is reported once per such
/// cell, as the query does. To avoid the query in every step, the pairs of fattened boxes (each
/// box grown by `fatMargin`) are kept as candidates; while every box stays inside its fattened
/// box, this step's pairs are among them, and they are put in exactly the query's order and
/// multiplicity from the cells alone. Anything the candidates cannot cover (boxes spanning many
/// cells) runs the full query.
///
/// Its stored properties skip the runtime's dynamic exclusivity check (`@exclusivity(unchecked)`,
/// as `World`'s): no two accesses of one property overlap.
final class BroadPhase {
    /// How far (points) a box may move before the candidates are found again. The pairs and
    /// their order do not depend on it, only how often the grid is queried and how many
    /// candidates are checked: with 15 points instead of 5 a settling pyramid of 100-point
    /// boxes spends 40 % less on grid queries, without more candidates (its fattened boxes stay
    /// clear of the boxes 150 points to the side).
    static let fatMargin = 15.0

    // Every array of the hot loops is a `StepBuffer`: read and written through its base
    // pointer, with no closure or uniqueness check per access.
    private let cellLow = StepBuffer<SIMD2<Int32>>()
    private let cellHigh = StepBuffer<SIMD2<Int32>>()
    private let boxLower = StepBuffer<Vector2>()
    private let boxUpper = StepBuffer<Vector2>()
    @exclusivity(unchecked) private var grid = Grid()
    private let found = StepBuffer<SIMD2<Int32>>()
    /// Item positions of the pairs of fattened boxes, grouped by first position (ascending).
    private let candidates = StepBuffer<SIMD2<Int32>>()
    /// The fattened boxes as the candidates were found for them (lower x, y, upper x, y),
    /// rounded outward to `Float` (16 bytes a box instead of 32), and in `Double` while the
    /// query runs: the query uses the rounded boxes, so the candidates hold for them exactly.
    private let fatBoxes = StepBuffer<SIMD4<Float>>()
    private let fatLower = StepBuffer<Vector2>()
    private let fatUpper = StepBuffer<Vector2>()
    private let fatLow = StepBuffer<SIMD2<Int32>>()
    private let fatHigh = StepBuffer<SIMD2<Int32>>()
    @exclusivity(unchecked) private var candidateItems: [Int32] = []
    @exclusivity(unchecked) private var candidateCellSize = 0.0
    @exclusivity(unchecked) private var candidatesValid = false
    /// Whether two cells of a box hash to the same bucket (then its pairs may repeat), for the
    /// cells and table mask it was found for.
    private let selfCollides = StepBuffer<Bool>()
    private let collisionLow = StepBuffer<SIMD2<Int32>>()
    private let collisionHigh = StepBuffer<SIMD2<Int32>>()
    @exclusivity(unchecked) private var collisionMask = -1
    /// Per item: whether its cells changed at the last `updateSharedBuckets`.
    private let cellsMoved = StepBuffer<Bool>()
    /// Scratch: the pairs of one first item while they are put in order.
    private let group = StepBuffer<Int32>()
    private let groupKey = StepBuffer<Int64>()
    /// Whether the last `findPairs` may have reported a pair more than once (a box whose cells
    /// share a bucket, or the full query): only then can two contacts have the same key.
    @exclusivity(unchecked) private(set) var pairsMayRepeat = false
    /// The last emit, kept when this step's would give the same pairs.
    @exclusivity(unchecked) private var emitted = EmittedPairs()

    /// How many pairs the last `findPairs` gave that it can reuse: a caller that leaves exactly
    /// these at the start of `pairs` (and nothing after them) spares the broad phase ordering
    /// them again in a step where they have not changed.
    var reusablePairCount: Int { emitted.isValid ? emitted.count : 0 }

    /// Sets `pairs` to the candidate pairs (lower index first) of the `items` bodies. `pairs`
    /// must be empty or hold the `reusablePairCount` pairs of the last call, untouched.
    func findPairs(bodies: UnsafeMutablePointer<Body>, items: [Int32], cellSize: Double, pairs: inout [SIMD2<Int32>]) {
        let n = items.count
        let kept = pairs.count == reusablePairCount ? pairs.count : -1
        pairsMayRepeat = false
        if n < 2 {
            emitted.invalidate()
            pairs.removeAll(keepingCapacity: true)
            return
        }
        defer { releaseStepScratch() }
        let invCell = 1 / cellSize
        let mask = prepareCells(bodies: bodies, items: items, invCell: invCell)
        let inside = candidatesValid && cellSize == candidateCellSize && items == candidateItems && boxesInsideFat(n)
        if !inside { emitted.invalidate() }
        if !inside && !findCandidates(items: items, cellSize: cellSize, invCell: invCell, mask: mask) {
            // Boxes spanning many cells: the full query on this step's boxes, as it always was.
            candidatesValid = false
            pairs.removeAll(keepingCapacity: true)
            fullQuery(items: items, mask: mask, pairs: &pairs)
            return
        }
        emit(items: items, mask: mask, pairs: &pairs, kept: kept)
    }

    /// Gives back what only one call reads (this step's boxes and cells, the query's pairs, the
    /// ordering scratch: 0.4 MB for 5050 boxes), so that the stages after the broad phase reuse
    /// that memory; the candidates, fattened boxes, bucket flags and grid table stay.
    private func releaseStepScratch() {
        cellLow.release()
        cellHigh.release()
        boxLower.release()
        boxUpper.release()
        found.release()
        group.release()
        groupKey.release()
    }

    /// Gives back what only the candidate query reads (the grid's table and entries, the
    /// fattened boxes' cells, the candidates' unused room: 0.4 MB for 5050 boxes). A settling
    /// pile queries once in many steps, so these would otherwise sit through every solve;
    /// the full query, which runs every step, keeps its grid.
    private func releaseQueryScratch() {
        grid.release()
        fatLower.release()
        fatUpper.release()
        fatLow.release()
        fatHigh.release()
        candidates.trim()
    }

    /// Whether each of the `n` boxes is still inside its fattened box (then this step's pairs
    /// are among the candidates).
    private func boxesInsideFat(_ n: Int) -> Bool {
        let lower = boxLower.base, upper = boxUpper.base, fat = fatBoxes.base
        for k in 0..<n {
            let f = fat[k]
            if lower[k].x < Double(f[0]) || lower[k].y < Double(f[1]) || upper[k].x > Double(f[2])
                || upper[k].y > Double(f[3]) { return false }
        }
        return true
    }

    /// The full grid query on this step's boxes, without candidates (the reference order).
    func queryPairs(bodies: UnsafeMutablePointer<Body>, items: [Int32], cellSize: Double, pairs: inout [SIMD2<Int32>]) {
        if items.count < 2 { return }
        defer { releaseStepScratch() }
        let mask = prepareCells(bodies: bodies, items: items, invCell: 1 / cellSize)
        fullQuery(items: items, mask: mask, pairs: &pairs)
    }

    private func fullQuery(items: [Int32], mask: Int, pairs: inout [SIMD2<Int32>]) {
        pairsMayRepeat = true
        found.removeAll()
        grid.query(low: cellLow.base, high: cellHigh.base, lower: boxLower.base, upper: boxUpper.base, n: items.count,
                   mask: mask, dedupe: false, into: found)
        for p in found.elements { pairs.append(SIMD2(items[Int(p.x)], items[Int(p.y)])) }
        oversizePairs(items: items, pairs: &pairs)
    }

    /// Copies the items' boxes, finds their cells, and returns the hash mask for `items`.
    private func prepareCells(bodies: UnsafeMutablePointer<Body>, items: [Int32], invCell: Double) -> Int {
        let n = items.count
        cellLow.setCountUnset(n)  // each written below
        cellHigh.setCountUnset(n)
        boxLower.setCountUnset(n)
        boxUpper.setCountUnset(n)
        var tableSize = 16
        while tableSize < 2 * n { tableSize <<= 1 }
        let out = (lower: boxLower.base, upper: boxUpper.base, low: cellLow.base, high: cellHigh.base)
        items.withUnsafeBufferPointer { items in
            BroadPhase.fillCells(kernel: kernel, bodies: bodies, items: items, invCell: invCell, into: out)
        }
        return tableSize - 1
    }

    /// The code that finds the cells (`fillCells`) and the candidates' overlaps
    /// (`EmittedPairs.recordOverlaps`): a C build, or the Swift loops for `.swift`. All give the
    /// same bits; tests compare them.
    var kernel = ContactKernel.preferred

    /// Copies the boxes of the `items` into `out.lower` and `out.upper` and puts the cells of
    /// their corners into `out.low` and `out.high` (the upper corner's never below the lower
    /// one's), with `kernel`'s C build (`BroadPhaseCells`) or the Swift loop.
    static func fillCells(
        kernel: ContactKernel, bodies: UnsafeMutablePointer<Body>, items: UnsafeBufferPointer<Int32>, invCell: Double,
        into out: (lower: UnsafeMutablePointer<Vector2>, upper: UnsafeMutablePointer<Vector2>,
                   low: UnsafeMutablePointer<SIMD2<Int32>>, high: UnsafeMutablePointer<SIMD2<Int32>>)
    ) {
        if BroadPhaseCells.fill(kernel: kernel, bodies: bodies, items: items, invCell: invCell, into: out) { return }
        for k in 0..<items.count {
            let b = bodies + Int(items[k])
            let lower = b.pointee.lower, upper = b.pointee.upper
            out.lower[k] = lower
            out.upper[k] = upper
            let low = SIMD2(BroadPhase.cell(lower.x, invCell), BroadPhase.cell(lower.y, invCell))
            out.low[k] = low
            out.high[k] = BroadPhase.cells(above: low, upper, invCell)
        }
    }

    /// floor(x / cell) clamped to ±1e9: floor(clamp(c)) == clamp(floor(c)) (integer bounds), by
    /// truncation and a step down (`rounded(.down)` is a libm call on baseline x86-64). A NaN
    /// goes to -1e9 (`min`/`max` would pass it on to the conversion, which traps on NaN).
    @inline(__always)
    private static func cell(_ x: Double, _ invCell: Double) -> Int32 {
        let scaled = x * invCell
        let c = scaled >= -1e9 ? (scaled <= 1e9 ? scaled : 1e9) : -1e9
        let t = Int32(c)
        return Double(t) > c ? t - 1 : t
    }

    /// The cell of `upper`, never below `low`: a box of a NaN body comes out inverted (its
    /// min/max folds skip the NaNs), and a range from a higher to a lower cell traps.
    @inline(__always)
    private static func cells(above low: SIMD2<Int32>, _ upper: Vector2, _ invCell: Double) -> SIMD2<Int32> {
        SIMD2(Swift.max(low.x, cell(upper.x, invCell)), Swift.max(low.y, cell(upper.y, invCell)))
    }

    /// The largest `Float` not above `x` (NaN stays NaN).
    @inline(__always)
    private static func floatBelow(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) > x ? f.nextDown : f
    }

    /// The smallest `Float` not below `x` (NaN stays NaN).
    @inline(__always)
    private static func floatAbove(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }

    /// Whether boxes (`lowerA`, `upperA`) and (`lowerB`, `upperB`) are apart: the one overlap
    /// test of the broad phase, so that a pair kept from last step (`EmittedPairs`) is judged as
    /// an emitted one is, NaN boxes included.
    @inline(__always)
    static func apart(_ lowerA: Vector2, _ upperA: Vector2, _ lowerB: Vector2, _ upperB: Vector2) -> Bool {
        upperA.x < lowerB.x || upperB.x < lowerA.x || upperA.y < lowerB.y || upperB.y < lowerA.y
    }

    /// The bucket of cell (x, y) in a table of `mask + 1` buckets.
    @inline(__always)
    static func hash(_ x: Int32, _ y: Int32, _ mask: Int) -> Int {
        let h = UInt32(bitPattern: x) &* 0x9E37_79B1 ^ UInt32(bitPattern: y) &* 0x85EB_CA77
        return Int(h ^ (h >> 15)) & mask
    }

    /// Finds the pairs of fattened boxes (false when a fattened box spans more than 16 cells).
    private func findCandidates(items: [Int32], cellSize: Double, invCell: Double, mask: Int) -> Bool {
        let n = items.count
        fatBoxes.setCount(n, filler: .zero)
        fatLower.setCount(n, filler: .zero)
        fatUpper.setCount(n, filler: .zero)
        fatLow.setCount(n, filler: .zero)
        fatHigh.setCount(n, filler: .zero)
        let margin = BroadPhase.fatMargin
        for k in 0..<n {
            let kept = SIMD4(BroadPhase.floatBelow(boxLower[k].x - margin), BroadPhase.floatBelow(boxLower[k].y - margin),
                             BroadPhase.floatAbove(boxUpper[k].x + margin), BroadPhase.floatAbove(boxUpper[k].y + margin))
            fatBoxes[k] = kept
            let lower = Vector2(Double(kept[0]), Double(kept[1])), upper = Vector2(Double(kept[2]), Double(kept[3]))
            fatLower[k] = lower
            fatUpper[k] = upper
            let lo = SIMD2(BroadPhase.cell(lower.x, invCell), BroadPhase.cell(lower.y, invCell))
            let hi = BroadPhase.cells(above: lo, upper, invCell)
            if (Int(hi.x) - Int(lo.x) + 1) * (Int(hi.y) - Int(lo.y) + 1) > 16 { return false }
            fatLow[k] = lo
            fatHigh[k] = hi
        }
        candidates.removeAll()
        grid.query(low: fatLow.base, high: fatHigh.base, lower: fatLower.base, upper: fatUpper.base, n: n, mask: mask,
                   dedupe: true, into: candidates)
        releaseQueryScratch()
        candidateItems = items
        candidateCellSize = cellSize
        candidatesValid = true
        return true
    }

    /// This step's pairs from the candidates: those whose boxes overlap, per first item ordered
    /// by corner cell (row, column) and other item, each repeated as often as the query would.
    /// `pairs` holds `kept` pairs (-1: not the last emit's); when the last emit's pairs are
    /// certainly this step's (`EmittedPairs`), they stay as they are.
    private func emit(items: [Int32], mask: Int, pairs: inout [SIMD2<Int32>], kept: Int) {
        let n = items.count
        if selfCollides.count != n { collisionMask = -1 }
        selfCollides.setCount(n, filler: false)
        collisionLow.setCount(n, filler: .zero)
        collisionHigh.setCount(n, filler: .zero)
        group.setCount(n, filler: 0)
        groupKey.setCount(n, filler: 0)
        let sameMask = collisionMask == mask
        let cellsChanged = updateSharedBuckets(n: n, mask: mask)
        collisionMask = mask
        let total = candidates.count
        let sameOverlaps = emitted.recordOverlaps(candidates.base, total: total, lower: boxLower.base,
                                                  upper: boxUpper.base, kernel: kernel)
        if emitted.isValid && kept == emitted.count {
            if !cellsChanged && sameOverlaps {
                pairsMayRepeat = emitted.mayRepeat
                return
            }
            if sameMask && reorderChangedGroups(items: items, mask: mask, pairs: &pairs) { return }
        }
        pairs.removeAll(keepingCapacity: true)
        pairsMayRepeat = false  // a group reordered in place may have set it before giving up
        emitted.sizeGroups(n)
        emitted.repeatingGroups = 0
        defer { emitted.record(count: pairs.count, mayRepeat: pairsMayRepeat) }
        items.withUnsafeBufferPointer { items in
            var g = 0
            while g < total {
                let k = Int(candidates[g].x)
                let count = orderGroup(of: k, from: &g)
                let start = pairs.count
                let repeated = expandGroup(of: k, count: count, items: items, mask: mask) { pairs.append($0) }
                emitted.groupStart[k] = Int32(start)
                emitted.groupCount[k] = Int32(pairs.count - start)
                emitted.groupRepeats[k] = repeated
                if repeated { emitted.repeatingGroups += 1 }
            }
        }
    }

    /// Reorders, in place in last step's `pairs`, only the groups whose pairs may have changed:
    /// those of a first item that changed cells, or with a candidate that changed cells or
    /// overlap (the others are functions of unchanged inputs). Returns false, leaving `pairs`
    /// to be emitted afresh, when a reordered group would not have its old size.
    private func reorderChangedGroups(items: [Int32], mask: Int, pairs: inout [SIMD2<Int32>]) -> Bool {
        let cand = candidates.base, total = candidates.count, moved = cellsMoved.base
        let done = items.withUnsafeBufferPointer { items in pairs.withUnsafeMutableBufferPointer { out -> Bool in
            var g = 0
            while g < total {
                let k = Int(cand[g].x), first = g
                var dirty = moved[k]
                while g < total && Int(cand[g].x) == k {
                    if emitted.overlapChanged(g) || moved[Int(cand[g].y)] { dirty = true }
                    g += 1
                }
                if !dirty { continue }
                var h = first
                let count = orderGroup(of: k, from: &h)
                var size = 0
                _ = expandGroup(of: k, count: count, items: items, mask: mask) { _ in size += 1 }
                if size != Int(emitted.groupCount[k]) { return false }
                var at = Int(emitted.groupStart[k])
                let repeated = expandGroup(of: k, count: count, items: items, mask: mask) { pair in
                    out[at] = pair
                    at += 1
                }
                if repeated != emitted.groupRepeats[k] { emitted.repeatingGroups += repeated ? 1 : -1 }
                emitted.groupRepeats[k] = repeated
            }
            return true
        } }
        if !done { return false }
        pairsMayRepeat = emitted.repeatingGroups > 0
        emitted.record(count: pairs.count, mayRepeat: pairsMayRepeat)
        return true
    }

    /// Compares the buckets of the cells of the boxes that changed cells (or of every box when
    /// the table size changed): only those can have started or stopped sharing a bucket.
    /// Returns whether any box changed cells or the table size changed.
    @inline(__always)
    private func updateSharedBuckets(n: Int, mask: Int) -> Bool {
        let low = cellLow.base, high = cellHigh.base
        let collides = selfCollides.base, knownLow = collisionLow.base, knownHigh = collisionHigh.base
        let known = collisionMask == mask
        var changed = !known
        cellsMoved.setCount(n, filler: false)
        let moved = cellsMoved.base
        for k in 0..<n {
            moved[k] = !known || low[k] != knownLow[k] || high[k] != knownHigh[k]
            if !moved[k] { continue }
            collides[k] = BroadPhase.cellsShareBucket(low[k], high[k], mask)
            knownLow[k] = low[k]
            knownHigh[k] = high[k]
            changed = true
        }
        return changed
    }

    /// Puts the overlapping candidates of first item `k` (from candidate `g` on; `g` ends past
    /// them) into `group` in query order and returns how many there are.
    @inline(__always)
    private func orderGroup(of k: Int, from g: inout Int) -> Int {
        let cand = candidates.base, total = candidates.count
        let low = cellLow.base, lower = boxLower.base, upper = boxUpper.base
        let group = group.base, groupKey = groupKey.base
        let lowerA = lower[k], upperA = upper[k], lo = low[k]
        var count = 0
        while g < total && Int(cand[g].x) == k {
            let o = Int(cand[g].y)
            g += 1
            if BroadPhase.apart(lowerA, upperA, lower[o], upper[o]) { continue }
            // Query order within a first item: corner row, corner column, other item
            // (one key, rows in the high half; insertion, as an item has a few pairs).
            let cornerY = max(lo.y, low[o].y), cornerX = max(lo.x, low[o].x)
            let key = Int64(cornerY) << 32 | Int64(UInt32(bitPattern: cornerX) ^ 0x8000_0000)
            var j = count
            while j > 0 && (key < groupKey[j - 1] || key == groupKey[j - 1] && Int32(o) < group[j - 1]) {
                group[j] = group[j - 1]
                groupKey[j] = groupKey[j - 1]
                j -= 1
            }
            group[j] = Int32(o)
            groupKey[j] = key
            count += 1
        }
        return count
    }

    /// Gives `put` the `count` pairs of first item `k` in `group`, each as often as the query
    /// reports it (once per cell of the other box that hashes to the corner cell's bucket);
    /// returns whether some pair came more than once (then `pairsMayRepeat` is set).
    @inline(__always)
    private func expandGroup(of k: Int, count: Int, items: UnsafeBufferPointer<Int32>, mask: Int,
                             _ put: (SIMD2<Int32>) -> Void) -> Bool {
        let low = cellLow.base, high = cellHigh.base, collides = selfCollides.base, group = group.base
        let lo = low[k]
        var repeated = false
        for i in 0..<count {
            let o = Int(group[i])
            var repeats = 1
            if collides[o] {
                let corner = pointwiseMax(lo, low[o])
                let h = BroadPhase.hash(corner.x, corner.y, mask)
                let olo = low[o], ohi = high[o]
                repeats = 0
                for y in olo.y...ohi.y { for x in olo.x...ohi.x where BroadPhase.hash(x, y, mask) == h { repeats += 1 } }
                if repeats > 1 {
                    pairsMayRepeat = true
                    repeated = true
                }
            }
            for _ in 0..<repeats { put(SIMD2(items[k], items[o])) }
        }
        return repeated
    }

    /// Whether two of the cells from `lo` to `hi` (at most 16) hash to the same bucket.
    @inline(__always)
    private static func cellsShareBucket(_ lo: SIMD2<Int32>, _ hi: SIMD2<Int32>, _ mask: Int) -> Bool {
        if lo == hi { return false }
        if hi.x - lo.x <= 1 && hi.y - lo.y <= 1 {
            // Two or four cells (the usual case for boxes no larger than a cell).
            let a = hash(lo.x, lo.y, mask), d = hash(hi.x, hi.y, mask)
            if lo.x == hi.x || lo.y == hi.y { return a == d }
            let b = hash(hi.x, lo.y, mask), c = hash(lo.x, hi.y, mask)
            return a == b || a == c || a == d || b == c || b == d || c == d
        }
        var seen = SIMD16<Int32>(repeating: -1)
        var count = 0
        for y in lo.y...hi.y {
            for x in lo.x...hi.x {
                let h = Int32(hash(x, y, mask))
                for i in 0..<count where seen[i] == h { return true }
                seen[count] = h
                count += 1
            }
        }
        return false
    }

    /// Oversized boxes (from the last full query) against everything, brute force.
    private func oversizePairs(items: [Int32], pairs: inout [SIMD2<Int32>]) {
        let n = items.count
        for k in grid.oversize {
            let lowerA = boxLower[Int(k)], upperA = boxUpper[Int(k)]
            for other in 0..<n where other != Int(k) {
                let isOversize = cellHigh[other].x - cellLow[other].x + 1 > 0 && grid.oversize.contains(Int32(other))
                if isOversize && other < Int(k) { continue }
                let lowerB = boxLower[other], upperB = boxUpper[other]
                if upperA.x < lowerB.x || upperB.x < lowerA.x || upperA.y < lowerB.y || upperB.y < lowerA.y { continue }
                let i = items[Int(k)], j = items[other]
                pairs.append(i < j ? SIMD2(i, j) : SIMD2(j, i))
            }
        }
    }
}

/// The hashed grid of `BroadPhase`: bucket counts and entries, reused between queries.
private struct Grid {
    var bucketStart: [Int32] = []
    var entries: [Int32] = []
    /// Positions of the boxes that span more than 16 cells (left to the brute-force pass).
    var oversize: [Int32] = []
    var members: [Int32] = []
    var fill: [Int32] = []

    /// Empties the table and entries and gives their memory back (the next query sizes them again).
    mutating func release() {
        bucketStart = []
        entries = []
        members = []
        fill = []
    }

    /// The hashed-grid query: item positions of the pairs whose cell ranges share the corner cell
    /// max(lowA, lowB) and whose boxes overlap, in query order; `dedupe` drops the repeats of a
    /// pair whose second item has several cells in the corner's bucket. Boxes spanning more than
    /// 16 cells go to `oversize` instead. A counting sort of the boxes' cells into buckets, then
    /// each box's cells looked up in them.
    mutating func query(low: UnsafePointer<SIMD2<Int32>>, high: UnsafePointer<SIMD2<Int32>>, lower: UnsafePointer<Vector2>,
                        upper: UnsafePointer<Vector2>, n: Int, mask: Int, dedupe: Bool, into out: StepBuffer<SIMD2<Int32>>) {
        countCells(low: low, high: high, n: n, mask: mask)
        fillBuckets(low: low, high: high, mask: mask)
        reportPairs(low: low, high: high, lower: lower, upper: upper, mask: mask, dedupe: dedupe, into: out)
    }

    /// Sorts the boxes into `members` and `oversize` and sets `bucketStart` to where each
    /// bucket's entries start (the counts of the members' cells, summed).
    @inline(__always)
    private mutating func countCells(low: UnsafePointer<SIMD2<Int32>>, high: UnsafePointer<SIMD2<Int32>>, n: Int,
                                     mask: Int) {
        let tableSize = mask + 1
        // Reused between steps (a fresh 2n-entry table per step cost as much as the queries).
        if bucketStart.count != tableSize + 1 {
            bucketStart = Array(repeating: 0, count: tableSize + 1)
            fill = bucketStart
        } else {
            bucketStart.withUnsafeMutableBufferPointer { for i in 0..<$0.count { $0[i] = 0 } }
        }
        oversize.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        for k in 0..<n {
            let lo = low[k], hi = high[k]
            let span = (Int(hi.x) - Int(lo.x) + 1) * (Int(hi.y) - Int(lo.y) + 1)
            if span > 16 {
                oversize.append(Int32(k))
                continue
            }
            members.append(Int32(k))
            for y in lo.y...hi.y { for x in lo.x...hi.x { bucketStart[BroadPhase.hash(x, y, mask) + 1] += 1 } }
        }
        for i in 0..<tableSize { bucketStart[i + 1] += bucketStart[i] }
    }

    /// Writes each member into `entries` once per cell, in its cell's bucket.
    @inline(__always)
    private mutating func fillBuckets(low: UnsafePointer<SIMD2<Int32>>, high: UnsafePointer<SIMD2<Int32>>, mask: Int) {
        let total = Int(bucketStart[mask + 1])
        if entries.count < total { entries = Array(repeating: 0, count: total) }
        fill.withUnsafeMutableBufferPointer { fill in
            bucketStart.withUnsafeBufferPointer { for i in 0..<$0.count { fill[i] = $0[i] } }
        }
        for k in members {
            let lo = low[Int(k)], hi = high[Int(k)]
            for y in lo.y...hi.y {
                for x in lo.x...hi.x {
                    let h = BroadPhase.hash(x, y, mask)
                    entries[Int(fill[h])] = k
                    fill[h] += 1
                }
            }
        }
    }

    /// Looks up each member's cells: each pair is reported in the cell holding the corner
    /// max(lowA, lowB), when the boxes overlap.
    @inline(__always)
    private func reportPairs(low: UnsafePointer<SIMD2<Int32>>, high: UnsafePointer<SIMD2<Int32>>,
                             lower: UnsafePointer<Vector2>, upper: UnsafePointer<Vector2>, mask: Int, dedupe: Bool,
                             into out: StepBuffer<SIMD2<Int32>>) {
        for k in members {
            let ki = Int(k)
            let lo = low[ki], hi = high[ki]
            let lowerA = lower[ki], upperA = upper[ki]
            for y in lo.y...hi.y {
                for x in lo.x...hi.x {
                    let h = BroadPhase.hash(x, y, mask)
                    for e in Int(bucketStart[h])..<Int(bucketStart[h + 1]) {
                        let other = Int(entries[e])
                        if other <= ki { continue }
                        let olo = low[other]
                        if max(lo.x, olo.x) != x || max(lo.y, olo.y) != y { continue }
                        let ohi = high[other]
                        if x > ohi.x || y > ohi.y || x < olo.x || y < olo.y { continue }
                        if BroadPhase.apart(lowerA, upperA, lower[other], upper[other]) { continue }
                        let pair = SIMD2(Int32(ki), Int32(other))
                        if dedupe && out.last == pair { continue }
                        out.append(pair)
                    }
                }
            }
        }
    }
}
