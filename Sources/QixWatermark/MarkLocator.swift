/// Finds where a decoded ID starts and ends, to a fraction of a second: with the ID,
/// speed and frame offset known, every hop of the audio can be scored against the
/// frame's full chip pattern; the marked stretch is the run of hops whose summed score
/// (minus half the marked mean) is largest.
struct MarkLocator {
    typealias P = WatermarkParameters

    /// Refines `hops` (global hop range believed to carry the mark, a window-granular
    /// guess) to the stretch that carries `chips`, searching one frame beyond each side.
    static func locate(_ spectra: HopSpectra, guess hops: Range<Int>, chips: [Float], speed: Double,
                       offset: Int, floors: [Float]) -> Range<Int> {
        let margin = P.hopsPerFrame
        let lower = max(spectra.firstHop, hops.lowerBound - margin)
        let upper = min(spectra.endHop, hops.upperBound + margin)
        guard upper - lower > 2 * P.hopsPerSlot else { return hops }
        let bands = P.bandCount, period = P.hopsPerFrame
        var stats: [Float] = []
        SpeedScale(speed: speed).statistics(spectra, hops: lower..<upper, floors: floors, into: &stats)
        let count = upper - lower
        // Each band to unit RMS, as the detector's windows are.
        var scale = [Float](repeating: 0, count: bands)
        for b in 0..<bands {
            var energy: Float = 0
            for h in 0..<count { energy += stats[h * bands + b] * stats[h * bands + b] }
            scale[b] = energy > 0 ? 1 / (energy / Float(count)).squareRoot() : 0
        }
        var score = [Float](repeating: 0, count: count)
        for h in 0..<count {
            let u = Int((speed * Double(lower + h)).rounded())
            let position = ((u - offset) % period + period) % period
            let slot = position / P.hopsPerSlot
            var sum: Float = 0
            for b in 0..<bands { sum += chips[slot * bands + b] * stats[h * bands + b] * scale[b] }
            score[h] = sum
        }
        // Mean score inside the guess (mostly marked) sets the threshold.
        var inside: Float = 0
        let guessLow = max(0, hops.lowerBound - lower), guessHigh = min(count, hops.upperBound - lower)
        for h in guessLow..<max(guessLow, guessHigh) { inside += score[h] }
        let mean = guessHigh > guessLow ? inside / Float(guessHigh - guessLow) : 0
        guard mean > 0 else { return hops }
        let threshold = mean / 2
        // Largest-sum run (Kadane) of score - threshold.
        var best: Float = -.infinity, bestRange = hops
        var running: Float = 0, runStart = 0
        for h in 0..<count {
            if running <= 0 { running = 0; runStart = h }
            running += score[h] - threshold
            if running > best { best = running; bestRange = (lower + runStart)..<(lower + h + 1) }
        }
        return bestRange
    }
}
