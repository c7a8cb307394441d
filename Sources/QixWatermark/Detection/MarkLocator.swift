/// Finds where a decoded ID starts and ends, to a fraction of a second: with the ID,
/// speed and frame offset known, every hop of the audio can be scored against the
/// frame's full chip pattern.
///
/// The speed is refined first (`refinedSpeed`): the search reads it on a coarse grid, and a
/// grid read at a speed a little off drifts away from the mark towards the stretch's edges.
/// Then three stages. The core is the run of hops whose summed score, minus half the marked
/// mean, is largest: it finds the stretch where the mark is strong. A host's quiet passage
/// carries a mark too weak for that threshold (vinyl ambience scores a quarter of its
/// loud stretches), so each edge is then carried outwards, half a second at a time, as
/// long as the blocks beyond it score above their own noise (`LocatorScores`) by more than
/// a drift: a cumulative sum, so one weak block in a marked passage does not stop it and
/// one lucky block in unmarked audio does not carry it. Last, an end that stops short of a
/// splice in the host (`HostChange`) is carried to the splice when the mark is present all
/// the way to it and the stretch is unlike the audio after the splice: after MP3, quiet
/// ambience keeps too little mark in a spot's last second for the half-second blocks to
/// prove, but the stretch up to the splice taken whole does; a stretch quiet enough that the
/// embedder kept its mark under the masked threshold is carried without that proof; a splice
/// up to 3.2 s away only with a stronger proof, since a longer stretch of unmarked audio offers
/// more chances to score. And a
/// start near a boundary of the frame grid is moved to it: the embedder starts a spot's first
/// frame at its first sample.
struct MarkLocator {
    typealias P = WatermarkParameters

    /// Hops per block of the edge extension (4 slots, 0.51 s).
    static let blockHops = 32
    /// The cumulative sum's drift per block, in units of the block's noise: an unmarked
    /// block adds about -1.5, a weakly marked one (z 2-5) +0.5 to +3.5.
    static let drift: Float = 1.5
    /// The cumulative sum an extension must reach to be taken.
    static let evidence: Float = 2

    /// Refines `hops` (global hop range believed to carry the mark, a window-granular
    /// guess) to the stretch that carries `chips`, searching one frame beyond each side;
    /// `dataTiles` marks the tiles that carry coded bits (the others carry sync).
    static func locate(_ spectra: HopSpectra, guess hops: Range<Int>, chips: [Float], dataTiles: [Bool], scale: SpeedScale,
                       offset: Int, floors: [Float]) -> Range<Int> {
        let margin = P.hopsPerFrame
        let lower = max(spectra.firstHop, hops.lowerBound - margin)
        let upper = min(spectra.endHop, hops.upperBound + margin)
        guard upper - lower > 2 * P.hopsPerSlot else { return hops }
        let guess = max(0, hops.lowerBound - lower)..<max(0, min(upper - lower, hops.upperBound - lower))
        let (scale, offset, stats, run) = refinedSpeed(spectra, lower: lower, upper: upper, guess: guess, chips: chips,
                                                       scale: scale, offset: offset, floors: floors)
        let scores = LocatorScores(stats: stats, scale: unitScales(stats), lower: lower, chips: chips,
                                   dataTiles: dataTiles, speed: scale.speed, offset: offset)
        guard let core = run ?? strongRun(scores.total, guess: guess) else { return hops }
        let start = frameStart(extendedEdge(core.lowerBound, outwards: -1, scores), scores, lower: lower,
                               speed: scale.speed, offset: offset)
        let end = splicedEnd(extendedEdge(core.upperBound, outwards: 1, scores), after: start, scores, spectra,
                             lower: lower)
        return (lower + start)..<(lower + end)
    }

    /// Each band's factor to unit RMS over the stretch, as the detector's windows are.
    static func unitScales(_ stats: [Float]) -> [Float] {
        let bands = P.bandCount, count = stats.count / bands
        return (0..<bands).map { b in
            var energy: Float = 0
            for h in 0..<count { energy += stats[h * bands + b] * stats[h * bands + b] }
            return energy > 0 ? 1 / (energy / Float(count)).squareRoot() : 0
        }
    }

