import CSndFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads audio files as interleaved `Float` samples, block by block, so that a file of any
/// length is read in bounded memory: everything libsndfile understands (WAV, FLAC, Ogg
/// Vorbis/Opus, MP3, AIFF, ...), and through FFmpeg's libraries what it does not (AAC in
/// ADTS, MP4/M4A and MPEG-TS, AC-3, MP2 in TS, the first audio track of video files). Which
/// library reads a file is decided from its bytes, never its name.
///
/// `-`, FIFOs and other non-regular files are first spooled to an anonymous temporary
/// file, so that every container can be read from a pipe. A damaged input (cut short, or
/// with undecodable packets) is read up to where it breaks, and `damage` says what was lost.
public final class AudioFileReader {
    /// Why a file in another format is refused, with the way round it.
    static let unrecognisedFormat = "not an audio file QixKit can read (neither libsndfile nor FFmpeg's libraries recognise its content): convert it first, e.g. ffmpeg -i IN OUT.flac"

    /// What the file holds.
    public let info: AudioFileInfo
    /// Frames delivered so far.
    public private(set) var framesRead: Int64 = 0
    /// What a damaged input lost, known once the reader has reached where it breaks: a
    /// front end reports it once, as a warning. nil for an intact input.
    public var damage: AudioDamage? { libav?.damage ?? headerDamage ?? shortfall }
    /// Everything to tell the user about a damaged input, as one warning line
    /// (`<path>: ...`): what `damage` lost, and what the decoder said about damage it met
    /// on the way (`decoderMessages`). Known once the reader has reached the end; nil for
    /// an intact input.
    public var damageReport: String? {
        let decoder = LibraryMessages.summary(decoderMessages)
        if let damage {
            return damage.description + (decoder.map { "; the decoder met damaged audio: \($0)" } ?? "")
        }
        return decoder.map { "\(info.path): the decoder met damaged audio: \($0); what it gave there may be wrong" }
    }

    /// libsndfile's handle; nil when FFmpeg's libraries read the input.
    private let handle: OpaquePointer?
    /// AAC, MPEG-TS, MP4, AC-3 and what else libsndfile does not read.
    private let libav: LibavDecoder?
    /// FLAC files are decoded by libFLAC directly (faster than through libsndfile), which
    /// reads their header too; libsndfile serves every other container.
    private let flac: FLACDecoder?
    /// Containers whose frame count comes from the header of uncompressed data, where a
    /// short read means the file was cut.
    private let checksLength: Bool
    /// A WAV/AIFF header that declared more audio than the file holds.
    private let headerDamage: AudioDamage?
    /// Audio that ended before the length the file declared (a cut WAV, an MP3's Xing count).
    private var shortfall: AudioDamage?
    /// What the decoder said about damage it met so far (libmpg123's messages on a damaged
    /// MP3, at most 100), which a front end reports in one warning; empty for a clean file.
    /// A cut is not among them: `damage` names what it lost.
    public private(set) var decoderMessages: [String] = []

    /// Opens `path` (`-` for standard input) for reading.
    ///
    /// Throws an `AudioError` naming the path for a missing file, a directory, an empty
    /// file, or content no decoder recognises.
    public convenience init(path: String) throws {
        try self.init(path: path, decodesFLACDirectly: true)
    }

