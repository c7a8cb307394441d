import QixAudio

/// Detects IDs in a live stream fed in blocks of any size, with bounded memory: it keeps
/// the last `window` seconds at the detector's 16 kHz rate and runs the same
/// `WatermarkDetector` as file detection over them every `period` seconds of audio.
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

    /// Input frames consumed so far.
    public private(set) var framesRead: Int64 = 0

    private typealias P = WatermarkParameters
    private let detector: WatermarkDetector
    private let resampler: Resampler?
    private var mono: [Float] = []
    private var converted: [Float] = []
    /// 16 kHz samples; `recent[0]` is stream sample `recentStart`.
    private var recent: [Float] = []
    private var recentStart = 0
    private var samplesSinceEvaluation = 0
    /// Per ID, the stream time its current stretch was last heard to.
    private var lastHeard: [UInt32: Double] = [:]

    /// A detector for `key` reading interleaved `channels`-channel audio at `inputRate` Hz.
    public init(key: WatermarkKey, inputRate: Int, channels: Int,
                window: Double = 10, period: Double = 1, absence: Double = 4) throws {
        guard inputRate >= 8000, inputRate <= 768_000 else {
            throw WatermarkError("cannot listen", "--rate", "\(inputRate) Hz is out of range (8000 to 768000)")
        }
        guard channels >= 1 else { throw WatermarkError("cannot listen", "--channels", "needs at least one channel") }
        self.inputRate = inputRate
        self.channels = channels
        self.window = max(window, 4)
        self.period = min(max(period, 0.1), self.window / 2)
        self.absence = absence
        detector = WatermarkDetector(key: key)
        resampler = inputRate == P.sampleRate ? nil
            : try Resampler(inputRate: Double(inputRate), outputRate: Double(P.sampleRate), channels: 1, quality: .medium)
    }

    /// Stream seconds read so far.
    public var secondsRead: Double { Double(framesRead) / Double(inputRate) }

    /// Feeds interleaved samples and returns the IDs decided on the way (usually none).
    public func feed(_ block: UnsafeBufferPointer<Float>) -> [Heard] {
        let frames = block.count / channels
        guard frames > 0 else { return [] }
        framesRead += Int64(frames)
        if mono.count != frames { mono = [Float](repeating: 0, count: frames) }
        mono.withUnsafeMutableBufferPointer { out in
            ChannelMixer.mixDown(block, channels: channels, into: out)
            for i in 0..<frames where !out[i].isFinite { out[i] = 0 }
        }
        if let resampler {
            converted.removeAll(keepingCapacity: true)
            resampler.process(mono, into: &converted)
            return append(converted, final: false)
        }
        return append(mono, final: false)
    }

    /// Feeds an array of interleaved samples.
    public func feed(_ block: [Float]) -> [Heard] { block.withUnsafeBufferPointer { feed($0) } }

    /// Ends the stream: drains the resampler and searches what was not searched yet.
    public func finish() -> [Heard] {
        converted.removeAll(keepingCapacity: true)
        resampler?.flush(into: &converted)
        return append(converted, final: true)
    }

    private func append(_ samples: [Float], final: Bool) -> [Heard] {
        var heard: [Heard] = []
        let windowSamples = Int(window * Double(P.sampleRate))
        let periodSamples = Int(period * Double(P.sampleRate))
        var offset = 0
        // Evaluate exactly at period boundaries, however large the block.
        while offset < samples.count {
            let take = min(samples.count - offset, periodSamples - samplesSinceEvaluation)
            recent.append(contentsOf: samples[offset..<(offset + take)])
            offset += take
            samplesSinceEvaluation += take
            if samplesSinceEvaluation >= periodSamples {
                heard += evaluate(windowSamples: windowSamples)
            }
        }
        if final && samplesSinceEvaluation > 0 { heard += evaluate(windowSamples: windowSamples) }
        return heard
    }

    private func evaluate(windowSamples: Int) -> [Heard] {
        samplesSinceEvaluation = 0
        // Keep at most one window; trim in bulk so the copy cost stays amortised.
        if recent.count > windowSamples {
            let excess = recent.count - windowSamples
            recent.removeFirst(excess)
            recentStart += excess
        }
        // Less than one watermark frame cannot decode.
        guard recent.count >= P.hopsPerFrame * P.hop else { return [] }
        let now = secondsRead
        // IDs unheard for longer than the window can never merge again: forget them.
        lastHeard = lastHeard.filter { now - $0.value <= window + absence }
        let origin = Double(recentStart) / Double(P.sampleRate)
        let buffer = AudioBuffer(samples: recent, channels: 1, sampleRate: P.sampleRate)
        guard let found = try? detector.detect(buffer) else { return [] }
        var heard: [Heard] = []
        for d in found.sorted(by: { ($0.start, $0.message) < ($1.start, $1.message) }) {
            let start = origin + d.start, end = origin + d.end
            if let last = lastHeard[d.message], start - last < absence {
                lastHeard[d.message] = max(last, end)
                continue
            }
            lastHeard[d.message] = end
            heard.append(Heard(message: d.message, start: start, end: end, score: d.score, emittedAt: now))
        }
        return heard
    }
}
