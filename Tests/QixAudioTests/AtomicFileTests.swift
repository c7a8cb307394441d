import Foundation
import Testing
import QixAudio
import QixTestSupport

/// Every write goes through one complete-or-absent path: a planted link at the partial
/// name is never written through, and partials of killed writers are swept.
struct AtomicFileTests {
    /// A pid that no process holds: a child that has exited and been reaped.
    static func deadPID() throws -> pid_t {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    @Test func aLinkPlantedAtThePartialNameIsNotFollowed() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = "\(dir)/victim.txt"
        try "IMPORTANT VICTIM DATA\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let out = "\(dir)/out.wav"
        try FileManager.default.createSymbolicLink(atPath: PartialFileName(destination: out).partialPath,
                                                   withDestinationPath: victim)
        let tone = TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 0.5, sampleRate: 16_000, channels: 1)
        try AudioFileWriter.write(tone, to: out)

        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "IMPORTANT VICTIM DATA\n")
        let kind = try FileManager.default.attributesOfItem(atPath: out)[.type] as? FileAttributeType
        #expect(kind == .typeRegular, "out.wav is a file of its own, not a link to the victim")
        #expect(try AudioFileReader.readAll(path: out).frameCount == tone.frameCount)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == ["victim.txt", "out.wav"])
    }

    @Test func partialsOfKilledWritersAreSweptByTheNextWriteIntoTheFolder() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Ten writers killed with SIGKILL leave ten partials that no handler could remove.
        for index in 0..<10 {
            let stale = PartialFileName(destination: "\(dir)/spot\(index).wav", pid: try Self.deadPID()).partialPath
            try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: stale))
        }
        // A live writer's partial (pid 1 always runs) and look-alikes stay.
        let live = PartialFileName(destination: "\(dir)/live.wav", pid: 1).partialPath
        try Data().write(to: URL(fileURLWithPath: live))
        for name in ["notes.partial-123", ".x.partial-", ".x.partial-12a"] {
            try Data().write(to: URL(fileURLWithPath: "\(dir)/\(name)"))
        }
        try AudioFileWriter.write(TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 0.1, sampleRate: 16_000, channels: 1),
                                  to: "\(dir)/next.flac")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir))
        #expect(left == ["next.flac", String(live.split(separator: "/").last!), "notes.partial-123", ".x.partial-", ".x.partial-12a"])
    }

    @Test func partialNamesAreHiddenBesideTheDestination() {
        #expect(PartialFileName(destination: "/a/b/out.wav", pid: 42).partialPath == "/a/b/.out.wav.partial-42")
        #expect(PartialFileName(destination: "out.wav", pid: 42).partialPath == ".out.wav.partial-42")
        #expect(PartialFileName.writerPID(ofPartialNamed: ".out.wav.partial-42") == 42)
        for name in ["out.wav.partial-42", ".partial-42", ".out.wav.partial-", ".out.wav.partial-4x", ".out.wav.partial-99999999999"] {
            #expect(PartialFileName.writerPID(ofPartialNamed: name) == nil, "\(name)")
        }
    }

    @Test func textFilesCommitWithTheirModeAndAbandonLeavesNothing() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let secret = try AtomicFile(path: "\(dir)/k.key", permissions: 0o600)
        try Array("0123\n".utf8).withUnsafeBytes { try secret.append($0) }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/k.key"))
        try secret.commit()
        #expect(try String(contentsOfFile: "\(dir)/k.key", encoding: .utf8) == "0123\n")
        #expect(try FileManager.default.attributesOfItem(atPath: "\(dir)/k.key")[.posixPermissions] as? Int == 0o600)

        let dropped = try AtomicFile(path: "\(dir)/gone.txt")
        try Array("x".utf8).withUnsafeBytes { try dropped.append($0) }
        dropped.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["k.key"])
    }
}
