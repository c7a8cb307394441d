/// The search stage of a detection: which windows an input has, and for every candidate
/// speed, each window's sync candidates and each expected ID's best whole-pattern score.
extension WatermarkDetector {
    /// The windows of one input: grid windows of 1 to 8 frames (`windows(chunks:)`) and,
    /// for inputs of 2.2 frames or more, one frame at either edge.
    struct SearchPlan {
        /// The analysed hops.
        let hops: Range<Int>
        /// Whether the input is short enough for the thorough search (`thoroughSearchSeconds`).
        let thorough: Bool
        /// Frame chunks at speed 1, counted from hop 0.
        let nominalChunks: Int
        /// Grid windows as chunk ranges.
        let windows: [Range<Int>]
        /// 2 when the edge frames are searched on their own, else 0.
        let edgeCount: Int
        /// Each band's noise floor over the input (`SpeedScale.floors`).
        let floors: [Float]
        /// Grid windows, then edge windows.
        var windowCount: Int { windows.count + edgeCount }
    }

    /// What the search found per window (grid windows, then edges).
    struct WindowSearch {
        /// Sync candidates for the blind decoder, best first.
        var candidates: [[Candidate]]
        /// Each expected ID's best score, with its speed and offset.
        var known: [[ExpectedPeak]]
    }

    /// Reusable buffers of the search, so that no window allocates.
    struct SearchScratch {
        /// Running sums of the chunks' band spectra at the current speed.
        var prefix: [Float] = []
        /// One window's band spectra.
        var windowSpectra = [Float](repeating: 0, count: P.bandCount * SyncCorrelator.spectrumSize)
        /// The current window, folded and normalised, when something needed it.
        var folded: [Float] = []
    }

    /// The windows of `spectra`, or nil when it is too short to hold two slots.
    func plan(_ spectra: HopSpectra) -> SearchPlan? {
        let hops = spectra.firstHop..<spectra.endHop
        guard hops.count >= 2 * P.hopsPerSlot else { return nil }
        let nominalChunks = max(1, (hops.upperBound + P.hopsPerFrame - 1) / P.hopsPerFrame)
        let firstChunk = hops.lowerBound / P.hopsPerFrame
        let windows = Self.windows(chunks: nominalChunks - firstChunk).map {
            ($0.lowerBound + firstChunk)..<($0.upperBound + firstChunk)
        }
        // Grid windows start and end on frame boundaries, so a mark cut by the input's
        // edge (a spot straddling two recordings) may fill no window; one frame of hops
        // at either edge, folded on its own, is searched too.
        let edgeCount = hops.count >= 2 * P.hopsPerFrame * 11 / 10 ? 2 : 0
        return SearchPlan(hops: hops, thorough: Double(hops.count) * SpectralFrontEnd.hopSeconds <= thoroughSearchSeconds,
                          nominalChunks: nominalChunks, windows: windows, edgeCount: edgeCount,
                          floors: speeds[0].floors(spectra, hops: hops))
    }

    /// Every speed in turn: fold its band statistics onto the frame grid, then search
    /// every grid window and both edges.
    func searchSpeeds(_ spectra: HopSpectra, plan: SearchPlan) -> WindowSearch {
        let none = [ExpectedPeak](repeating: (-.infinity, 0, 0), count: expectedChips.count)
        var search = WindowSearch(candidates: .init(repeating: [], count: plan.windowCount),
                                  known: .init(repeating: none, count: plan.windowCount))
        var fold = FrameFold(), edgeFold = FrameFold()
        var scratch = SearchScratch()
        // Every speed's statistics in one pass over the spectra; each is released once folded.
        var allStats = SpeedScale.statistics(speeds, of: spectra, hops: plan.hops, floors: plan.floors)
        for (index, scale) in speeds.enumerated() {
            let stats = allStats[index]
            allStats[index] = []
            fold.fold(stats, firstHop: plan.hops.lowerBound, speed: scale.speed)
            sumChunkSpectra(fold, into: &scratch.prefix)
            for w in plan.windows.indices {
                searchWindow(w, speed: index, plan: plan, fold: fold, scratch: &scratch, search: &search)
            }
            for edge in 0..<plan.edgeCount {
                let window = edgeWindow(stats, statsFirstHop: plan.hops.lowerBound,
                                        hops: Self.edgeHops(edge, of: plan.hops, speed: scale.speed),
                                        speed: scale.speed, fold: &edgeFold)
                searchEdge(window, at: plan.windows.count + edge, speed: index, thorough: plan.thorough, search: &search)
            }
        }
        return search
    }

