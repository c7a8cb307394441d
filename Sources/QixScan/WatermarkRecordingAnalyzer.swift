import QixAudio
import QixWatermark

/// Runs the watermark detector over a whole recording of any length in bounded memory:
/// the file streams through the detector's front end (decode, 16 kHz, STFT) once, the
/// search runs over every `chunkSeconds` of analysed hops, and all but the last
/// `overlapSeconds` of hops are then dropped. Detections of one ID that touch or
/// overlap across chunks are merged.
public struct WatermarkRecordingAnalyzer: Sendable {
    /// The key IDs were embedded with.
    public let key: WatermarkKey
    /// Audio searched at once, seconds.
    public let chunkSeconds: Double
    /// Hops kept from one search to the next, seconds: at least the longest detection
    /// window, so an ID that straddles a chunk boundary is still seen whole once.
    public let overlapSeconds: Double

    /// Makes an analyzer; the defaults hold about 7 MB of spectra whatever the file's length.
    public init(key: WatermarkKey, chunkSeconds: Double = 150, overlapSeconds: Double = 30) {
        self.key = key
        self.chunkSeconds = chunkSeconds
        self.overlapSeconds = min(overlapSeconds, chunkSeconds / 2)
    }

    /// Detects every ID in the file at `path`.
    public func analyze(path: String) throws -> RecordingAnalysis {
        let detector = WatermarkDetector(key: key)
        let hopSeconds = SpectralFrontEnd.hopSeconds
        let chunkHops = Int(chunkSeconds / hopSeconds), overlapHops = Int(overlapSeconds / hopSeconds)
        var found: [ScanDetection] = []
        func search(_ spectra: HopSpectra, duration: Double) {
            for d in detector.detect(spectra, duration: duration) {
                // Milliseconds and hundredths are what the detector resolves; more digits are noise.
                found.append(ScanDetection(message: d.hex, start: Self.round(d.start, 1000),
                                           end: Self.round(d.end, 1000), score: Self.round(d.score, 100)))
            }
        }
        // Errors are QixErrors already naming the file or the unusable parameter.
        let reader = try AudioFileReader(path: path)
        let frontEnd = try SpectralFrontEnd(inputRate: reader.info.sampleRate, channels: reader.info.channels)
        try reader.forEachBlock { block in
            frontEnd.feed(block)
            if frontEnd.spectra.count >= chunkHops + overlapHops {
                search(frontEnd.spectra, duration: Double(frontEnd.spectra.endHop) * hopSeconds)
                frontEnd.spectra.drop(before: frontEnd.spectra.endHop - overlapHops)
            }
        }
        frontEnd.finish()
        let duration = Double(reader.framesRead) / Double(reader.info.sampleRate)
        search(frontEnd.spectra, duration: duration)
        return RecordingAnalysis(duration: duration, detections: Self.merge(found))
    }

    static func round(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }

    /// Joins detections of one ID that overlap or touch (chunk overlaps report some twice).
    static func merge(_ detections: [ScanDetection], gap: Double = 1.0) -> [ScanDetection] {
        var open: [String: ScanDetection] = [:]
        var done: [ScanDetection] = []
        for d in detections.sorted(by: { ($0.start, $0.message) < ($1.start, $1.message) }) {
            if var current = open[d.message], d.start - current.end <= gap {
                current.end = max(current.end, d.end)
                current.score = max(current.score, d.score)
                open[d.message] = current
            } else {
                if let finished = open[d.message] { done.append(finished) }
                open[d.message] = d
            }
        }
        return (done + open.values).sorted { ($0.start, $0.message) < ($1.start, $1.message) }
    }
}
