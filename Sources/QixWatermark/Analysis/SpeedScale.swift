/// One candidate playback speed and band layout of the search: where each group of a
/// watermark half band lands in the received spectrum (bins scale with the speed), and the
/// per-hop band statistics computed through that map.
///
/// A recording played `speed` times faster has every frequency multiplied by `speed`
/// and every duration divided by it; the detector undoes the frequency part here and
/// the time part when it folds hops onto the frame grid.
///
/// A group's energy is the integral, over its scaled interval of bin centres, of the
/// spectrum taken as constant across each bin: the difference of one cumulative sum per
/// hop at the group's two edges. One cumulative sum serves every speed, so the search's
/// five speeds cost little more than one.
struct SpeedScale {
    typealias P = WatermarkParameters
    /// Received-over-original speed (1.03 = played 3 % faster).
    let speed: Double
    /// How the bands divide into up and down halves (the format family searched).
    let layout: BandLayout
    /// Group edges (group g spans edges g and g + 1): the stored bin each edge falls in,
    /// and how far through that bin it lies (0 = its lower end).
    private let edgeBins: [Int]
    private let edgeFractions: [Double]

    /// Up/down groups per frame row.
    var groupCount: Int { P.bandCount * layout.groupsPerBand }
    /// The half band (2 b = band b's up half, 2 b + 1 its down half) of each group.
    var groupHalves: [Int] {
        let groupsPerBand = layout.groupsPerBand
        return (0..<groupCount).map { g in
            let band = g / groupsPerBand
            return 2 * band + (layout.isUp(band: band, group: g % groupsPerBand) ? 0 : 1)
        }
    }

    /// Builds the edge map for `speed`: each group's interval of bin centres, scaled.
    init(speed: Double, layout: BandLayout = .halves) {
        self.speed = speed
        self.layout = layout
        let width = HopSpectra.width
        var bins: [Int] = [], fractions: [Double] = []
        for edge in 0...(P.bandCount * layout.groupsPerBand) {
            // Stored bin j covers [j - 0.5, j + 0.5] in stored-bin units.
            let x = speed * (Double(P.firstBin + edge * layout.binsPerGroup) - 0.5) - Double(HopSpectra.lowBin)
            let position = min(max(x + 0.5, 0), Double(width))
            let bin = min(width - 1, Int(position.rounded(.down)))
            bins.append(bin)
            fractions.append(position - Double(bin))
        }
        edgeBins = bins
        edgeFractions = fractions
    }

    /// The chip statistic (U - D) / (U + D) of every band for hops `range` of `spectra`
    /// (global hop indices), at this speed, row-major (`bandCount` per hop); see
    /// `statistics(_:of:hops:floors:)`.
    func statistics(_ spectra: HopSpectra, hops range: Range<Int>, floors: [Float]) -> [Float] {
        Self.statistics([self], of: spectra, hops: range, floors: floors)[0]
    }

    /// The chip statistic (U - D) / (U + D) of every band for hops `range` of `spectra`
    /// (global hop indices), one row-major array (`bandCount` per hop) per scale, each
    /// detrended: every value minus its band's mean over +-`detrendHops`, which removes the
    /// host's slowly varying up/down imbalance and keeps the slot-rate chips.
    ///
    /// Each value is then weighted by max(0, 1 - floor / energy) with the band's noise
    /// floor (`floors`): the share of the tile's energy above the floor, which is where the
    /// host (and so the mark) can be; noise-only hops count for nothing, and so do the bands
    /// above a low-pass cut (`BandCutoff`).
    static func statistics(_ scales: [SpeedScale], of spectra: HopSpectra, hops range: Range<Int>,
                           floors floorValues: [Float]) -> [[Float]] {
        let plane = range.count * P.bandCount
        guard plane > 0 else { return scales.map { _ in [] } }
        // Every scale's statistics and floor weights, scale after scale.
        var values = [Float](repeating: 0, count: scales.count * plane)
        var floorWeights = [Float](repeating: 0, count: scales.count * plane)
        // Band energies per block of hops, for finding a low-pass cut (`BandCutoff`).
        let blocks = (range.upperBound - 1) / BandCutoff.blockHops - range.lowerBound / BandCutoff.blockHops + 1
        var blockTotals = [Double](repeating: 0, count: scales.count * blocks * P.bandCount * BandCutoff.slotSize)
        let scratch = StatisticsScratch(scales, floors: floorValues)
        defer { scratch.deallocate() }
        measure(spectra, hops: range, scratch: scratch, into: &values, weights: &floorWeights, blockTotals: &blockTotals)
        unweightCutBands(&floorWeights, blockTotals: blockTotals, scales: scales.count, hops: range)
        return detrended(values, weights: floorWeights, scales: scales.count)
    }

