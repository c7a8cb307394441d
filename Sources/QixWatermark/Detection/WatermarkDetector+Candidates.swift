/// Which (speed, frame offset) candidates of a window get a Viterbi run, and in what
/// order: the sync z-score ranks them in a search over hours of audio; a thorough search
/// (clips, a listener's window) ranks a few sync peaks per speed by the fit of their
/// most likely codeword.
extension WatermarkDetector {
    /// A window's folded statistics at one speed with a frame offset to decode.
    struct Candidate {
        /// Sync z-score at the offset.
        var z: Float
        /// What candidates are ranked by: `z`, or in a thorough search the fit of the
        /// most likely codeword at this offset (`FrameDecoder.fit`).
        var rank: Float
        /// Index into the detector's speeds.
        var speed: Int
        /// Frame offset in hops.
        var offset: Int
        /// The format whose sync polarity peaks there, and whose decoder runs.
        var format: WatermarkFormat
        /// The folded, normalised window (empty when the candidate will not be decoded).
        var window: [Float]
    }

    /// Sync z-score below which a candidate is not worth a Viterbi run (noise peaks
    /// among 192 offsets sit near 3; a decodable mark's sync stands well above).
    static let decodeZ: Float = 2.5
    /// Offsets (in hops) around the best candidate's sync peak that are decoded too when
    /// the peak itself fails: a room's tail delays and widens the peak by 1-3 hops.
    static let neighbourOffsets = [1, -1, 2, -2]
    /// Sync z-score from which a failed best candidate's neighbouring offsets are tried:
    /// rooms that smear the peak still leave z >= 3, while most windows of unmarked audio
    /// stay below it (the same eval rates as at 2.5, about 10 % less detection CPU).
    static let neighbourZ: Float = 3

    /// Runner-up paths of the Viterbi decoder tried when a coarse candidate's or a
    /// neighbouring offset's most likely path fails the keyed check (list decoding). Each
    /// is one more 2^-24 chance for noise (docs/watermark.md, section 4); 4 took nearly all
    /// of what 8, 16 or 32 took in the eval's hard cells.
    static let listAlternatives = 4

    /// Sync z-score above which a failed candidate is retried between grid speeds.
    static let refineZ: Float = 3.5

    /// Sync peaks per window, speed and format that a thorough search considers: 12 found
    /// nothing 4 did not (eval, room and hall_ir).
    static let thoroughPeaks = 4
    /// Of those (4 per format), the ones with the highest sync z that are ranked by codeword
    /// fit. With 6 of 8 the hard cells decode exactly what all 8 decode (seeds 1 and 2, 1 728
    /// excerpts at 3 / 5 s), with 4 two fewer; a listener on unmarked audio spends 0.53 s CPU
    /// per 75 s with 6, 0.69 with 8 and 0.38 with format 1 alone (medians of 5 runs).
    static let thoroughRankedPeaks = 6
    /// Lowest sync z-score a thorough search ranks and decodes: a room's tail can leave
    /// the true offset's peak among the noise peaks (z 2-3).
    static let thoroughZ: Float = 1.5

    /// Keeps the `candidatesPerWindow` best-ranked candidates of a window, best first.
    static func insert(_ candidate: Candidate, into list: inout [Candidate]) {
        guard list.count < candidatesPerWindow || candidate.rank > list[list.count - 1].rank else { return }
        list.append(candidate)
        list.sort { $0.rank > $1.rank }
        if list.count > candidatesPerWindow { list.removeLast() }
    }

    /// Ranks the last correlation's best sync peaks of `window` (at speed index `speed`),
    /// of the polarities of the formats on its band layout (`thoroughRankedPeaks` of them), by the fit of the
    /// window's most likely codeword in that format at each: the data, not the 96 sync
    /// tiles alone, say where a frame starts.
    /// The candidates decoded per window stay `candidatesPerWindow`, so the false-positive
    /// bound does not change.
    func insertRanked(_ window: [Float], speed: Int, into list: inout [Candidate]) {
        // The precise fit goes with list decoding (clips); a listener that keeps the detours
        // ranks by the plain decisions, at 0.6 times the CPU of streams without a mark.
        let precise = thoroughListSize > 0
        var peaks: [(offset: Int, z: Float, format: WatermarkFormat)] = []
        for format in formats(at: speed) {
            for (offset, z) in correlator.peaks(Self.thoroughPeaks, polarity: format.syncPolarity) where z >= Self.thoroughZ {
                peaks.append((offset, z, format))
            }
        }
        // Highest z first; ties keep format 1's peaks first, so the choice is deterministic.
        let ranked = peaks.enumerated().sorted { ($0.element.z, -$0.offset) > ($1.element.z, -$1.offset) }.map(\.element)
        for (offset, z, format) in ranked.prefix(Self.thoroughRankedPeaks) {
            let decoder = decoder(format)
            let fit = decoder.fit(tiles: decoder.tiles(window, offset: offset), precise: precise)
            Self.insert(Candidate(z: z, rank: fit, speed: speed, offset: offset, format: format, window: window),
                        into: &list)
        }
    }

    /// Decodes a window's candidates at their sync offsets (in a thorough search the best
    /// one with the list Viterbi decoder, `thoroughListSize` paths), then the best one's
    /// neighbouring offsets; the first that passes the keyed check wins.
    func decodeCandidates(_ list: [Candidate], thorough: Bool)
        -> (payload: WatermarkPayload, score: Float, speed: Int, offset: Int, format: WatermarkFormat)? {
        let gate = thorough ? Self.thoroughZ : Self.decodeZ
        for (n, candidate) in list.enumerated() where candidate.z >= gate {
            // A thorough search list-decodes its best-ranked candidate (true runners-up).
            let size = thorough && n == 0 ? thoroughListSize : 0
            if let (payload, score) = decode(candidate.window, offset: candidate.offset, format: candidate.format,
                                             alternatives: Self.listAlternatives, listSize: size) {
                return (payload, score, candidate.speed, candidate.offset, candidate.format)
            }
        }
        // Reverberation smears the sync peak over a few hops.
        guard let best = list.first, best.z >= Self.neighbourZ else { return nil }
        for delta in Self.neighbourOffsets {
            let offset = (best.offset + delta + P.hopsPerFrame) % P.hopsPerFrame
            if let (payload, score) = decode(best.window, offset: offset, format: best.format,
                                             alternatives: Self.listAlternatives) {
                return (payload, score, best.speed, offset, best.format)
            }
        }
        return nil
    }
}
