import QixAudio
import QixWatermark

/// Reads a recording file through `RecordingDetector` (bounded memory for any length)
/// and returns what the scan stores: IDs as hex, times to the millisecond.
public struct WatermarkRecordingAnalyzer: Sendable {
    /// The keys IDs may have been embedded with, each tried on every recording (one
    /// decode and analysis, one search per key); at least one.
    public let keys: [WatermarkKey]
    /// IDs expected on air, also looked for by their whole pattern (sorted, no repeats).
    public let expected: [UInt32]
    /// Seconds of audio between two calls of `analyze`'s progress callback: often enough
    /// for a display, rare enough (one call per few blocks) to cost nothing measurable.
    public var progressInterval = 5.0

    /// Makes an analyzer for `key`, listening also for the `expected` IDs.
    public init(key: WatermarkKey, expected: [UInt32] = []) {
        keys = [key]
        self.expected = Array(Set(expected)).sorted()
    }

    /// Makes an analyzer trying each of `keys` (in that order); an empty list is refused.
    public init(keys: [WatermarkKey], expected: [UInt32] = []) throws {
        guard !keys.isEmpty else { throw QixError("invalid key", parameter: "keys", "no key given") }
        self.keys = keys
        self.expected = Array(Set(expected)).sorted()
    }

    /// What a stored result depends on besides the file: the keys' fingerprints (one key's
    /// alone, as before several were possible; several sorted and comma-separated, so the
    /// order they are given in does not matter), and the expected IDs when there are any
    /// (`+expect:0a1b2c3d,...`). A recording scanned with other settings is scanned again.
    public var settingsFingerprint: String {
        let keyPart = keys.map(\.fingerprint).sorted().joined(separator: ",")
        return expected.isEmpty ? keyPart
            : keyPart + "+expect:" + expected.map { WatermarkPayload.hex($0) }.joined(separator: ",")
    }

    /// Detects every ID in the file at `path`; errors name the file or the unusable
    /// parameter. `progress` receives the seconds decoded so far and the seconds the
    /// header declares (0 when unknown), every `progressInterval` seconds of audio.
    /// With a `junction`, airings that cross from the channel's previous recording into
    /// this one are also looked for across the join, and start before 0 s.
    public func analyze(path: String, after junction: RecordingJunction? = nil,
                        progress: (_ decoded: Double, _ declared: Double) -> Void = { _, _ in }) throws -> RecordingAnalysis {
        let reader = try AudioFileReader(path: path)
        // The detector listens to the channel mix: read it as such (one pass from FLAC's integers).
        let recording = try RecordingDetector(detectors: keys.map { WatermarkDetector(key: $0, expected: expected) },
                                              inputRate: reader.info.sampleRate, channels: 1)
        let rate = Double(reader.info.sampleRate)
        let declared = max(0, reader.info.duration)
        let step = Int64(max(1, (progressInterval * rate).rounded()))
        var nextReport = step
        try reader.forEachMonoBlock { block in
            recording.feed(block)
            if reader.framesRead >= nextReport {
                nextReport = reader.framesRead + step
                progress(Double(reader.framesRead) / rate, declared)
            }
        }
        let duration = Double(reader.framesRead) / rate
        var found = detections(recording, duration: duration)
        if let junction {
            found = (found + detectionsAcross(junction, path: path, rate: reader.info.sampleRate, channels: reader.info.channels))
                .sorted { ($0.start, $0.message) < ($1.start, $1.message) }
        }
        return RecordingAnalysis(duration: duration, detections: found,
                                 damage: reader.damageReport, declaredDuration: declaredLoss(reader, duration: duration))
    }

    /// Every key's detections in time order, each naming its key by its place in `keys`,
    /// with times moved `shift` seconds.
    func detections(_ recording: RecordingDetector, duration: Double, shift: Double = 0) -> [ScanDetection] {
        // Milliseconds and hundredths are what the detector resolves; more digits are noise.
        recording.finishEach(duration: duration).enumerated().flatMap { index, found in
            found.map { d in
                ScanDetection(message: d.hex, start: Self.round(d.start + shift, 1000), end: Self.round(d.end + shift, 1000),
                              score: Self.round(d.score, 100), keyIndex: index)
            }
        }.sorted { ($0.start, $0.message) < ($1.start, $1.message) }
    }

    /// The span lost to a cut: what the header declared beyond what was decoded.
    private func declaredLoss(_ reader: AudioFileReader, duration: Double) -> Double? {
        reader.damage?.declaredEnd.flatMap { $0 > duration ? Self.round($0, 1000) : nil }
    }

    static func round(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
}
