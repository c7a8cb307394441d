import ArgumentParser
import QixMarkup
import Foundation
import QixEval
import QixWatermark
import QixScan

/// `qix eval`: the watermark's robustness table on the corpus.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure watermark robustness on the corpus clips (or your own files) under attacks.",
        discussion: """
            Embeds a random ID into every a0*.flac of the corpus (or every --hosts file) with a random key, applies each attack \
            in-process (deterministic, seeded), cuts random unaligned excerpts of each length and detects. \
            Prints per attack and length: the share of excerpts that decode the right ID, wrong IDs, \
            detections on the unmarked clips under the same attack and with a wrong key; then the \
            watermark SNR (median, minimum) and the detection speed. Attacks (default): \
            \(Attack.standard.map(\.rawValue).joined(separator: ", ")). Parts of room and stadium, \
            on request: \(Attack.components.map(\.rawValue).joined(separator: ", ")). Band limits, on \
            request: \(Attack.bandLimits.map(\.rawValue).joined(separator: ", ")).
            """)

    @Option(help: ArgumentHelp(
        "Corpus directory with a0*.flac hosts and r0*/a07/a08 recordings.",
        discussion: "Default: $QIX_CORPUS (the corpus folder or its clips folder), else corpus/clips under the current directory, else the corpus of the checkout or installation qix runs from (corpus/clips, or share/qix/corpus/clips, in a folder above the executable). With --hosts and attacks that need no recordings (all but room, stadium and their parts), no corpus is needed.",
        valueName: "dir"))
    var clips: String?

    @Option(parsing: .upToNextOption,
            help: "Audio files, folders (walked recursively) or list files to mark and attack instead of the corpus's a0*.flac clips, e.g. a campaign's own spots; the corpus (--clips) still supplies the rooms' and crowds' recordings, for the attacks that use them.")
    var hosts: [String] = []

    @Option(help: "Comma-separated excerpt lengths in seconds.")
    var seconds = "3,5,10"

    @Option(help: "Comma-separated attacks (default: the standard twelve).")
    var attacks: String?

    @Option(parsing: .unconditional, help: "Random excerpts per clip, attack and length.")
    var trials = 12

    @Option(parsing: .unconditional, help: "Seed for keys, IDs, offsets and noise.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Embedding strength relative to the profile's level (1 = default).")
    var strength = 1.0

    @Option(help: "Embedding profile: broadcast (transparent, the default) or venue (4.4 dB louder, for stadium PA).")
    var profile: WatermarkProfile = .broadcast

    @OptionGroup var masking: MaskingOptions

    @Flag(help: "Skip the false-positive checks (unmarked and wrong-key detection): faster tuning runs.")
    var skipFalsePositives = false

    @Flag(help: "Detect with each clip's ID expected (as 'qix detect --expect' does), unmarked and wrong-key checks included.")
    var expectKnown = false

    @Option(parsing: .unconditional,
            help: "App mode: the detector expects N IDs, each clip's own among seeded decoys (the campaigns on air), as the app's TV Shake does, and takes each excerpt as one listening session (as 'qix detect --session'); a decoy heard counts as a wrong ID. 0: blind.")
    var campaigns = 0

    @Flag(help: "Also print, per attack and host, the excerpts decoded at each length.")
    var byHost = false

    @Flag(help: "One JSON object per attack and length (with per-host counts), then one summary object.")
    var json = false

    @OptionGroup var quietOption: QuietOption

    func run() throws {
        quietOption.apply()
        let config = try configuration()
        let runner = EvalRunner(configuration: config)
        let hostCount = try runner.hostFiles().names.count
        var done = 0
        let started = ContinuousClock.now
        let result = try runner.run { line in
            done += 1
            StandardError.info("qix eval: \(line)\(Self.eta(done: done, of: hostCount, since: started))")
        }
        if json { printJSON(result) } else { printTable(result, config: config) }
    }

    /// The runner's configuration from the options, checked.
    private func configuration() throws -> EvalRunner.Configuration {
        var config = EvalRunner.Configuration()
        if !hosts.isEmpty {
            let catalog = RecordingCatalog(inputs: hosts)
            if let problem = catalog.problems.first { throw problem }
            guard !catalog.paths.isEmpty else {
                throw CommandFailure("invalid option", "--hosts", "no audio files in \(hosts.joined(separator: ", "))")
            }
            config.hostFiles = catalog.paths
        }
        config.trials = trials
        config.seed = seed
        config.strength = strength
        config.profile = profile
        config.masking = try masking.limits()
        config.checkFalsePositives = !skipFalsePositives
        config.expectKnownID = expectKnown
        config.campaigns = campaigns
        // The runner checks the lengths' range and that there are some.
        config.seconds = try CommaList.items([seconds]).map { text in
            guard let value = Double(text) else {
                throw CommandFailure("invalid option", "--seconds", "'\(text)' is not a number of seconds in (0, 3600]")
            }
            return value
        }
        if let attacks {
            config.attacks = try CommaList.items([attacks]).map { name in
                guard let attack = Attack(rawValue: name) else {
                    throw CommandFailure("invalid option", "--attacks", "unknown attack '\(name)'")
                }
                return attack
            }
        }
        // Looked for only when the run reads it, so that --hosts with codec or noise
        // attacks runs where there is no corpus at all.
        config.clipsDirectory = nil
        if clips != nil || EvalRunner(configuration: config).needsCorpus {
            config.clipsDirectory = try EvalCorpus.locate(
                given: clips, environment: ProcessInfo.processInfo.environment,
                currentDirectory: FileManager.default.currentDirectoryPath, executable: EvalCorpus.currentExecutable)
        }
        return config
    }

    /// ", 3/9 hosts, ETA 1m20s" after `done` of `total` hosts; nothing after the last.
    static func eta(done: Int, of total: Int, since start: ContinuousClock.Instant) -> String {
        guard done > 0, done < total else { return "" }
        // Duration arithmetic: the time per host so far, times the hosts left.
        let left = Int(((ContinuousClock.now - start) / done * (total - done)).components.seconds)
        return ", \(done)/\(total) hosts, ETA \(left / 60)m\(String(format: "%02d", left % 60))s"
    }

    /// One JSON object per cell, then the summary.
    private func printJSON(_ result: EvalRunner.Result) {
        for cell in result.cells {
            var line = JSONLine()
            line.add("attack", cell.attack.rawValue)
            line.add("seconds", cell.seconds)
            line.add("trials", cell.trials)
            line.add("correct", cell.correct)
            line.add("rate", (cell.rate * 10000).rounded() / 10000)
            line.add("wrong_ids", cell.wrong)
            line.add("unmarked_detections", cell.unmarkedHits)
            line.add("wrong_key_detections", cell.wrongKeyHits)
            let byHost = zip(result.hosts, cell.correctByHost).map { "\(JSONLine.quoted($0)): \($1)" }
            line.addRaw("correct_by_host", "{" + byHost.joined(separator: ", ") + "}")
            print(line.string)
        }
        let snrs = result.snr.map(\.1).sorted()
        var summary = JSONLine()
        summary.add("snr_median_db", ((snrs.isEmpty ? 0 : snrs[snrs.count / 2]) * 100).rounded() / 100)
        summary.add("snr_min_db", ((snrs.first ?? 0) * 100).rounded() / 100)
        summary.add("detect_x_realtime", (result.detectCPUSeconds > 0 ? result.detectedSeconds / result.detectCPUSeconds : 0).rounded())
        summary.add("detect_x_realtime_wall", (result.detectWallSeconds > 0 ? result.detectedSeconds / result.detectWallSeconds : 0).rounded())
        summary.add("cpu_seconds", (result.cpuSeconds * 100).rounded() / 100)
        summary.add("wall_seconds", (result.wallSeconds * 100).rounded() / 100)
        print(summary.string)
    }

    /// The table: a row per attack, a column per length, then the false-positive columns.
    private func printTable(_ result: EvalRunner.Result, config: EvalRunner.Configuration) {
        let lengths = config.seconds
        var header = "attack".padding(toLength: 18, withPad: " ", startingAt: 0)
        for s in lengths { header += "\(format(s)) s".leftAligned(10) }
        print(header + "wrong  unmarked  wrong-key")
        for attack in config.attacks {
            let row = result.cells.filter { $0.attack == attack }
            var line = attack.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
            for cell in row { line += (String(format: "%.1f%%", cell.rate * 100)).leftAligned(10) }
            line += "\(row.map(\.wrong).reduce(0, +))".leftAligned(7)
            line += "\(row.map(\.unmarkedHits).reduce(0, +))".leftAligned(10)
            print(line + "\(row.map(\.wrongKeyHits).reduce(0, +))")
        }
        if byHost { printByHost(result, attacks: config.attacks, lengths: lengths) }
        let snrs = result.snr.map(\.1).sorted()
        let detection = config.campaigns > 0 ? "app mode, \(config.campaigns) campaigns expected, one session per excerpt" : (config.expectKnownID ? "the clip's ID expected" : "blind")
        let mode = "\(config.profile.rawValue) profile, \(detection)"
        print("excerpts per cell: \(result.cells.first?.trials ?? 0) (\(mode)); unmarked and wrong-key columns count excerpts with any detection")
        print(String(format: "watermark SNR: median %.1f dB, min %.1f dB over %d clips", snrs.isEmpty ? 0 : snrs[snrs.count / 2], snrs.first ?? 0, snrs.count))
        print(String(format: "detection speed: %.0fx real time on one core (%.1f s of audio in %.2f s of CPU; %.2f s wall)",
                     result.detectCPUSeconds > 0 ? result.detectedSeconds / result.detectCPUSeconds : 0,
                     result.detectedSeconds, result.detectCPUSeconds, result.detectWallSeconds))
        print(String(format: "run: %.1f s CPU, %.1f s wall", result.cpuSeconds, result.wallSeconds))
    }

    /// One block per attack: a row per host with the excerpts it decoded at each length.
    private func printByHost(_ result: EvalRunner.Result, attacks: [Attack], lengths: [Double]) {
        // Names up to their 32nd character: the corpus names run long after the kind.
        let hosts = result.hosts.map { String($0.replacingOccurrences(of: ".flac", with: "").prefix(32)) }
        let width = 36
        for attack in attacks {
            let row = result.cells.filter { $0.attack == attack }
            var header = "  host".padding(toLength: width, withPad: " ", startingAt: 0)
            for s in lengths { header += "\(format(s)) s".leftAligned(8) }
            print("")
            print("\(attack.rawValue): excerpts decoded per host, of \(trials)")
            print(header)
            for (index, host) in hosts.enumerated() {
                var line = "  " + host.padding(toLength: width - 2, withPad: " ", startingAt: 0)
                for cell in row { line += "\(cell.correctByHost[index])".leftAligned(8) }
                print(line)
            }
        }
        print("")
    }

    private func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

extension String {
    func leftAligned(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
