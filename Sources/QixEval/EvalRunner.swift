import Foundation
import QixAudio
import QixWatermark

/// The robustness protocol of `qix eval`: marks every corpus clip with a random ID,
/// applies each attack to the marked and to the unmarked clip, cuts random unaligned
/// excerpts of each length and detects in them with the right and with a wrong key.
public struct EvalRunner {
    /// What to run.
    public struct Configuration: Sendable {
        /// Directory with the corpus (a0*.flac hosts, r0* IRs).
        public var clipsDirectory = "corpus/clips"
        /// Audio files to mark and attack instead of the corpus's a0*.flac clips, such as a
        /// campaign's own spots; the corpus still supplies the rooms' and crowds' recordings.
        /// Empty: the corpus clips.
        public var hostFiles: [String] = []
        /// Excerpt lengths in seconds.
        public var seconds: [Double] = [3, 5, 10]
        /// Attacks to apply.
        public var attacks: [Attack] = Attack.standard
        /// Random excerpts per host, attack and length.
        public var trials = 12
        /// Seed of every random choice.
        public var seed: UInt64 = 1
        /// Embedding strength.
        public var strength = 1.0
        /// The masking model's limits for embedding.
        public var masking = MaskingLimits.standard
        /// Also detect on unmarked excerpts and with a wrong key (false-positive counts).
        public var checkFalsePositives = true
        /// Detect with each host's ID expected (`WatermarkDetector(expected:)`), as an app
        /// that knows the campaigns on air does; the unmarked and wrong-key checks then
        /// expect that ID too.
        public var expectKnownID = false
        /// Directory for the codec attacks' temporary files.
        public var scratch = NSTemporaryDirectory()

        /// The default protocol.
        public init() {}
    }

    /// Outcome counts of one attack at one excerpt length.
    public struct Cell: Sendable {
        /// The attack.
        public var attack: Attack
        /// Excerpt length in seconds.
        public var seconds: Double
        /// Marked excerpts tried.
        public var trials = 0
        /// Excerpts where the right ID was found.
        public var correct = 0
        /// Excerpts where some other ID was reported.
        public var wrong = 0
        /// Unmarked excerpts (same attack) where anything was reported.
        public var unmarkedHits = 0
        /// Marked excerpts where a detector with a wrong key reported anything.
        public var wrongKeyHits = 0
        /// Excerpts where the right ID was found, per host (in `Result.hosts` order): which
        /// material the attack defeats, not only how often.
        public var correctByHost: [Int] = []
        /// Success rate in [0, 1].
        public var rate: Double { trials > 0 ? Double(correct) / Double(trials) : 0 }
    }

    /// The whole run.
    public struct Result: Sendable {
        /// One cell per attack and length, in attack order.
        public var cells: [Cell]
        /// The host file names, in the order of every cell's `correctByHost`.
        public var hosts: [String] = []
        /// Watermark SNR in dB per host file name.
        public var snr: [(String, Double)]
        /// Audio seconds given to the detector.
        public var detectedSeconds = 0.0
        /// Wall seconds the detector took.
        public var detectWallSeconds = 0.0
    }

    /// The run's settings.
    public let configuration: Configuration