    /// The run whose summed score minus half the marked hops' mean is largest. The
    /// window-granular guess also holds unmarked hops, so its mean starts low (a low
    /// threshold lets the run spill into the neighbours): the mean is re-estimated from
    /// the run found, until it settles. Nil when the guess scores nothing.
    static func strongRun(_ score: [Float], guess: Range<Int>) -> Range<Int>? {
        var run = guess
        var found: Range<Int>?
        for _ in 0..<Self.refinements {
            var inside: Float = 0
            for h in run { inside += score[h] }
            let mean = run.isEmpty ? 0 : inside / Float(run.count)
            guard mean > 0 else { break }
            let next = largestRun(score, threshold: mean / 2)
            found = next
            if next == run { break }
            run = next
        }
        return found
    }

    /// The edge at `edge` (a core run's start, `outwards` -1, or end, +1) carried outwards
    /// block by block to where the cumulative sum of (block z - drift) peaks, if the peak
    /// reaches `evidence`; then placed at hop resolution around the last block taken.
    static func extendedEdge(_ edge: Int, outwards: Int, _ scores: LocatorScores) -> Int {
        let b = blockHops
        var sum: Float = 0, best: Float = 0, taken = 0
        var block = 0
        while true {
            let near = edge + outwards * block * b, far = near + outwards * b
            guard far >= 0, far <= scores.count else { break }
            sum += scores.block(min(near, far)..<max(near, far)).z - drift
            block += 1
            if sum > best { best = sum; taken = block }
        }
        guard best >= evidence else { return edge }
        // At hop resolution in units of each hop's noise, so that a loud neighbour's large
        // chance scores do not carry the run into it (measured: a spot's end put 0.61 s
        // into the rock band after it). The mark's level: the two blocks inside the edge.
        let reached = edge + outwards * taken * b, inner = reached - outwards * 2 * b
        let last = scores.normalized(max(0, min(inner, reached))..<min(scores.count, max(inner, reached)))
        let level = last.isEmpty ? 0 : last.reduce(0, +) / Float(last.count)
        let window = max(0, min(reached - b, reached + b))..<min(scores.count, max(reached - b, reached + b))
        let run = largestRun(scores.normalized(window), threshold: level / 2)
        guard !run.isEmpty else { return reached }
        return window.lowerBound + (outwards > 0 ? run.upperBound : run.lowerBound)
    }

    /// Hops a start may move back to a frame boundary (0.56 s): where a spot's first half
    /// second holds little mark, the extension stops one block (0.51 s) late.
    static let frameSnapBack = 35
    /// Hops a start may move forward to a frame boundary (0.30 s): estimates come out at most
    /// 0.26 s early (800 spots of the boundary study).
    static let frameSnapForward = 19
    /// Hops back (0.30 s) beyond which the stretch moved over must show the mark, with a z
    /// of `frameSnapEvidence` scored as one block: it did at 1.8-2.1 on every spot aired whole
    /// that needed it, and a spot cut after a boundary puts unmarked audio there.
    static let frameSnapFar = 19
    /// The z the stretch from the boundary to a start more than `frameSnapFar` after it must reach.
    static let frameSnapEvidence: Float = 1.5