    /// Running sums of the chunks' band spectra: any window's spectra is one difference.
    private func sumChunkSpectra(_ fold: FrameFold, into prefix: inout [Float]) {
        let spectrumSize = P.bandCount * SyncCorrelator.spectrumSize
        prefix.removeAll(keepingCapacity: true)
        prefix.appendZeros((fold.chunkCount + 1) * spectrumSize)
        fold.values.withUnsafeBufferPointer { values in
            prefix.withUnsafeMutableBufferPointer { p in
                for chunk in 0..<fold.chunkCount {
                    let source = UnsafeBufferPointer(rebasing: values[(chunk * FrameFold.chunkSize)..<((chunk + 1) * FrameFold.chunkSize)])
                    let target = UnsafeMutableBufferPointer(rebasing: p[((chunk + 1) * spectrumSize)..<((chunk + 2) * spectrumSize)])
                    correlator.bandSpectra(source, into: target)
                    let previous = p.baseAddress! + chunk * spectrumSize
                    for i in 0..<spectrumSize { target[i] += previous[i] }
                }
            }
        }
    }

    /// Grid window `w` at one speed: its band spectra from the running sums, the expected
    /// IDs' scores, then its sync candidates (folding the window only when needed).
    private func searchWindow(_ w: Int, speed index: Int, plan: SearchPlan, fold: FrameFold,
                              scratch: inout SearchScratch, search: inout WindowSearch) {
        let range = plan.windows[w]
        // The last window takes every chunk this speed produced (there may be one more or
        // one fewer than at speed 1).
        let upper = min(fold.endChunk, range.upperBound >= plan.nominalChunks ? fold.endChunk : range.upperBound)
        let lower = max(fold.firstChunk, min(range.lowerBound, upper))
        guard upper > lower else { return }
        let spectrumSize = P.bandCount * SyncCorrelator.spectrumSize
        let (a, b) = (lower - fold.firstChunk, upper - fold.firstChunk)
        scratch.prefix.withUnsafeBufferPointer { p in
            scratch.windowSpectra.withUnsafeMutableBufferPointer { out in
                // From base pointers, so the differences vectorise.
                let end = p.baseAddress! + b * spectrumSize, start = p.baseAddress! + a * spectrumSize
                let spectrum = out.baseAddress!
                for i in 0..<spectrumSize { spectrum[i] = end[i] - start[i] }
            }
        }
        var isFolded = false
        func folded() -> [Float] {
            if !isFolded { fold.window(lower..<upper, into: &scratch.folded); isFolded = true }
            return scratch.folded
        }
        let spectra = scratch.windowSpectra
        scoreExpected(&search.known[w], speed: index,
                      correlate: { pattern in spectra.withUnsafeBufferPointer { pattern.correlate(spectra: $0) } },
                      window: folded)
        // One correlation serves every format of this scale's layout (`best(polarity:)` below).
        guard spectra.withUnsafeBufferPointer({ correlator.correlate(spectra: $0) }).z.isFinite else { return }
        if plan.thorough {
            insertRanked(folded(), speed: index, into: &search.candidates[w])
            return
        }
        for format in formats(at: index) {
            let (offset, z) = correlator.best(polarity: format.syncPolarity)
            guard search.candidates[w].count < Self.candidatesPerWindow || z > search.candidates[w].last!.z else { continue }
            // Only candidates at or above decodeZ are ever decoded from their window.
            Self.insert(Candidate(z: z, rank: z, speed: index, offset: offset, format: format,
                                  window: z >= Self.decodeZ ? folded() : []),
                        into: &search.candidates[w])
        }
    }

    /// An edge window (already folded on its own) at one speed: expected IDs, then sync.
    private func searchEdge(_ window: [Float], at w: Int, speed index: Int, thorough: Bool, search: inout WindowSearch) {
        scoreExpected(&search.known[w], speed: index, correlate: { $0.correlate(window) }, window: { window })
        guard correlator.correlate(window).z.isFinite else { return }
        if thorough {
            insertRanked(window, speed: index, into: &search.candidates[w])
            return
        }
        for format in formats(at: index) {
            let (offset, z) = correlator.best(polarity: format.syncPolarity)
            Self.insert(Candidate(z: z, rank: z, speed: index, offset: offset, format: format, window: window),
                        into: &search.candidates[w])
        }
    }
}
