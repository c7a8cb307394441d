import ArgumentParser
import QixMarkup
import QixAudio

/// `qix info`: format, rate, channels, duration and levels of audio files or raw streams.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show format, sample rate, channels, duration, peak and RMS of audio files.",
        discussion: """
            Reads every format libsndfile reads (WAV, FLAC, Ogg/Vorbis, Opus, MP3, AIFF, ...) and, \
            through FFmpeg's libraries, AAC (ADTS, MP4/M4A), MPEG-TS, AC-3 and the first audio track \
            of video files, naming the container, the codec (AAC_LC, AAC_HE, AC3, MP2, ...) and the \
            stream read; '-' reads a file from standard input. A cut input is measured up to the cut, \
            with a warning. With --raw, inputs are headerless PCM \
            described by --format, --rate and --channels. An input that cannot be read gets \
            an error line, the others are still processed, and the exit code is 1.
            """)

    @Argument(help: "Audio files ('-' for standard input).")
    var files: [String]

    @Flag(help: "One JSON object per input, one per line.")
    var json = false

    @Flag(help: "Treat inputs as headerless PCM (see --format, --rate, --channels).")
    var raw = false

    @Option(help: "Raw sample format: s16le, s24le, s32le or f32le.")
    var format = "s16le"

    @Option(parsing: .unconditional, help: "Raw sample rate in Hz.")
    var rate = 48_000

    @Option(parsing: .unconditional, help: "Raw interleaved channel count.")
    var channels = 1

    @OptionGroup var quietOption: QuietOption

    func run() throws {
        quietOption.apply()
        let rawFormat = raw ? try RawSampleFormat.parse(format) : nil
        var failed = 0
        for path in files {
            do {
                let (info, levels) = try rawFormat.map { try measureRaw(path, $0) } ?? measureFile(path)
                print(json ? jsonLine(info, levels) : humanLine(info, levels))
            } catch {
                failed += 1
                StandardError.error(error)
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }

    private func measureFile(_ path: String) throws -> (AudioFileInfo, SignalLevels) {
        let reader = try AudioFileReader(path: path)
        var levels = SignalLevels()
        try reader.forEachBlock { levels.add($0) }
        StandardError.inputDamage(reader)
        var info = reader.info
        info.frames = reader.framesRead
        return (info, levels)
    }

    private func measureRaw(_ path: String, _ format: RawSampleFormat) throws -> (AudioFileInfo, SignalLevels) {
        let reader = try RawPCMReader(path: path, format: format, channels: channels, sampleRate: rate)
        var levels = SignalLevels()
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 16_384 * channels)
        defer { block.deallocate() }
        while true {
            let frames = try reader.read(into: block)
            if frames == 0 { break }
            levels.add(UnsafeBufferPointer(rebasing: block[0 ..< frames * channels]))
        }
        if reader.droppedBytes > 0 {
            StandardError.warning("\(path): stream ended mid-frame; dropped \(reader.droppedBytes) bytes of an incomplete last frame")
        }
        let info = AudioFileInfo(path: path, container: "RAW", encoding: format.rawValue.uppercased(),
                                 sampleRate: rate, channels: channels, frames: reader.framesRead)
        return (info, levels)
    }

    private func humanLine(_ info: AudioFileInfo, _ levels: SignalLevels) -> String {
        func db(_ value: Double?) -> String { value.map { String(format2: $0) + " dBFS" } ?? "-inf dBFS" }
        var line = "\(info.path): \(info.container) \(info.encoding)"
        if info.streams > 1 { line += " (stream \(info.stream) of \(info.streams))" }
        line += ", \(info.sampleRate) Hz, \(info.channels) ch, "
        line += "\(String(format3: info.duration)) s (\(info.frames) frames), peak \(db(levels.peakDBFS)), RMS \(db(levels.rmsDBFS))"
        if levels.nonFiniteCount > 0 { line += ", \(levels.nonFiniteCount) NaN/inf samples" }
        return line
    }

    private func jsonLine(_ info: AudioFileInfo, _ levels: SignalLevels) -> String {
        var line = JSONLine()
        line.add("file", info.path)
        line.add("container", info.container)
        line.add("encoding", info.encoding)
        line.add("sample_rate", info.sampleRate)
        line.add("channels", info.channels)
        line.add("frames", Int(info.frames))
        line.add("duration", info.duration)
        line.add("peak_dbfs", levels.peakDBFS.map { ($0 * 100).rounded() / 100 })
        line.add("rms_dbfs", levels.rmsDBFS.map { ($0 * 100).rounded() / 100 })
        line.add("nonfinite_samples", Int(levels.nonFiniteCount))
        line.add("stream", info.stream)
        line.add("streams", info.streams)
        return line.string
    }
}

extension String {
    /// Fixed-point text with 2 decimals.
    init(format2 value: Double) { self = fixed(value, 2) }
    /// Fixed-point text with 3 decimals.
    init(format3 value: Double) { self = fixed(value, 3) }
}

/// Fixed-point formatting without Foundation's locale-dependent `String(format:)`.
func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int64(scaled / scale)
    let fraction = Int64(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(whole) }
    return sign + String(whole) + "." + String(fraction).leftPadded(decimals)
}
