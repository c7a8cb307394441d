import Foundation
import Testing
import QixAudio

/// `qix embed` as a user runs it: what it refuses to overwrite, what it warns about, and
/// that neither a planted link nor a kill leaves anything but the finished file.
@Suite("qix embed", .serialized)
struct EmbedCommandTests {
    static let clip = "\(QixProcess.repository)/corpus/clips/a02_music_orchestral_wesnoth_heroes-rite.flac"

    /// A mark is made with one key, and listen follows one: a repeated --key is bad usage
    /// (exit 2, one line), not the last one kept silently.
    @Test func aRepeatedKeyIsRefused() throws {
        for command in [["embed", "in.flac", "out.flac", "--message", "0a1b2c3d"], ["listen"]] {
            let run = try QixProcess.run(command + ["--key", "a.key", "--key", "b.key"])
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("qix: error: bad usage (--key): given 2 times"), "\(run.stderr)")
        }
    }

    @Test func anExistingOutputIsReplacedOnlyWithForce() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = "\(dir)/master.wav"
        try "the only copy\n".write(toFile: out, atomically: false, encoding: .utf8)
        let refused = try QixProcess.run(["embed", Self.clip, out, "--message", "0a1b2c3d"])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.last == "qix: error: cannot write audio (\(out)): file exists; use --force to replace it")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "the only copy\n")

        let forced = try QixProcess.run(["embed", Self.clip, out, "--message", "0a1b2c3d", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try AudioFileReader(path: out).info.frames > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["master.wav"])
    }

    @Test func aKeyReadableByOthersGivesOneWarningLine() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let key = "\(dir)/campaign.key"
        try "00112233445566778899aabbccddeeff\n".write(toFile: key, atomically: false, encoding: .utf8)
        for (mode, warned) in [(0o644, true), (0o640, true), (0o600, false)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: key)
            let run = try QixProcess.run(["embed", Self.clip, "\(dir)/out-\(mode).flac", "--message", "0a1b2c3d", "--key", key])
            #expect(run.status == 0, "\(run.stderr)")
            let warnings = run.stderrLines.filter { $0.hasPrefix("qix: warning: \(key): key file is readable by group or others") }
            #expect(warnings.count == (warned ? 1 : 0), "mode \(String(mode, radix: 8)): \(run.stderr)")
        }
    }

    /// Float audio far beyond full scale: up to +60 dBFS it is marked as any audio is (and
    /// the mark decodes); beyond, it is refused in one line and nothing is written, never
    /// "marked" with a NaN watermark.
    @Test func absurdFloatLevelsAreRefusedNotMarkedWithNaN() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clip = try AudioFileReader.readAll(path: Self.clip)
        for (gain, marked) in [(Float(300), true), (Float(1e29), false)] {
            let input = "\(dir)/gain\(gain).wav", output = "\(dir)/marked\(gain).wav"
            try AudioFileWriter.write(AudioBuffer(samples: clip.samples.map { $0 * gain }, channels: clip.channels,
                                                  sampleRate: clip.sampleRate),
                                      to: input, encoding: .float32)
            let run = try QixProcess.run(["embed", input, output, "--message", "0a1b2c3d"])
            #expect(!run.stderr.contains("nan"), "\(run.stderr)")
            if marked {
                #expect(run.status == 0, "\(run.stderr)")
                let detect = try QixProcess.run(["detect", output, "--json"])
                #expect(detect.stdout.contains(#""message": "0a1b2c3d""#), "\(detect.stdout)")
            } else {
                #expect(run.status == 1)
                #expect(run.stderrLines.last?.hasPrefix("qix: error: cannot embed (\(input)): audio: samples reach ") == true, "\(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: output))
            }
        }
    }

    /// The planted-link attack: the attacker knows the pid (exec keeps it) and links the
    /// partial name to a file the victim can write.
    @Test func aLinkPlantedAtThePartialNameLeavesItsTargetUntouched() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/shared", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: "\(dir)/private", withIntermediateDirectories: false)
        let victim = "\(dir)/private/victim.txt"
        try "IMPORTANT VICTIM DATA\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let script = "ln -s \(victim) \(dir)/shared/.out.wav.partial-$$; exec \(QixProcess.executable.path) embed \(Self.clip) \(dir)/shared/out.wav --message 0a1b2c3d"
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", script]
        bash.standardError = FileHandle.nullDevice
        try bash.run()
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "IMPORTANT VICTIM DATA\n")
        let kind = try FileManager.default.attributesOfItem(atPath: "\(dir)/shared/out.wav")[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/shared") == ["out.wav"])
    }

    /// SIGTERM (or Ctrl-C) in the middle of a write: the handler removes the partial file,
    /// and the process still dies of the signal.
    @Test func aTerminatedEmbedLeavesNoPartialFile() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let long = "\(dir)/long.wav"
        let seconds = 600, rate = 16_000
        let tone = (0..<(seconds * rate)).map { Float(0.3 * sin(Double($0) * 0.05)) }
        try AudioFileWriter.write(AudioBuffer(samples: tone, channels: 1, sampleRate: rate), to: long)
        let embed = Process()
        embed.executableURL = QixProcess.executable
        embed.arguments = ["embed", long, "\(dir)/out.flac", "--message", "0a1b2c3d"]
        embed.standardError = FileHandle.nullDevice
        try embed.run()
        // Wait for the partial file to appear (the write has begun), then stop the embed.
        var partialSeen = false
        while embed.isRunning && !partialSeen {
            partialSeen = (try FileManager.default.contentsOfDirectory(atPath: dir)).contains { $0.hasPrefix(".out.flac.partial-") }
            if !partialSeen { usleep(1_000) }
        }
        try #require(partialSeen, "the embed ended before its write was seen")
        kill(embed.processIdentifier, SIGTERM)
        embed.waitUntilExit()
        #expect(embed.terminationReason == .uncaughtSignal && embed.terminationStatus == SIGTERM,
                "\(embed.terminationReason.rawValue) \(embed.terminationStatus)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["long.wav"])
    }
}
