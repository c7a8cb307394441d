import Foundation
import QixAudio

/// A deterministic degradation the eval applies to marked (and unmarked) audio: what
/// happens between a broadcaster and a phone.
public enum Attack: String, CaseIterable, Sendable {
    /// No change.
    case clean
    /// MP3 at 128 kbit/s CBR (LAME through libsndfile), decoded again.
    case mp3_128
    /// MP3 at 64 kbit/s CBR.
    case mp3_64
    /// Ogg Vorbis near 64 kbit/s (libsndfile sets a quality, not a bitrate).
    case vorbis_64
    /// Opus at 32 kbit/s, at 48 kHz (resampled first when the rate is not an Opus rate).
    case opus_32
    /// Mono mix resampled to 16 kHz.
    case resample_16k
    /// Played 3 % faster (resampling speed change: shorter, higher).
    case speedUp = "speed_+3"
    /// Played 3 % slower.
    case speedDown = "speed_-3"
    /// Seeded pink noise at 10 dB SNR.
    case pink_noise_10db
    /// +6 dB gain, then hard clipping at full scale.
    case clip_6db
    /// Phone in a room: 16 kHz capture 50 ppm fast, speaker IR r04, room IR r03, crowd a07 at 10 dB SNR.
    case room
    /// Stadium: 16 kHz, hall IR r02, cheering crowd a08 at 0 dB SNR.
    case stadium
    /// Component of `room`: 16 kHz mono, room IR r03 only.
    case room_ir
    /// Component of `room`: 16 kHz mono, speaker IR r04 only.
    case speaker_ir
    /// Component of `room`: 16 kHz mono, crowd a07 at 10 dB SNR only.
    case crowd_10db
    /// Component of `stadium`: 16 kHz mono, hall IR r02 only.
    case hall_ir
    /// Component of `stadium`: 16 kHz mono, cheering crowd a08 at 0 dB SNR only.
    case cheering_0db
    /// Narrow-band phone path (a call, a Bluetooth headset's microphone): the mono mix at
    /// 8 kHz through a 300-3400 Hz band-pass.
    case phone_band
    /// A steep 3 kHz low-pass at the input's rate and channels (a low-rate codec or a
    /// cheap capture chain ending the band early).
    case lowpass_3k

    /// The attacks of the robustness protocol in docs/watermark.md, section 5, run by default.
    public static let standard: [Attack] = [.clean, .mp3_128, .mp3_64, .vorbis_64, .opus_32, .resample_16k,
                                            .speedUp, .speedDown, .pink_noise_10db, .clip_6db, .room, .stadium]
    /// The acoustic attacks' parts one at a time, to see which part costs what.
    public static let components: [Attack] = [.speaker_ir, .room_ir, .crowd_10db, .hall_ir, .cheering_0db]
    /// Band limits inside the watermark band, on request.
    public static let bandLimits: [Attack] = [.phone_band, .lowpass_3k]

    /// Whether the attack plays the audio through the corpus's recordings (impulse
    /// responses, crowds), which must then be loaded.
    public var needsRecordings: Bool {
        switch self {
        case .room, .stadium, .speaker_ir, .room_ir, .crowd_10db, .hall_ir, .cheering_0db: return true
        // Listed, not `default`: a new attack must say whether it needs the corpus.
        case .clean, .mp3_128, .mp3_64, .vorbis_64, .opus_32, .resample_16k, .speedUp, .speedDown,
             .pink_noise_10db, .clip_6db, .phone_band, .lowpass_3k: return false
        }
    }

    /// The recordings the acoustic attacks need, loaded once.
    public struct Resources: Sendable {
        /// Loudspeaker impulse response (r04), 16 kHz mono.
        public var speaker: [Float]
        /// Medium room impulse response (r03), 16 kHz mono.
        public var room: [Float]
        /// Great hall impulse response (r02), 16 kHz mono.
        public var hall: [Float]
        /// Stadium crowd (a07), 16 kHz mono.
        public var stadiumCrowd: [Float]
        /// Cheering crowd (a08), 16 kHz mono.
        public var cheeringCrowd: [Float]

        /// No recordings: for runs whose attacks need none (`needsRecordings`).
        public static let none = Resources(speaker: [], room: [], hall: [], stadiumCrowd: [], cheeringCrowd: [])

