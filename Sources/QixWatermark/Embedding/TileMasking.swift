import Foundation

/// The masking model: how deep the mark may go in each tile (band x slot), from what the ear's
/// auditory filters would receive of it given the host's own spectrum there.
///
/// The mark raises one 125 Hz half of a band by 1 + d and lowers the other by 1 - d. The ear
/// hears the change of excitation in its auditory filters. A filter narrower than a half (under
/// about 1 kHz, ERB 80-130 Hz) sees one half alone, a change of 20 log10(1 +- d) dB; a wider one
/// (ERB 240 Hz at 2 kHz, 660 Hz at 6 kHz) spans halves changed both ways, which cancel as far as
/// the host's energy is spread evenly over them. A resolved partial, or a band whose energy sits
/// in one half, does not cancel. So the depth allowed depends on the host's spectrum, and it is
/// computed from it: for every roex(p) filter (Patterson; ERB of Glasberg & Moore) centred on a
/// bin of the band, with the tile's bin powers P and the filter's weights W,
///
///     excitation ratio = 1 +- 2 d beta + d^2 gamma,
///     beta  = sum over marked bands of |W P (up half) - W P (down half)| / sum W P,
///     gamma = sum over marked bins of W P / sum W P,
///
/// the neighbouring bands taken as deep as this one with their chips the worst way round. A
/// tile's cap is the largest d that keeps every such ratio within the limits'
/// `excitationChange` dB, and at most their `largestDepth` (`MaskingLimits`).
///
/// The standard `excitationChange` (1.9 dB) is set so that on the corpus hosts the measured change of the
/// ear's filter excitations (`Benchmarks/quality/excitation_check.py`: 95th percentile over 32 ms
/// frames and 41 filters, mean over the 9 hosts) matches format 1's single cap 0.25: 2.00 dB
/// against 1.97. At that equal change the mark goes deeper where the ear cannot resolve it and
/// decodes far more often (docs/watermark.md, section 2).
///
/// Format 3 interleaves a band's halves in 2-bin groups, but the sums here still take them side
/// by side: a wide filter cancels the finer alternation better, so these caps are the tighter
/// bound. Planned with the true layout, a09's mark rose 3.3 dB and PEAQ's basic ODG fell on all
/// 7 hosts measured (docs/experiments.md, "What decides the basic line on a08 and a09").
enum TileMasking {
    typealias P = WatermarkParameters

    /// Bands on either side whose marks reach a filter centred in a band (ERB 660 Hz at 6 kHz
    /// is under three bands).
    static let neighbourBands = 3
    /// Filter weights under this are left out of the sums.
    static let weightFloor: Float = 1e-4

    /// One roex(p) filter over the stored bins (`HopSpectra`): its weights from `first` on.
    struct Filter {
        /// First stored bin with a weight.
        let first: Int
        /// Weights of bins `first`, `first + 1`, ...
        let weights: [Float]
    }

    /// A filter centred on every stored bin.
    static let filters: [Filter] = {
        let binHz = Double(P.sampleRate) / Double(P.fftSize)
        return (0..<HopSpectra.width).map { centre in
            let fc = Double(centre + HopSpectra.lowBin) * binHz
            let erb = 24.7 * (4.37 * fc / 1000 + 1), p = 4 * fc / erb
            let all = (0..<HopSpectra.width).map { k -> Float in
                let x = abs(Double(k + HopSpectra.lowBin) * binHz - fc) / fc
                return Float((1 + p * x) * exp(-p * x))
            }
            let first = all.firstIndex { $0 >= weightFloor } ?? centre
            let last = all.lastIndex { $0 >= weightFloor } ?? centre
            return Filter(first: first, weights: Array(all[first...last]))
        }
    }()

