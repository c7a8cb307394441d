import Foundation
import Testing
import QixAudio
@testable import QixEval

/// The protocol's bookkeeping on a small synthetic corpus: what each host decoded is
/// reported per host, and adds up to the cell.
struct EvalRunnerTests {
    /// A corpus folder with noise hosts, one silent host and impulse responses; a new one
    /// per call, since tests run in parallel and each removes its own.
    static func syntheticCorpus() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("qix-eval-corpus-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        func noise(seconds: Double) -> AudioBuffer {
            let samples = (0..<Int(seconds * 16_000)).map { _ -> Float in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Int64(bitPattern: state >> 11) % 1_000_000) / 4_000_000
            }
            return AudioBuffer(samples: samples, channels: 1, sampleRate: 16_000)
        }
        let impulse = AudioBuffer(samples: [1] + [Float](repeating: 0, count: 799), channels: 1, sampleRate: 16_000)
        let files: [(String, AudioBuffer)] = [
            ("a01_noise", noise(seconds: 5)),
            ("a02_silence", AudioBuffer(samples: [Float](repeating: 0, count: 80_000), channels: 1, sampleRate: 16_000)),
            ("a07_crowd", noise(seconds: 4)), ("a08_crowd", noise(seconds: 4)),
            ("r02_ir", impulse), ("r03_ir", impulse), ("r04_ir", impulse),
        ]
        for (name, buffer) in files { try AudioFileWriter.write(buffer, to: directory + "/" + name + ".flac") }
        return directory
    }

    @Test func countsDecodedExcerptsPerHost() throws {
        let directory = try Self.syntheticCorpus()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = EvalRunner.Configuration()
        config.clipsDirectory = directory
        config.attacks = [.clean]
        config.seconds = [3]
        config.trials = 2
        config.checkFalsePositives = false
        let result = try EvalRunner(configuration: config).run { _ in }
        #expect(result.hosts == ["a01_noise.flac", "a02_silence.flac", "a07_crowd.flac", "a08_crowd.flac"])
        let cell = try #require(result.cells.first)
        // Silence carries no mark; every noise excerpt decodes.
        #expect(cell.correctByHost == [2, 0, 2, 2])
        #expect(cell.correct == cell.correctByHost.reduce(0, +))
        #expect(cell.trials == 8)
    }

    /// Files given as hosts replace the corpus's a0*.flac clips; the corpus still supplies
    /// the rooms and crowds.
    @Test func marksTheHostFilesGivenInsteadOfTheCorpus() throws {
        let directory = try Self.syntheticCorpus()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = EvalRunner.Configuration()
        config.clipsDirectory = directory
        config.hostFiles = [directory + "/a08_crowd.flac", directory + "/a01_noise.flac"]
        config.attacks = [.clean, .crowd_10db]
        config.seconds = [3]
        config.trials = 2
        config.checkFalsePositives = false
        let result = try EvalRunner(configuration: config).run { _ in }
        #expect(result.hosts == ["a08_crowd.flac", "a01_noise.flac"])
        #expect(result.cells.map(\.trials) == [4, 4])
        #expect(result.cells[0].correctByHost == [2, 2])
    }

    /// A cell's result depends on its attack and length, not on the other attacks listed or
    /// their order (each attack is seeded by its name).
    @Test func cellsDoNotDependOnTheAttackList() throws {
        let directory = try Self.syntheticCorpus()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func crowdCell(_ attacks: [Attack]) throws -> EvalRunner.Cell? {
            var config = EvalRunner.Configuration()
            config.clipsDirectory = directory
            config.attacks = attacks
            config.seconds = [3]
            config.trials = 3
            config.checkFalsePositives = false
            return try EvalRunner(configuration: config).run { _ in }.cells.first { $0.attack == .cheering_0db }
        }
        let alone = try #require(try crowdCell([.cheering_0db]))
        let after = try #require(try crowdCell([.clean, .pink_noise_10db, .cheering_0db]))
        #expect(alone.correctByHost == after.correctByHost)
        #expect(EvalRunner.seed(1, host: 0, attack: .room) != EvalRunner.seed(1, host: 0, attack: .stadium))
    }

    /// App mode: the clip's own ID among decoys is heard, and no decoy is reported.
    @Test func campaignsExpectTheOwnIDAmongDecoys() throws {
        let directory = try Self.syntheticCorpus()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = EvalRunner.Configuration()
        config.clipsDirectory = directory
        config.hostFiles = [directory + "/a01_noise.flac"]
        config.attacks = [.clean]
        config.seconds = [3]
        config.trials = 2
        config.campaigns = 20
        let cell = try #require(try EvalRunner(configuration: config).run { _ in }.cells.first)
        #expect(cell.correct == 2)
        #expect(cell.wrong == 0 && cell.unmarkedHits == 0 && cell.wrongKeyHits == 0)
        config.campaigns = -1
        #expect(throws: QixError.self) { try EvalRunner(configuration: config).run { _ in } }
    }
}
