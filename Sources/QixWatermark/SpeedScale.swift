/// One candidate playback speed of the search: where each watermark half band lands in
/// the received spectrum (bins scale with the speed), and the per-hop band statistics
/// computed through that map.
///
/// A recording played `speed` times faster has every frequency multiplied by `speed`
/// and every duration divided by it; the detector undoes the frequency part here and
/// the time part when it folds hops onto the frame grid.
struct SpeedScale {
    typealias P = WatermarkParameters
    /// Received-over-original speed (1.03 = played 3 % faster).
    let speed: Double
    /// Contributions (stored-bin offset, half-band index, weight), sorted by bin.
    private let bins: [Int32]
    private let halves: [Int32]
    private let weights: [Float]
    /// The contributions as runs over contiguous bins, one per up/down group:
    /// first stored bin, first contribution index, count, and half-band index.
    private let runs: [(bin: Int, entry: Int, count: Int, half: Int)]

    /// Builds the bin map for `speed`: each half band's interval of bin centres, scaled,
    /// split over the received bins it overlaps.
    init(speed: Double) {
        self.speed = speed
        var bins: [Int32] = [], halves: [Int32] = [], weights: [Float] = []
        let groupCount = 2 * P.bandCount * P.binsPerHalfBand / P.binsPerGroup
        let groupsPerBand = groupCount / P.bandCount
        for group in 0..<groupCount {
            let lower = speed * (Double(P.firstBin + group * P.binsPerGroup) - 0.5)
            let upper = speed * (Double(P.firstBin + (group + 1) * P.binsPerGroup) - 0.5)
            let half = 2 * (group / groupsPerBand) + (group % groupsPerBand) % 2
            var k = Int((lower + 0.5).rounded(.down))
            while Double(k) - 0.5 < upper {
                let overlap = min(upper, Double(k) + 0.5) - max(lower, Double(k) - 0.5)
                if overlap > 1e-6, k >= HopSpectra.lowBin, k < HopSpectra.highBin {
                    bins.append(Int32(k - HopSpectra.lowBin))
                    halves.append(Int32(half))
                    weights.append(Float(overlap))
                }
                k += 1
            }
        }
        self.bins = bins
        self.halves = halves
        self.weights = weights
        var runs: [(bin: Int, entry: Int, count: Int, half: Int)] = []
        for e in 0..<bins.count {
            if let last = runs.last, last.half == Int(halves[e]), last.bin + last.count == Int(bins[e]),
               last.entry + last.count == e {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((Int(bins[e]), e, 1, Int(halves[e])))
            }
        }
        self.runs = runs
    }

    /// The chip statistic (U - D) / (U + D) of every band for hops `range` of `spectra`
    /// (global hop indices), written row-major (`bandCount` per hop) into `stats`, then
    /// detrended: each value minus its band's mean over +-`detrendHops`, which removes
    /// the host's slowly varying up/down imbalance and keeps the slot-rate chips.
    ///
    /// Each value is then weighted by max(0, 1 - floor / energy) with the band's noise
    /// floor (`floors`): the share of the tile's energy above the floor, which is where the
    /// host (and so the mark) can be; noise-only hops count for nothing.
    func statistics(_ spectra: HopSpectra, hops range: Range<Int>, floors: [Float], into stats: inout [Float]) {
        let bandCount = P.bandCount
        let hops = range.count
        stats.removeAll(keepingCapacity: true)
        stats.append(contentsOf: repeatElement(0, count: hops * bandCount))
        guard hops > 0 else { return }
        var half = [Float](repeating: 0, count: 2 * bandCount)
        var floorWeights = [Float](repeating: 1, count: hops * bandCount)
        let width = HopSpectra.width
        spectra.power.withUnsafeBufferPointer { power in
            stats.withUnsafeMutableBufferPointer { out in
                bins.withUnsafeBufferPointer { bins in
                    halves.withUnsafeBufferPointer { halves in
                        weights.withUnsafeBufferPointer { weights in
                            half.withUnsafeMutableBufferPointer { half in
                                for h in 0..<hops {
                                    let row = (range.lowerBound + h - spectra.firstHop) * width
                                    for i in 0..<half.count { half[i] = 0 }
                                    for run in runs {
                                        var sum: Float = 0
                                        let base = row + run.bin
                                        for i in 0..<run.count { sum += weights[run.entry + i] * power[base + i] }
                                        half[run.half] += sum
                                    }
                                    for b in 0..<bandCount {
                                        let up = half[2 * b], down = half[2 * b + 1]
                                        let total = up + down
                                        out[h * bandCount + b] = total > 1e-12 ? (up - down) / total : 0
                                        floorWeights[h * bandCount + b] = total > floors[b] ? 1 - floors[b] / total : 0
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        Self.detrend(&stats, hops: hops, bands: bandCount, radius: Self.detrendHops)
        for i in 0..<stats.count { stats[i] *= floorWeights[i] }
    }

    /// Noise floor per band: the `percentile` of the band's energy over hops `range`.
    func floors(_ spectra: HopSpectra, hops range: Range<Int>, percentile: Double = 0.05) -> [Float] {
        let bandCount = P.bandCount
        var energies = [[Float]](repeating: [], count: bandCount)
        var half = [Float](repeating: 0, count: 2 * bandCount)
        let width = HopSpectra.width
        // A subsample of hops is plenty for a percentile.
        let stride = max(1, range.count / 4000)
        for hop in Swift.stride(from: range.lowerBound, to: range.upperBound, by: stride) {
            let row = (hop - spectra.firstHop) * width
            for i in 0..<half.count { half[i] = 0 }
            for e in 0..<bins.count { half[Int(halves[e])] += weights[e] * spectra.power[row + Int(bins[e])] }
            for b in 0..<bandCount { energies[b].append(half[2 * b] + half[2 * b + 1]) }
        }
        return energies.map { values in
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * percentile))]
        }
    }

    /// Half-width of the detrending window in hops (+-384 ms, three slots).
    static let detrendHops = 24

    /// Subtracts from each value the mean of its band over +-`radius` hops.
    static func detrend(_ stats: inout [Float], hops: Int, bands: Int, radius: Int) {
        var prefix = [Double](repeating: 0, count: hops + 1)
        stats.withUnsafeMutableBufferPointer { s in
            for b in 0..<bands {
                for h in 0..<hops { prefix[h + 1] = prefix[h] + Double(s[h * bands + b]) }
                for h in 0..<hops {
                    let lo = max(0, h - radius), hi = min(hops, h + radius + 1)
                    s[h * bands + b] -= Float((prefix[hi] - prefix[lo]) / Double(hi - lo))
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