        /// The names of the files in the corpus folder `directory`, or an error naming it
        /// when it is missing or not a folder (Foundation's own message is not one line).
        public static func fileNames(in directory: String) throws -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
                throw AudioError("cannot run eval", directory, "no such folder")
            }
            guard isDirectory.boolValue else { throw AudioError("cannot run eval", directory, "not a folder") }
            do {
                return try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw AudioError("cannot run eval", directory, "cannot list the folder")
            }
        }

        /// Loads the corpus files from `directory` (corpus/clips).
        public static func load(from directory: String) throws -> Resources {
            let names = try fileNames(in: directory)
            func mono16k(_ prefix: String) throws -> [Float] {
                guard let name = names.sorted().first(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".flac") }) else {
                    throw AudioError("cannot load eval corpus", directory, "no \(prefix)*.flac")
                }
                let buffer = try AudioFileReader.readAll(path: directory + "/" + name).mixedToMono()
                return try Resampler.resample(buffer, to: 16_000).samples
            }
            return Resources(speaker: try mono16k("r04"), room: try mono16k("r03"), hall: try mono16k("r02"),
                             stadiumCrowd: try mono16k("a07"), cheeringCrowd: try mono16k("a08"))
        }
    }

    /// Applies the attack; `seed` fixes the noise and noise offsets.
    public func apply(_ input: AudioBuffer, resources: Resources, seed: UInt64, scratch: String) throws -> AudioBuffer {
        var random = SeededGenerator(seed: seed)
        switch self {
        case .clean:
            return input
        case .mp3_128:
            return try Self.codec(input, ext: "mp3", bitrate: 128, scratch: scratch)
        case .mp3_64:
            return try Self.codec(input, ext: "mp3", bitrate: 64, scratch: scratch)
        case .vorbis_64:
            return try Self.codec(input, ext: "ogg", bitrate: 64, scratch: scratch)
        case .opus_32:
            // Opus only runs at 48 kHz and below: a broadcaster resamples first.
            let rate = [8000, 12000, 16000, 24000, 48000].contains(input.sampleRate) ? input.sampleRate : 48000
            return try Self.codec(try Resampler.resample(input, to: rate), ext: "opus", bitrate: 32, scratch: scratch)
        case .resample_16k:
            return try Resampler.resample(input.mixedToMono(), to: 16_000)
        case .speedUp:
            return try Resampler.changeSpeed(input, by: 1.03)
        case .speedDown:
            return try Resampler.changeSpeed(input, by: 0.97)
        case .pink_noise_10db:
            var output = input
            let noise = Self.pinkNoise(count: input.samples.count, random: &random)
            Self.add(noise, to: &output.samples, snr: 10)
            return output
        case .clip_6db:
            var output = input
            for i in 0..<output.samples.count { output.samples[i] = min(1, max(-1, 2 * output.samples[i])) }
            return output
        case .room:
            return try Self.roomCapture(input, resources: resources, random: &random)
        case .stadium:
            var signal = try Resampler.resample(input.mixedToMono(), to: 16_000).samples
            signal = Convolver.convolve(signal, with: resources.hall)
            Self.add(Self.loop(resources.cheeringCrowd, count: signal.count, random: &random), to: &signal, snr: 0)
            return AudioBuffer(samples: signal, channels: 1, sampleRate: 16_000)
        case .room_ir, .speaker_ir, .crowd_10db, .hall_ir, .cheering_0db:
            return try component(input, resources: resources, random: &random)
        case .phone_band:
            let narrow = try Resampler.resample(input.mixedToMono(), to: 8000)
            let filter = BandFilter.bandPass(from: 300, to: 3400, rate: 8000)
            return AudioBuffer(samples: Convolver.convolve(narrow.samples, with: filter), channels: 1, sampleRate: 8000)
        case .lowpass_3k:
            return Self.lowPassed(input, below: 3000)
        }
    }

    /// Speaker, room, crowd at 10 dB, and a 16 kHz phone capture whose clock runs 50 ppm fast.
    private static func roomCapture(_ input: AudioBuffer, resources: Resources,
                                    random: inout SeededGenerator) throws -> AudioBuffer {
        let mono = input.mixedToMono()
        let capture = try Resampler(inputRate: Double(mono.sampleRate), outputRate: 16_000 * (1 + 50e-6),
                                    channels: 1, quality: .high)
        var signal: [Float] = []
        capture.process(mono.samples, into: &signal)
        capture.flush(into: &signal)
        signal = Convolver.convolve(signal, with: resources.speaker)
        signal = Convolver.convolve(signal, with: resources.room)
        add(loop(resources.stadiumCrowd, count: signal.count, random: &random), to: &signal, snr: 10)
        return AudioBuffer(samples: signal, channels: 1, sampleRate: 16_000)
    }

    /// Every channel through a steep low-pass at `cutoff` Hz (Blackman-windowed sinc).
    private static func lowPassed(_ input: AudioBuffer, below cutoff: Double) -> AudioBuffer {
        let filter = BandFilter.bandPass(from: 0, to: cutoff, rate: input.sampleRate)
        var output = input
        for channel in 0..<input.channels {
            for (i, value) in Convolver.convolve(input.channel(channel), with: filter).enumerated() {
                output.samples[i * input.channels + channel] = value
            }
        }
        return output
    }

    /// One part of an acoustic attack on the 16 kHz mono mix.
    private func component(_ input: AudioBuffer, resources: Resources, random: inout SeededGenerator) throws -> AudioBuffer {
        var signal = try Resampler.resample(input.mixedToMono(), to: 16_000).samples
        switch self {
        case .room_ir: signal = Convolver.convolve(signal, with: resources.room)
        case .speaker_ir: signal = Convolver.convolve(signal, with: resources.speaker)
        case .hall_ir: signal = Convolver.convolve(signal, with: resources.hall)
        case .crowd_10db: Self.add(Self.loop(resources.stadiumCrowd, count: signal.count, random: &random), to: &signal, snr: 10)
        case .cheering_0db: Self.add(Self.loop(resources.cheeringCrowd, count: signal.count, random: &random), to: &signal, snr: 0)
        default: break
        }
        return AudioBuffer(samples: signal, channels: 1, sampleRate: 16_000)
    }

    /// Encodes to a temporary file with the real codec and decodes it again.
    static func codec(_ input: AudioBuffer, ext: String, bitrate: Int, scratch: String) throws -> AudioBuffer {
        let path = scratch + "/attack-\(getpid())." + ext
        defer { unlink(path) }
        try AudioFileWriter.write(input, to: path, bitrate: bitrate)
        return try AudioFileReader.readAll(path: path)
    }

    /// Pink noise (Paul Kellet's filter over Gaussian white noise).
    static func pinkNoise(count: Int, random: inout SeededGenerator) -> [Float] {
        var b0: Float = 0, b1: Float = 0, b2: Float = 0, b3: Float = 0, b4: Float = 0, b5: Float = 0, b6: Float = 0
        return (0..<count).map { _ in
            let white = random.gaussian()
            b0 = 0.99886 * b0 + white * 0.0555179
            b1 = 0.99332 * b1 + white * 0.0750759
            b2 = 0.96900 * b2 + white * 0.1538520
            b3 = 0.86650 * b3 + white * 0.3104856
            b4 = 0.55000 * b4 + white * 0.5329522
            b5 = -0.7616 * b5 - white * 0.0168980
            let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
            b6 = white * 0.115926
            return pink
        }
    }

    /// `noise` looped from a random start to `count` samples.
    static func loop(_ noise: [Float], count: Int, random: inout SeededGenerator) -> [Float] {
        guard !noise.isEmpty else { return [Float](repeating: 0, count: count) }
        var start = Int.random(in: 0..<noise.count, using: &random)
        var output: [Float] = []
        output.reserveCapacity(count)
        while output.count < count {
            let take = min(count - output.count, noise.count - start)
            output.append(contentsOf: noise[start..<(start + take)])
            start = 0
        }
        return output
    }

    /// Adds `noise` scaled so that signal power over noise power is `snr` dB.
    static func add(_ noise: [Float], to signal: inout [Float], snr: Double) {
        var signalPower = 0.0, noisePower = 0.0
        for i in 0..<signal.count {
            signalPower += Double(signal[i] * signal[i])
            noisePower += Double(noise[i] * noise[i])
        }
        guard noisePower > 0, signalPower > 0 else { return }
        let gain = Float((signalPower / noisePower / pow(10, snr / 10)).squareRoot())
        for i in 0..<signal.count { signal[i] += gain * noise[i] }
    }
}