    /// `start` (local to the stretch that starts at global hop `lower`) moved to the nearest
    /// boundary of the frame grid read at `speed` from frame `offset`, when that boundary lies
    /// within `frameSnapBack` before it or `frameSnapForward` after it. The embedder starts
    /// its first frame at a spot's first sample, so a spot aired whole starts on a boundary:
    /// measured over 800 spots (clean and after MP3), start errors fall from 0.50 s at most
    /// to 0.018 s. A spot cut inside its first frame starts off the grid, and moves by at most
    /// the reach.
    static func frameStart(_ start: Int, _ scores: LocatorScores, lower: Int, speed: Double, offset: Int) -> Int {
        let period = Double(P.hopsPerFrame)
        let frameHop = (speed * Double(lower + start)).rounded()
        let boundary = (Double(offset) + period * ((frameHop - Double(offset)) / period).rounded()) / speed
        let snapped = Int(boundary.rounded()) - lower
        guard snapped >= 0, snapped < scores.count,
              snapped - start <= frameSnapForward, start - snapped <= frameSnapBack else { return start }
        if start - snapped > frameSnapFar, scores.block(snapped..<start).z < frameSnapEvidence { return start }
        return snapped
    }

    /// Nearest and farthest hops beyond an end searched for a splice (0.26-1.92 s): quiet
    /// ambience after MP3 left ends 1.4-1.8 s short of theirs.
    static let spliceReach = 16...120
    /// The host change, dB, that counts as a splice.
    static let spliceChange: Float = 15
    /// Hops after a splice (0.51 s) that the stretch carried over must differ from by
    /// `spliceChange`: a pause in the next programme's speech is as large a change over
    /// 0.26 s, but the stretch before it is that same speech.
    static let spliceAfterHops = 32
    /// The z the stretch from the end to the splice must reach, scored as one block.
    static let spliceEvidence: Float = 1.5
    /// How far (dB) under the airing's median hop level a stretch up to a splice must lie (its
    /// power mean) to be carried over without `spliceEvidence`: the embedder holds a quiet
    /// slot's mark under its masked threshold, and MP3 then leaves it nothing to score (a09's
    /// fade scored z -0.5 to 0.8 over its last 1.1-1.4 s). Over 800 spots every stretch carried
    /// this way was the spot's own; the mean of the hops' dB instead carried one end 2.1 s into
    /// a speech bed whose stretch held a silent pause (docs/scan.md, "Airing boundaries").
    static let quietTail: Float = 15

    /// `end` (local to the stretch that starts at global hop `lower`; the airing found starts
    /// at `start`) carried to a splice in the host: the one within `spliceReach` on the terms of
    /// `nearSplicedEnd`, else the one within `farSpliceReach` when the mark proves the longer
    /// stretch up to it (`farSpliceEvidence`).
    static func splicedEnd(_ end: Int, after start: Int, _ scores: LocatorScores, _ spectra: HopSpectra,
                           lower: Int) -> Int {
        let near = nearSplicedEnd(end, after: start, scores, spectra, lower: lower)
        guard near == end, let far = splice(after: end, within: farSpliceReach, scores, spectra, lower: lower),
              scores.block(end..<(end + far.hop)).z >= farSpliceEvidence else { return near }
        return end + far.hop
    }

    /// `end` carried to the splice (`splice(_:in:)`) within `spliceReach` beyond it, when the
    /// mark holds over the whole stretch up to it; or, when the audio after the splice is
    /// louder than the stretch, when the stretch is a quiet tail (`quietTail`) or the splice a
    /// strong one (`strongSplice`). Ends only: carried back the same way, starts went 0.53-0.84 s
    /// early on 4 of 600 spots (to a change in the programme before the spot) and 1 was fixed.
    static func nearSplicedEnd(_ end: Int, after start: Int, _ scores: LocatorScores, _ spectra: HopSpectra,
                               lower: Int) -> Int {
        guard let (hop, host) = splice(after: end, within: spliceReach, scores, spectra, lower: lower) else { return end }
        let z = scores.block(end..<(end + hop)).z
        if z >= spliceEvidence { return end + hop }
        guard start < end else { return end }
        let airing = HostChange(spectra, hops: (lower + start)..<(lower + end)).medianHopLevel()
        let next = hop..<min(hop + spliceAfterHops, host.count)
        let tail = host.powerLevel(0..<hop), after = host.powerLevel(next)
        // A spot's quiet tail gives way to a programme louder than it; a quiet programme after
        // a loud spot reads as a tail too, and its "splice" is then a pause in it, down.
        guard after > tail else { return end }
        if tail <= airing - quietTail { return end + hop }
        let strong = host.difference(0..<hop, next) >= strongSplice && after >= tail + strongSpliceRise
        return strong && z >= strongSpliceEvidence ? end + hop : end
    }

