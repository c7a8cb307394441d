import QixDSP

/// Detects IDs in a live stream fed in blocks of any size, with bounded memory: the
/// stream goes once through the same front end as file detection (16 kHz, STFT), the
/// last `window` seconds of spectra are kept, and the same `WatermarkDetector` searches
/// them every `period` seconds of audio.
///
/// Each ID is reported once per continuous stretch: it is announced when first decoded,
/// and again only after it has been absent for at least `absence` seconds.
public final class StreamingDetector {
    /// One announcement: an ID heard in the stream.
    public struct Heard: Sendable, Equatable {
        /// The ID.
        public var message: UInt32
        /// Start of the stretch that carried it, stream seconds.
        public var start: Double
        /// End of that stretch, stream seconds.
        public var end: Double
        /// The detector's score.
        public var score: Double
        /// How much audio had been read when the ID was decided, stream seconds.
        public var emittedAt: Double

        /// The ID as 8 lowercase hex digits.
        public var hex: String { WatermarkPayload.hex(message) }
    }

    /// Input frames per second.
    public let inputRate: Int
    /// Interleaved input channels.
    public let channels: Int
    /// Seconds of audio searched at each evaluation.
    public let window: Double
    /// Seconds of new audio between evaluations.
    public let period: Double
    /// Seconds an ID must go unheard before it is announced again.
    public let absence: Double
    /// Whether the stream is one listening session (an app's few seconds): the search that
    /// `finish()` makes then takes the whole stream as one session, as
    /// `FalseReportBudget.perSession` takes a file, so an expected ID is heard at the score
    /// `qix detect --session` needs (a stream longer than `window` has its last `window`
    /// seconds searched, at the score for its whole length). The searches before it keep the
    /// hourly budget: an ID announced early is as safe as a monitor's, and they add to the
    /// session's chance of a false report what one hour's threshold allows for their few
    /// seconds.
    public let endsSession: Bool

    /// Input frames consumed so far.
    public private(set) var framesRead: Int64 = 0

    private typealias P = WatermarkParameters
    private let detector: WatermarkDetector
    /// Decoding front end shared by every evaluation: each hop is analysed once.
    private let frontEnd: SpectralFrontEnd
    private var hopsSinceEvaluation = 0
    /// Per ID, the stream time its current stretch was last heard to.
    private var lastHeard: [UInt32: Double] = [:]

    /// A detector for `key` reading interleaved `channels`-channel audio at `inputRate` Hz;
    /// `expected` IDs are also looked for by their whole pattern (`WatermarkDetector`).
    /// `listDecoding` list-decodes as clips are (`WatermarkDetector.thoroughListSize`): a
    /// little more heard in rooms, for short listening; off by default (see below).
    /// `endsSession`: the stream is one listening session (see the property).
    public init(key: WatermarkKey, inputRate: Int, channels: Int, expected: [UInt32] = [],
                window: Double = 10, period: Double = 1, absence: Double = 4, listDecoding: Bool = false,
                endsSession: Bool = false) throws {
        guard inputRate >= 8000, inputRate <= 768_000 else {
            throw WatermarkError("cannot listen", parameter: "sampleRate", "\(inputRate) Hz is out of range (8000 to 768000)")
        }
        guard channels >= 1 else { throw WatermarkError("cannot listen", parameter: "channels", "needs at least one channel") }
        self.inputRate = inputRate
        self.channels = channels
        self.window = max(window, 4)
        self.period = min(max(period, 0.1), self.window / 2)
        self.absence = absence
        self.endsSession = endsSession
        // The window searched changes every period (its last chunk grows), so a listener
        // makes several times a file's keyed checks per hour: round-the-clock listening
        // gets no list decoding on top.
        detector = listDecoding ? WatermarkDetector(key: key, expected: expected)
            : WatermarkDetector(key: key, expected: expected, thoroughListSize: 0)
        frontEnd = try SpectralFrontEnd(inputRate: inputRate, channels: channels)
    }

    /// Searches of the held window made so far (one per period of audio).
    public private(set) var searches = 0
    /// Keyed checks made so far; their distinct candidates times 2^-24 bound the false IDs.
    public var keyedChecks: KeyedCheckCount { detector.keyedChecks }

    /// Stream seconds read so far.
    public var secondsRead: Double { Double(framesRead) / Double(inputRate) }

    /// Feeds interleaved samples and returns the IDs decided on the way (usually none).
    public func feed(_ block: UnsafeBufferPointer<Float>) -> [Heard] {
        let frames = block.count / channels
        guard frames > 0 else { return [] }
        var heard: [Heard] = []
        // Evaluate at period boundaries, however large the block: feed it in period-sized pieces.
        let periodFrames = max(1, Int(period * Double(inputRate)))
        var offset = 0
        while offset < frames {
            let take = min(frames - offset, periodFrames)
            let before = frontEnd.spectra.endHop
            frontEnd.feed(UnsafeBufferPointer(rebasing: block[(offset * channels)..<((offset + take) * channels)]))
            framesRead += Int64(take)
            offset += take
            hopsSinceEvaluation += frontEnd.spectra.endHop - before
            if Double(hopsSinceEvaluation) * SpectralFrontEnd.hopSeconds >= period { heard += evaluate() }
        }
        return heard
    }

    /// Feeds an array of interleaved samples.
    public func feed(_ block: [Float]) -> [Heard] { block.withUnsafeBufferPointer { feed($0) } }

    /// Ends the stream: drains the front end and searches what was not searched yet, or,
    /// when the stream `endsSession`, searches the window once more as the session's.
    public func finish() -> [Heard] {
        let before = frontEnd.spectra.endHop
        frontEnd.finish()
        hopsSinceEvaluation += frontEnd.spectra.endHop - before
        if endsSession { return evaluate(budget: .perSession, atEnd: true) }
        return hopsSinceEvaluation > 0 ? evaluate(atEnd: true) : []
    }

    /// Searches the held window; `budget` replaces the detector's for this search.
    private func evaluate(budget: FalseReportBudget? = nil, atEnd: Bool = false) -> [Heard] {
        hopsSinceEvaluation = 0
        let windowHops = Int(window / SpectralFrontEnd.hopSeconds)
        // Keep at most one window of hops: memory stays bounded for any stream length.
        frontEnd.spectra.drop(before: frontEnd.spectra.endHop - windowHops)
        // While the stream runs, wait for one whole watermark frame; a stream that ends
        // shorter (an app's 3 s capture) is searched as a file of that length is.
        guard atEnd || frontEnd.spectra.count >= P.hopsPerFrame else { return [] }
        let now = secondsRead
        // IDs unheard for longer than the window can never merge again: forget them.
        lastHeard = lastHeard.filter { now - $0.value <= window + absence }
        let duration = Double(frontEnd.spectra.endHop) * SpectralFrontEnd.hopSeconds
        var heard: [Heard] = []
        // Detection times are stream seconds already: hops are numbered from the stream's start.
        searches += 1
        for d in detector.detect(frontEnd.spectra, duration: duration, budget: budget).sorted(by: { ($0.start, $0.message) < ($1.start, $1.message) }) {
            if let last = lastHeard[d.message], d.start - last < absence {
                lastHeard[d.message] = max(last, d.end)
                continue
            }
            lastHeard[d.message] = d.end
            heard.append(Heard(message: d.message, start: d.start, end: d.end, score: d.score, emittedAt: now))
        }
        return heard
    }
}
