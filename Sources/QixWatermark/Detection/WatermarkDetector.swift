import QixDSP

/// Finds IDs in audio analysed by `SpectralFrontEnd`: for every candidate speed and band
/// layout (formats 1 and 2 side by side, format 3 interleaved) it folds the band statistics
/// onto the frame grid, finds the frame offset of every window by FFT correlation with the
/// sync pattern (its peak for format 1, its trough for formats 2 and 3, whose sync is
/// negated), decodes the best candidates with their format's soft decoder,
/// accepts only those whose keyed check holds, and merges consecutive windows with the
/// same ID.
///
/// Windows come in four lengths (1, 2, 4 and 8 frames, about 3, 6, 12 and 25 s) so that
/// long recordings also decode at signal levels a single frame cannot carry.
public final class WatermarkDetector {
    typealias P = WatermarkParameters
    /// The key the IDs were embedded with.
    public let key: WatermarkKey
    /// Candidates (speed and offset) decoded per window, each with its runners-up
    /// (`listAlternatives`); docs/watermark.md, section 4, counts the keyed checks per window.
    public static let candidatesPerWindow = 3
    /// Minimum score for a window to count, on top of the keyed check. The decoder fits its
    /// codeword to the tiles, so on audio without this key's mark the decoded codewords score
    /// about 8 (median 8.0; 5.7 % reach 8.5, 0.07 % reach 9: 457 504 decodes of unmarked eval
    /// excerpts), while the eval's true decodes score 8.6 and up (plain decodes) or 8.1 and up
    /// (list decoding, 1 % under 8.5). At 8.5 a noise codeword that passes the 24-bit check by
    /// chance is still refused 17 times in 18, and no eval cell loses an excerpt
    /// (docs/watermark.md, section 4, "The score gate").
    public static let minimumScore: Float = 8.5
    /// Longest window in frames.
    public static let maximumWindowFrames = 8

    /// One decoder (with its format's layout) per format, in `WatermarkFormat.allCases` order.
    let decoders: [FrameDecoder]
    /// Format 1's sync template: format 2's sync correlates with it negatively.
    let correlator: SyncCorrelator
    /// The candidate playback speeds searched (the speed grid, or 1 alone), each in every
    /// band layout (`BandLayout`): the grid in side-by-side halves, then interleaved.
    let speeds: [SpeedScale]
    /// The formats whose marks each scale of `speeds` reads: those of its band layout.
    private let scaleFormats: [[WatermarkFormat]]

