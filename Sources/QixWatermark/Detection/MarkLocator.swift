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
        let stats = SpeedScale(speed: speed).statistics(spectra, hops: lower..<upper, floors: floors)
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
        // The threshold is half the marked hops' mean score. The window-granular guess
        // also holds unmarked hops, so its mean starts low (a low threshold lets the run
        // spill into the neighbours); re-estimate it from the run found, until it settles.
        let guessLow = max(0, hops.lowerBound - lower), guessHigh = min(count, hops.upperBound - lower)
        var run = guessLow..<max(guessLow, guessHigh)
        var bestRange = hops
        for _ in 0..<Self.refinements {
            var inside: Float = 0
            for h in run { inside += score[h] }
            let mean = run.isEmpty ? 0 : inside / Float(run.count)
            guard mean > 0 else { break }
            let found = largestRun(score, threshold: mean / 2)
            bestRange = (lower + found.lowerBound)..<(lower + found.upperBound)
            if found == run { break }
            run = found
        }
        return bestRange
    }

    /// Rounds of threshold re-estimation (it settles in two or three).
    static let refinements = 5

    /// The run of hops whose summed score minus `threshold` is largest (Kadane).
    static func largestRun(_ score: [Float], threshold: Float) -> Range<Int> {
        var best: Float = -.infinity, bestRange = 0..<0
        var running: Float = 0, runStart = 0
        for h in 0..<score.count {
            if running <= 0 { running = 0; runStart = h }
            running += score[h] - threshold
            if running > best { best = running; bestRange = runStart..<(h + 1) }
        }
        return bestRange
    }
}
