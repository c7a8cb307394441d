#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads headerless PCM from a file descriptor (standard input, a pipe, a file) as
/// interleaved `Float` frames.
///
/// Pipes deliver bytes in arbitrary pieces: a sample or frame split across reads is
/// carried over to the next read. At the end of the stream an incomplete last frame is
/// dropped and counted in `droppedBytes`, so that callers can warn about it.
public final class RawPCMReader {
    /// The sample coding.
    public let format: RawSampleFormat
    /// Interleaved channels per frame.
    public let channels: Int
    /// Frames per second (carried for the caller; the reader does not need it).
    public let sampleRate: Int
    /// Frames delivered so far.
    public private(set) var framesRead: Int64 = 0
    /// Bytes of an incomplete final frame discarded at the end of the stream.
    public private(set) var droppedBytes = 0
    /// True once the stream has ended.
    public private(set) var isAtEnd = false

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let subject: String
    private var bytes: UnsafeMutableRawBufferPointer
    private var carried = 0

    /// Reads from an open descriptor; `closeWhenDone` hands its ownership to the reader.
    public init(fd: Int32, format: RawSampleFormat, channels: Int, sampleRate: Int,
                subject: String = "stdin", closeWhenDone: Bool = false, bufferFrames: Int = 16_384) throws {
        guard (1...64).contains(channels) else {
            throw AudioError("invalid channel count", parameter: "channels", "\(channels); use 1 to 64")
        }
        guard (1000...768_000).contains(sampleRate) else {
            throw AudioError("invalid sample rate", parameter: "sampleRate", "\(sampleRate) Hz; use 1000 to 768000")
        }
        self.fd = fd
        self.format = format
        self.channels = channels
        self.sampleRate = sampleRate
        self.subject = subject
        self.ownsDescriptor = closeWhenDone
        bytes = .allocate(byteCount: bufferFrames * channels * format.bytesPerSample, alignment: 16)
    }

    /// Opens `path` (`-` for standard input) as a raw stream.
    public convenience init(path: String, format: RawSampleFormat, channels: Int, sampleRate: Int) throws {
        if path == "-" {
            try self.init(fd: STDIN_FILENO, format: format, channels: channels, sampleRate: sampleRate)
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw AudioError("cannot read audio", path, errno == ENOENT ? "no such file" : errnoText())
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw AudioError("cannot read audio", path, "is a directory") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw AudioError("cannot read audio", path, errnoText()) }
        try self.init(fd: fd, format: format, channels: channels, sampleRate: sampleRate,
                      subject: path, closeWhenDone: true)
    }

    deinit {
        bytes.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// Bytes per interleaved frame.
    public var bytesPerFrame: Int { channels * format.bytesPerSample }

    /// Blocks until at least one whole frame is available or the stream ends, then
    /// decodes as many whole frames as were read (at most what `output` holds) and
    /// returns their count; 0 means the end of the stream.
    public func read(into output: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let frameBytes = bytesPerFrame
        let capacityFrames = min(output.count / channels, bytes.count / frameBytes)
        guard capacityFrames > 0, let out = output.baseAddress, !isAtEnd else { return 0 }
        let limit = capacityFrames * frameBytes
        while carried < frameBytes {
            let got = Glibc.read(fd, bytes.baseAddress! + carried, limit - carried)
            if got < 0 {
                if errno == EINTR { continue }
                throw AudioError("cannot read audio", subject, errnoText())
            }
            if got == 0 {
                isAtEnd = true
                droppedBytes = carried
                carried = 0
                return 0
            }
            carried += got
        }
        let frames = carried / frameBytes
        format.decode(UnsafeRawBufferPointer(bytes), count: frames * channels, into: out)
        let used = frames * frameBytes
        let rest = carried - used
        if rest > 0 { bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + used, byteCount: rest) }
        carried = rest
        framesRead += Int64(frames)
        return frames
    }
}
