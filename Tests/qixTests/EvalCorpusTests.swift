import Foundation
import Testing
import QixAudio
import QixTestSupport
@testable import qix

/// `qix eval` finds its corpus from any directory, and needs none for `--hosts` with
/// attacks that use no recordings.
@Suite("eval corpus")
struct EvalCorpusTests {
    /// `--clips`, then `$QIX_CORPUS`, then the current directory, then the folders above the
    /// executable (a checkout's and an installation's layout).
    @Test func looksWhereTheDocsSay() throws {
        let root = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let prefix = root + "/prefix", clips = prefix + "/share/qix/corpus/clips"
        try FileManager.default.createDirectory(atPath: clips, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: prefix + "/bin/qix", contents: Data())
        let elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere + "/corpus/clips", withIntermediateDirectories: true)

        func locate(_ given: String? = nil, _ environment: [String: String] = [:], cwd: String = root) throws -> String {
            try EvalCorpus.locate(given: given, environment: environment, currentDirectory: cwd, executable: prefix + "/bin/qix")
        }
        #expect(try locate("/given") == "/given")
        #expect(try locate(nil, ["QIX_CORPUS": elsewhere + "/corpus"]) == elsewhere + "/corpus/clips")
        #expect(try locate(nil, ["QIX_CORPUS": elsewhere + "/corpus/clips"]) == elsewhere + "/corpus/clips")
        #expect(try locate(cwd: elsewhere) == elsewhere + "/corpus/clips")
        #expect(try locate() == clips)
        let wrong = #expect(throws: CommandFailure.self) { try locate(nil, ["QIX_CORPUS": root + "/none"]) }
        #expect(wrong?.subject == "$QIX_CORPUS")
    }

    /// Nothing found: one line naming the places tried and the way out.
    @Test func nothingFoundNamesThePlacesTried() throws {
        let root = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = FileManager.default.createFile(atPath: root + "/qix", contents: Data())
        let error = #expect(throws: CommandFailure.self) {
            try EvalCorpus.locate(given: nil, environment: [:], currentDirectory: root, executable: root + "/qix")
        }
        let text = try #require(error?.description)
        #expect(text.contains(root + "/corpus/clips") && text.contains("/share/qix/corpus/clips") && text.hasSuffix("give --clips DIR"))
        #expect(!text.contains("\n"))
    }

    /// From an empty directory with `$QIX_CORPUS` pointing nowhere: codec and noise attacks on
    /// `--hosts` run (no corpus is looked for), the room attack says what is missing, and
    /// without the variable it finds the checkout's corpus above the executable.
    @Test func hostsRunFromAnyDirectory() throws {
        let cwd = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cwd) }
        let host = cwd + "/spot.flac"
        var state: UInt32 = 12345
        let noise = (0..<(6 * 16_000)).map { _ -> Float in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: state)) / Float(Int32.max) * 0.3
        }
        try AudioFileWriter.write(AudioBuffer(samples: noise, channels: 1, sampleRate: 16_000), to: host)
        let short = ["eval", "--hosts", host, "--seconds", "3", "--trials", "1", "--skip-false-positives", "--json", "-q"]
        let nowhere = ["QIX_CORPUS": cwd + "/no-corpus"]

        let codecs = try QixProcess.run(short + ["--attacks", "mp3_128,pink_noise_10db"], in: cwd, environment: nowhere)
        #expect(codecs.status == 0, "\(codecs.stderr)")
        #expect(codecs.stdoutLines.count == 3, "\(codecs.stdout)")
        let room = try QixProcess.run(short + ["--attacks", "room"], in: cwd, environment: nowhere)
        #expect(room.status == 1)
        #expect(room.stderr.hasPrefix("qix: error: cannot find the eval corpus ($QIX_CORPUS)"), "\(room.stderr)")
        if ProcessInfo.processInfo.environment[EvalCorpus.variable] == nil {
            let found = try QixProcess.run(short + ["--attacks", "room"], in: cwd)
            #expect(found.status == 0, "\(found.stderr)")
        }
    }
}
