import CSndFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads any audio file libsndfile understands (WAV, FLAC, Ogg/Vorbis, Opus, MP3, AIFF,
/// ...) as interleaved `Float` samples, block by block, so that a file of any length is
/// read in bounded memory.
///
/// `-`, FIFOs and other non-regular files are first spooled to an anonymous temporary
/// file, so that every container can be read from a pipe.
public final class AudioFileReader {
    /// Why a file in another format is refused, with the way round it: broadcast archives
    /// often hold AAC (.m4a, .ts, .mp4), which libsndfile does not decode.
    static let unrecognisedFormat = "not an audio file libsndfile can read (WAV, AIFF, FLAC, Ogg Vorbis/Opus, MP3 and more; not AAC or video containers): convert it first, e.g. ffmpeg -i IN OUT.flac"

    /// What the file holds.
    public let info: AudioFileInfo
    /// Frames delivered so far.
    public private(set) var framesRead: Int64 = 0

    private let handle: OpaquePointer
    /// FLAC files are decoded by libFLAC directly (faster than through libsndfile);
    /// libsndfile still reads the header and serves every other container.
    private let flac: FLACDecoder?
    /// Containers whose frame count comes from the header of uncompressed data, where a
    /// short read means the file was cut.
    private let checksLength: Bool
    /// What the decoder said about damage it met so far (libmpg123's messages on a damaged
    /// MP3, at most 100), which a front end reports in one warning; empty for a clean file.
    public private(set) var decoderMessages: [String] = []

    /// Opens `path` (`-` for standard input) for reading.
    ///
    /// Throws an `AudioError` naming the path for a missing file, a directory, an empty
    /// file, an unrecognised or truncated file.
    public convenience init(path: String) throws {
        try self.init(path: path, decodesFLACDirectly: true)
    }

    /// Opens `path`; with `decodesFLACDirectly` false, FLAC goes through libsndfile too
    /// (the reference the direct decoder is tested against).
    init(path: String, decodesFLACDirectly: Bool) throws {
        var sfInfo = SF_INFO()
        let opened: OpaquePointer?
        // What libmpg123 prints on stderr while libsndfile opens an MP3, for the error line.
        var openMessages: [String] = []
        var regularFile = false
        if path == "-" {
            let (fd, bytes) = try InputSpool.spool(from: STDIN_FILENO, subject: "stdin")
            guard bytes > 0 else { close(fd); throw AudioError("cannot read audio", "stdin", "input is empty") }
            (opened, openMessages) = LibraryMessages.capture { sf_open_fd(fd, Int32(SFM_READ), &sfInfo, 1) }
        } else {
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw AudioError("cannot read audio", path, errno == ENOENT ? "no such file" : errnoText())
            }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFDIR { throw AudioError("cannot read audio", path, "is a directory") }
            if kind == S_IFREG {
                guard status.st_size > 0 else { throw AudioError("cannot read audio", path, "file is empty") }
                guard access(path, R_OK) == 0 else { throw AudioError("cannot read audio", path, errnoText()) }
                (opened, openMessages) = LibraryMessages.capture { sf_open(path, Int32(SFM_READ), &sfInfo) }
                regularFile = true
            } else {
                let source = open(path, O_RDONLY)
                guard source >= 0 else { throw AudioError("cannot read audio", path, errnoText()) }
                defer { close(source) }
                let (fd, bytes) = try InputSpool.spool(from: source, subject: path)
                guard bytes > 0 else { close(fd); throw AudioError("cannot read audio", path, "input is empty") }
                (opened, openMessages) = LibraryMessages.capture { sf_open_fd(fd, Int32(SFM_READ), &sfInfo, 1) }
            }
        }
        guard let handle = opened else {
            throw AudioError("cannot read audio", path, Self.openFailure(String(cString: sf_strerror(nil)), messages: openMessages))
        }
        decoderMessages = openMessages
        let info = AudioFileInfo(path: path, sfInfo: sfInfo)
        guard info.channels > 0, info.sampleRate > 0 else {
            sf_close(handle)
            throw AudioError("cannot read audio", path, "header declares \(info.channels) channels at \(info.sampleRate) Hz")
        }
        if let note = Self.truncationNote(handle) {
            sf_close(handle)
            throw AudioError("cannot read audio", path, "truncated file: \(note)")
        }
        self.handle = handle
        self.info = info
        self.checksLength = ["WAV", "WAVEX", "RF64", "W64", "AIFF", "AU", "CAF", "FLAC"].contains(info.container)
        flac = decodesFLACDirectly && regularFile && info.container == "FLAC" ? FLACDecoder(path: path, channels: info.channels) : nil
        // Integer files read as floats in [-1, 1); float files keep their values.
        sf_command(handle, Int32(SFC_SET_NORM_FLOAT), nil, Int32(SF_TRUE))
    }

    deinit { sf_close(handle) }

    /// Why libsndfile could not open a file that exists. Its "File does not exist or is not
    /// a regular file" also stands for an MP3 in which libmpg123 found no frame: then the
    /// decoder's own words say what is wrong.
    static func openFailure(_ reason: String, messages: [String]) -> String {
        if reason.hasPrefix("Format not recognised") { return unrecognisedFormat }
        let decoder = LibraryMessages.summary(messages)
        if reason.hasPrefix("File does not exist") {
            return "no audio frames the decoder can read" + (decoder.map { " (\($0))" } ?? "") + "; the file is damaged or not audio"
        }
        return reason + (decoder.map { " (\($0))" } ?? "")
    }

    /// libsndfile keeps going on a cut WAV/AIFF by shortening its length, and notes the
    /// declared size in its log as "data : N (should be M)"; that is the only trace.
    private static func truncationNote(_ handle: OpaquePointer) -> String? {
        var log = [CChar](repeating: 0, count: 8192)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") where line.contains("(should be") {
            let trimmed = line.trimmingCharacters()
            if trimmed.hasPrefix("data") || trimmed.hasPrefix("SSND") {
                return "header declares more audio than the file holds (\(trimmed))"
            }
        }
        return nil
    }

    /// Reads up to `buffer.count / channels` frames into `buffer` (interleaved) and
    /// returns the number of frames read; 0 means the end of the file.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let wanted = buffer.count / info.channels
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        let got: Int
        if let flac {
            got = flac.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<(wanted * info.channels)]))
        } else {
            let (read, messages) = LibraryMessages.capture { sf_readf_float(handle, base, sf_count_t(wanted)) }
            got = Int(read)
            if !messages.isEmpty { decoderMessages.append(contentsOf: messages.prefix(max(0, 100 - decoderMessages.count))) }
        }
        framesRead += Int64(got)
        if got < wanted { try checkShortRead() }
        return got
    }

    /// After a read that returned less than asked: throws for a damaged or cut file.
    private func checkShortRead() throws {
        let code = flac.map { $0.failed ? 1 : 0 } ?? sf_error(handle)
        if code != 0 {
            let cause = flac.map { $0.streamError ?? "libFLAC gave up" }
                ?? LibraryMessages.summary(decoderMessages) ?? String(cString: sf_strerror(handle))
            throw AudioError("cannot read audio", info.path,
                             "truncated or damaged file: decoding stopped at frame \(framesRead) of \(info.frames) (\(cause))")
        }
        if checksLength && framesRead < info.frames {
            // Frames libFLAC skipped as damaged, not a cut file: say so, and what it found.
            if let damage = flac?.streamError {
                throw AudioError("cannot read audio", info.path,
                                 "truncated or damaged file: \(framesRead) of \(info.frames) frames decode (\(damage))")
            }
            throw AudioError("cannot read audio", info.path,
                             "truncated file: ended at frame \(framesRead) of \(info.frames)")
        }
    }

    /// Reads up to `frames` frames into `samples`, resizing it to what was read.
    public func read(frames: Int, into samples: inout [Float]) throws -> Int {
        samples.removeAll(keepingCapacity: true)
        samples.reserveCapacity(frames * info.channels)
        let capacity = frames * info.channels
        var got = 0
        try samples.withUnsafeMutableBufferPointer(growingTo: capacity) { buffer in
            got = try read(into: buffer)
        }
        samples.removeLast(capacity - got * info.channels)
        return got
    }

    /// Calls `body` with successive interleaved blocks of at most `blockFrames` frames
    /// until the end of the file; the buffer is reused, so copy what must outlive a call.
    public func forEachBlock(blockFrames: Int = 65_536,
                             _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames * info.channels)
        defer { buffer.deallocate() }
        while true {
            let got = try read(into: buffer)
            if got == 0 { return }
            try body(UnsafeBufferPointer(rebasing: buffer[0 ..< got * info.channels]))
        }
    }

    /// Calls `body` with the rest of the file mixed to mono (the channel average, exactly
    /// as `ChannelMixer.mixDown` computes it), in blocks of at most `blockFrames`; the
    /// buffer is reused. FLAC goes from libFLAC's integers to the mix in one pass.
    /// Afterwards the reader is at the end of the file.
    public func forEachMonoBlock(blockFrames: Int = 65_536,
                                 _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let channels = info.channels
        guard channels > 1 else { return try forEachBlock(blockFrames: blockFrames, body) }
        let mono = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames)
        defer { mono.deallocate() }
        if let flac {
            flac.switchToDownmix()
            while true {
                let got = flac.read(into: mono)
                framesRead += Int64(got)
                if got < blockFrames { try checkShortRead() }
                if got == 0 { return }
                try body(UnsafeBufferPointer(rebasing: mono[0..<got]))
            }
        }
        try forEachBlock(blockFrames: blockFrames) { block in
            let frames = block.count / channels
            ChannelMixer.mixDown(block, channels: channels, into: mono)
            try body(UnsafeBufferPointer(rebasing: mono[0..<frames]))
        }
    }

    /// Reads the rest of the file into memory; meant for clips, not for recordings.
    public func readAll() throws -> AudioBuffer {
        var samples: [Float] = []
        if info.frames > 0 { samples.reserveCapacity(Int(info.frames - framesRead) * info.channels) }
        try forEachBlock { samples.append(contentsOf: $0) }
        return AudioBuffer(samples: samples, channels: info.channels, sampleRate: info.sampleRate)
    }

    /// Moves the read position to `frame` from the start.
    public func seek(toFrame frame: Int64) throws {
        let moved = flac.map { $0.seek(toFrame: frame) } ?? (sf_seek(handle, sf_count_t(frame), SEEK_SET) >= 0)
        guard moved else {
            throw AudioError("cannot seek", info.path, "frame \(frame) is out of reach")
        }
        framesRead = frame
    }

    /// Reads a whole file into memory: a shortcut for clips and tests.
    public static func readAll(path: String) throws -> AudioBuffer {
        try AudioFileReader(path: path).readAll()
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
