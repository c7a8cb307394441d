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

    /// Hops at each end of the strong run (10.2 s) over which the speeds are compared: the drift
    /// matters at the edges, and a mark that fills a 10-minute file would otherwise have its
    /// statistics computed at seven speeds (0.07 s of a 0.49 s `qix detect`).
    static let speedProbeHops = 640

    /// The speed, from the search's and those `speedRefinements` steps to either side, at which
    /// the first and last `speedProbeHops` of the strong run in hops `guess` (local to `lower`;
    /// `strongRun` at the search's speed) score highest against `chips`, with the frame offset
    /// moved to keep the grid where it was at the run's centre, and that speed's band statistics
    /// of the hops from `lower` to `upper`. The window-granular guess can hold 20 s of unmarked
    /// audio on either side, so its own ends would compare noise. When the search's speed is
    /// kept, its strong run comes back too (`run`), found on the same scores the caller's are.
    static func refinedSpeed(_ spectra: HopSpectra, lower: Int, upper: Int, guess: Range<Int>, chips: [Float],
                             scale: SpeedScale, offset: Int, floors: [Float])
        -> (scale: SpeedScale, offset: Int, stats: [Float], run: Range<Int>?) {
        let searched = scale.statistics(spectra, hops: lower..<upper, floors: floors)
        let total = LocatorScores.totals(stats: searched, scale: unitScales(searched), lower: lower, chips: chips,
                                         speed: scale.speed, offset: offset)
        guard let run = strongRun(total, guess: guess) else { return (scale, offset, searched, nil) }
        let centre = Double(lower) + Double(run.lowerBound + run.upperBound) / 2
        let probes = probeRanges(run).map { (lower + $0.lowerBound)..<(lower + $0.upperBound) }
        func score(_ step: Int) -> (scale: SpeedScale, offset: Int, score: Float) {
            let speed = scale.speed + Double(step) * speedRefinementStep
            // The hop the grid reads at the centre, u = speed x hop, kept at the same slot.
            let moved = offset + Int(((speed - scale.speed) * centre).rounded())
            let refined = step == 0 ? scale : SpeedScale(speed: speed, layout: scale.layout)
            var sum: Float = 0
            for probe in probes {
                let stats = refined.statistics(spectra, hops: probe, floors: floors)
                sum += LocatorScores.totals(stats: stats, scale: unitScales(stats), lower: probe.lowerBound, chips: chips,
                                            speed: speed, offset: moved).reduce(0, +)
            }
            return (refined, moved, sum)
        }
        let search = score(0)
        var best = search
        for step in -speedRefinements...speedRefinements where step != 0 {
            let next = score(step)
            if next.score > best.score { best = next }
        }
        guard best.score > search.score * speedRefinementGain else { return (scale, offset, searched, run) }
        return (best.scale, best.offset, best.scale.statistics(spectra, hops: lower..<upper, floors: floors), nil)
    }

    /// The first and last `speedProbeHops` of `run`, or the whole run when they would overlap.
    static func probeRanges(_ run: Range<Int>) -> [Range<Int>] {
        guard run.count > 2 * speedProbeHops else { return [run] }
        return [run.lowerBound..<(run.lowerBound + speedProbeHops), (run.upperBound - speedProbeHops)..<run.upperBound]
    }
}