    /// Prepares a run.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Runs the protocol; `progress` receives one line per host.
    public func run(progress: (String) -> Void) throws -> Result {
        let config = configuration
        // An hour at most: longer than any clip (excerpts are cut to the clip), and sample
        // counts stay integers.
        if let bad = config.seconds.first(where: { !($0 > 0 && $0 <= 3600) }) {
            throw QixError("invalid option", parameter: "seconds", "'\(bad)' is not a number of seconds in (0, 3600]")
        }
        guard !config.seconds.isEmpty else { throw QixError("invalid option", parameter: "seconds", "no excerpt length given") }
        guard !config.attacks.isEmpty else { throw QixError("invalid option", parameter: "attacks", "no attack given") }
        guard config.trials > 0 else { throw QixError("invalid option", parameter: "trials", "'\(config.trials)' is not a positive count") }
        let directory = config.clipsDirectory
        let paths: [String], names: [String]
        if config.hostFiles.isEmpty {
            names = try Attack.Resources.fileNames(in: directory)
                .filter { $0.hasPrefix("a0") && $0.hasSuffix(".flac") }.sorted()
            guard !names.isEmpty else { throw AudioError("cannot run eval", directory, "no a0*.flac clips") }
            paths = names.map { directory + "/" + $0 }
        } else {
            paths = config.hostFiles
            names = paths.map { ($0 as NSString).lastPathComponent }
        }
        let resources = try Attack.Resources.load(from: directory)
        var random = SeededGenerator(seed: config.seed)
        let key = try WatermarkKey(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        let wrongKey = try WatermarkKey(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        var detector = WatermarkDetector(key: key)
        var wrongDetector = WatermarkDetector(key: wrongKey)
        var cells: [Cell] = []
        for attack in config.attacks {
            for seconds in config.seconds {
                cells.append(Cell(attack: attack, seconds: seconds, correctByHost: Array(repeating: 0, count: names.count)))
            }
        }
        var result = Result(cells: cells, hosts: names, snr: [])
        let clock = ContinuousClock()
        func detect(_ clip: AudioBuffer, _ detector: WatermarkDetector) throws -> [WatermarkDetection] {
            let start = clock.now
            let found = try detector.detect(clip)
            let elapsed = clock.now - start
            result.detectedSeconds += clip.duration
            result.detectWallSeconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return found
        }
        for (hostIndex, name) in names.enumerated() {
            let host = try AudioFileReader.readAll(path: paths[hostIndex])
            let message = UInt32.random(in: 0...UInt32.max, using: &random)
            if config.expectKnownID {
                detector = WatermarkDetector(key: key, expected: [message])
                wrongDetector = WatermarkDetector(key: wrongKey, expected: [message])
            }
            let embedder = try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message),
                                                 strength: config.strength, masking: config.masking)
            let marked = try embedder.embed(host)
            let snr = Self.snr(original: host.samples, marked: marked.samples)
            result.snr.append((name, snr))
            var hostCorrect = 0, hostTrials = 0
            for (attackIndex, attack) in config.attacks.enumerated() {
                let seed = config.seed &* 1_000_003 &+ UInt64(hostIndex * 100 + attackIndex)
                let attacked = try attack.apply(marked, resources: resources, seed: seed, scratch: config.scratch)
                let attackedHost = config.checkFalsePositives
                    ? try attack.apply(host, resources: resources, seed: seed, scratch: config.scratch) : host
                for (lengthIndex, seconds) in config.seconds.enumerated() {
                    let cellIndex = attackIndex * config.seconds.count + lengthIndex
                    let length = min(attacked.frameCount, Int(seconds * Double(attacked.sampleRate)))
                    for _ in 0..<config.trials {
                        let start = Int.random(in: 0...(attacked.frameCount - length), using: &random)
                        let clip = attacked.slice(frames: start..<(start + length))
                        let found = try detect(clip, detector)
                        result.cells[cellIndex].trials += 1
                        if found.contains(where: { $0.message == message }) {
                            result.cells[cellIndex].correct += 1
                            result.cells[cellIndex].correctByHost[hostIndex] += 1
                            hostCorrect += 1
                        }
                        if found.contains(where: { $0.message != message }) { result.cells[cellIndex].wrong += 1 }
                        hostTrials += 1
                        guard config.checkFalsePositives else { continue }
                        let hostStart = min(start, max(0, attackedHost.frameCount - length))
                        let unmarkedClip = attackedHost.slice(frames: hostStart..<(hostStart + length))
                        if !(try detect(unmarkedClip, detector)).isEmpty { result.cells[cellIndex].unmarkedHits += 1 }
                        if !(try detect(clip, wrongDetector)).isEmpty { result.cells[cellIndex].wrongKeyHits += 1 }
                    }
                }
            }
            progress("\(name): SNR \(String(format: "%.1f", snr)) dB, \(hostCorrect)/\(hostTrials) excerpts decoded")
        }
        return result
    }

    /// Signal-to-watermark ratio in dB over all channels.
    public static func snr(original: [Float], marked: [Float]) -> Double {
        var signal = 0.0, noise = 0.0
        for i in 0..<min(original.count, marked.count) {
            signal += Double(original[i]) * Double(original[i])
            let d = Double(marked[i]) - Double(original[i])
            noise += d * d
        }
        return noise > 0 ? 10 * log10(signal / noise) : .infinity
    }
}
