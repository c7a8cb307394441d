import QixAudio

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

    /// Prepares the templates of `layout`: a sync tile's sign over its slot's 8 hops.
    init(layout: WatermarkLayout) {
        let period = P.hopsPerFrame, bins = period / 2 + 1
        template = [Float](repeating: 0, count: P.bandCount * 2 * bins)
        accumulator = [Float](repeating: 0, count: 2 * bins)
        for b in 0..<P.bandCount {
            for r in 0..<period {
                let tile = (r / P.hopsPerSlot) * P.bandCount + b
                fft.input[r] = layout.codedBit[tile] < 0 ? layout.sign[tile] : 0
            }
            fft.forward()
            for k in 0..<bins {
                template[(b * bins + k) * 2] = fft.spectrum[2 * k]
                template[(b * bins + k) * 2 + 1] = -fft.spectrum[2 * k + 1]
            }
        }
    }

    /// Correlates a folded window (band-major, 192 hops per band) with the templates;
    /// returns the best offset and its z-score against all offsets.
    func correlate(_ window: [Float]) -> (offset: Int, z: Float) {
        let period = P.hopsPerFrame, bins = period / 2 + 1
        for i in 0..<accumulator.count { accumulator[i] = 0 }
        window.withUnsafeBufferPointer { w in
            for b in 0..<P.bandCount {
                for r in 0..<period { fft.input[r] = w[b * period + r] }
                fft.forward()
                let s = fft.spectrum
                for k in 0..<bins {
                    let re = s[2 * k], im = s[2 * k + 1]
                    let tre = template[(b * bins + k) * 2], tim = template[(b * bins + k) * 2 + 1]
                    accumulator[2 * k] += re * tre - im * tim
                    accumulator[2 * k + 1] += re * tim + im * tre
                }
            }
        }
        for i in 0..<accumulator.count { fft.spectrum[i] = accumulator[i] }
        fft.inverse()
        var best = 0
        var sum: Float = 0, sumSquares: Float = 0
        for r in 0..<period {
            let value = fft.input[r]
            correlation[r] = value
            sum += value
            sumSquares += value * value
            if value > correlation[best] { best = r }
        }
        let mean = sum / Float(period)
        let variance = max(sumSquares / Float(period) - mean * mean, 1e-30)
        return (best, (correlation[best] - mean) / variance.squareRoot())
    }
}