    /// Small tables and one hop's sums as plain buffers, so that the hop loop of
    /// `statistics` runs without bounds checks or allocation.
    private struct StatisticsScratch {
        let scaleCount: Int
        /// Every scale's `edgeBins` and `edgeFractions`, scale after scale; scale s's start
        /// at `edgeStart[s]` and its group count in `groupCounts[s]`.
        let edgeBins: UnsafeMutableBufferPointer<Int>, edgeFractions: UnsafeMutableBufferPointer<Double>
        let edgeStart: UnsafeMutableBufferPointer<Int>, groupCounts: UnsafeMutableBufferPointer<Int>
        /// The bands' noise floors.
        let floors: UnsafeMutableBufferPointer<Float>
        /// Every scale's `groupHalves` (from `edgeStart[s] - s`), and whether a scale's layout is
        /// one up and one down group per band (no accumulation).
        let halves: UnsafeMutableBufferPointer<Int>, alternating: UnsafeMutableBufferPointer<Bool>
        /// One hop's running sums (0 first), the integral at each group edge, and each half band's energy.
        let cumulative: UnsafeMutableBufferPointer<Double>, edgeValues: UnsafeMutableBufferPointer<Double>
        let half: UnsafeMutableBufferPointer<Double>

        init(_ scales: [SpeedScale], floors floorValues: [Float]) {
            scaleCount = scales.count
            let counts = scales.map(\.groupCount)
            let edges = counts.reduce(0) { $0 + $1 + 1 }
            edgeBins = .allocate(capacity: edges)
            edgeFractions = .allocate(capacity: edges)
            edgeStart = .allocate(capacity: scales.count)
            groupCounts = .allocate(capacity: scales.count)
            floors = .allocate(capacity: P.bandCount)
            cumulative = .allocate(capacity: HopSpectra.width + 1)
            edgeValues = .allocate(capacity: (counts.max() ?? 0) + 1)
            half = .allocate(capacity: 2 * P.bandCount)
            halves = .allocate(capacity: edges - scales.count)
            alternating = .allocate(capacity: scales.count)
            var start = 0
            for (s, scale) in scales.enumerated() {
                edgeStart[s] = start
                groupCounts[s] = counts[s]
                let groupHalves = scale.groupHalves
                alternating[s] = groupHalves == Array(0..<counts[s])
                for g in 0..<counts[s] { halves[start - s + g] = groupHalves[g] }
                start += counts[s] + 1
            }
            _ = edgeBins.initialize(from: scales.flatMap(\.edgeBins))
            _ = edgeFractions.initialize(from: scales.flatMap(\.edgeFractions))
            _ = floors.initialize(from: floorValues)
            cumulative[0] = 0
        }

        func deallocate() {
            for buffer in [edgeFractions, cumulative, edgeValues, half] { buffer.deallocate() }
            for buffer in [edgeBins, edgeStart, groupCounts] { buffer.deallocate() }
            alternating.deallocate()
            floors.deallocate()
            halves.deallocate()
        }
    }

    /// The hop loop of `statistics`: per hop one cumulative sum, then per scale the group
    /// edges' integrals, the half bands' energies, and each band's statistic, floor weight
    /// and block total.
    private static func measure(_ spectra: HopSpectra, hops range: Range<Int>, scratch: StatisticsScratch,
                                into values: inout [Float], weights floorWeights: inout [Float],
                                blockTotals: inout [Double]) {
        let bands = P.bandCount, width = HopSpectra.width, plane = range.count * bands
        let firstBlock = range.lowerBound / BandCutoff.blockHops
        let blocks = blockTotals.count / (scratch.scaleCount * bands * BandCutoff.slotSize)
        spectra.power.withUnsafeBufferPointer { power in
            values.withUnsafeMutableBufferPointer { out in
                floorWeights.withUnsafeMutableBufferPointer { weightsOut in
                    blockTotals.withUnsafeMutableBufferPointer { blockTotals in
                        for h in 0..<range.count {
                            let block = (range.lowerBound + h) / BandCutoff.blockHops - firstBlock
                            let row = UnsafeBufferPointer(rebasing: power[((range.lowerBound + h - spectra.firstHop) * width)...])
                            // Double: the low bands' energy can exceed the high bands' by 10^6.
                            runningSums(of: row.baseAddress!, count: width, into: scratch.cumulative.baseAddress! + 1)
                            for s in 0..<scratch.scaleCount {
                                edgeIntegrals(of: row, scale: s, scratch: scratch)
                                halfBandEnergies(scale: s, scratch: scratch)
                                storeBands(scratch: scratch, statistic: out.baseAddress! + (s * plane + h * bands),
                                           weight: weightsOut.baseAddress! + (s * plane + h * bands),
                                           totals: blockTotals.baseAddress! + ((s * blocks + block) * bands * BandCutoff.slotSize))
                            }
                        }
                    }
                }
            }
        }
    }

