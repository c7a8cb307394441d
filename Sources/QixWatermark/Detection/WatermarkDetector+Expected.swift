/// Expected IDs (`WatermarkDetector.expected`): each window's tiles scored against an
/// ID's whole keyed pattern where that pattern correlates best, and told apart from the
/// other expected IDs on the tiles where they differ.
extension WatermarkDetector {
    /// An expected ID's best score in a window, and the speed (index) and offset it had.
    typealias ExpectedPeak = (score: Float, speed: Int, offset: Int)

    /// Scores a window's tiles against every expected ID whose whole pattern peaks
    /// (`correlate`) at z >= `expectedZ`, keeping each ID's best in `best`; `window`
    /// gives the folded window, made only when some ID needs it.
    func scoreExpected(_ best: inout [ExpectedPeak], speed: Int,
                       correlate: (SyncCorrelator) -> (offset: Int, z: Float), window: () -> [Float]) {
        // Pattern k is expected ID k % expected.count in format expectedFormats[k / expected.count].
        let layout = speeds[speed].layout
        for (k, pattern) in expectedCorrelators.enumerated() where expectedFormats[k / expected.count].bandLayout == layout {
            let (offset, z) = correlate(pattern)
            guard z.isFinite, z >= Self.expectedZ else { continue }
            let tiles = decoders[0].tiles(window(), offset: offset)
            let score = decoders[0].score(tiles: tiles, chips: expectedChips[k])
            guard score > best[k].score,
                  decoders[0].score(tiles: tiles, chips: expectedDataChips[k]) >= Self.expectedDataScore,
                  outscoresOtherExpected(k, tiles: tiles) else { continue }
            best[k] = (score, speed, offset)
        }
    }

    /// Whether expected ID `k` beats every rival expected ID on the tiles where their
    /// chips differ, by `expectedMargin`. IDs numbered in sequence share the first part of
    /// their code, so a mark of one gives a neighbour a high score on the tiles they share;
    /// only the tiles they do not share tell them apart (where the other ID is the one
    /// there, `k` scores below zero on them). A rival is an ID that scores
    /// `expectedDataScore` on its own data tiles, as one that could be reported must: an
    /// unrelated campaign's ID scores about N(0, 1) and cannot be the mark, but over 19 of
    /// them the worst one's chance evidence would veto a true ID near the threshold.
    func outscoresOtherExpected(_ k: Int, tiles: [Float]) -> Bool {
        var energy: Float = 0
        for value in tiles { energy += value * value }
        guard energy > 0 else { return false }
        let norm = energy.squareRoot()
        let mine = expectedDataChips[k]
        // Against the other IDs in the same format.
        let block = k / max(1, expected.count) * expected.count
        for j in block..<(block + expected.count) where j != k {
            let theirs = expectedDataChips[j]
            // Only an ID that could be reported itself is a rival.
            guard decoders[0].score(tiles: tiles, chips: theirs) >= Self.expectedDataScore else { continue }
            var evidence: Float = 0
            for t in tiles.indices where mine[t] != theirs[t] { evidence += mine[t] * tiles[t] }
            if evidence / norm < Self.expectedMargin { return false }
        }
        return true
    }
}