    /// Whether playback speeds other than 1 are searched.
    public let searchesSpeed: Bool
    /// Searches over at most this many seconds of audio (clips, a listener's window) are
    /// thorough: they rank each window's best sync peaks by how well their most likely
    /// codeword fits (`thoroughPeaks` per speed) instead of by sync z alone, and list-decode
    /// the best (`thoroughListSize`). They cost several times the CPU, which only hours of
    /// audio would notice, and 2.4 times the false-positive bound per window.
    public let thoroughSearchSeconds: Double
    /// The longest search that is thorough by default: clips, not recordings.
    public static let clipSeconds = 20.0
    /// In a thorough search, the best-ranked candidate of each window is list-decoded with
    /// this many paths (`ConvolutionalCode.listDecode`) instead of 4 single detours; 0 keeps
    /// the detours. Every path checked is one more 2^-24 chance for noise: 64 take the
    /// keyed checks per window from 41 to 100 (docs/watermark.md, section 4).
    public let thoroughListSize: Int
    /// IDs the caller expects (the campaigns on air), each also looked for by its whole
    /// keyed pattern; empty for a blind search only.
    public let expected: [UInt32]
    /// The chance of a false expected-ID report allowed per hour of audio, or per input
    /// (an app's listening session): it sets the score an expected ID must reach.
    public let falseReportBudget: FalseReportBudget
    /// The formats whose patterns the expected IDs are looked for in (the current one
    /// unless asked): each costs 2-4 % of a blind search's CPU per ID on unmarked audio.
    public let expectedFormats: [WatermarkFormat]
    /// Keyed checks made so far (every decoded candidate tested against the key), and how many
    /// tested a candidate not tested just before: on audio without this key's mark each new
    /// one is a 2^-24 chance of a false ID (docs/watermark.md, section 4).
    public private(set) var keyedChecks = KeyedCheckCount()
    /// A window shows an expected ID when the normalised correlation of its tiles with
    /// the ID's chips (the decoder's score, about N(0, 1) without that mark) reaches this
    /// at the offset where the whole pattern correlates best (see `expected`), under the
    /// per-hour budget; `FalseReportBudget.perSession` lowers it for short inputs.
    public static let expectedScore: Float = 7
    /// Whole-pattern correlation peak (z over the 192 offsets) from which a window's
    /// tiles are scored against an expected ID.
    static let expectedZ: Float = 2.5
    /// One correlator per expected ID and format, with its chips on every tile.
    let expectedCorrelators: [SyncCorrelator]
    /// Each expected ID's chips in each format.
    let expectedChips: [[Float]]
    /// The same on the data tiles only (0 on the sync tiles, which every ID of a key shares).
    let expectedDataChips: [[Float]]
    /// Smallest score of an expected ID on its data tiles alone. A mark of another ID
    /// lends an expected one its share of the common sync tiles (a fifth of its score),
    /// but little on the data tiles; a true mark scores on both.
    static let expectedDataScore: Float = 3.5
    /// Smallest score of an expected ID against another expected ID on the tiles where
    /// their chips differ (see `outscoresOtherExpected`).
    static let expectedMargin: Float = 2

    /// A detector for `key`; `searchesSpeed: false` looks at the original speed only (for
    /// measuring what the speed search costs, or audio known not to be sped up).
    ///
    /// With `expected` IDs, every window is also correlated with each one's whole pattern
    /// (528 tiles, where blind sync sees 96 and decoding needs all 56 bits right): a known
    /// ID is heard at a much lower level than an unknown one can be decoded. A window
    /// without it reaches `expectedScore` with probability about 2.6 x 10^-10 per ID
    /// (docs/watermark.md, "Expected IDs").
    ///
    /// Expected IDs are looked for by their pattern in `expectedFormats` (each format one
    /// more correlation per window and speed); marks of the other formats are still found
    /// by the blind search.
    ///
    /// Searches over at most `thoroughSearchSeconds` of audio rank candidates thoroughly
    /// and list-decode the best one with `thoroughListSize` paths (see the properties);
    /// 0 seconds never does, `.infinity` always does.
    public init(key: WatermarkKey, searchesSpeed: Bool = true, expected: [UInt32] = [],
                expectedFormats: [WatermarkFormat] = [.current],
                thoroughSearchSeconds: Double = WatermarkDetector.clipSeconds, thoroughListSize: Int = 64,
                falseReportBudget: FalseReportBudget = .perHour) {
        self.key = key
        self.falseReportBudget = falseReportBudget
        self.searchesSpeed = searchesSpeed
        self.thoroughSearchSeconds = thoroughSearchSeconds
        self.thoroughListSize = max(0, min(thoroughListSize, 256))
        self.expected = expected
        let layouts = WatermarkFormat.allCases.map { WatermarkLayout(key: key, format: $0) }
        decoders = layouts.map { FrameDecoder(layout: $0, key: key) }
        correlator = SyncCorrelator(layout: layouts[0])
        let grid = searchesSpeed ? SpeedScale.grid : [1]
        speeds = BandLayout.allCases.flatMap { layout in grid.map { SpeedScale(speed: $0, layout: layout) } }
        scaleFormats = speeds.map { scale in WatermarkFormat.allCases.filter { $0.bandLayout == scale.layout } }
        // Patterns p = format index * expected.count + ID index: every expected ID in every
        // format asked for.
        self.expectedFormats = WatermarkFormat.allCases.filter { expectedFormats.contains($0) }
        let patterns = layouts.filter { expectedFormats.contains($0.format) }.flatMap { layout in
            expected.map { (layout, layout.chips(for: WatermarkPayload(message: $0), key: key)) }
        }
        expectedChips = patterns.map(\.1)
        expectedCorrelators = expectedChips.map { SyncCorrelator(tiles: $0) }
        expectedDataChips = patterns.map { layout, chips in chips.indices.map { layout.codedBit[$0] < 0 ? 0 : chips[$0] } }
    }