    /// The spectrum's integral up to each group edge of scale `s`, into `edgeValues`.
    @inline(__always)
    private static func edgeIntegrals(of row: UnsafeBufferPointer<Float>, scale s: Int, scratch: StatisticsScratch) {
        let edges = scratch.groupCounts[s] + 1, start = scratch.edgeStart[s]
        let bins = scratch.edgeBins.baseAddress! + start, fractions = scratch.edgeFractions.baseAddress! + start
        for e in 0..<edges {
            let bin = bins[e]
            scratch.edgeValues[e] = scratch.cumulative[bin] + fractions[e] * Double(row[bin])
        }
    }

    /// Each half band's energy at scale `s` from the edge integrals, into `half` (up, down per band).
    @inline(__always)
    private static func halfBandEnergies(scale s: Int, scratch: StatisticsScratch) {
        let half = scratch.half, edgeValues = scratch.edgeValues
        if scratch.alternating[s] {
            for b in 0..<P.bandCount {
                half[2 * b] = edgeValues[2 * b + 1] - edgeValues[2 * b]
                half[2 * b + 1] = edgeValues[2 * b + 2] - edgeValues[2 * b + 1]
            }
        } else {
            let halves = scratch.halves.baseAddress! + (scratch.edgeStart[s] - s)
            for i in 0..<(2 * P.bandCount) { half[i] = 0 }
            for g in 0..<scratch.groupCounts[s] { half[halves[g]] += edgeValues[g + 1] - edgeValues[g] }
        }
    }

    /// Each band's statistic (U - D) / (U + D) and floor weight for one hop and scale, and
    /// its energy added to the block's `BandCutoff` totals.
    @inline(__always)
    private static func storeBands(scratch: StatisticsScratch, statistic: UnsafeMutablePointer<Float>,
                                   weight: UnsafeMutablePointer<Float>, totals: UnsafeMutablePointer<Double>) {
        let half = scratch.half, floors = scratch.floors
        for b in 0..<P.bandCount {
            let up = Float(half[2 * b]), down = Float(half[2 * b + 1])
            let total = up + down
            let inverse = 1 / total
            statistic[b] = total > 1e-12 ? (up - down) * inverse : 0
            weight[b] = total > floors[b] ? 1 - floors[b] * inverse : 0
            BandCutoff.add(half[2 * b] + half[2 * b + 1], to: totals + b * BandCutoff.slotSize)
        }
    }

    /// Each scale's plane of `values` (`plane` values each) detrended and weighted (`detrend`).
    private static func detrended(_ values: [Float], weights floorWeights: [Float], scales: Int) -> [[Float]] {
        let plane = values.count / scales
        return values.withUnsafeBufferPointer { values in
            floorWeights.withUnsafeBufferPointer { weights in
                (0..<scales).map { s in
                    [Float](unsafeUninitializedCapacity: plane) { stats, initialized in
                        detrend(UnsafeBufferPointer(rebasing: values[(s * plane)..<((s + 1) * plane)]),
                                weights: UnsafeBufferPointer(rebasing: weights[(s * plane)..<((s + 1) * plane)]),
                                into: stats, bands: P.bandCount, radius: detrendHops)
                        initialized = plane
                    }
                }
            }
        }
    }

