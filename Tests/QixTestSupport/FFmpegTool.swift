import Foundation

/// Debian's `ffmpeg` command (CI installs it), for encoding fixtures on the fly: AAC,
/// MPEG-TS, MP4 with video, AC-3, and the streams ffmpeg writes to a pipe.
public enum FFmpegTool {
    /// An ffmpeg run that failed, with what it said.
    public struct Failure: Error, CustomStringConvertible {
        /// The arguments and ffmpeg's stderr.
        public var description: String
    }

    /// Runs `ffmpeg -nostdin -v error -y ARGUMENTS`; with `stdout`, its standard output goes
    /// to that file (a pipe for ffmpeg: the stream is written as to a pipe, headers unpatched).
    public static func run(_ arguments: [String], stdout: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        var output: FileHandle?
        if let stdout {
            _ = FileManager.default.createFile(atPath: stdout, contents: nil)
            output = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
            process.standardOutput = output
        }
        defer { try? output?.close() }
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(String(decoding: said, as: UTF8.self))")
        }
    }

    /// Encodes `input` to `output` with `options` placed between them.
    public static func encode(_ input: String, to output: String, _ options: [String]) throws {
        try run(["-i", input] + options + [output])
    }

    /// Writes the first `fraction` of a file's bytes to `output`, as a recording cut short.
    public static func cut(_ input: String, to output: String, fraction: Double = 0.5) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: input))
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: output))
    }
}