    /// Energy and cap of each (global slot, band) tile of a 16 kHz analysis: the power of the
    /// band's bins summed over the slot's hops, and the cap from the slot's spectrum.
    static func tiles(_ spectra: HopSpectra, limits: MaskingLimits = .standard) -> (energy: [Float], cap: [Float]) {
        let bands = P.bandCount, width = HopSpectra.width
        let slots = (spectra.count + P.hopsPerSlot - 1) / P.hopsPerSlot
        var slotPower = [Float](repeating: 0, count: slots * width)
        spectra.power.withUnsafeBufferPointer { power in
            for m in 0..<spectra.count {
                let row = (m / P.hopsPerSlot) * width
                for k in 0..<width { slotPower[row + k] += power[m * width + k] }
            }
        }
        var energy = [Float](repeating: 0, count: slots * bands)
        var cap = [Float](repeating: 0, count: slots * bands)
        var halves = [Float](repeating: 0, count: 2 * bands)
        var masked = [Float](repeating: 0, count: bands), scratch = [Float](repeating: 0, count: 2 * bands)
        let slotEnergy = (0..<slots).map { q in slotPower[(q * width)..<((q + 1) * width)].reduce(0, +) }
        var sounding = slotEnergy.filter { $0 > 0 }
        let median = sounding.isEmpty ? 0 : Percentile.value(&sounding, at: 0.5)
        slotPower.withUnsafeBufferPointer { all in
            for q in 0..<slots {
                let slot = UnsafeBufferPointer(rebasing: all[(q * width)..<((q + 1) * width)])
                let margin = limits.margin(slotEnergy: slotEnergy[q], median: median)
                if let margin {
                    MaskedThreshold.depths(slot, margin: margin, scratch: &scratch, into: &masked)
                }
                for b in 0..<bands {
                    let first = bandStart(b)
                    var total: Float = 0
                    for k in first..<(first + 2 * P.binsPerHalfBand) { total += slot[k] }
                    energy[q * bands + b] = total
                    guard total > 0 else { continue }
                    let excitationCap = Self.cap(slot, band: b, halves: &halves, limits: limits)
                    cap[q * bands + b] = margin == nil ? excitationCap : min(excitationCap, masked[b])
                }
            }
        }
        return (energy, cap)
    }

    /// The cap of band `band` for one slot's bin powers (`HopSpectra.width` of them);
    /// `halves` is scratch space for one value per half band.
    static func cap(_ power: UnsafeBufferPointer<Float>, band: Int, halves: inout [Float],
                    limits: MaskingLimits = .standard) -> Float {
        let upper = pow(10, limits.excitationChange / 10), lower = pow(10, -limits.excitationChange / 10)
        let firstMarked = bandStart(0)
        let lowestHalf = 2 * max(0, band - neighbourBands), highestHalf = 2 * min(P.bandCount - 1, band + neighbourBands) + 1
        var best = limits.largestDepth
        // Weighted power per half band within reach, gathered in one pass over each filter.
        let first = bandStart(band)
        for centre in first..<(first + 2 * P.binsPerHalfBand) {
            let filter = filters[centre]
            for h in lowestHalf...highestHalf { halves[h] = 0 }
            var total: Float = 0
            filter.weights.withUnsafeBufferPointer { weights in
                for i in 0..<weights.count {
                    let k = filter.first + i
                    let value = weights[i] * power[k]
                    total += value
                    guard k >= firstMarked else { continue }
                    let h = (k - firstMarked) / P.binsPerHalfBand
                    if h >= lowestHalf && h <= highestHalf { halves[h] += value }
                }
            }
            guard total > 0 else { continue }
            var marked: Float = 0, imbalance: Float = 0
            for h in stride(from: lowestHalf, to: highestHalf, by: 2) {
                marked += halves[h] + halves[h + 1]
                imbalance += abs(halves[h] - halves[h + 1])
            }
            best = min(best, largestDepth(beta: imbalance / total, gamma: marked / total, upper: upper, lower: lower))
        }
        return best
    }

    /// The largest d >= 0 with 1 + 2 d beta + d^2 gamma <= `upper` and
    /// 1 - 2 d beta + d^2 gamma >= `lower` (0 <= beta <= gamma <= 1).
    static func largestDepth(beta: Float, gamma: Float, upper: Float, lower: Float) -> Float {
        guard gamma > 0 else { return .infinity }
        // The raised side grows with d: its root.
        var d = (-beta + (beta * beta + gamma * (upper - 1)).squareRoot()) / gamma
        // The lowered side dips to 1 - beta^2 / gamma at d = beta / gamma; if that is under
        // `lower`, the first crossing limits d.
        let discriminant = beta * beta - gamma * (1 - lower)
        if discriminant > 0 { d = min(d, (beta - discriminant.squareRoot()) / gamma) }
        return max(0, d)
    }

    /// Stored-bin index of band `band`'s first bin.
    static func bandStart(_ band: Int) -> Int {
        P.firstBin + 2 * P.binsPerHalfBand * band - HopSpectra.lowBin
    }
}
