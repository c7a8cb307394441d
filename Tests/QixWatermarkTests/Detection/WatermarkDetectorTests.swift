import Foundation
import Testing
import QixAudio
@testable import QixWatermark

struct WatermarkDetectorTests {
    let key = WatermarkKey.publicTestKey
    let message: UInt32 = 0x5eed1234

    /// The first `seconds` of a corpus clip, marked.
    func marked(_ prefix: String = "a01", seconds: Double) throws -> AudioBuffer {
        try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message))
            .embed(TestSignals.corpus(prefix, seconds: seconds))
    }

    /// `spot` aired in `speech`: after its first `lead` seconds, then the speech again from its
    /// `resume`th second on.
    static func aired(_ spot: AudioBuffer, after lead: Double, resumingAt resume: Int, of speech: AudioBuffer) -> AudioBuffer {
        var audio = speech.slice(frames: 0..<Int(lead * Double(speech.sampleRate)))
        audio.samples += spot.samples
        audio.samples += speech.samples.suffix(from: resume * speech.sampleRate)
        return audio
    }

    /// The detector correlates with format 1's sync: format 1 peaks at the frame offset,
    /// format 2 (sync negated) dips there, and each polarity's best is found.
    @Test(arguments: WatermarkFormat.allCases)
    func syncCorrelatorFindsTheOffset(_ format: WatermarkFormat) {
        let correlator = SyncCorrelator(layout: WatermarkLayout(key: key, format: .convolutional))
        let layout = WatermarkLayout(key: key, format: format)
        let period = WatermarkParameters.hopsPerFrame
        var noise = TestSignals.Noise(state: 5)
        let chips = layout.chips(for: WatermarkPayload(message: 1), key: key)
        for shift in [0, 7, 100, 191] {
            var window = [Float](repeating: 0, count: WatermarkParameters.bandCount * period)
            for b in 0..<WatermarkParameters.bandCount {
                for r in 0..<period {
                    let tile = (r / WatermarkParameters.hopsPerSlot) * WatermarkParameters.bandCount + b
                    window[b * period + (r + shift) % period] = 0.35 * chips[tile] + noise.next()
                }
            }
            let positive = correlator.correlate(window)
            let (offset, z) = correlator.best(polarity: format.syncPolarity)
            // The same noise adds to one polarity's peak what it takes from the other's.
            #expect(offset == shift)
            #expect(z > 4.2)
            #expect(correlator.best(polarity: -format.syncPolarity).z < 4)
            if format == .convolutional { #expect(positive.offset == offset && positive.z == z) }
        }
    }

    @Test(arguments: ["a01", "a05"])
    func decodesAnExcerptAnywhere(_ host: String) throws {
        let audio = try marked(host, seconds: 12)
        let rate = Double(audio.sampleRate)
        let detector = WatermarkDetector(key: key)
        for start in [0.0, 1.37, 6.9] {
            let clip = audio.slice(frames: Int(start * rate)..<Int((start + 5) * rate))
            let found = try detector.detect(clip)
            #expect(found.map(\.message) == [message], "start \(start)")
        }
    }

    /// Marks written before format 2 keep reading, as clips (thorough search) and as
    /// recordings (the fast search), each reported in its own format.
    @Test(arguments: WatermarkFormat.allCases)
    func readsEveryFormat(_ format: WatermarkFormat) throws {
        let audio = try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message), format: format)
            .embed(TestSignals.corpus("a02", seconds: 12))
        let clip = audio.slice(frames: 50_000..<(50_000 + 4 * audio.sampleRate))
        for (input, detector) in [(clip, WatermarkDetector(key: key)), (audio, WatermarkDetector(key: key, thoroughSearchSeconds: 0))] {
            let found = try detector.detect(input)
            #expect(found.map(\.message) == [message], "format \(format)")
            #expect(found.map(\.format) == [format])
        }
    }

    @Test func findsNothingWithoutMarkOrWithWrongKey() throws {
        let other = try WatermarkKey(hex: "00112233445566778899aabbccddeeff")
        #expect(try WatermarkDetector(key: other).detect(try marked(seconds: 6)).isEmpty)
        #expect(try WatermarkDetector(key: key).detect(TestSignals.corpus("a02", seconds: 6)).isEmpty)
        #expect(try WatermarkDetector(key: key).detect(TestSignals.music(seconds: 6, seed: 4)).isEmpty)
        let silence = AudioBuffer(samples: [Float](repeating: 0, count: 48_000 * 4), channels: 1, sampleRate: 48_000)
        #expect(try WatermarkDetector(key: key).detect(silence).isEmpty)
        let square = AudioBuffer(samples: (0..<(44_100 * 4)).map { ($0 / 50) % 2 == 0 ? 1 : -1 }, channels: 1, sampleRate: 44_100)
        #expect(try WatermarkDetector(key: key).detect(square).isEmpty)
        let short = AudioBuffer(samples: [Float](repeating: 0.1, count: 1000), channels: 1, sampleRate: 44_100)
        #expect(try WatermarkDetector(key: key).detect(short).isEmpty)
    }

    @Test func searchesSpeed() throws {
        let audio = try marked("a02", seconds: 6)
        for factor in [1.03, 0.97, 1.012] {
            let changed = try Resampler.changeSpeed(audio, by: factor)
            let clip = changed.slice(frames: 22_050..<(22_050 + 4 * 44_100))
            let found = try WatermarkDetector(key: key).detect(clip)
            #expect(found.map(\.message) == [message], "speed \(factor)")
            if let speed = found.first?.speed { #expect(abs(speed - factor) < 0.006) }
        }
    }

    /// Without the speed search a detector still reads unchanged audio, at speed 1, and
    /// misses a copy played 3 % fast, which the default detector reads.
    @Test func speedSearchCanBeSwitchedOff() throws {
        let clip = try marked("a02", seconds: 6).slice(frames: 22_050..<(22_050 + 4 * 44_100))
        let plain = try WatermarkDetector(key: key, searchesSpeed: false).detect(clip)
        #expect(plain.map(\.message) == [message])
        #expect(plain.first?.speed == 1)
        let fast = try Resampler.changeSpeed(try marked("a02", seconds: 6), by: 1.03)
            .slice(frames: 22_050..<(22_050 + 4 * 44_100))
        #expect(try WatermarkDetector(key: key, searchesSpeed: false).detect(fast).isEmpty)
        #expect(try WatermarkDetector(key: key).detect(fast).map(\.message) == [message])
    }

    /// A file marked only in its middle third: the reported stretch is within 0.5 s, in
    /// either format (each located with its own pattern).
    @Test(arguments: WatermarkFormat.allCases)
    func locatesAMarkedMiddleThird(_ format: WatermarkFormat) throws {
        let host = try TestSignals.corpus("a05", seconds: 24)
        let third = host.frameCount / 3
        let middle = try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message), format: format)
            .embed(host.slice(frames: third..<(2 * third)))
        var audio = host
        audio.samples.replaceSubrange((third * host.channels)..<(2 * third * host.channels), with: middle.samples)
        let found = try WatermarkDetector(key: key).detect(audio)
        #expect(found.count == 1)
        let start = Double(third) / Double(host.sampleRate), end = 2 * start
        if let d = found.first {
            #expect(d.message == message && d.format == format)
            #expect(abs(d.start - start) <= 0.5 && abs(d.end - end) <= 0.5, "\(d.start)-\(d.end) vs \(start)-\(end)")
        }
    }

    /// A spot cut by the end of a recording (it goes on in the next one) fills no
    /// frame-aligned window; it must still be found, with its start, from the last seconds.
    @Test func findsASpotCutByTheEndOfTheInput() throws {
        let speech = try TestSignals.corpus("a05", seconds: 24)
        // Played 2 % fast, as a broadcaster's speed-up would.
        let spot = try Resampler.resample(try Resampler.changeSpeed(try marked("a01", seconds: 10), by: 1.02).mixedToMono(),
                                          to: speech.sampleRate)
        var long = speech
        long.samples += speech.samples + speech.samples
        for (lead, seconds) in [(61.5, 4.0), (60.8, 4.0), (61.1, 3.5), (60.0, 3.5), (62.0, 3.5)] {
            var audio = long.slice(frames: 0..<Int(lead * Double(speech.sampleRate)))
            audio.samples += spot.samples.prefix(Int(seconds * Double(speech.sampleRate)))
            // In chunks, as qix detect and qix scan read recordings: the last search holds
            // the chunk overlap and what came after it.
            let recording = try RecordingDetector(detector: WatermarkDetector(key: key), inputRate: audio.sampleRate,
                                                  channels: audio.channels, chunkSeconds: 24, overlapSeconds: 12)
            audio.samples.withUnsafeBufferPointer { recording.feed($0) }
            let found = recording.finish(duration: audio.duration)
            #expect(found.map(\.message) == [message], "\(seconds) s")
            if let d = found.first { #expect(abs(d.start - lead) <= 0.5, "\(seconds) s: starts at \(d.start)") }
        }
    }

    /// A spot after speech is located where it starts, not where the speech before it
    /// happens to score high (the run's threshold comes from the marked hops alone). Aired
    /// whole, it starts on a boundary of its frame grid: to the hop, as a monitor bills.
    @Test func locatesASpotAfterSpeech() throws {
        let speech = try TestSignals.corpus("a05", seconds: 24)
        for host in ["a01", "a02", "a03"] {
            for lead in [9.0, 10.3, 12.0] {
                let spot = try Resampler.resample(try marked(host, seconds: 10).mixedToMono(), to: speech.sampleRate)
                let found = try WatermarkDetector(key: key).detect(Self.aired(spot, after: lead, resumingAt: 12, of: speech))
                #expect(found.map(\.message) == [message])
                if let d = found.first {
                    #expect(abs(d.start - lead) <= 0.02 && abs(d.end - lead - 10) <= 0.5, "\(host): \(d.start)-\(d.end) vs \(lead)")
                }
            }
        }
    }

    /// A spot played 2 % fast is read at the search's nearest speed, 1.015; over a 15 s
    /// spot the frame grid read at that speed drifts 2 slots, so the spot's first and last
    /// seconds score too little to be reached. The locator refines the speed and finds both.
    @Test func locatesASpotPlayedFast() throws {
        let speech = try TestSignals.corpus("a05", seconds: 24)
        for host in ["a01", "a02", "a03"] {
            let fast = try Resampler.changeSpeed(try marked(host, seconds: 15), by: 1.02).mixedToMono()
            let spot = try Resampler.resample(fast, to: speech.sampleRate)
            let found = try WatermarkDetector(key: key).detect(Self.aired(spot, after: 10, resumingAt: 12, of: speech))
            #expect(found.map(\.message) == [message])
            if let d = found.first {
                #expect(abs(d.start - 10) <= 0.05 && abs(d.end - 10 - 15 / 1.02) <= 0.5, "\(host): \(d.start)-\(d.end)")
            }
        }
    }

    /// A loud spot followed by quieter speech ends where it ends: the speech is 15 dB and more
    /// under the rock spot, so it read as the spot's quiet tail, and the end was carried 0.98 s
    /// into it, to a pause in the speech.
    @Test func locatesTheEndOfALoudSpotBeforeQuieterSpeech() throws {
        let speech = try TestSignals.corpus("a05", seconds: 24)
        let spot = try Resampler.resample(try marked("a01", seconds: 15).mixedToMono(), to: speech.sampleRate)
        let found = try WatermarkDetector(key: key).detect(Self.aired(spot, after: 10, resumingAt: 14, of: speech))
        #expect(found.map(\.message) == [message])
        if let d = found.first { #expect(abs(d.start - 10) <= 0.02 && abs(d.end - 25) <= 0.5, "\(d.start)-\(d.end)") }
    }

    /// A spot that ends in a quiet passage (a09, vinyl ambience, is quiet from its 8th
    /// second on) ends where it ends: its weak last seconds score above their own noise,
    /// though far under the strong run's threshold, which alone ended all three at 8 s.
    @Test func locatesTheEndOfASpotInAQuietPassage() throws {
        let speech = try TestSignals.corpus("a05", seconds: 24)
        for seconds in [12.0, 14.0, 16.0] {
            let spot = try Resampler.resample(try marked("a09", seconds: seconds).mixedToMono(), to: speech.sampleRate)
            let found = try WatermarkDetector(key: key).detect(Self.aired(spot, after: 8, resumingAt: 12, of: speech))
            #expect(found.map(\.message) == [message])
            if let d = found.first {
                #expect(abs(d.start - 8) <= 0.5 && abs(d.end - 8 - seconds) <= 0.5, "\(seconds) s: \(d.start)-\(d.end)")
            }
        }
    }

    /// The streaming path: blocks of odd sizes through the front end, old hops dropped,
    /// detection on what is left, with times still in stream seconds.
    @Test func detectsFromStreamedBlocksAfterDroppingOldHops() throws {
        let audio = try marked("a03", seconds: 12)
        let frontEnd = try SpectralFrontEnd(inputRate: audio.sampleRate, channels: audio.channels)
        var position = 0
        var sizes = [1, 37, 4096, 999, 20_000]
        while position < audio.samples.count {
            let size = min(sizes[0] * audio.channels, audio.samples.count - position)
            sizes.append(sizes.removeFirst())
            audio.samples.withUnsafeBufferPointer { frontEnd.feed(UnsafeBufferPointer(rebasing: $0[position..<(position + size)])) }
            position += size
        }
        frontEnd.finish()
        var spectra = frontEnd.spectra
        #expect(abs(spectra.count - 751) <= 1)
        spectra.drop(before: 250)
        #expect(spectra.firstHop == 250)
        let found = WatermarkDetector(key: key).detect(spectra, duration: audio.duration)
        #expect(found.map(\.message) == [message])
        if let first = found.first { #expect(first.start >= 3.9 && first.end > 11.5) }
    }
}
