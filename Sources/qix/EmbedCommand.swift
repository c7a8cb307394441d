import ArgumentParser
import QixAudio
import QixWatermark

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
            0.128 s of audio. Without --key the public test key is used (a warning says so).
            """)

    @Argument(help: "Audio file to mark ('-' reads a WAV/FLAC stream from stdin).")
    var input: String

    @Argument(help: "Where to write the marked audio; written atomically.")
    var output: String

    @Option(help: "The ID: exactly 8 hex digits (case-insensitive).")
    var message: String

    @Option(help: "Key file from 'qix keygen' (default: the public test key).")
    var key: String?

    @Option(parsing: .unconditional, help: "Watermark strength relative to the tuned, inaudible default (1); (0, 5]. Scales the mark's amplitude: 2 is 6 dB stronger (SNR and masking limits), and may be heard.")
    var strength: Double = 1

    @OptionGroup var masking: MaskingOptions

    func run() throws {
        let payload = try WatermarkPayload(hex: message)
        let limits = try masking.limits()
        guard AudioFileFormat(path: output) != nil else {
            throw CommandFailure("cannot write audio", output, "unknown extension; use .wav, .flac, .ogg, .opus or .mp3")
        }
        let watermarkKey = try KeyOption.load(key)
        let reader = try AudioFileReader(path: input)
        if let format = AudioFileFormat(path: output), let rates = format.supportedSampleRates,
           !rates.contains(reader.info.sampleRate) {
            throw CommandFailure("cannot write audio", output,
                                 "\(format.rawValue) cannot store \(reader.info.sampleRate) Hz; it takes \(rates.map(String.init).joined(separator: ", ")) Hz (resample the input first)")
        }
        let embedder = try WatermarkEmbedder(key: watermarkKey, payload: payload, strength: strength, masking: limits)
        let writer = try AudioFileWriter(path: output, sampleRate: reader.info.sampleRate, channels: reader.info.channels,
                                         encoding: reader.info.isFloat ? .float32 : .pcm16)
        // Block by block: memory stays bounded whatever the length; encoding runs on its
        // own thread beside the embedding. On any error the partial file is dropped, so
        // OUTPUT is complete or absent.
        let background = BackgroundAudioWriter(writer)
        let report: EmbeddingReport
        do {
            report = try embedder.embed(from: reader) { try background.write($0) }
            try background.finish()
        } catch let error as WatermarkError where error.what == "cannot embed" {
            background.abandon()
            throw CommandFailure(error.what, input == "-" ? "stdin" : input, "\(error.subject): \(error.reason)")
        } catch {
            background.abandon()
            throw error
        }
        if let damage = reader.damage { StandardError.warning(damage.description) }
        guard report.input.peak > 0, let snr = report.watermarkSNR else {
            StandardError.warning("\(input): the audio is silent, so the output carries no watermark (silence stays silent)")
            return
        }
        // What a producer checks before air: which ID went where, and how far under the audio.
        let seconds = Double(report.frames) / Double(reader.info.sampleRate)
        StandardError.line(String(format: "qix: marked %@ with %@ (format %d): %.1f s, watermark %.1f dB under the audio",
                                  output, payload.hex, embedder.format.rawValue, seconds, snr))
    }
}