    /// Zeroes the weights of the bands above a low-pass cut (`BandCutoff`), block group by
    /// block group: `weights` holds `scales` planes of `hops.count` rows of `bandCount`.
    private static func unweightCutBands(_ weights: inout [Float], blockTotals: [Double], scales: Int, hops range: Range<Int>) {
        let bands = P.bandCount, plane = range.count * bands, blockHops = BandCutoff.blockHops
        let slot = BandCutoff.slotSize
        let firstBlock = range.lowerBound / blockHops, blocks = blockTotals.count / (scales * bands * slot)
        var totals = [Double](repeating: 0, count: bands)
        let groups = BandCutoff.groups(of: range)
        for s in 0..<scales {
            for group in groups {
                for b in 0..<bands { totals[b] = 0 }
                for block in group {
                    blockTotals.withUnsafeBufferPointer { all in
                        let first = all.baseAddress! + (s * blocks + block) * bands * slot
                        for b in 0..<bands { totals[b] += BandCutoff.typicalTotal(first + b * slot) }
                    }
                }
                let cut = totals.withUnsafeBufferPointer { BandCutoff.firstCutBand($0) }
                guard cut < bands else { continue }
                let start = max(range.lowerBound, (firstBlock + group.lowerBound) * blockHops)
                let end = min(range.upperBound, (firstBlock + group.upperBound) * blockHops)
                for hop in start..<end {
                    let row = s * plane + (hop - range.lowerBound) * bands
                    for b in cut..<bands { weights[row + b] = 0 }
                }
            }
        }
    }

    /// `sums[k]` = row[0] + ... + row[k] in Double, as three interleaved chains of a third
    /// of the row each (the later thirds then lifted by the earlier totals): one chain of
    /// 186 dependent adds was 45 % of the band statistics' time.
    @inline(__always)
    static func runningSums(of row: UnsafePointer<Float>, count: Int, into sums: UnsafeMutablePointer<Double>) {
        let third = count / 3
        var a = 0.0, b = 0.0, c = 0.0
        for k in 0..<third {
            a += Double(row[k])
            b += Double(row[third &+ k])
            c += Double(row[2 &* third &+ k])
            sums[k] = a
            sums[third &+ k] = b
            sums[2 &* third &+ k] = c
        }
        for k in (3 &* third)..<count {
            c += Double(row[k])
            sums[k] = c
        }
        let liftB = a, liftC = a + b
        for k in third..<(2 &* third) { sums[k] += liftB }
        for k in (2 &* third)..<count { sums[k] += liftC }
    }

    /// The energy of each band (both halves) in one hop row, at this speed;
    /// `cumulative` is scratch space of `row.count + 1` values.
    private func bandEnergies(_ row: UnsafeBufferPointer<Float>, cumulative: inout [Double], into energies: inout [Float]) {
        cumulative[0] = 0
        cumulative.withUnsafeMutableBufferPointer { sums in
            Self.runningSums(of: row.baseAddress!, count: row.count, into: sums.baseAddress! + 1)
        }
        func edge(_ e: Int) -> Double { cumulative[edgeBins[e]] + edgeFractions[e] * Double(row[edgeBins[e]]) }
        let groupsPerBand = layout.groupsPerBand
        energies.removeAll(keepingCapacity: true)
        for b in 0..<P.bandCount { energies.append(Float(edge((b + 1) * groupsPerBand) - edge(b * groupsPerBand))) }
    }

    /// Noise floor per band: the `percentile` of the band's energy over hops `range`.
    func floors(_ spectra: HopSpectra, hops range: Range<Int>, percentile: Double = 0.05) -> [Float] {
        let bandCount = P.bandCount
        var energies = [[Float]](repeating: [], count: bandCount)
        var row: [Float] = []
        let width = HopSpectra.width
        var cumulative = [Double](repeating: 0, count: width + 1)
        // A subsample of hops is plenty for a percentile.
        let stride = max(1, range.count / 4000)
        spectra.power.withUnsafeBufferPointer { power in
            for hop in Swift.stride(from: range.lowerBound, to: range.upperBound, by: stride) {
                let start = (hop - spectra.firstHop) * width
                bandEnergies(UnsafeBufferPointer(rebasing: power[start..<(start + width)]), cumulative: &cumulative, into: &row)
                for b in 0..<bandCount { energies[b].append(row[b]) }
            }
        }
        return energies.map { values in
            var values = values
            return Percentile.value(&values, at: percentile)
        }
    }

    /// Half-width of the detrending window in hops (+-384 ms, three slots).
    static let detrendHops = 24

