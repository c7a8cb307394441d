import ArgumentParser
import QixAudio
import QixWatermark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `qix embed`: hides a 32-bit ID in an audio file under a key.
struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Hide a 32-bit ID (8 hex digits) inaudibly in an audio file.",
        discussion: """
            The ID is repeated through the whole file (one frame every 3.072 s), so any 3 to 5 s \
            of the output decodes, whatever its start. OUTPUT's format follows its extension: \
            .wav (PCM 16, or float when INPUT is float), .flac, .ogg (Vorbis), .opus, .mp3; it keeps \
            INPUT's sample rate, channel count and length. Opus only stores 8, 12, 16, 24 or 48 kHz: \
            other rates are refused (resample first, e.g. with sox). INPUT needs at least 12 kHz and \
            0.128 s of audio. Without --key the public test key is used (a warning says so). An \
            existing OUTPUT is never replaced without --force.
            """)

    @Argument(help: "Audio file to mark ('-' reads a WAV/FLAC stream from stdin).")
    var input: String

    @Argument(help: "Where to write the marked audio; written atomically.")
    var output: String

    @Option(help: "The ID: exactly 8 hex digits (case-insensitive).")
    var message: String

    @Option(help: "Key file from 'qix keygen' (default: the public test key); exactly one: a mark is made with one key.")
    var key: [String] = []

    @Option(parsing: .unconditional, help: "Watermark strength relative to the profile's tuned level (1); (0, 5]. Scales the mark's amplitude: 2 is 6 dB stronger (SNR and masking limits), and may be heard.")
    var strength: Double = 1

    @Option(help: "What the mark is tuned for: broadcast (TV, radio, streams; transparent by PEAQ, the default) or venue (stadium and arena PA: 4.4 dB louder, perceptible on speech and crowds).")
    var profile: WatermarkProfile = .broadcast

    @Flag(help: "Replace OUTPUT if it exists.")
    var force = false

    @OptionGroup var masking: MaskingOptions

    @OptionGroup var quietOption: QuietOption

    func validate() throws { try KeyOption.requireOne(key, "embed marks") }

    func run() throws {
        quietOption.apply()
        let payload = try WatermarkPayload(hex: message)
        let limits = try masking.limits()
        guard AudioFileFormat(path: output) != nil else {
            throw CommandFailure("cannot write audio", output, "unknown extension; use .wav, .flac, .ogg, .opus or .mp3")
        }
        try refuseExistingOutput()
        let watermarkKey = try KeyOption.load(key.first)
        let reader = try AudioFileReader(path: input)
        if let format = AudioFileFormat(path: output), let rates = format.supportedSampleRates,
           !rates.contains(reader.info.sampleRate) {
            throw CommandFailure("cannot write audio", output,
                                 "\(format.rawValue) cannot store \(reader.info.sampleRate) Hz; it takes \(rates.map(String.init).joined(separator: ", ")) Hz (resample the input first)")
        }
        let embedder = try WatermarkEmbedder(key: watermarkKey, payload: payload, strength: strength, profile: profile, masking: limits)
        let writer = try AudioFileWriter(path: output, sampleRate: reader.info.sampleRate, channels: reader.info.channels,
                                         encoding: reader.info.isFloat ? .float32 : .pcm16)
        // Block by block: memory stays bounded whatever the length; encoding runs on its
        // own thread beside the embedding. On any error the partial file is dropped, so
        // OUTPUT is complete or absent.
        let background = BackgroundAudioWriter(writer)
        let report: EmbeddingReport
        do {
            report = try embedder.embed(from: reader) { try background.write($0) }
            StandardError.inputDamage(reader)
            // The last guard before OUTPUT appears: a mark whose level is not a number was
            // not made, and must not be reported as made.
            if let snr = report.watermarkSNR, !snr.isFinite {
                throw CommandFailure("cannot embed", input == "-" ? "stdin" : input, "the watermark came out as not-a-number; the audio is beyond what the codec can mark")
            }
            try background.finish()
        } catch let error as WatermarkError where error.what == "cannot embed" {
            background.abandon()
            throw CommandFailure(error.what, input == "-" ? "stdin" : input, "\(error.subject): \(error.reason)")
        } catch {
            background.abandon()
            throw error
        }
        guard report.input.peak > 0, let snr = report.watermarkSNR else {
            StandardError.warning("\(input): the audio is silent, so the output carries no watermark (silence stays silent)")
            return
        }
        // What a producer checks before air: which ID went where, and how far under the audio.
        let seconds = Double(report.frames) / Double(reader.info.sampleRate)
        StandardError.info(String(format: "qix: marked %@ with %@ (format %d): %.1f s, watermark %.1f dB under the audio",
                                  output, payload.hex, embedder.format.rawValue, seconds, snr))
    }

    /// An existing OUTPUT stays unless `--force`, as for `qix keygen`: one typo in a
    /// command line must not cost a master recording.
    private func refuseExistingOutput() throws {
        var status = stat()
        guard lstat(output, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR { throw CommandFailure("cannot write audio", output, "is a directory") }
        if !force { throw CommandFailure("cannot write audio", output, "file exists; use --force to replace it") }
    }
}
