import QixDSP

/// Folding parts of the input again on their own: the frames at the input's edges (a mark
/// cut by the edge may fill no grid window) and windows re-folded between grid speeds.
extension WatermarkDetector {
    /// The hops of one frame (at `speed`) at the start (`edge` 0) or end (1) of `hops`.
    static func edgeHops(_ edge: Int, of hops: Range<Int>, speed: Double) -> Range<Int> {
        let length = min(hops.count, Int((Double(P.hopsPerFrame) / speed).rounded(.up)))
        return edge == 0 ? hops.lowerBound..<(hops.lowerBound + length) : (hops.upperBound - length)..<hops.upperBound
    }

    /// Folds the band statistics of `hops` alone (rows of `stats` start at `statsFirstHop`)
    /// into one normalised frame window.
    func edgeWindow(_ stats: [Float], statsFirstHop: Int, hops: Range<Int>, speed: Double,
                            fold: inout FrameFold) -> [Float] {
        let bands = P.bandCount
        let rows = Array(stats[((hops.lowerBound - statsFirstHop) * bands)..<((hops.upperBound - statsFirstHop) * bands)])
        fold.fold(rows, firstHop: hops.lowerBound, speed: speed)
        var window: [Float] = []
        fold.window(fold.firstChunk..<fold.endChunk, into: &window)
        return window
    }

    /// An edge window again at `speed`, with its sync offset.
    func refoldEdge(_ spectra: HopSpectra, edge: Int, hops: Range<Int>, speed: Double,
                            floors: [Float], format: WatermarkFormat) -> (window: [Float], offset: Int) {
        let range = Self.edgeHops(edge, of: hops, speed: speed)
        let margin = SpeedScale.detrendHops
        let first = max(spectra.firstHop, range.lowerBound - margin), last = min(spectra.endHop, range.upperBound + margin)
        let stats = SpeedScale(speed: speed, layout: format.bandLayout).statistics(spectra, hops: first..<last, floors: floors)
        var fold = FrameFold()
        let window = edgeWindow(stats, statsFirstHop: first, hops: range, speed: speed, fold: &fold)
        _ = correlator.correlate(window)
        return (window, correlator.best(polarity: format.syncPolarity).offset)
    }

    /// Folds one window again at `speed` from only the hops it needs, and finds its offset.
    func refold(_ spectra: HopSpectra, chunks: Range<Int>, nominalChunks: Int, speed: Double,
                        floors: [Float], format: WatermarkFormat) -> (window: [Float], offset: Int) {
        let period = Double(P.hopsPerFrame)
        let margin = SpeedScale.detrendHops
        let first = max(spectra.firstHop, Int(Double(chunks.lowerBound) * period / speed) - margin)
        let last = chunks.upperBound >= nominalChunks ? spectra.endHop
            : min(spectra.endHop, Int(Double(chunks.upperBound) * period / speed) + margin)
        var fold = FrameFold()
        var window: [Float] = []
        let stats = SpeedScale(speed: speed, layout: format.bandLayout)
            .statistics(spectra, hops: first..<max(first, last), floors: floors)
        fold.fold(stats, firstHop: first, speed: speed)
        let upper = chunks.upperBound >= nominalChunks ? fold.endChunk : min(fold.endChunk, chunks.upperBound)
        fold.window(min(chunks.lowerBound, upper)..<upper, into: &window)
        _ = correlator.correlate(window)
        return (window, correlator.best(polarity: format.syncPolarity).offset)
    }
}
