import Testing
import QixDSP

/// The vectorised level meter agrees with a plain per-sample reference, leaves NaN and
/// infinities out, and handles the ragged end of a block.
struct SignalLevelsTests {
    @Test func matchesPlainReferenceWithNonFiniteSamples() {
        var samples = (0..<2_053).map { Float(($0 * 7919) % 1000) / 1000 - 0.5 }
        samples[3] = .infinity
        samples[1_500] = .nan
        samples[2_051] = -0.75
        var levels = SignalLevels()
        samples.withUnsafeBufferPointer { levels.add($0) }
        var peak: Float = 0, sum = 0.0, finite = 0
        for x in samples where x.isFinite {
            peak = max(peak, abs(x))
            sum += Double(x * x)
            finite += 1
        }
        #expect(levels.peak == peak && peak == 0.75)
        #expect(levels.nonFiniteCount == 2 && levels.count == 2_053)
        #expect(abs(levels.rms - (sum / Double(finite)).squareRoot()) < 1e-6)
    }

    @Test func silenceHasNoLevel() {
        var levels = SignalLevels()
        [Float](repeating: 0, count: 5_000).withUnsafeBufferPointer { levels.add($0) }
        #expect(levels.peak == 0 && levels.peakDBFS == nil && levels.rmsDBFS == nil)
    }
}
