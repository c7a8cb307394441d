import Foundation

/// Runs the built `qix` binary as a user would, capturing its streams and exit code.
struct QixProcess {
    /// What one run produced.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// The `qix` executable beside the test bundle in the build folder.
    static var executable: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // The runner may be the .xctest bundle itself or a binary inside it.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("qix").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("qix")
    }

    /// The repository root (for corpus paths).
    static var repository: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }

    /// Scheduler variables that choose a scan's shard: never inherited from the test run (a
    /// test suite run inside a Slurm array task must not shard its own scans).
    static let schedulerVariables = ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
                                     "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX"]

    /// Runs `qix arguments...`, feeding `stdin` bytes, in `directory`, with `environment`
    /// set over this process's environment.
    ///
    /// Streams go through temporary files rather than pipes, so that no amount of
    /// input or output can deadlock the test against the child.
    static func run(_ arguments: [String], stdin: Data? = nil, in directory: String? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let inPath = "\(scratch)/stdin", outPath = "\(scratch)/stdout", errPath = "\(scratch)/stderr"
        _ = FileManager.default.createFile(atPath: inPath, contents: stdin ?? Data())
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer { try? input.close(); try? output.close(); try? errors.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        for name in schedulerVariables { inherited[name] = nil }
        process.environment = inherited.merging(environment) { _, given in given }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOfFile: outPath, encoding: .utf8),
                      stderr: try String(contentsOfFile: errPath, encoding: .utf8))
    }

    /// A fresh empty directory for one test.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "qix-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
