import Foundation
import Testing
import QixAudio
@testable import QixWatermark

/// The block-wise embedder: a host shorter than a planning segment is marked exactly as
/// one piece; longer hosts keep the SNR in every segment, decode across segment
/// boundaries, and do not depend on how the input is cut into blocks.
struct StreamingEmbedderTests {
    let key = WatermarkKey.publicTestKey
    let payload = WatermarkPayload(message: 0x5E61_0042)

    /// `host` looped to `seconds`.
    static func looped(_ host: AudioBuffer, seconds: Double) -> AudioBuffer {
        let total = Int(seconds * Double(host.sampleRate)) * host.channels
        var samples: [Float] = []
        samples.reserveCapacity(total)
        while samples.count < total { samples.append(contentsOf: host.samples.prefix(total - samples.count)) }
        return AudioBuffer(samples: samples, channels: host.channels, sampleRate: host.sampleRate)
    }

    /// Marks `host` through a stream fed `blockFrames` frames at a time.
    static func streamed(_ embedder: WatermarkEmbedder, _ host: AudioBuffer, blockFrames: Int) throws -> [Float] {
        let stream = try StreamingEmbedder(embedder: embedder, sampleRate: host.sampleRate, channels: host.channels)
        var out: [Float] = []
        try host.samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + blockFrames * host.channels)
                try stream.feed(UnsafeBufferPointer(rebasing: all[start..<end])) { out.append(contentsOf: $0) }
                start = end
            }
        }
        try stream.finish { out.append(contentsOf: $0) }
        return out
    }

    static func snr(_ host: [Float], _ marked: [Float], _ range: Range<Int>) -> Double {
        var signal = 0.0, noise = 0.0
        for i in range {
            signal += Double(host[i] * host[i])
            let d = Double(marked[i] - host[i])
            noise += d * d
        }
        return 10 * log10(signal / noise)
    }

    @Test func shortHostIsPlannedAsOnePiece() throws {
        let host = try Resampler.resample(TestSignals.corpus("a04", seconds: 6), to: 16_000).mixedToMono()
        let embedder = try WatermarkEmbedder(key: key, payload: payload)
        let marked = try Self.streamed(embedder, host, blockFrames: 1_000)
        let gains = try TileDepths.depths(host: host.samples, targetSNR: embedder.targetSNR, capScale: Float(embedder.scale)) {
            DeltaSynthesizer(chips: embedder.chips, gains: $0, layout: embedder.format.bandLayout).delta(for: host.samples)
        }
        let delta = DeltaSynthesizer(chips: embedder.chips, gains: gains, layout: embedder.format.bandLayout).delta(for: host.samples)
        #expect(marked.count == host.samples.count)
        // The plan's delta, scaled once so that the SNR is exactly the target.
        let peak = delta.indices.max { abs(delta[$0]) < abs(delta[$1]) } ?? 0
        let k = (marked[peak] - host.samples[peak]) / delta[peak]
        // The closed loop raises a plan by at most `maximumCorrection` (read back from Float samples).
        #expect(k > 0.9 && k <= StreamingEmbedder.maximumCorrection * 1.00001, "scale \(k)")
        var worst: Float = 0
        for i in 0..<marked.count { worst = max(worst, abs(marked[i] - (host.samples[i] + k * delta[i]))) }
        #expect(worst < 1e-6, "largest difference \(worst)")
        let snr = Self.snr(host.samples, marked, 0..<marked.count)
        // Exactly the target, unless the masking caps leave budget the closed loop may not
        // spend (it raises a plan by at most `maximumCorrection`): then above it.
        if abs(k - StreamingEmbedder.maximumCorrection) < 1e-4 {
            #expect(snr > embedder.targetSNR, "SNR \(snr) dB")
        } else {
            #expect(abs(snr - embedder.targetSNR) < 0.01, "SNR \(snr) dB, scale \(k)")
        }
    }

    @Test func longHostKeepsSNRPerSegmentAndDecodesAcrossBoundaries() throws {
        let host = Self.looped(try TestSignals.corpus("a02"), seconds: 36)
        let embedder = try WatermarkEmbedder(key: key, payload: payload)
        let marked = try embedder.embed(host)
        #expect(marked.samples.count == host.samples.count)
        let boundary = Int(Double(StreamingEmbedder.segmentFrames) * 3.072 * 44_100) * 2
        let first = Self.snr(host.samples, marked.samples, 0..<boundary)
        let second = Self.snr(host.samples, marked.samples, boundary..<host.samples.count)
        // The target (24.6 dB for the default profile), or up to a dB above where caps bind.
        #expect(first >= embedder.targetSNR - 0.2 && first < embedder.targetSNR + 0.8, "first segment SNR \(first) dB")
        #expect(second >= embedder.targetSNR - 0.2 && second < embedder.targetSNR + 0.8, "second segment SNR \(second) dB")
        // 5 s around the segment boundary, at an offset off the frame grid.
        let excerpt = marked.slice(frames: (27 * 44_100 + 1_234)..<(32 * 44_100 + 1_234))
        let found = try WatermarkDetector(key: key).detect(excerpt)
        #expect(found.map(\.message) == [payload.message], "\(found)")
    }

    /// The report's SNR is the one measured between the output and the input.
    @Test func reportsTheWatermarkItAdded() throws {
        let host = try TestSignals.corpus("a01", seconds: 8)
        let embedder = try WatermarkEmbedder(key: key, payload: payload)
        let stream = try StreamingEmbedder(embedder: embedder, sampleRate: host.sampleRate, channels: host.channels)
        var out: [Float] = []
        try host.samples.withUnsafeBufferPointer { try stream.feed($0) { out.append(contentsOf: $0) } }
        try stream.finish { out.append(contentsOf: $0) }
        let report = stream.report
        #expect(report.frames == Int64(host.frameCount))
        let measured = Self.snr(host.samples, out, 0..<host.samples.count)
        let reported = try #require(report.watermarkSNR)
        #expect(abs(reported - measured) < 0.01, "reported \(reported) dB, measured \(measured) dB")
        #expect(abs(reported - embedder.targetSNR) < 0.3)
        #expect(abs(embedder.targetSNR - (WatermarkParameters.targetSNR - 20 * log10(0.6))) < 0.01, "the broadcast profile sits 4.4 dB under venue")
    }

    @Test func blockSizeDoesNotMatter() throws {
        let host = Self.looped(try TestSignals.corpus("a05"), seconds: 33)
        let embedder = try WatermarkEmbedder(key: key, payload: payload)
        let whole = try embedder.embed(host).samples
        let small = try Self.streamed(embedder, host, blockFrames: 3_001)
        #expect(small.count == whole.count)
        var worst: Float = 0
        for i in 0..<min(small.count, whole.count) { worst = max(worst, abs(small[i] - whole[i])) }
        #expect(worst < 1e-5, "largest difference \(worst)")
    }

    /// Stereo runs its own four-frames-at-a-time paths (splitting the 16 kHz channels,
    /// interleaving the deltas): with both channels equal to a mono host, each channel must
    /// come out as the mono host does, block edges and odd lengths included.
    @Test func stereoWithEqualChannelsIsMarkedAsMono() throws {
        let mono = Self.looped(try TestSignals.corpus("a05"), seconds: 12)
        let frames = mono.samples.count / mono.channels - 3   // not a multiple of four
        let left = Array(mono.samples.prefix(frames * mono.channels).enumerated().filter { $0.offset % mono.channels == 0 }.map(\.element))
        let monoHost = AudioBuffer(samples: left, channels: 1, sampleRate: mono.sampleRate)
        let stereoHost = AudioBuffer(samples: left.flatMap { [$0, $0] }, channels: 2, sampleRate: mono.sampleRate)
        let embedder = try WatermarkEmbedder(key: key, payload: payload)
        let single = try Self.streamed(embedder, monoHost, blockFrames: 3_001)
        let pair = try Self.streamed(embedder, stereoHost, blockFrames: 3_001)
        #expect(pair.count == 2 * single.count)
        var worst: Float = 0
        for i in 0..<min(single.count, pair.count / 2) {
            worst = max(worst, abs(pair[2 * i] - single[i]), abs(pair[2 * i + 1] - single[i]))
        }
        #expect(worst < 1e-6, "largest difference \(worst)")
        #expect(single != left, "the host was marked")
    }

    @Test func refusesNonFiniteAndTooShortInputAtTheEnd() throws {
        let embedder = try WatermarkEmbedder(key: key, payload: payload)
        var nan = TestSignals.noise(seconds: 1, rate: 16_000, level: 0.3)
        nan.samples[100] = .infinity
        #expect(throws: WatermarkError("cannot embed", "audio", "1 samples are NaN or infinite")) {
            _ = try Self.streamed(embedder, nan, blockFrames: 4_096)
        }
        #expect(throws: WatermarkError.self) {
            _ = try Self.streamed(embedder, TestSignals.noise(seconds: 0.1, rate: 16_000, level: 0.3), blockFrames: 512)
        }
        #expect(throws: WatermarkError.self) { try StreamingEmbedder(embedder: embedder, sampleRate: 8_000, channels: 1) }
    }
}