    /// The decoder of `format`.
    func decoder(_ format: WatermarkFormat) -> FrameDecoder { decoders[format.rawValue - 1] }

    /// The formats whose marks scale `index` of `speeds` can carry.
    func formats(at index: Int) -> [WatermarkFormat] { scaleFormats[index] }

    /// Detects IDs in a whole in-memory buffer.
    public func detect(_ buffer: AudioBuffer) throws -> [WatermarkDetection] {
        let spectra = try SpectralFrontEnd.spectra(of: buffer)
        return detect(spectra, duration: buffer.duration)
    }

    /// Detects IDs in analysed audio of `duration` seconds: plan the windows, search
    /// every speed for sync candidates and expected IDs, decide each window, merge the
    /// windows of one ID, and locate each stretch at hop resolution. `budget` replaces the
    /// detector's `falseReportBudget` for this search (a live session's last search).
    public func detect(_ spectra: HopSpectra, duration: Double, budget: FalseReportBudget? = nil) -> [WatermarkDetection] {
        guard let plan = plan(spectra) else { return [] }
        let search = searchSpeeds(spectra, plan: plan)
        let found = decideWindows(spectra, plan: plan, search: search, duration: duration,
                                  expectedScore: (budget ?? falseReportBudget).expectedScore(seconds: duration))
        return locate(merge(found), in: spectra, floors: plan.floors, duration: duration)
    }

    /// The payload and score of a folded window at a frame offset in `format`, when the
    /// keyed check holds and the score reaches the minimum.
    func decode(_ window: [Float], offset: Int, format: WatermarkFormat, alternatives: Int = 0,
                listSize: Int = 0) -> (WatermarkPayload, Float)? {
        let decoder = decoder(format)
        let tiles = decoder.tiles(window, offset: offset)
        guard let (payload, score) = decoder.decode(tiles: tiles, alternatives: alternatives, listSize: listSize,
                                                    checks: &keyedChecks),
              score >= Self.minimumScore else { return nil }
        return (payload, score)
    }

    /// Window chunk ranges: every single chunk, then 2, 4 and 8 chunks at half-length
    /// steps; a level whose windows would cover everything is one whole-input window.
    static func windows(chunks: Int) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var length = 1
        while length <= maximumWindowFrames {
            if length >= chunks {
                result.append(0..<chunks)
                break
            }
            let step = max(1, length / 2)
            var start = 0
            while start + length < chunks {
                result.append(start..<(start + length))
                start += step
            }
            result.append((chunks - length)..<chunks)
            length *= 2
        }
        var seen = Set<Range<Int>>()
        return result.filter { seen.insert($0).inserted }
    }

    /// Turns decoded windows into detections: times in seconds of the input, windows
    /// with the same ID that overlap or touch merged into one.
    private func merge(_ found: [Found]) -> [WatermarkDetection] {
        var spans: [WatermarkDetection] = found.map { item in
            var detection = WatermarkDetection(message: item.payload.message, start: item.start, end: item.end,
                                               score: Double(item.score), speed: item.speed, format: item.format)
            detection.frameOffset = item.offset
            return detection
        }
        spans.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var merged: [WatermarkDetection] = []
        for span in spans {
            if let index = merged.lastIndex(where: { $0.message == span.message }),
               span.start <= merged[index].end + 0.5 {
                merged[index].end = max(merged[index].end, span.end)
                if span.score > merged[index].score {
                    merged[index].score = span.score
                    merged[index].speed = span.speed
                    merged[index].format = span.format
                    merged[index].frameOffset = span.frameOffset
                }
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
