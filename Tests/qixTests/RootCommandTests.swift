import Foundation
import Testing

/// The root command's contract: version, help, and key files.
@Suite("qix root and keygen")
struct RootCommandTests {
    @Test("--version and --help succeed on stdout")
    func versionAndHelp() throws {
        let version = try QixProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.split(separator: ".").count == 3)
        for arguments in [["--help"], ["info", "--help"], ["keygen", "--help"]] {
            let help = try QixProcess.run(arguments)
            #expect(help.status == 0, "\(arguments)")
            #expect(help.stdout.contains("USAGE"), "\(arguments)")
        }
    }

    @Test("keygen writes 32 lowercase hex digits with mode 0600 and refuses to overwrite without --force")
    func keygen() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/campaign.key"
        #expect(try QixProcess.run(["keygen", path]).status == 0)
        let first = try String(contentsOfFile: path, encoding: .utf8)
        #expect(first.count == 33 && first.hasSuffix("\n"))
        #expect(first.dropLast().allSatisfy { "0123456789abcdef".contains($0) })
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let again = try QixProcess.run(["keygen", path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("(\(path))") && again.stderr.contains("--force"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)

        #expect(try QixProcess.run(["keygen", "--force", path]).status == 0)
        let second = try String(contentsOfFile: path, encoding: .utf8)
        #expect(second != first, "a new random key")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["campaign.key"], "no partial files left")
    }

    @Test("keygen - prints the key on stdout and creates no file named '-'")
    func keygenToStdout() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try QixProcess.run(["keygen", "-"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 1 && result.stdout.count == 33)
        #expect(result.stdout.dropLast().allSatisfy { "0123456789abcdef".contains($0) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    @Test("every command takes -q/--quiet", arguments: ["cards", "detect", "embed", "eval", "info", "keygen", "listen",
                                                         "merge", "report", "scan", "sim"])
    func quietEverywhere(_ command: String) throws {
        let help = try QixProcess.run([command, "--help"])
        #expect(help.stdout.contains("-q, --quiet"), "\(command)")
    }
}
