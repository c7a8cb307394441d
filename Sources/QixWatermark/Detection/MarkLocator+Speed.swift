extension MarkLocator {
    /// Speeds tried on each side of the search's, `speedRefinementStep` apart: the search
    /// reads speed on a grid of `speedStep` (0.015, retried half a step aside), so a spot
    /// sped up 2 % is read at 1.015, and its frame grid drifts a slot (8 hops) every 1.6 s
    /// from where the offset was fitted. Its first and last seconds then score too little
    /// for the edges to reach them: `archive_check.py`'s spots sped up 2 % started 1.9 s late.
    static let speedRefinements = 3
    /// Between two speeds tried (a sixth of the search's step).
    static let speedRefinementStep = WatermarkParameters.speedStep / 6
    /// How much more the guess must score at a refined speed to replace the search's: the
    /// grid speed of a spot aired at its own speed must not give way to chance.
    static let speedRefinementGain: Float = 1.05

    /// The speed, from the search's and those `speedRefinements` steps to either side, at which
    /// hops `guess` (local to `lower`) score highest against `chips`, with the frame offset
    /// moved to keep the grid where it was at the guess's centre, and that speed's band
    /// statistics of the hops from `lower` to `upper`.
    static func refinedSpeed(_ spectra: HopSpectra, lower: Int, upper: Int, guess: Range<Int>, chips: [Float],
                             scale: SpeedScale, offset: Int, floors: [Float]) -> (scale: SpeedScale, offset: Int, stats: [Float]) {
        let centre = Double(lower) + Double(guess.lowerBound + guess.upperBound) / 2
        func candidate(_ step: Int) -> (scale: SpeedScale, offset: Int, stats: [Float], score: Float) {
            let speed = scale.speed + Double(step) * speedRefinementStep
            // The hop the grid reads at the centre, u = speed x hop, kept at the same slot.
            let moved = offset + Int(((speed - scale.speed) * centre).rounded())
            let refined = step == 0 ? scale : SpeedScale(speed: speed, layout: scale.layout)
            let stats = refined.statistics(spectra, hops: lower..<upper, floors: floors)
            let total = totalScores(stats, scale: unitScales(stats), lower: lower, chips: chips, speed: speed, offset: moved)
            var score: Float = 0
            for h in guess where h < total.count { score += total[h] }
            return (refined, moved, stats, score)
        }
        let search = candidate(0)
        var best = search
        for step in -speedRefinements...speedRefinements where step != 0 {
            let next = candidate(step)
            if next.score > best.score { best = next }
        }
        let chosen = best.score > search.score * speedRefinementGain ? best : search
        return (chosen.scale, chosen.offset, chosen.stats)
    }

    /// Every hop's score over all tiles against `chips` (as `LocatorScores.total`), without the
    /// shifted patterns: the comparison of speeds needs no noise estimate.
    static func totalScores(_ stats: [Float], scale: [Float], lower: Int, chips: [Float], speed: Double,
                            offset: Int) -> [Float] {
        let bands = WatermarkParameters.bandCount, period = WatermarkParameters.hopsPerFrame
        let count = stats.count / bands
        var total = [Float](repeating: 0, count: count)
        for h in 0..<count {
            let u = Int((speed * Double(lower + h)).rounded())
            let tiles = ((u - offset) % period + period) % period / WatermarkParameters.hopsPerSlot * bands
            var all: Float = 0
            for b in 0..<bands { all += chips[tiles + b] * stats[h * bands + b] * scale[b] }
            total[h] = all
        }
        return total
    }
}
