/// What the broad phase's last `emit` depended on and put out, so that a step whose pairs are
/// certainly the same keeps them instead of ordering them again.
///
/// An emit's pairs are a function of the candidates, which of them overlap, the items' cells
/// (the query order, and how often a pair repeats) and the hash mask. While the candidates are
/// kept, the cells and mask are unchanged and the same candidates overlap, the pairs are the
/// last emit's, in the same order, bit for bit. A settling pile changes none of these in most
/// steps: checking them costs a fifth of ordering the pairs (76 000 instructions a step on the
/// base-20 pyramid). The same holds group by group (the pairs of one first item): a large pile
/// where some box changes cells every step reorders only the groups that box is in.
struct EmittedPairs {
    /// Bit g of word g / 64: whether candidate g's boxes overlapped at the last emit.
    private let overlaps = StepBuffer<UInt64>()
    /// Bit g: whether candidate g's overlap changed at the last `recordOverlaps`.
    private let changes = StepBuffer<UInt64>()
    /// Per first item (its position): where its group's pairs start in the emit's pairs, how
    /// many there are, and whether some pair of it repeats.
    let groupStart = StepBuffer<Int32>()
    let groupCount = StepBuffer<Int32>()
    let groupRepeats = StepBuffer<Bool>()
    /// How many groups have a repeated pair.
    var repeatingGroups = 0
    /// How many pairs the last emit gave.
    private(set) var count = 0
    /// Whether the last emit may have reported a pair more than once.
    private(set) var mayRepeat = false
    /// Whether the record describes the last emit for the current candidates.
    private(set) var isValid = false

    /// Whether candidate g's overlap changed at the last `recordOverlaps`.
    @inline(__always)
    func overlapChanged(_ g: Int) -> Bool { changes[g >> 6] >> UInt64(g & 63) & 1 != 0 }

    /// Sizes the per-group records for `n` items (a full emit sets every group it has).
    func sizeGroups(_ n: Int) {
        groupStart.setCount(n, filler: 0)
        groupCount.setCount(n, filler: 0)
        groupRepeats.setCount(n, filler: false)
    }

    /// Forgets the last emit (the candidates were found again, or no emit ran).
    mutating func invalidate() {
        isValid = false
        count = 0
    }

    /// Records an emit that gave `count` pairs (`mayRepeat`: some possibly repeated).
    mutating func record(count: Int, mayRepeat: Bool) {
        self.count = count
        self.mayRepeat = mayRepeat
        isValid = true
    }

    /// Records which of the `total` candidates overlap now (boxes `lower`/`upper` by item
    /// position; the same test as the emit's, so NaN boxes count alike) and returns whether
    /// they are exactly those of the last record; with `kernel`'s C build (`CandidateOverlaps`)
    /// or, for `.swift`, the Swift loop.
    /// Mutating, although only the buffers' contents change: called on the broad phase's
    /// property, a non-mutating call copied the record (five retains and releases) first.
    mutating func recordOverlaps(_ candidates: UnsafePointer<SIMD2<Int32>>, total: Int, lower: UnsafePointer<Vector2>,
                                 upper: UnsafePointer<Vector2>, kernel: ContactKernel) -> Bool {
        let words = (total + 63) >> 6
        var same = overlaps.count == words
        if !same { overlaps.setCount(words, filler: 0) }
        changes.setCount(words, filler: 0)
        let bits = overlaps.base, changed = changes.base
        if let allSame = CandidateOverlaps.record(kernel: kernel, candidates, total: total, lower: lower, upper: upper,
                                                  bits: bits, changes: changed) {
            return same && allSame
        }
        for w in 0..<words {
            var word: UInt64 = 0
            let first = w << 6, end = Swift.min(first + 64, total)
            for g in first..<end {
                let a = Int(candidates[g].x), b = Int(candidates[g].y)
                let apart = BroadPhase.apart(lower[a], upper[a], lower[b], upper[b])
                word |= (apart ? 0 : 1) << UInt64(g - first)
            }
            changed[w] = word ^ bits[w]
            if word != bits[w] {
                same = false
                bits[w] = word
            }
        }
        return same
    }
}