    /// Writes each value of `values` (rows of `bands`) minus its band's mean over
    /// +-`radius` hops, times its weight, to `output`: one pass over the rows with a
    /// running window sum per band.
    static func detrend(_ values: UnsafeBufferPointer<Float>, weights: UnsafeBufferPointer<Float>,
                        into output: UnsafeMutableBufferPointer<Float>, bands: Int, radius: Int) {
        guard bands % 2 == 0 else {
            detrendScalar(values, weights: weights, into: output, bands: bands, radius: radius)
            return
        }
        // Two bands per SIMD lane pair: each band's sums and products are exactly the
        // scalar loop's, band by band.
        let hops = values.count / bands, pairs = bands / 2
        var sums = [SIMD2<Double>](repeating: .zero, count: pairs)
        guard let inBase = values.baseAddress, let weightBase = weights.baseAddress, let outBase = output.baseAddress else { return }
        let input = UnsafeRawPointer(inBase), weight = UnsafeRawPointer(weightBase), out = UnsafeMutableRawPointer(outBase)
        // Wrapping arithmetic: byte offsets inside the buffers, which cannot overflow.
        func pair(_ row: Int, _ p: Int) -> Int { (row &* bands &+ 2 &* p) &* 4 }
        sums.withUnsafeMutableBufferPointer { sums in
            for h in 0..<min(hops, radius) {
                for p in 0..<pairs { sums[p] += SIMD2<Double>(input.loadUnaligned(fromByteOffset: pair(h, p), as: SIMD2<Float>.self)) }
            }
            let full = 1 / Double(2 * radius + 1)
            for h in 0..<hops {
                let entering = h + radius, leaving = h - radius - 1
                if entering < hops {
                    for p in 0..<pairs {
                        sums[p] += SIMD2<Double>(input.loadUnaligned(fromByteOffset: pair(entering, p), as: SIMD2<Float>.self))
                    }
                }
                if leaving >= 0 {
                    for p in 0..<pairs {
                        sums[p] -= SIMD2<Double>(input.loadUnaligned(fromByteOffset: pair(leaving, p), as: SIMD2<Float>.self))
                    }
                }
                let count = min(hops, entering + 1) - max(0, h - radius)
                let scale = count == 2 * radius + 1 ? full : 1 / Double(count)
                for p in 0..<pairs {
                    let value = input.loadUnaligned(fromByteOffset: pair(h, p), as: SIMD2<Float>.self)
                    let w = weight.loadUnaligned(fromByteOffset: pair(h, p), as: SIMD2<Float>.self)
                    out.storeBytes(of: (value - SIMD2<Float>(sums[p] * scale)) * w, toByteOffset: pair(h, p), as: SIMD2<Float>.self)
                }
            }
        }
    }

    /// `detrend` one band at a time: the reference, and the path for an odd band count.
    static func detrendScalar(_ values: UnsafeBufferPointer<Float>, weights: UnsafeBufferPointer<Float>,
                              into output: UnsafeMutableBufferPointer<Float>, bands: Int, radius: Int) {
        let hops = values.count / bands
        var sums = [Double](repeating: 0, count: bands)
        sums.withUnsafeMutableBufferPointer { sums in
            // The window of hop 0 is rows 0...radius (fewer at the start).
            for h in 0..<min(hops, radius) {
                for b in 0..<bands { sums[b] += Double(values[h * bands + b]) }
            }
            let full = 1 / Double(2 * radius + 1)
            for h in 0..<hops {
                let entering = h + radius, leaving = h - radius - 1
                if entering < hops {
                    for b in 0..<bands { sums[b] += Double(values[entering * bands + b]) }
                }
                if leaving >= 0 {
                    for b in 0..<bands { sums[b] -= Double(values[leaving * bands + b]) }
                }
                let count = min(hops, entering + 1) - max(0, h - radius)
                let scale = count == 2 * radius + 1 ? full : 1 / Double(count)
                for b in 0..<bands {
                    let i = h * bands + b
                    output[i] = (values[i] - Float(sums[b] * scale)) * weights[i]
                }
            }
        }
    }

    /// The speeds searched: a grid over +-`speedRange` in `speedStep` steps.
    static var grid: [Double] {
        let steps = Int((P.speedRange / P.speedStep).rounded())
        var speeds = [1.0]
        for i in 1...max(1, steps) {
            speeds.append(1 + Double(i) * P.speedStep)
            speeds.append(1 - Double(i) * P.speedStep)
        }
        return speeds
    }
}
