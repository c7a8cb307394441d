import QixAudio
import QixWatermark

/// Runs the watermark detector over a whole recording of any length in bounded memory:
/// the file is read in overlapping chunks, each chunk is detected on its own, and
/// detections of one ID that touch or overlap across chunks are merged.
public struct WatermarkRecordingAnalyzer: Sendable {
    /// The key IDs were embedded with.
    public let key: WatermarkKey
    /// Audio per chunk, seconds.
    public let chunkSeconds: Double
    /// Overlap between consecutive chunks, seconds: at least the longest detection
    /// window, so an ID that straddles a chunk boundary is still seen whole once.
    public let overlapSeconds: Double

    /// Makes an analyzer; the defaults keep a 48 kHz stereo chunk near 60 MB.
    public init(key: WatermarkKey, chunkSeconds: Double = 150, overlapSeconds: Double = 30) {
        self.key = key
        self.chunkSeconds = chunkSeconds
        self.overlapSeconds = min(overlapSeconds, chunkSeconds / 2)
    }

    /// Detects every ID in the file at `path`.
    public func analyze(path: String) throws -> RecordingAnalysis {
        let reader: AudioFileReader
        do { reader = try AudioFileReader(path: path) } catch let error as AudioError {
            throw ScanError(error.what, error.subject, error.reason)
        }
        let detector = WatermarkDetector(key: key)
        let rate = reader.info.sampleRate, channels = reader.info.channels
        let chunkFrames = Int(chunkSeconds * Double(rate))
        let stepFrames = chunkFrames - Int(overlapSeconds * Double(rate))
        var window: [Float] = []
        var block: [Float] = []
        var windowStart = 0   // frame index of window[0]
        var found: [ScanDetection] = []
        var atEnd = false
        do {
            while !atEnd {
                // Fill the window up to a whole chunk.
                while window.count < chunkFrames * channels {
                    let got = try reader.read(frames: min(65_536, chunkFrames - window.count / channels), into: &block)
                    if got == 0 { atEnd = true; break }
                    window.append(contentsOf: block)
                }
                if window.isEmpty { break }
                let buffer = AudioBuffer(samples: window, channels: channels, sampleRate: rate)
                let offset = Double(windowStart) / Double(rate)
                for d in try detector.detect(buffer) {
                    // Milliseconds and hundredths are what the detector resolves; more digits are noise.
                    found.append(ScanDetection(message: d.hex, start: Self.round(d.start + offset, 1000),
                                               end: Self.round(d.end + offset, 1000), score: Self.round(d.score, 100)))
                }
                if atEnd { break }
                window.removeFirst(stepFrames * channels)
                windowStart += stepFrames
            }
        } catch let error as AudioError {
            throw ScanError(error.what, error.subject, error.reason)
        } catch let error as WatermarkError {
            throw ScanError(error.what, path, error.reason)
        }
        return RecordingAnalysis(duration: Double(reader.framesRead) / Double(rate), detections: Self.merge(found))
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
