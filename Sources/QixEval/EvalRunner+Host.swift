import Foundation
import QixAudio
import QixWatermark

/// One host's pass through the protocol: mark it, apply every attack to the marked and the
/// unmarked audio, and detect in seeded excerpts of every length.
extension EvalRunner {
    /// What one host is marked and detected with.
    struct HostRun {
        /// The host's position in the run (its column in `correctByHost`).
        let index: Int
        /// The ID embedded.
        let message: UInt32
        /// The IDs the detector expects (empty: blind).
        let expected: [UInt32]
        /// The run's key and a wrong one.
        let key: WatermarkKey
        let wrongKey: WatermarkKey
    }

    /// The counts and times as they accumulate.
    struct Tally {
        var result: Result
        let clock = ContinuousClock()

        /// Detects in `clip`, adding its length and the time taken (wall and CPU) to the
        /// speed figures.
        mutating func detect(_ clip: AudioBuffer, _ detector: WatermarkDetector) throws -> [WatermarkDetection] {
            let start = clock.now, cpu = ProcessClock.cpuSeconds()
            let found = try detector.detect(clip)
            result.detectedSeconds += clip.duration
            result.detectWallSeconds += EvalRunner.seconds(clock.now - start)
            result.detectCPUSeconds += ProcessClock.cpuSeconds() - cpu
            return found
        }
    }

    /// Marks the host at `path` and runs every attack and length on it; returns the excerpts
    /// decoded and tried.
    func runHost(path: String, name: String, run: HostRun, resources: Attack.Resources,
                 tally: inout Tally) throws -> (correct: Int, trials: Int) {
        let config = configuration
        let host = try AudioFileReader.readAll(path: path)
        let embedder = try WatermarkEmbedder(key: run.key, payload: WatermarkPayload(message: run.message),
                                             strength: config.strength, profile: config.profile, masking: config.masking)
        let marked = try embedder.embed(host)
        tally.result.snr.append((name, Self.snr(original: host.samples, marked: marked.samples)))
        // App mode listens as an app does: each excerpt is one listening session.
        let budget: FalseReportBudget = config.campaigns > 0 ? .perSession : .perHour
        let detector = WatermarkDetector(key: run.key, expected: run.expected, falseReportBudget: budget)
        let wrongDetector = WatermarkDetector(key: run.wrongKey, expected: run.expected, falseReportBudget: budget)
        var correct = 0, trials = 0
        for (attackIndex, attack) in config.attacks.enumerated() {
            // Seeded by the attack's name, not its place in the list: a cell's result does
            // not depend on which other attacks run.
            let seed = Self.seed(config.seed, host: run.index, attack: attack)
            let attacked = try attack.apply(marked, resources: resources, seed: seed, scratch: config.scratch)
            let attackedHost = config.checkFalsePositives
                ? try attack.apply(host, resources: resources, seed: seed, scratch: config.scratch) : host
            for (lengthIndex, seconds) in config.seconds.enumerated() {
                let cell = attackIndex * config.seconds.count + lengthIndex
                var random = SeededGenerator(seed: seed &+ UInt64(seconds.bitPattern))
                for _ in 0..<config.trials {
                    let hit = try runExcerpt(attacked, unmarked: attackedHost, seconds: seconds, run: run, cell: cell,
                                             detectors: (detector, wrongDetector), random: &random, tally: &tally)
                    correct += hit ? 1 : 0
                    trials += 1
                }
            }
        }
        return (correct, trials)
    }

    /// One random excerpt of `seconds`: detection with the right key, and on the unmarked
    /// audio and with the wrong key for the false-positive columns; true when decoded.
    private func runExcerpt(_ attacked: AudioBuffer, unmarked: AudioBuffer, seconds: Double, run: HostRun, cell: Int,
                            detectors: (right: WatermarkDetector, wrong: WatermarkDetector),
                            random: inout SeededGenerator, tally: inout Tally) throws -> Bool {
        let length = min(attacked.frameCount, Int(seconds * Double(attacked.sampleRate)))
        let start = Int.random(in: 0...(attacked.frameCount - length), using: &random)
        let clip = attacked.slice(frames: start..<(start + length))
        let found = try tally.detect(clip, detectors.right)
        tally.result.cells[cell].trials += 1
        let decoded = found.contains { $0.message == run.message }
        if decoded {
            tally.result.cells[cell].correct += 1
            tally.result.cells[cell].correctByHost[run.index] += 1
        }
        if found.contains(where: { $0.message != run.message }) { tally.result.cells[cell].wrong += 1 }
        guard configuration.checkFalsePositives else { return decoded }
        let hostStart = min(start, max(0, unmarked.frameCount - length))
        let unmarkedClip = unmarked.slice(frames: hostStart..<(hostStart + length))
        if !(try tally.detect(unmarkedClip, detectors.right)).isEmpty { tally.result.cells[cell].unmarkedHits += 1 }
        if !(try tally.detect(clip, detectors.wrong)).isEmpty { tally.result.cells[cell].wrongKeyHits += 1 }
        return decoded
    }

    /// The seed of one host's attack: the run's seed, the host's place and the attack's
    /// name (FNV-1a), so that adding or reordering attacks changes no other cell.
    static func seed(_ seed: UInt64, host: Int, attack: Attack) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in attack.rawValue.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return seed &* 1_000_003 &+ UInt64(host) &* 7_919 &+ hash
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
