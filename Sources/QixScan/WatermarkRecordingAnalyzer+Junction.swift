import QixAudio
import QixWatermark

extension WatermarkRecordingAnalyzer {
    /// Seconds read from each side of a junction: the end of the predecessor and the start
    /// of the recording. A spot of 10 s cut 4 s from the end of an hour leaves a piece too
    /// short to decode alone at the mark's depth, and the whole spot fits in this span.
    static let junctionSeconds = 20.0
    /// How far the predecessor's length may differ from the gap between the two starts for
    /// the two to count as one programme (names and sidecars give whole seconds).
    static let junctionTolerance = 1.0

    /// Detections that cross from the end of `junction.predecessor` into the recording at
    /// `path`, found in the two read as one, in this recording's time (they start before 0).
    /// What lies on one side only is each recording's own to report. A predecessor that
    /// cannot be read or seeked, or that does not abut this recording, gives none: its own
    /// scan reports its faults, and the recording is scanned as if it stood alone.
    func detectionsAcross(_ junction: RecordingJunction, path: String, rate: Int, channels: Int) -> [ScanDetection] {
        guard let joined = try? joinedStretch(junction, path: path, rate: rate, channels: channels) else { return [] }
        return detections(joined.detector, duration: joined.seconds, shift: -joined.lead)
            .filter { $0.start < 0 && $0.end > 0 }
    }

    /// The end of a predecessor and the start of a recording, fed to one detector.
    private struct JoinedStretch {
        /// The detector fed both.
        let detector: RecordingDetector
        /// Seconds fed.
        let seconds: Double
        /// Seconds of them that came from the predecessor.
        let lead: Double
    }

    /// The end of the predecessor and the start of the recording fed to a detector; nil when
    /// the two do not abut.
    private func joinedStretch(_ junction: RecordingJunction, path: String, rate: Int, channels: Int) throws -> JoinedStretch? {
        let before = try AudioFileReader(path: junction.predecessor)
        guard before.info.sampleRate == rate, before.info.channels == channels, before.info.frames > 0,
              abs(Double(before.info.frames) / Double(rate) - junction.offset) <= Self.junctionTolerance else { return nil }
        let span = Int64(Self.junctionSeconds * Double(rate))
        // A predecessor cut short of its header's length does not reach this recording.
        guard let end = try Self.tail(of: before, frames: min(before.info.frames, span)) else { return nil }
        let lead = Int64(end.count / channels)
        let detector = try RecordingDetector(detectors: keys.map { WatermarkDetector(key: $0, expected: expected) },
                                             inputRate: rate, channels: channels)
        end.withUnsafeBufferPointer { detector.feed($0) }
        let after = try AudioFileReader(path: path)
        let fed = try Self.feed(after, frames: span, to: detector)
        return JoinedStretch(detector: detector, seconds: Double(lead + fed) / Double(rate), lead: Double(lead) / Double(rate))
    }

    /// Seconds read before the tail where the decoder seeks only to a packet at or before a
    /// time (FFmpeg's libraries: MP4 and MPEG-TS land on a packet, ADTS on an estimate).
    static let seekSlack = 5.0

    /// The last `frames` frames of `reader`, interleaved, read from a little before them to
    /// the end; nil when the input ends short of them (a cut file) or cannot seek. A tenth of
    /// a second may lack, as where the whole of a short input is wanted: a compressed stream's
    /// stated length and its decoded one differ by the encoder's delay and padding.
    private static func tail(of reader: AudioFileReader, frames: Int64) throws -> [Float]? {
        let slack = Int64(seekSlack * Double(reader.info.sampleRate))
        try reader.seek(toAboutFrame: max(0, reader.info.frames - frames - slack))
        let width = Int(frames) * reader.info.channels
        var kept: [Float] = [], block: [Float] = []
        while try reader.read(frames: 65_536, into: &block) > 0 {
            kept += block
            if kept.count > 2 * width { kept.removeFirst(kept.count - width) }
        }
        let shortfall = reader.info.sampleRate / 10 * reader.info.channels
        return kept.count + shortfall >= width ? Array(kept.suffix(width)) : nil
    }

    /// Feeds up to `frames` frames of `reader` to `detector`; returns how many there were.
    private static func feed(_ reader: AudioFileReader, frames: Int64, to detector: RecordingDetector) throws -> Int64 {
        var samples: [Float] = []
        var fed: Int64 = 0
        while fed < frames {
            let got = try reader.read(frames: Int(min(frames - fed, 65_536)), into: &samples)
            if got == 0 { break }
            samples.withUnsafeBufferPointer { detector.feed($0) }
            fed += Int64(got)
        }
        return fed
    }
}
