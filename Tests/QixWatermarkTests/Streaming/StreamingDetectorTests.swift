import Testing
import QixAudio
@testable import QixWatermark

/// Live detection: announcements once per stretch, latency, bounded state, junk input.
@Suite("Streaming detection")
struct StreamingDetectorTests {
    static let key = try! WatermarkKey(hex: "8899aabbccddeeff0011223344556677")

    /// 16 kHz mono: speech, then a marked music stretch, then speech again.
    static func program(marked: [(UInt32, Double)], gap: Double) throws -> (AudioBuffer, [Range<Double>]) {
        let speech = try Resampler.resample(TestSignals.corpus("a05", seconds: 20).mixedToMono(), to: 16_000)
        let music = try Resampler.resample(TestSignals.corpus("a02").mixedToMono(), to: 16_000)
        var samples: [Float] = Array(speech.samples.prefix(Int(gap * 16_000)))
        var stretches: [Range<Double>] = []
        for (message, seconds) in marked {
            let marked = try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message)).embed(music)
            let start = Double(samples.count) / 16_000
            var left = Int(seconds * 16_000)
            while left > 0 {
                let take = min(left, marked.frameCount)
                samples += marked.samples.prefix(take)
                left -= take
            }
            stretches.append(start..<(Double(samples.count) / 16_000))
            samples += speech.samples.prefix(Int(gap * 16_000))
        }
        return (AudioBuffer(samples: samples, channels: 1, sampleRate: 16_000), stretches)
    }

    static func listen(_ buffer: AudioBuffer, block: Int = 1000, listDecoding: Bool = false, expected: [UInt32] = [],
                       endsSession: Bool = false) throws -> [StreamingDetector.Heard] {
        let detector = try StreamingDetector(key: key, inputRate: buffer.sampleRate, channels: buffer.channels,
                                             expected: expected, listDecoding: listDecoding, endsSession: endsSession)
        var heard: [StreamingDetector.Heard] = []
        var offset = 0
        while offset < buffer.samples.count {
            let end = min(buffer.samples.count, offset + block * buffer.channels)
            heard += detector.feed(Array(buffer.samples[offset..<end]))
            offset = end
        }
        return heard + detector.finish()
    }

    @Test("a stream that ends a listening session hears the campaign on air where hourly searches do not, and nothing unmarked")
    func session() throws {
        let message: UInt32 = 0x5eed1234, campaigns = TestSignals.campaigns(onAir: message)
        var heardOnlyInTheSession = 0
        for level: Float in [0.5, 0.6, 0.7, 0.8, 0.9, 1.0] {
            let clip = try TestSignals.noisyExcerpt(key: Self.key, message: message, level: level)
            let hourly = try Self.listen(clip, expected: campaigns)
            let session = try Self.listen(clip, expected: campaigns, endsSession: true)
            #expect(session.allSatisfy { $0.message == message }, "level \(level): \(session.map(\.hex))")
            if !hourly.isEmpty { #expect(!session.isEmpty, "level \(level)") }
            if hourly.isEmpty && !session.isEmpty { heardOnlyInTheSession += 1 }
            let unmarked = try TestSignals.noisyExcerpt(key: Self.key, message: message, level: level, marked: false)
            #expect(try Self.listen(unmarked, expected: campaigns, endsSession: true).isEmpty, "level \(level): unmarked")
        }
        #expect(heardOnlyInTheSession > 0, "no noise level where only the session hears the mark")
    }

    @Test("a stream that ends shorter than one frame is searched then, as the same audio in a file is")
    func shortStream() throws {
        let clip = try TestSignals.noisyExcerpt(key: Self.key, message: 0x5eed1234, level: 0.1)
        let file = try WatermarkDetector(key: Self.key, thoroughListSize: 0).detect(clip)
        #expect(file.map(\.message) == [0x5eed1234])
        #expect(try Self.listen(clip).map(\.message) == file.map(\.message))
    }

    @Test("an ID heard for 24 s is announced once; after 10 s of unmarked audio it is announced again")
    func repeats() throws {
        let (buffer, stretches) = try Self.program(marked: [(0xA1B2C3D4, 24), (0xA1B2C3D4, 8)], gap: 10)
        let heard = try Self.listen(buffer)
        #expect(heard.map(\.hex) == ["a1b2c3d4", "a1b2c3d4"], "\(heard)")
        for (h, stretch) in zip(heard, stretches) {
            #expect(stretch.contains(h.start) || abs(h.start - stretch.lowerBound) < 1, "\(h) vs \(stretch)")
            #expect(h.emittedAt - h.end <= 1.0)
            #expect(h.emittedAt <= stretch.lowerBound + 6, "decided within a few seconds of the spot's start")
        }
    }

    @Test("list decoding (listen --thorough) hears the same spots and nothing in speech")
    func listDecoding() throws {
        let (buffer, _) = try Self.program(marked: [(0xA1B2C3D4, 12), (0x0BADCAFE, 8)], gap: 8)
        #expect(try Self.listen(buffer, listDecoding: true).map(\.hex) == ["a1b2c3d4", "0badcafe"])
        let speech = try Resampler.resample(TestSignals.corpus("a05", seconds: 20).mixedToMono(), to: 16_000)
        #expect(try Self.listen(speech, listDecoding: true).isEmpty)
    }

    @Test("latency: announced within 1.5 s of the first prefix that file detection decodes")
    func latency() throws {
        let (buffer, stretches) = try Self.program(marked: [(0x0BADF00D, 12)], gap: 7)
        let heard = try #require(try Self.listen(buffer, block: 777).first)
        #expect(heard.hex == "0badf00d")
        // The shortest prefix of the stream that `qix detect`'s detector decodes.
        let detector = WatermarkDetector(key: Self.key)
        var firstDecodable = Double.infinity
        var t = stretches[0].lowerBound + 1
        while t <= stretches[0].upperBound {
            let prefix = buffer.slice(frames: 0..<Int(t * 16_000))
            if try detector.detect(prefix).contains(where: { $0.message == 0x0BADF00D }) { firstDecodable = t; break }
            t += 0.25
        }
        #expect(firstDecodable.isFinite)
        #expect(heard.emittedAt <= firstDecodable + 1.5, "heard at \(heard.emittedAt), decodable from \(firstDecodable)")
        #expect(heard.emittedAt - heard.end <= 1.0)
    }

    @Test("two spots in turn, silence, random samples and NaN: no wrong ID, no crash")
    func junk() throws {
        let (buffer, _) = try Self.program(marked: [(0x11112222, 8), (0x33334444, 8)], gap: 5)
        let heard = try Self.listen(buffer, block: 4093)
        #expect(Set(heard.map(\.hex)).isSubset(of: ["11112222", "33334444"]))
        #expect(heard.count >= 2)
        var noise = TestSignals.Noise(state: 7)
        var junk = [Float](repeating: 0, count: 16_000 * 30)
        for i in 16_000 * 10 ..< 16_000 * 20 { junk[i] = noise.next() }
        for i in stride(from: 16_000 * 20, to: junk.count, by: 97) { junk[i] = .nan }
        #expect(try Self.listen(AudioBuffer(samples: junk, channels: 1, sampleRate: 16_000)).isEmpty)
    }

    @Test("out-of-range stream parameters are refused with the option named")
    func parameters() {
        let error = #expect(throws: WatermarkError.self) { try StreamingDetector(key: Self.key, inputRate: 1000, channels: 1) }
        #expect(error?.parameter == "sampleRate")
    }
}
