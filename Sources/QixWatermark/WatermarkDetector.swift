import QixAudio

/// Finds IDs in audio analysed by `SpectralFrontEnd`: for every candidate speed it folds
/// the band statistics onto the frame grid, finds the frame offset of every window by
/// FFT correlation with the sync pattern, decodes the best candidates with soft
/// Viterbi, accepts only those whose keyed check holds, and merges consecutive windows
/// with the same ID.
///
/// Windows come in four lengths (1, 2, 4 and 8 frames, about 3, 6, 12 and 25 s) so that
/// long recordings also decode at signal levels a single frame cannot carry.
public final class WatermarkDetector {
    typealias P = WatermarkParameters
    /// The key the IDs were embedded with.
    public let key: WatermarkKey
    /// Candidates (speed and offset) decoded per window; the false-positive bound per
    /// window is this times 2^-24.
    public static let candidatesPerWindow = 3
    /// Minimum score for a window to count (on top of the keyed check).
    public static let minimumScore: Float = 4
    /// Longest window in frames.
    public static let maximumWindowFrames = 8

    private let layout: WatermarkLayout
    private let correlator: SyncCorrelator
    private let decoder: FrameDecoder
    private let speeds: [SpeedScale]

    /// A detector for `key`.
    public init(key: WatermarkKey) {
        self.key = key
        layout = WatermarkLayout(key: key)
        correlator = SyncCorrelator(layout: layout)
        decoder = FrameDecoder(layout: layout, key: key)
        speeds = SpeedScale.grid.map { SpeedScale(speed: $0) }
    }

    /// Detects IDs in a whole in-memory buffer.
    public func detect(_ buffer: AudioBuffer) throws -> [WatermarkDetection] {
        let spectra = try SpectralFrontEnd.spectra(of: buffer)
        return detect(spectra, duration: buffer.duration)
    }

    private struct Candidate {
        var z: Float
        var speed: Int
        var offset: Int
        var window: [Float]
    }

    /// A decoded window, in chunk units of the speed that decoded it.
    private struct Found {
        var chunks: Range<Int>
        var speed: Double
        var offset: Int
        var payload: WatermarkPayload
        var score: Float
    }

    /// Detects IDs in analysed audio of `duration` seconds.
    public func detect(_ spectra: HopSpectra, duration: Double) -> [WatermarkDetection] {
        let hops = spectra.firstHop..<spectra.endHop
        guard hops.count >= 2 * P.hopsPerSlot else { return [] }
        let nominalChunks = max(1, (hops.upperBound + P.hopsPerFrame - 1) / P.hopsPerFrame)
        let windows = Self.windows(chunks: nominalChunks)
        var candidates = [[Candidate]](repeating: [], count: windows.count)
        var stats: [Float] = []
        var fold = FrameFold()
        var folded: [Float] = []
        let floors = speeds[0].floors(spectra, hops: hops)
        for (index, scale) in speeds.enumerated() {
            scale.statistics(spectra, hops: hops, floors: floors, into: &stats)
            fold.fold(stats, firstHop: hops.lowerBound, speed: scale.speed)
            for (w, range) in windows.enumerated() {
                let upper = range.upperBound >= nominalChunks ? fold.chunkCount : range.upperBound
                fold.window(range.lowerBound..<upper, into: &folded)
                let (offset, z) = correlator.correlate(folded)
                guard z.isFinite else { continue }
                if candidates[w].count < Self.candidatesPerWindow || z > candidates[w].last!.z {
                    candidates[w].append(Candidate(z: z, speed: index, offset: offset, window: folded))
                    candidates[w].sort { $0.z > $1.z }
                    if candidates[w].count > Self.candidatesPerWindow { candidates[w].removeLast() }
                }
            }
        }
        var found: [Found] = []
        for (w, range) in windows.enumerated() {
            for candidate in candidates[w] {
                let tiles = decoder.tiles(candidate.window, offset: candidate.offset)
                guard let (payload, score) = decoder.decode(tiles: tiles), score >= Self.minimumScore else { continue }
                found.append(Found(chunks: range, speed: speeds[candidate.speed].speed, offset: candidate.offset,
                                   payload: payload, score: score))
                break
            }
        }
        return merge(found, nominalChunks: nominalChunks, duration: duration)
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
    private func merge(_ found: [Found], nominalChunks: Int, duration: Double) -> [WatermarkDetection] {
        let hopSeconds = SpectralFrontEnd.hopSeconds
        let chunkHops = Double(P.hopsPerFrame)
        var spans: [WatermarkDetection] = found.map { item in
            let start = Double(item.chunks.lowerBound) * chunkHops / item.speed * hopSeconds
            let end = item.chunks.upperBound >= nominalChunks ? duration
                : Double(item.chunks.upperBound) * chunkHops / item.speed * hopSeconds
            return WatermarkDetection(message: item.payload.message, start: max(0, start), end: min(duration, end),
                                      score: Double(item.score), speed: item.speed)
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
                }
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