    /// Opens `path`; with `decodesFLACDirectly` false, FLAC goes through libsndfile too
    /// (the reference the direct decoder is tested against).
    init(path: String, decodesFLACDirectly: Bool) throws {
        let input = try Self.openInput(path)
        let prefix = Self.prefix(of: input.fd)
        // Stdin and pipes too (their spooled copy is a seekable file): the same bytes must
        // decode the same way as the file, which libsndfile does not do for a damaged FLAC
        // (it stops at the first bad frame, where libFLAC and the own decoder go on).
        if decodesFLACDirectly, let (flac, info) = Self.openFLAC(input.fd, path: path, prefix: prefix) {
            close(input.fd)
            self.flac = flac
            self.info = info
            handle = nil
            libav = nil
            checksLength = true
            headerDamage = nil
            return
        }
        var sfInfo = SF_INFO()
        let (opened, decoder, openMessages) = try Self.openDecoder(input, path: path, prefix: prefix, sfInfo: &sfInfo)
        decoderMessages = openMessages
        if let decoder {
            libav = decoder
            info = decoder.info
            handle = nil
            flac = nil
            checksLength = false
            headerDamage = nil
            return
        }
        guard let handle = opened else { throw AudioError("cannot read audio", path, Self.unrecognisedFormat) }
        var info = AudioFileInfo(path: path, sfInfo: sfInfo)
        // A FLAC stream written to a pipe has no length in its header: libsndfile says "the
        // most there can be", which is no length either.
        if info.frames == Int64.max { info.frames = 0 }
        guard info.channels > 0, info.sampleRate > 0 else {
            sf_close(handle)
            throw AudioError("cannot read audio", path, "header declares \(info.channels) channels at \(info.sampleRate) Hz")
        }
        self.handle = handle
        self.info = info
        libav = nil
        headerDamage = Self.headerDamage(handle, info: info)
        self.checksLength = ["WAV", "WAVEX", "RF64", "W64", "AIFF", "AU", "CAF", "FLAC"].contains(info.container)
        // FLAC that `openFLAC` left to libsndfile (an ID3 tag first, a depth it does not
        // take) still decodes through libFLAC, on a second opening of the file.
        flac = decodesFLACDirectly && input.regularFile && info.container == "FLAC" ? FLACDecoder(path: path, channels: info.channels) : nil
        // Integer files read as floats in [-1, 1); float files keep their values.
        sf_command(handle, Int32(SFC_SET_NORM_FLOAT), nil, Int32(SF_TRUE))
    }

    deinit { if let handle { sf_close(handle) } }

    /// libsndfile on the input (for a regular file, its own opening of the path; the
    /// descriptor is then closed), or FFmpeg's libraries for what the sniffer gives them and
    /// what libsndfile does not recognise; with libsndfile, what libmpg123 said while it opened.
    private static func openDecoder(_ input: (fd: Int32, regularFile: Bool), path: String, prefix: [UInt8],
                                    sfInfo: inout SF_INFO) throws -> (OpaquePointer?, LibavDecoder?, [String]) {
        if AudioContentSniffer.readsWithLibav(prefix) { return (nil, try LibavDecoder(fd: input.fd, path: path), []) }
        if let damage = RIFFHeaderCheck.damage(in: prefix) {
            close(input.fd)
            throw AudioError("cannot read audio", path, damage)
        }
        let openWithSndfile = {
            input.regularFile ? sf_open(path, Int32(SFM_READ), &sfInfo) : sf_open_fd(dup(input.fd), Int32(SFM_READ), &sfInfo, 1)
        }
        // What libmpg123 prints on stderr while libsndfile opens an MP3 is caught, for
        // the error line or the one warning.
        let (sndfile, openMessages) = LibraryMessages.capture(openWithSndfile)
        guard let sndfile else {
            let reason = String(cString: sf_strerror(nil))
            guard reason.hasPrefix("Format not recognised") else {
                close(input.fd)
                throw AudioError("cannot read audio", path, Self.openFailure(reason, messages: openMessages))
            }
            // Content libsndfile does not know: FFmpeg's probing has the last word.
            return (nil, try Self.probeWithLibav(fd: input.fd, path: path), [])
        }
        close(input.fd)
        // libmpg123's note that a cut MP3 is shorter than its Xing header says: the
        // cut is reported once, by `damage`, with the span it lost.
        return (sndfile, nil, openMessages.filter { !$0.hasPrefix("Xing stream size off") })
    }

