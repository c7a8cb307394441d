import ArgumentParser
import QixMarkup
import Foundation
import QixAudio
import QixWatermark

/// `qix detect`: finds the IDs hidden in audio files.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find watermark IDs in audio files.",
        discussion: """
            Reads each INPUT (any format libsndfile reads, and AAC, MP4/M4A, MPEG-TS, AC-3 and the first \
            audio track of video files through FFmpeg's libraries; '-' reads any of them from stdin, \
            such as 'ffmpeg -i IN -f wav -') and \
            prints the IDs found, with where they were heard. Playback speeds within +-3 % are searched. \
            With --json: one object per input per line, in input order: \
            {"file", "duration", "detections": [{"message", "start", "end", "score", "format"}]} \
            (format: the watermark version the mark was embedded in, 1 or 2; with --key, also "key": \
            the key file that found it). --key may be repeated: each key is tried on every input \
            and each detection names its key (in text, when there are several). \
            An unreadable input prints an error on stderr, is skipped, and the exit code is 1 at the end; \
            finding nothing is not an error (exit 0). A cut or damaged input is searched up to where it \
            breaks, with one warning naming what was lost. On a terminal, inputs of 10 minutes or more \
            show their progress on stderr while they are read.
            """)

    @Argument(help: "Audio files to scan.")
    var inputs: [String]

    @Option(help: ArgumentHelp(
        "Key file from 'qix keygen' (default: the public test key); repeat it to try several keys.",
        discussion: "The audio is decoded and analysed once and searched once per key, so N keys cost up to N times the search's CPU; each detection names the key that found it."))
    var key: [String] = []

    @Flag(help: "One JSON object per input per line.")
    var json = false

    @Option(help: ArgumentHelp(ExpectOption.help, valueName: "ids"))
    var expect: [String] = []

    @Flag(help: "Print the time spent decoding/analysing and searching each input, and the keyed checks made, on stderr.")
    var timings = false

    @Flag(help: ArgumentHelp(
        "Search long inputs as thoroughly as clips of up to 20 s are searched.",
        discussion: "Sync peaks ranked by the fit of their codeword and a 64-path list decoder: a little more found in noisy or reverberant captures, for several times the search CPU and 2.4 times the false-positive bound per window."))
    var thorough = false

    @Flag(help: ArgumentHelp(
        "Treat each input as one app listening session: expected IDs (--expect) are heard at a lower score.",
        discussion: "The whole input is allowed the chance of a false report that one hour of monitoring has (about 1 in 60 000 inputs with 20 expected IDs), so a 3 s capture reports an expected ID from score 5.9 instead of 7. For short captures taken one at a time, not for recordings scanned back to back."))
    var session = false

    @OptionGroup var quietOption: QuietOption

    func run() throws {
        quietOption.apply()
        let expected = try ExpectOption.parse(expect)
        ExpectOption.warnIfSessionWithoutExpected(session: session, expected: expected)
        let keys = try KeyOption.loadAll(key)
        let detectors = keys.map { loaded in
            WatermarkDetector(key: loaded.key, expected: expected,
                              thoroughSearchSeconds: thorough ? .infinity : WatermarkDetector.clipSeconds,
                              falseReportBudget: session ? .perSession : .perHour)
        }
        var failed = false
        for input in inputs {
            do {
                let (found, duration) = try Self.detect(path: input, with: detectors, timings: timings)
                let (detections, paths) = Self.byStart(found, keyPaths: keys.map(\.path))
                print(json ? Self.jsonLine(file: input, duration: duration, detections: detections, keys: paths)
                           : Self.humanText(file: input, duration: duration, detections: detections,
                                            keys: keys.count > 1 ? paths : []))
            } catch {
                StandardError.error(error)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Every key's detections in time order, with the path of the key that found each
    /// (nil for the public test key).
    static func byStart(_ found: [[WatermarkDetection]], keyPaths: [String?]) -> ([WatermarkDetection], [String?]) {
        let tagged = zip(found, keyPaths).flatMap { detections, path in detections.map { ($0, path) } }
            .sorted { ($0.0.start, $0.0.message) < ($1.0.start, $1.0.message) }
        return (tagged.map(\.0), tagged.map(\.1))
    }

    /// Streams a file through a `RecordingDetector` block by block (bounded memory for
    /// recordings of any length) and returns each detector's detections.
    static func detect(path: String, with detectors: [WatermarkDetector], timings: Bool = false) throws -> ([[WatermarkDetection]], Double) {
        // The two counts, not the count itself: a copy would make the detector's next check
        // duplicate its whole set of recent candidates.
        let started = clock()
        let checksBefore = detectors.map(\.keyedChecks.checks).reduce(0, +)
        let distinctBefore = detectors.map(\.keyedChecks.distinct).reduce(0, +)
        let reader = try AudioFileReader(path: path)
        let recording: RecordingDetector
        // The detector listens to the channel mix: read it as such (one pass from FLAC's integers).
        do { recording = try RecordingDetector(detectors: detectors, inputRate: reader.info.sampleRate, channels: 1) }
        catch let error as WatermarkError { throw CommandFailure(error.what, path, error.reason) }
        var progress = DetectProgressLine(path: path, totalSeconds: reader.info.duration, sampleRate: reader.info.sampleRate)
        defer { progress.finish() }
        try reader.forEachMonoBlock { block in
            recording.feed(block)
            progress.update(framesRead: reader.framesRead)
        }
        // A cut or damaged input is searched up to where it breaks; the loss is said once.
        StandardError.inputDamage(reader)
        let duration = Double(reader.framesRead) / Double(reader.info.sampleRate)
        let detections = recording.finishEach(duration: duration)
        if timings {
            let seconds = Double(clock() - started) / Double(CLOCKS_PER_SEC)
            let checks = detectors.map(\.keyedChecks.checks).reduce(0, +) - checksBefore
            let distinct = detectors.map(\.keyedChecks.distinct).reduce(0, +) - distinctBefore
            StandardError.line("qix detect: \(path): \(seconds) CPU seconds for \(duration) s of audio (decode, analysis and search), \(checks) keyed checks of \(distinct) distinct candidates")
        }
        return (detections, duration)
    }

    /// The contract's JSON line; `keys[i]`, when there, is the path of the key that found
    /// detection `i`, given as `"key"` (nothing for the public test key).
    static func jsonLine(file: String, duration: Double, detections: [WatermarkDetection], keys: [String?] = []) -> String {
        var line = JSONLine()
        line.add("file", file)
        line.add("duration", rounded(duration))
        line.addRaw("detections", JSONLine.array(detections.enumerated().map { index, detection in
            var item = JSONLine()
            item.add("message", detection.hex)
            item.add("start", rounded(detection.start))
            item.add("end", rounded(detection.end))
            item.add("score", (detection.score * 100).rounded() / 100)
            item.add("format", detection.format.rawValue)
            if index < keys.count, let key = keys[index] { item.add("key", key) }
            return item.string
        }))
        return line.string
    }

    /// One line per detection; `keys[i]`, when there, names the key that found detection `i`.
    static func humanText(file: String, duration: Double, detections: [WatermarkDetection], keys: [String?] = []) -> String {
        if detections.isEmpty { return "\(file): no watermark found (\(rounded(duration)) s)" }
        return detections.enumerated().map { index, d in
            let key = index < keys.count ? ", key \(keys[index] ?? "public test key")" : ""
            return "\(file): \(d.hex) from \(rounded(d.start)) s to \(rounded(d.end)) s (score \((d.score * 10).rounded() / 10), speed \((d.speed * 1000).rounded() / 1000)\(key))"
        }.joined(separator: "\n")
    }

    /// Milliseconds are plenty for positions in a file.
    static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
