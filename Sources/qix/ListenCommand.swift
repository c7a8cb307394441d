import ArgumentParser
import QixMarkup
import QixAudio
import QixWatermark
#if canImport(Glibc)
import Glibc
#endif

/// `qix listen`: detects IDs in raw PCM on standard input as soon as they are heard.
struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Detect IDs live in a raw PCM stream on standard input.",
        discussion: """
            Reads headerless PCM from stdin until EOF, e.g. \
            'arecord -f S16_LE -r 48000 -c 1 | qix listen' or \
            'ffmpeg -i SOURCE -f s16le -ac 1 -ar 48000 - | qix listen'. Each ID is printed \
            (and stdout flushed) as soon as it is decided; an ID heard continuously is \
            printed once, and again only after it has been absent for 4 s or more. With \
            --json, one line per ID: {"message", "start", "end", "score", "emitted_at"}, \
            times in stream seconds (emitted_at: audio read when the line was printed). \
            Memory stays bounded for streams of any length. Exit codes: 0 done (EOF, \
            --until-first satisfied, or --max-seconds reached after an ID), 1 bad input \
            (a key file, the stream), 2 bad usage (an unknown flag, or a bad value of any \
            flag: --rate, --channels, --format, --max-seconds, --expect), 3 when --until-first or --max-seconds was given and no ID was heard.
            """)

    @Option(help: "Key file (32 hex digits); without it the public test key is used. Exactly one: listen follows one key's marks.")
    var key: [String] = []

    @Option(parsing: .unconditional, help: "Sample rate of the stream in Hz.")
    var rate = 48_000

    @Option(parsing: .unconditional, help: "Interleaved channels in the stream (mixed down).")
    var channels = 1

    @Option(help: "Sample format: s16le, s24le, s32le or f32le.")
    var format = "s16le"

    @Flag(help: "One JSON object per heard ID.")
    var json = false

    @Flag(help: "Exit after the first ID (the app's shake-and-listen use).")
    var untilFirst = false

    @Option(parsing: .unconditional, help: "Stop after this many seconds of audio.")
    var maxSeconds: Double?

    @Option(help: ArgumentHelp(ExpectOption.help, valueName: "ids"))
    var expect: [String] = []

    @Flag(help: ArgumentHelp(
        "Decode as 'qix detect' decodes clips (64-path list decoding).",
        discussion: "A little more heard in rooms and noise, for short listening such as --until-first: each window makes 2.4 times the keyed checks, so round-the-clock monitoring should leave it off."))
    var thorough = false

    @Flag(help: ArgumentHelp(
        "Treat the stream as one app listening session: when it ends (EOF or --max-seconds), expected IDs (--expect) are searched for at a lower score.",
        discussion: "The last search takes the whole stream (its last 10 s, if longer) as 'qix detect --session' takes a file: one hour of monitoring's chance of a false report for the whole session, so 3 s of audio report an expected ID from score 5.9 instead of 7. The searches before the end keep the monitor's threshold. For an app's capture of a few seconds, not for round-the-clock listening."))
    var session = false

    @Flag(help: ArgumentHelp(
        "At the end, print on stderr the searches and keyed checks made.",
        discussion: "Each keyed check of a new candidate is a 2^-24 chance of a false ID on audio without this key's mark (a candidate checked again gives the same answer): their count times 2^-24 bounds the false IDs of the whole listen."))
    var stats = false

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        try KeyOption.requireOne(key, "listen follows")
        // Bounded so that the frame count stays an integer: a billion seconds is 31 years.
        if let maxSeconds, !(maxSeconds > 0 && maxSeconds <= 1e9) {
            throw ValidationError("--max-seconds must be more than 0 and at most 1e9 seconds")
        }
    }

    func run() throws {
        quietOption.apply()
        signal(SIGPIPE, SIG_IGN)
        let (sampleFormat, expected) = try Self.asUsage { (try RawSampleFormat.parse(format), try ExpectOption.parse(expect)) }
        ExpectOption.warnIfSessionWithoutExpected(session: session, expected: expected)
        let reader = try Self.asUsage {
            try RawPCMReader(fd: STDIN_FILENO, format: sampleFormat, channels: channels, sampleRate: rate)
        }
        // The public key's warning waits until the flags are known to be good, so that bad
        // usage is one line.
        let watermarkKey = try key.first.map { try KeyOption.load($0) } ?? WatermarkKey.publicTestKey
        let detector = try Self.asUsage {
            try StreamingDetector(key: watermarkKey, inputRate: rate, channels: channels,
                                  expected: expected, listDecoding: thorough, endsSession: session)
        }
        if key.isEmpty { KeyOption.warnPublicKey() }

        defer { if stats { StandardError.line(Self.statsLine(detector)) } }
        let limitFrames = maxSeconds.map { Int64(($0 * Double(rate)).rounded()) }
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096 * channels)
        defer { block.deallocate() }
        var heardAny = false
        reading: while true {
            var frames = try reader.read(into: block)
            if frames == 0 { break }
            if let limitFrames { frames = Int(min(Int64(frames), limitFrames - detector.framesRead)) }
            for heard in detector.feed(UnsafeBufferPointer(rebasing: block[0..<(frames * channels)])) {
                heardAny = true
                guard emit(heard) else { return }
                if untilFirst { return }
            }
            if let limitFrames, detector.framesRead >= limitFrames { break reading }
        }
        if reader.droppedBytes > 0 {
            StandardError.warning("stdin: stream ended mid-frame; dropped \(reader.droppedBytes) bytes of an incomplete last frame")
        }
        for heard in detector.finish() {
            heardAny = true
            guard emit(heard) else { return }
            if untilFirst { return }
        }
        if !heardAny && (untilFirst || maxSeconds != nil) { throw ExitCode(3) }
    }

    /// Runs `body`, turning an error about a flag's value into bad usage (exit 2), as
    /// `validate` does for --max-seconds: every bad flag value of `listen` exits alike.
    static func asUsage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as QixError {
            let named = error.renamingParameter(ParameterFlags.flags)
            guard named.subject.hasPrefix("--") else { throw error }
            throw ValidationError("\(named.subject) \(named.what): \(named.reason)")
        }
    }

    /// The `--stats` line: what was searched, and the false-ID bound it implies.
    static func statsLine(_ detector: StreamingDetector) -> String {
        let count = detector.keyedChecks
        let bound = Double(count.distinct) / Double(1 << 24)
        let seconds = DetectCommand.rounded(detector.secondsRead)
        return "qix listen: \(seconds) s of audio, \(detector.searches) searches, \(count.checks) keyed checks"
            + " of \(count.distinct) distinct candidates: at most \(String(format: "%.1e", bound)) false IDs expected without this key's mark"
    }

    /// Prints one heard ID and flushes; false when stdout is gone (a closed pipe ends
    /// the listen quietly, with what was printed intact).
    private func emit(_ heard: StreamingDetector.Heard) -> Bool {
        var text: String
        if json {
            var line = JSONLine()
            line.add("message", heard.hex)
            line.add("start", DetectCommand.rounded(heard.start))
            line.add("end", DetectCommand.rounded(heard.end))
            line.add("score", (heard.score * 100).rounded() / 100)
            line.add("emitted_at", DetectCommand.rounded(heard.emittedAt))
            text = line.string
        } else {
            text = "\(heard.hex)  \(fixed(heard.start, 2))-\(fixed(heard.end, 2)) s  score \(fixed(heard.score, 1))  (heard at \(fixed(heard.emittedAt, 2)) s)"
        }
        text += "\n"
        return text.utf8CString.withUnsafeBufferPointer { bytes in
            var offset = 0
            let count = bytes.count - 1
            while offset < count {
                let put = write(STDOUT_FILENO, bytes.baseAddress! + offset, count - offset)
                if put < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += put
            }
            return true
        }
    }
}