    /// A plain FLAC file (`fLaC` first) of 8, 16 or 24 bits, read by libFLAC and the own
    /// frame decoder from the descriptor already open, described as libsndfile describes it
    /// (its header read by libFLAC instead, so the file is opened once); nil leaves the file
    /// to libsndfile as before: other depths (libsndfile refuses 12 and 20 bits with its own
    /// error), an ID3 tag before `fLaC`, and anything libFLAC cannot start.
    private static func openFLAC(_ fd: Int32, path: String, prefix: [UInt8]) -> (FLACDecoder, AudioFileInfo)? {
        guard prefix.starts(with: "fLaC".utf8), let decoder = FLACDecoder(fd: fd), let stream = decoder.streamInfo,
              stream.sample_rate > 0, let encoding = [8: "PCM_S8", 16: "PCM_16", 24: "PCM_24"][stream.bits_per_sample]
        else { return nil }
        // STREAMINFO's 0 (length unknown) stays 0, as libsndfile's "the most there can be" does.
        let info = AudioFileInfo(path: path, container: "FLAC", encoding: encoding, sampleRate: Int(stream.sample_rate),
                                 channels: Int(stream.channels), frames: Int64(stream.total_samples))
        return (decoder, info)
    }

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

    /// A descriptor on the input: the file itself, or for stdin, FIFOs and other
    /// non-regular files, a spooled copy (decoders seek).
    private static func openInput(_ path: String) throws -> (fd: Int32, regularFile: Bool) {
        if path == "-" {
            let (fd, bytes) = try InputSpool.spool(from: STDIN_FILENO, subject: "stdin")
            guard bytes > 0 else { close(fd); throw AudioError("cannot read audio", "stdin", "input is empty") }
            return (fd, false)
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw AudioError("cannot read audio", path, errno == ENOENT ? "no such file" : errnoText())
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw AudioError("cannot read audio", path, "is a directory") }
        if kind == S_IFREG {
            guard status.st_size > 0 else { throw AudioError("cannot read audio", path, "file is empty") }
        }
        let source = open(path, O_RDONLY)
        guard source >= 0 else { throw AudioError("cannot read audio", path, errnoText()) }
        if kind == S_IFREG { return (source, true) }
        defer { close(source) }
        let (fd, bytes) = try InputSpool.spool(from: source, subject: path)
        guard bytes > 0 else { close(fd); throw AudioError("cannot read audio", path, "input is empty") }
        return (fd, false)
    }

