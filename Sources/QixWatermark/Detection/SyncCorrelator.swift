import QixDSP

/// Finds where the frame starts in a folded window: the circular cross-correlation of
/// every band with its keyed sync template, computed with FFTs over all 192 hop
/// offsets at once and summed over bands.
final class SyncCorrelator {
    typealias P = WatermarkParameters
    private let fft = RealFFT(size: P.hopsPerFrame)
    /// Conjugate template spectra, band-major, interleaved (re, im).
    private var template: [Float]
    /// Correlation per offset from the last `correlate`.
    private(set) var correlation = [Float](repeating: 0, count: P.hopsPerFrame)
    private var accumulator: [Float]
    /// Mean and standard deviation of the last correlation over all offsets.
    private var correlationMean: Float = 0
    private var correlationDeviation: Float = 1
    /// Offsets of the last correlation's highest and lowest values: where the template
    /// peaks, and where a pattern of opposite polarity (format 2's sync) does.
    private var highest = 0, lowest = 0

    /// Prepares the templates of `layout`: a sync tile's sign over its slot's 8 hops.
    convenience init(layout: WatermarkLayout) {
        self.init(tiles: (0..<P.tileCount).map { layout.codedBit[$0] < 0 ? layout.sign[$0] : 0 })
    }

    /// Prepares templates from a value per tile (0 where a tile is not part of the
    /// pattern): the sync tiles' signs for blind search, or a known ID's whole chip
    /// pattern, which holds 5.5 times the sync tiles' energy.
    init(tiles: [Float]) {
        let period = P.hopsPerFrame, bins = period / 2 + 1
        template = [Float](repeating: 0, count: P.bandCount * 2 * bins)
        accumulator = [Float](repeating: 0, count: 2 * bins)
        for b in 0..<P.bandCount {
            for r in 0..<period {
                fft.input[r] = tiles[(r / P.hopsPerSlot) * P.bandCount + b]
            }
            fft.forward()
            for k in 0..<bins {
                template[(b * bins + k) * 2] = fft.spectrum[2 * k]
                template[(b * bins + k) * 2 + 1] = -fft.spectrum[2 * k + 1]
            }
        }
    }

    /// Values per band spectrum (interleaved re, im).
    static var spectrumSize: Int { 2 * (P.hopsPerFrame / 2 + 1) }

    /// Writes the spectrum of every band of one folded chunk (band-major, 192 hops per
    /// band) into `output` (band-major, `spectrumSize` per band). Spectra of chunks add
    /// up to the spectrum of their sum, so windows of any length are sums of these.
    func bandSpectra(_ chunk: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let period = P.hopsPerFrame, size = Self.spectrumSize
        for b in 0..<P.bandCount {
            for r in 0..<period { fft.input[r] = chunk[b * period + r] }
            fft.forward()
            for k in 0..<size { output[b * size + k] = fft.spectrum[k] }
        }
    }

    /// Correlates a window given as band spectra with the templates, each band scaled
    /// to unit RMS first (its energy from Parseval); returns the best offset and its
    /// z-score against all offsets.
    func correlate(spectra: UnsafeBufferPointer<Float>) -> (offset: Int, z: Float) {
        let period = P.hopsPerFrame, bins = period / 2 + 1, size = Self.spectrumSize
        for i in 0..<accumulator.count { accumulator[i] = 0 }
        template.withUnsafeBufferPointer { template in
            accumulator.withUnsafeMutableBufferPointer { acc in
                for b in 0..<P.bandCount {
                    let base = b * size
                    var energy = spectra[base] * spectra[base] + spectra[base + size - 2] * spectra[base + size - 2]
                    for k in 1..<(bins - 1) {
                        energy += 2 * (spectra[base + 2 * k] * spectra[base + 2 * k]
                                       + spectra[base + 2 * k + 1] * spectra[base + 2 * k + 1])
                    }
                    // Time-domain mean square is energy / period^2.
                    guard energy > 1e-20 else { continue }
                    let scale = Float(period) / energy.squareRoot() * Float(period).squareRoot()
                    for k in 0..<bins {
                        let re = spectra[base + 2 * k] * scale, im = spectra[base + 2 * k + 1] * scale
                        let tre = template[base + 2 * k], tim = template[base + 2 * k + 1]
                        acc[2 * k] += re * tre - im * tim
                        acc[2 * k + 1] += re * tim + im * tre
                    }
                }
            }
        }
        for i in 0..<accumulator.count { fft.spectrum[i] = accumulator[i] }
        fft.inverse()
        var best = 0, lowest = 0
        var sum: Float = 0, sumSquares: Float = 0
        for r in 0..<period {
            let value = fft.input[r]
            correlation[r] = value
            sum += value
            sumSquares += value * value
            if value > correlation[best] { best = r }
            if value < correlation[lowest] { lowest = r }
        }
        let mean = sum / Float(period)
        let variance = max(sumSquares / Float(period) - mean * mean, 1e-30)
        correlationMean = mean
        correlationDeviation = variance.squareRoot()
        self.highest = best
        self.lowest = lowest
        return self.best(polarity: 1)
    }

    /// The last correlation's best offset for a pattern of `polarity` (+1: the template,
    /// the highest value; -1: the template negated, the lowest), with its z-score.
    func best(polarity: Float) -> (offset: Int, z: Float) {
        let offset = polarity > 0 ? highest : lowest
        return (offset, polarity * (correlation[offset] - correlationMean) / correlationDeviation)
    }

    /// The `count` best offsets of the last correlation for a pattern of `polarity`
    /// (see `best(polarity:)`), best first (ties to the lower offset, so with polarity +1
    /// the first is the offset `correlate` returned), with their z-scores.
    func peaks(_ count: Int, polarity: Float = 1) -> [(offset: Int, z: Float)] {
        var chosen: [(offset: Int, z: Float)] = []
        chosen.reserveCapacity(count)
        for _ in 0..<min(count, correlation.count) {
            var best = -1
            for r in correlation.indices where !chosen.contains(where: { $0.offset == r }) {
                if best < 0 || polarity * correlation[r] > polarity * correlation[best] { best = r }
            }
            chosen.append((best, polarity * (correlation[best] - correlationMean) / correlationDeviation))
        }
        return chosen
    }

    /// Correlates a folded window (band-major, 192 hops per band) with the templates.
    func correlate(_ window: [Float]) -> (offset: Int, z: Float) {
        var spectra = [Float](repeating: 0, count: P.bandCount * Self.spectrumSize)
        window.withUnsafeBufferPointer { w in
            spectra.withUnsafeMutableBufferPointer { bandSpectra(w, into: $0) }
        }
        return spectra.withUnsafeBufferPointer { correlate(spectra: $0) }
    }
}
