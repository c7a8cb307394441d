import QixAudio
import QixWatermark

/// Reads a recording file through `RecordingDetector` (bounded memory for any length)
/// and returns what the scan stores: IDs as hex, times to the millisecond.
public struct WatermarkRecordingAnalyzer: Sendable {
    /// The key IDs were embedded with.
    public let key: WatermarkKey
    /// IDs expected on air, also looked for by their whole pattern (sorted, no repeats).
    public let expected: [UInt32]

    /// Makes an analyzer for `key`, listening also for the `expected` IDs.
    public init(key: WatermarkKey, expected: [UInt32] = []) {
        self.key = key
        self.expected = Array(Set(expected)).sorted()
    }

    /// What a stored result depends on besides the file: the key's fingerprint, and the
    /// expected IDs when there are any (`+expect:0a1b2c3d,...`). A recording scanned with
    /// other settings is scanned again.
    public var settingsFingerprint: String {
        expected.isEmpty ? key.fingerprint
            : key.fingerprint + "+expect:" + expected.map { WatermarkPayload.hex($0) }.joined(separator: ",")
    }

    /// Detects every ID in the file at `path`; errors name the file or the unusable parameter.
    public func analyze(path: String) throws -> RecordingAnalysis {
        let reader = try AudioFileReader(path: path)
        // The detector listens to the channel mix: read it as such (one pass from FLAC's integers).
        let recording = try RecordingDetector(detector: WatermarkDetector(key: key, expected: expected),
                                              inputRate: reader.info.sampleRate, channels: 1)
        try reader.forEachMonoBlock { recording.feed($0) }
        let duration = Double(reader.framesRead) / Double(reader.info.sampleRate)
        // Milliseconds and hundredths are what the detector resolves; more digits are noise.
        let detections = recording.finish(duration: duration).map { d in
            ScanDetection(message: d.hex, start: Self.round(d.start, 1000), end: Self.round(d.end, 1000),
                          score: Self.round(d.score, 100))
        }
        // The span lost to a cut is what the header declared beyond what was decoded.
        let declared = reader.damage?.declaredEnd.flatMap { $0 > duration ? Self.round($0, 1000) : nil }
        return RecordingAnalysis(duration: duration, detections: detections, damage: reader.damageReport,
                                 declaredDuration: declared)
    }

    static func round(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
}