    /// The first bytes of the input, for the content sniffer (the offset is left alone).
    private static func prefix(of fd: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: AudioContentSniffer.prefixLength)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, got)))
    }

    /// FFmpeg's libraries on content libsndfile did not recognise; their own refusal
    /// becomes the usual "not an audio file" error.
    private static func probeWithLibav(fd: Int32, path: String) throws -> LibavDecoder {
        do {
            return try LibavDecoder(fd: fd, path: path)
        } catch let error as AudioError where error.reason.hasPrefix(LibavDecoder.unopenable) || error.reason.hasPrefix("no audio stream") {
            throw AudioError("cannot read audio", path, unrecognisedFormat)
        }
    }

    /// libsndfile reads a WAV/AIFF whose header declares more audio than the file holds,
    /// noting "data : N (should be M)" in its log, the only trace. The placeholder lengths
    /// of headers written to a pipe (0, 0xFFFFFFFF, as `ffmpeg -f wav -` writes) are no damage.
    private static func headerDamage(_ handle: OpaquePointer, info: AudioFileInfo) -> AudioDamage? {
        var log = [CChar](repeating: 0, count: 8192)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") where line.contains("(should be") {
            let trimmed = line.trimmingCharacters()
            guard trimmed.hasPrefix("data") || trimmed.hasPrefix("SSND") else { continue }
            let numbers = trimmed.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
            guard let declared = numbers.first else { continue }
            if declared == 0 || declared >= 0x7FFF_F000 { return nil }
            guard let width = info.bytesPerSample, info.sampleRate > 0 else {
                return AudioDamage(path: info.path, end: info.duration, endsMidFrame: true)
            }
            let declaredFrames = declared / Int64(width * info.channels)
            return AudioDamage(path: info.path, end: info.duration, declaredEnd: Double(declaredFrames) / Double(info.sampleRate))
        }
        return nil
    }

    /// Reads up to `buffer.count / channels` frames into `buffer` (interleaved) and
    /// returns the number of frames read; 0 means the end of the file.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let wanted = buffer.count / info.channels
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        let got: Int
        if let libav {
            got = try libav.read(into: buffer)
        } else if let flac {
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

    /// After a read that returned less than asked: a stream cut short or broken off keeps
    /// what it gave, and `damage` says what was lost; a read error of libsndfile's throws.
    private func checkShortRead() throws {
        if libav != nil { return }
        if let flac {
            try noteShortfall(of: flac)
            return
        }
        let code = sf_error(handle)
        if code != 0 {
            let cause = LibraryMessages.summary(decoderMessages) ?? String(cString: sf_strerror(handle))
            throw AudioError("cannot read audio", info.path,
                             "truncated or damaged file: decoding stopped at frame \(framesRead) of \(info.frames) (\(cause))")
        }
        // An MP3's frame count comes from its Xing/LAME header: a tenth of a second of slack
        // for encoder padding; uncompressed data must be all there.
        let slack = info.container == "MPEG" ? Int64(info.sampleRate / 10) : 0
        if (checksLength || info.container == "MPEG") && framesRead + slack < info.frames && shortfall == nil {
            let rate = Double(info.sampleRate)
            shortfall = AudioDamage(path: info.path, end: Double(framesRead) / rate, declaredEnd: Double(info.frames) / rate)
        }
    }

    /// A FLAC stream that stops short of STREAMINFO's length (a file cut off mid-write) or
    /// that libFLAC gave up on keeps the frames that decoded, with the rest reported as lost,
    /// as every other format does; a stream of which nothing decodes is an error.
    private func noteShortfall(of flac: FLACDecoder) throws {
        let short = checksLength && framesRead < info.frames
        guard flac.failed || short, shortfall == nil else { return }
        let cause = flac.streamError ?? "libFLAC gave up"
        guard framesRead > 0 else {
            throw AudioError("cannot read audio", info.path, "truncated or damaged file: no frame decodes (\(cause))")
        }
        let rate = Double(info.sampleRate)
        shortfall = AudioDamage(path: info.path, end: Double(framesRead) / rate,
                                declaredEnd: short ? Double(info.frames) / rate : nil, endsMidFrame: !short)
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

    /// The most samples `readAll` reserves on the header's word before any are decoded.
    static let trustedReservation: Int64 = 1 << 24

    /// Reads the rest of the file into memory; meant for clips, not for recordings.
    public func readAll() throws -> AudioBuffer {
        var samples: [Float] = []
        // The header's length is a claim, not a fact (a damaged FLAC header can declare 2^36
        // frames): reserve at most 16 Mi samples on its word, and grow past that as audio comes.
        let declared = max(0, info.frames - framesRead).multipliedReportingOverflow(by: Int64(info.channels))
        samples.reserveCapacity(Int(declared.overflow ? Self.trustedReservation : min(declared.partialValue, Self.trustedReservation)))
        try forEachBlock { samples.append(contentsOf: $0) }
        return AudioBuffer(samples: samples, channels: info.channels, sampleRate: info.sampleRate)
    }

    /// Moves the read position to `frame` from the start.
    public func seek(toFrame frame: Int64) throws {
        if libav != nil {
            throw AudioError("cannot seek", info.path, "inputs read through FFmpeg's libraries are read front to back")
        }
        let moved = flac.map { $0.seek(toFrame: frame) } ?? (sf_seek(handle, sf_count_t(frame), SEEK_SET) >= 0)
        guard moved else {
            throw AudioError("cannot seek", info.path, "frame \(frame) is out of reach")
        }
        framesRead = frame
    }

    /// Moves the read position to `frame`, or for inputs read through FFmpeg's libraries to
    /// the packet at or before it (the decoder cannot seek to a sample); what is read next
    /// runs from about there to the end. For the end of a long recording without reading it
    /// all. After a rough move `framesRead` is an estimate.
    public func seek(toAboutFrame frame: Int64) throws {
        guard let libav else { return try seek(toFrame: frame) }
        guard libav.seek(toAboutSeconds: Double(frame) / Double(info.sampleRate)) else {
            throw AudioError("cannot seek", info.path, "the \(info.container) container does not seek")
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
