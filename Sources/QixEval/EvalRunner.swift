import Foundation
import QixAudio
import QixWatermark

/// The robustness protocol of `qix eval`: marks every corpus clip with a random ID,
/// applies each attack to the marked and to the unmarked clip, cuts random unaligned
/// excerpts of each length and detects in them with the right and with a wrong key.
public struct EvalRunner {
    /// What to run.
    public struct Configuration: Sendable {
        /// Directory with the corpus (a0*.flac hosts, r0* IRs, a07/a08 crowds); nil when
        /// there is none, which only a run on `hostFiles` with attacks that need no
        /// recordings (`Attack.needsRecordings`) can do without.
        public var clipsDirectory: String? = "corpus/clips"
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
        /// Embedding strength, relative to the profile's level.
        public var strength = 1.0
        /// The embedding profile.
        public var profile = WatermarkProfile.broadcast
        /// The masking model's limits for embedding.
        public var masking = MaskingLimits.standard
        /// Also detect on unmarked excerpts and with a wrong key (false-positive counts).
        public var checkFalsePositives = true
        /// Detect with each host's ID expected (`WatermarkDetector(expected:)`), as an app
        /// that knows the campaigns on air does; the unmarked and wrong-key checks then
        /// expect that ID too. The same as `campaigns` 1.
        public var expectKnownID = false
        /// App mode: the detector expects this many IDs, the host's own and seeded decoys
        /// (other campaigns on air), as the app's TV Shake does; a decoy reported counts as a
        /// wrong ID. 0: blind detection.
        public var campaigns = 0
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
        /// CPU seconds the detector took (one thread): the speed on one core, whatever else
        /// the machine runs.
        public var detectCPUSeconds = 0.0
        /// CPU seconds the whole run took (this process, all threads).
        public var cpuSeconds = 0.0
        /// Wall seconds the whole run took.
        public var wallSeconds = 0.0
    }

    /// The run's settings.
    public let configuration: Configuration

    /// Prepares a run.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Runs the protocol; `progress` receives one line per host.
    public func run(progress: (String) -> Void) throws -> Result {
        try validate()
        let (paths, names) = try hostFiles()
        let started = (cpu: ProcessClock.cpuSeconds(), wall: ContinuousClock.now)
        let resources = try loadResources()
        var random = SeededGenerator(seed: configuration.seed)
        let key = try WatermarkKey(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        let wrongKey = try WatermarkKey(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        var tally = Tally(result: Result(cells: [], hosts: names, snr: []))
        for attack in configuration.attacks {
            for seconds in configuration.seconds {
                tally.result.cells.append(Cell(attack: attack, seconds: seconds, correctByHost: Array(repeating: 0, count: names.count)))
            }
        }
        for (hostIndex, name) in names.enumerated() {
            // Each host's ID (and decoys) from the run's seed alone, whatever the attacks.
            let message = UInt32.random(in: 0...UInt32.max, using: &random)
            let decoys = (1..<max(1, configuration.campaigns)).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
            let run = HostRun(index: hostIndex, message: message, expected: expectedIDs(message, decoys: decoys),
                              key: key, wrongKey: wrongKey)
            let (correct, trials) = try runHost(path: paths[hostIndex], name: name, run: run, resources: resources, tally: &tally)
            progress("\(name): SNR \(String(format: "%.1f", tally.result.snr.last?.1 ?? 0)) dB, \(correct)/\(trials) excerpts decoded")
        }
        tally.result.cpuSeconds = ProcessClock.cpuSeconds() - started.cpu
        tally.result.wallSeconds = Self.seconds(ContinuousClock.now - started.wall)
        return tally.result
    }

    /// The configuration's own checks, so that a library caller cannot trap converting
    /// 1e17 s to samples either.
    private func validate() throws {
        let config = configuration
        // An hour at most: longer than any clip (excerpts are cut to the clip), and sample
        // counts stay integers.
        if let bad = config.seconds.first(where: { !($0 > 0 && $0 <= 3600) }) {
            throw QixError("invalid option", parameter: "seconds", "'\(bad)' is not a number of seconds in (0, 3600]")
        }
        guard !config.seconds.isEmpty else { throw QixError("invalid option", parameter: "seconds", "no excerpt length given") }
        guard !config.attacks.isEmpty else { throw QixError("invalid option", parameter: "attacks", "no attack given") }
        guard config.trials > 0 else { throw QixError("invalid option", parameter: "trials", "'\(config.trials)' is not a positive count") }
        guard (0...1000).contains(config.campaigns) else {
            throw QixError("invalid option", parameter: "campaigns", "'\(config.campaigns)' is not a count in [0, 1000]")
        }
    }

    /// Whether the run reads the corpus folder: for its hosts (no `hostFiles`) or for the
    /// rooms and crowds an attack needs. A front end looks for the corpus only then.
    public var needsCorpus: Bool {
        configuration.hostFiles.isEmpty || configuration.attacks.contains(where: \.needsRecordings)
    }

    /// The corpus folder, or an error naming the parameter when the run needs one and has none.
    private func corpusDirectory() throws -> String {
        guard let directory = configuration.clipsDirectory else {
            throw QixError("cannot run eval", parameter: "clipsDirectory",
                           "no corpus folder, which the corpus hosts and the room and crowd attacks need")
        }
        return directory
    }

    /// The rooms' and crowds' recordings when an attack needs them; none otherwise, so that
    /// codec and noise attacks on the caller's own hosts run without a corpus.
    private func loadResources() throws -> Attack.Resources {
        guard configuration.attacks.contains(where: \.needsRecordings) else { return .none }
        return try Attack.Resources.load(from: try corpusDirectory())
    }

    /// The hosts' paths and names, in run order: the given files, or the corpus's a0*.flac clips.
    public func hostFiles() throws -> (paths: [String], names: [String]) {
        guard configuration.hostFiles.isEmpty else {
            return (configuration.hostFiles, configuration.hostFiles.map { ($0 as NSString).lastPathComponent })
        }
        let directory = try corpusDirectory()
        let names = try Attack.Resources.fileNames(in: directory).filter { $0.hasPrefix("a0") && $0.hasSuffix(".flac") }.sorted()
        guard !names.isEmpty else { throw AudioError("cannot run eval", directory, "no a0*.flac clips") }
        return (names.map { directory + "/" + $0 }, names)
    }

    /// The IDs the detector expects for a host marked with `message`: none (blind), the
    /// host's own, or the host's own among the decoys in a seeded order.
    private func expectedIDs(_ message: UInt32, decoys: [UInt32]) -> [UInt32] {
        if configuration.campaigns == 0 { return configuration.expectKnownID ? [message] : [] }
        var all = decoys
        all.insert(message, at: Int(message % UInt32(decoys.count + 1)))
        return all
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
