import Foundation
import Testing
import QixAudio
import QixWatermark
@testable import qix

struct CommandTests {
    @Test func detectJSONLineFollowsTheContract() {
        let detection = WatermarkDetection(message: 0xab, start: 1.25, end: 7.5, score: 12.3456, speed: 1, format: .interleaved)
        let line = DetectCommand.jsonLine(file: "a \"b\".wav", duration: 15, detections: [detection])
        #expect(line == #"{"file": "a \"b\".wav", "duration": 15, "detections": [{"message": "000000ab", "start": 1.25, "end": 7.5, "score": 12.35, "format": 3}]}"#)
        #expect(DetectCommand.jsonLine(file: "x", duration: 2.5, detections: []) == #"{"file": "x", "duration": 2.5, "detections": []}"#)
    }

    @Test func keyFileErrorsNameTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("qix-key-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: CommandFailure.self) { try KeyOption.load(directory.appendingPathComponent("missing").path) }
        let bad = directory.appendingPathComponent("bad.key")
        try "not a key\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: CommandFailure.self) { try KeyOption.load(bad.path) }
        let good = directory.appendingPathComponent("good.key")
        try "00112233445566778899AABBCCDDEEFF\n".write(to: good, atomically: true, encoding: .utf8)
        #expect(try KeyOption.load(good.path).hex == "00112233445566778899aabbccddeeff")
    }

    @Test func expectTakesCommaSeparatedAndRepeatedIDs() throws {
        #expect(try ExpectOption.parse(["0badcafe,12345678", "0BADCAFE", "ffffffff"]) == [0x0bad_cafe, 0x1234_5678, 0xffff_ffff])
        #expect(try ExpectOption.parse([]) == [])
        for bad in ["0badcaf", "0badcafg", "0x12345678", "0badcafe,1234", "", " ", "0badcafe,"] {
            #expect(throws: CommandFailure.self, "\(bad)") { try ExpectOption.parse([bad]) }
        }
    }

    @Test func embedRejectsBadMessagesBeforeReading() throws {
        for message in ["1234567", "123456789", "g2345678"] {
            let command = try EmbedCommand.parse(["missing.wav", "out.wav", "--message", message])
            #expect(throws: CommandFailure.self) { try command.run() }
        }
    }

    @Test func evalNamesAMissingOrWrongCorpusFolder() throws {
        let missing = "/nonexistent-qix-corpus-\(getpid())"
        #expect(throws: QixError("cannot run eval", missing, "no such folder")) {
            try EvalCommand.parse(["--clips", missing, "--attacks", "clean"]).run()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qix-eval-\(getpid()).txt").path
        try "not a folder\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: QixError("cannot run eval", file, "not a folder")) {
            try EvalCommand.parse(["--clips", file, "--attacks", "clean"]).run()
        }
        let trials = #expect(throws: QixError.self) { try EvalCommand.parse(["--trials", "0"]).run() }
        #expect(trials.map(ParameterFlags.describe) == "invalid option (--trials): '0' is not a positive count")
    }

    /// `--hosts` takes a campaign's own files; a folder without audio or a missing file is
    /// named in a one-line error before any work.
    @Test func evalNamesHostsItCannotUse() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("qix-eval-hosts-\(getpid())").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: CommandFailure("invalid option", "--hosts", "no audio files in \(empty)")) {
            try EvalCommand.parse(["--hosts", empty, "--attacks", "clean"]).run()
        }
        let missing = empty + "/spot.wav"
        #expect(throws: QixError("cannot read audio", missing, "no such file")) {
            try EvalCommand.parse(["--hosts", missing, "--attacks", "clean", "--clips", "\(QixProcess.repository)/corpus/clips"]).run()
        }
    }

    /// Values that parse but would overflow a sample or frame count, empty lists, and an
    /// empty time range: one-line errors, not a trap or a silent empty run.
    @Test func outOfRangeOptionsAreRefused() throws {
        for arguments in [["--seconds", "1e17"], ["--seconds", "inf"], ["--seconds", ""], ["--seconds", ","],
                          ["--attacks", ""], ["--attacks", ","]] {
            let error = #expect(throws: QixError.self, "\(arguments)") { try EvalCommand.parse(arguments).run() }
            // The library names its parameter; the error line names the flag.
            #expect(error?.renamingParameter(ParameterFlags.flags).subject == arguments[0])
        }
        #expect(throws: CommandFailure.self) { try EvalCommand.parse(["--seconds", "3,x"]).run() }
        // A negative number is the option's value, refused for what it is (argument-parser
        // would otherwise take it for a flag and report a missing value).
        let trials = #expect(throws: QixError.self) { try EvalCommand.parse(["--trials", "-3"]).run() }
        #expect(trials.map(ParameterFlags.describe) == "invalid option (--trials): '-3' is not a positive count")
        for seconds in ["inf", "1e300", "0", "-1"] {
            #expect(throws: (any Error).self, "--max-seconds \(seconds)") {
                try ListenCommand.parse(["--max-seconds", seconds])
            }
        }
        #expect(throws: CommandFailure.self) {
            try ReportCommand.parse(["missing.sqlite", "--from", "2024-01-01T00:00:00Z", "--to", "2023-01-01T00:00:00Z"]).run()
        }
    }

    @Test func usageErrorsNameTheOption() {
        #expect(usageSubject("--jobs must be at least 1") == ("--jobs", "must be at least 1"))
        #expect(usageSubject("--render-at times must be in [0, 3600] seconds") == ("--render-at", "times must be in [0, 3600] seconds"))
        #expect(usageSubject("--json and --csv exclude each other") == ("command line", "--json and --csv exclude each other"))
        #expect(usageSubject("Missing value for '--rate <rate>'") == ("command line", "Missing value for '--rate <rate>'"))
    }
}