    /// Hops beyond an end searched for a splice when none within `spliceReach` carried it
    /// (1.94-3.2 s): the quiet endings of the vinyl-ambience host, clean, left ends 2.0 and 2.5 s
    /// short of their splice, the mark there scoring z 1-2.5 a block (2 of 1 400 spots).
    static let farSpliceReach = (spliceReach.upperBound + 1)...200
    /// The z a stretch up to a splice within `farSpliceReach` must reach, scored as one block.
    /// Unmarked audio reaches `spliceEvidence` 7 % of the time and this 0.6 %: at z 2, the next
    /// programme's pauses 2.1 s in took 2 correct ends over 1 000 spots.
    static let farSpliceEvidence: Float = 2.5

    /// The splice within `reach` hops beyond `end` (local), in hops from `end`, with the host's
    /// change measured from `end`; nil when there is none or the stretch cannot hold the reach.
    static func splice(after end: Int, within reach: ClosedRange<Int>, _ scores: LocatorScores, _ spectra: HopSpectra,
                       lower: Int) -> (hop: Int, host: HostChange)? {
        let w = HostChange.windowHops
        // The candidate hops, kept where both change windows have audio.
        let first = end + reach.lowerBound
        let last = min(end + reach.upperBound, scores.count, spectra.endHop - lower - w)
        guard first <= last else { return nil }
        // Measured from the end (local hop 0) through the last candidate's after-window, which
        // also holds the changes up to `windowHops` past it that decide whether it is a peak.
        let measured = max(last + w, min(last + spliceAfterHops, spectra.endHop - lower))
        let host = HostChange(spectra, hops: (lower + end)..<(lower + measured))
        guard let hop = splice(host, in: (first - end)...(last - end)) else { return nil }
        return (hop, host)
    }

    /// A lasting change (dB) that, rising by `strongSpliceRise` into the next programme, needs only
    /// `strongSpliceEvidence` of the stretch before it: after MP3, a09's quiet passages kept the
    /// mark at z 0.5-1.2 over their last second, 1.2-8 dB under the airing, before a splice of
    /// 19-33 dB up into the bed (2 ends of 800 fixed, 1 of 200 on a held-out seed, none moved wrong).
    static let strongSplice: Float = 18
    /// How much louder (power mean, dB) the 0.51 s after a strong splice must be than the stretch.
    static let strongSpliceRise: Float = 6
    /// The z the stretch up to a strong splice must reach: the mark is there, if weak.
    static let strongSpliceEvidence: Float = 0.5

    /// The largest change among `candidates` (hops of `host`, which starts at the end) that is
    /// a splice: at least `spliceChange`, no smaller than any change up to `windowHops` after
    /// it or before it (down to the first candidate), and parting the stretch before it from
    /// the `spliceAfterHops` after it by `spliceChange`. Nil when none is. The largest change
    /// alone can be a pause in the next programme's speech, 0.8 s past the splice.
    static func splice(_ host: HostChange, in candidates: ClosedRange<Int>) -> Int? {
        let w = HostChange.windowHops, low = candidates.lowerBound
        let changes = (low...(candidates.upperBound + w)).map { host.change(at: $0) }
        var best: (hop: Int, change: Float)?
        for hop in candidates {
            let change = changes[hop - low]
            guard change >= spliceChange, change > best?.change ?? 0,
                  (max(low, hop - w)...(hop + w)).allSatisfy({ changes[$0 - low] <= change }) else { continue }
            let after = hop..<min(hop + spliceAfterHops, host.count)
            if host.difference(0..<hop, after) >= spliceChange { best = (hop, change) }
        }
        return best?.hop
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
