/// Detects IDs in a whole recording of any length, fed in blocks, in bounded memory:
/// the audio goes once through the detector's front end; the search runs over every
/// `chunkSeconds` of analysed hops, after which all but the last `overlapSeconds` are
/// dropped (about 15 MB of spectra at the defaults, whatever the length). Detections of
/// one ID that overlap or touch across chunks are merged. `qix detect` and `qix scan`
/// both read files through it.
///
/// Several detectors (one per key) share the front end: the audio is analysed once and
/// searched once per detector, so each key adds one search, not one decode.
public final class RecordingDetector {
    /// Audio searched at once, seconds.
    public let chunkSeconds: Double
    /// Hops kept from one search to the next, seconds: at least the longest detection
    /// window, so an ID that straddles a chunk boundary is still seen whole once.
    public let overlapSeconds: Double

    private let detectors: [WatermarkDetector]
    private let frontEnd: SpectralFrontEnd
    private let chunkHops: Int
    private let overlapHops: Int
    /// What each detector found so far, in `detectors`' order.
    private var found: [[WatermarkDetection]]

    /// A detector for interleaved `channels`-channel audio at `inputRate` Hz, searching with `detector`.
    public convenience init(detector: WatermarkDetector, inputRate: Int, channels: Int,
                            chunkSeconds: Double = 300, overlapSeconds: Double = 30) throws {
        try self.init(detectors: [detector], inputRate: inputRate, channels: channels,
                      chunkSeconds: chunkSeconds, overlapSeconds: overlapSeconds)
    }

    /// A detector searching the same audio with each of `detectors` (one per key, say);
    /// `finishEach` tells their detections apart.
    public init(detectors: [WatermarkDetector], inputRate: Int, channels: Int,
                chunkSeconds: Double = 300, overlapSeconds: Double = 30) throws {
        self.detectors = detectors
        found = Array(repeating: [], count: detectors.count)
        self.chunkSeconds = chunkSeconds
        self.overlapSeconds = min(overlapSeconds, chunkSeconds / 2)
        frontEnd = try SpectralFrontEnd(inputRate: inputRate, channels: channels)
        chunkHops = Int(chunkSeconds / SpectralFrontEnd.hopSeconds)
        overlapHops = Int(self.overlapSeconds / SpectralFrontEnd.hopSeconds)
        // Room for a whole chunk up front: the store never regrows (page faults) mid-file.
        frontEnd.spectra.power.reserveCapacity((chunkHops + overlapHops + 1024) * HopSpectra.width)
    }

    /// Feeds interleaved samples (NaN and infinities count as silence).
    public func feed(_ block: UnsafeBufferPointer<Float>) {
        frontEnd.feed(block)
        if frontEnd.spectra.count >= chunkHops + overlapHops {
            search(duration: Double(frontEnd.spectra.endHop) * SpectralFrontEnd.hopSeconds)
            frontEnd.spectra.drop(before: frontEnd.spectra.endHop - overlapHops)
        }
    }

    /// Ends the recording of `duration` seconds and returns every detection, in time order
    /// (of every detector's, when there are several).
    public func finish(duration: Double) -> [WatermarkDetection] {
        Self.merge(finishEach(duration: duration).flatMap { $0 })
    }

    /// Ends the recording of `duration` seconds and returns each detector's detections, in
    /// time order, in the order the detectors were given.
    public func finishEach(duration: Double) -> [[WatermarkDetection]] {
        frontEnd.finish()
        search(duration: duration)
        return found.map { Self.merge($0) }
    }

    private func search(duration: Double) {
        for (index, detector) in detectors.enumerated() {
            found[index] += detector.detect(frontEnd.spectra, duration: duration)
        }
    }

    /// Joins detections of one ID that overlap or touch (chunk overlaps report some
    /// twice); the merged one keeps the best score and that detection's speed.
    static func merge(_ detections: [WatermarkDetection], gap: Double = 1.0) -> [WatermarkDetection] {
        var open: [UInt32: WatermarkDetection] = [:]
        var done: [WatermarkDetection] = []
        for d in detections.sorted(by: { ($0.start, $0.message) < ($1.start, $1.message) }) {
            if var current = open[d.message], d.start - current.end <= gap {
                current.end = max(current.end, d.end)
                if d.score > current.score { current.score = d.score; current.speed = d.speed }
                open[d.message] = current
            } else {
                if let finished = open[d.message] { done.append(finished) }
                open[d.message] = d
            }
        }
        return (done + open.values).sorted { ($0.start, $0.message) < ($1.start, $1.message) }
    }
}
