/// Every hop of a stretch scored against one decoded ID's chips, for `MarkLocator`: the
/// score over all tiles, the score over the data tiles alone, and the data tiles' score
/// against the pattern shifted by each other slot of the frame.
///
/// The shifted patterns are what a score of this very audio would be without the mark:
/// their spread over a block of hops is the block's own noise, high where the host is
/// loud and busy (speech), low in quiet ambience, so a weak mark in a quiet passage and
/// a chance correlation in speech are told apart by the same test.
struct LocatorScores {
    typealias P = WatermarkParameters
    /// Score of every hop over all tiles (sync and data).
    let total: [Float]
    /// Score of every hop over the data tiles, which differ between IDs, so that a
    /// neighbouring spot of the same key (same sync tiles) does not count.
    let data: [Float]
    /// `shifts` scores per hop: the data tiles' score with the pattern of slot s + j
    /// (j = 1 ... shifts) in place of slot s's.
    let shifted: [Float]
    /// Other slots of the frame whose patterns serve as the unmarked reference.
    static let shifts = P.slotsPerFrame - 1

    /// Scores `stats` (band statistics, `bandCount` per hop, each band at unit RMS by
    /// `scale`) of hops starting at global hop `lower` against `chips`, read at `speed`
    /// with the frame starting at `offset`.
    init(stats: [Float], scale: [Float], lower: Int, chips: [Float], dataTiles: [Bool], speed: Double, offset: Int) {
        let bands = P.bandCount, count = stats.count / bands
        var total = [Float](repeating: 0, count: count), data = [Float](repeating: 0, count: count)
        var shifted = [Float](repeating: 0, count: count * Self.shifts)
        for h in 0..<count {
            let slot = Self.slot(ofHop: lower + h, speed: speed, offset: offset)
            for j in 0...Self.shifts {
                let tiles = ((slot + j) % P.slotsPerFrame) * bands
                var all: Float = 0, dataOnly: Float = 0
                for b in 0..<bands {
                    let value = chips[tiles + b] * stats[h * bands + b] * scale[b]
                    all += value
                    if dataTiles[tiles + b] { dataOnly += value }
                }
                if j == 0 {
                    total[h] = all
                    data[h] = dataOnly
                } else {
                    shifted[h * Self.shifts + j - 1] = dataOnly
                }
            }
        }
        self.init(total: total, data: data, shifted: shifted)
    }

    /// The slot of the frame that global hop `hop` falls in, the grid read at `speed` with the
    /// frame starting at `offset`.
    static func slot(ofHop hop: Int, speed: Double, offset: Int) -> Int {
        let period = P.hopsPerFrame
        let u = Int((speed * Double(hop)).rounded())
        return ((u - offset) % period + period) % period / P.hopsPerSlot
    }

    /// Every hop's score over all tiles, as `total`, without the data tiles and the shifted
    /// patterns: for comparing speeds, which needs no noise estimate.
    static func totals(stats: [Float], scale: [Float], lower: Int, chips: [Float], speed: Double, offset: Int) -> [Float] {
        let bands = P.bandCount
        return (0..<(stats.count / bands)).map { h in
            let tiles = slot(ofHop: lower + h, speed: speed, offset: offset) * bands
            var all: Float = 0
            for b in 0..<bands { all += chips[tiles + b] * stats[h * bands + b] * scale[b] }
            return all
        }
    }

    /// Scores already computed: `total` and `data` per hop, `shifts` `shifted` scores per hop.
    init(total: [Float], data: [Float], shifted: [Float]) {
        self.total = total
        self.data = data
        self.shifted = shifted
    }

    /// Hop `h`'s noise: the RMS of its `shifted` scores, the spread its data score would have
    /// without the mark. Computed when asked: only the hops around an extended edge need it.
    func noise(at h: Int) -> Float {
        var square: Float = 0
        for j in 0..<Self.shifts { square += shifted[h * Self.shifts + j] * shifted[h * Self.shifts + j] }
        return (square / Float(Self.shifts)).squareRoot()
    }

    /// The data score of `hops` in units of each hop's noise.
    func normalized(_ hops: Range<Int>) -> [Float] {
        hops.map { h in
            let noise = noise(at: h)
            return noise > 0 ? data[h] / noise : 0
        }
    }

    /// Hops scored.
    var count: Int { data.count }

    /// The data tiles' mean score over `hops`, and that mean in units of its spread under
    /// the shifted patterns (the RMS of their means over the same hops).
    func block(_ hops: Range<Int>) -> (mean: Float, z: Float) {
        var mean: Float = 0
        var means = [Float](repeating: 0, count: Self.shifts)
        for h in hops {
            mean += data[h]
            for j in 0..<Self.shifts { means[j] += shifted[h * Self.shifts + j] }
        }
        var square: Float = 0
        for value in means { square += value * value }
        let spread = (square / Float(Self.shifts)).squareRoot()
        return (mean / Float(hops.count), spread > 0 ? mean / spread : 0)
    }
}
