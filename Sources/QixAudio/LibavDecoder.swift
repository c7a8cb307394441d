import CAVFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads what libsndfile does not, through FFmpeg's libraries: AAC (ADTS, MP4/M4A, HE-AAC),
/// MPEG-TS with AAC, AC-3 or MP2 audio, AC-3, and the first audio track of video files.
/// Decodes to interleaved Float at the stream's own rate and channel count, one coded frame
/// at a time, so memory stays bounded whatever the length.
///
/// A damaged input is read up to where it breaks; what was lost is kept in `damage`.
final class LibavDecoder {
    /// What the input holds; the rate and channels are those of the first decoded frame
    /// (HE-AAC's SBR doubles the rate an MP4 header may state).
    private(set) var info: AudioFileInfo
    /// What a damaged input lost, known once the end has been reached.
    private(set) var damage: AudioDamage?

    private let path: String
    private let io: LibavFileIO
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var converter: LibavSampleConverter?
    private var streamIndex: Int32 = -1
    /// The length the container states (MP4, Matroska), checked against what was decoded.
    private var declaredFrames: Int64?

    /// Converted samples not yet handed out, interleaved.
    private var pending: UnsafeMutablePointer<Float>?
    private var pendingCapacity = 0
    private var pendingStart = 0
    private var pendingFrames = 0

    private var draining = false
    private var finished = false
    private var delivered: Int64 = 0
    private var packets = 0
    private var failedPackets = 0
    private var lastFailedPacket = -1
    private var lastPacketCorrupt = false
    private var readFailure: String?

    /// Opens the input on `fd` (which the decoder closes) and decodes its first frame.
    init(fd: Int32, path: String) throws {
        self.path = path
        io = try LibavFileIO(fd: fd, subject: path)
        info = AudioFileInfo(path: path, container: "", encoding: "", sampleRate: 0, channels: 0, frames: 0)
        try openContainer()
        try openDecoder()
        guard try decodeNextFrame(), let frame else {
            throw AudioError("cannot read audio", path, "no audio could be decoded" + (LibavLog.take().map { " (\($0))" } ?? ""))
        }
        let converter = LibavSampleConverter(first: frame)
        guard converter.sampleRate > 0, converter.channels > 0 else {
            throw AudioError("cannot read audio", path, "stream declares \(converter.channels) channels at \(converter.sampleRate) Hz")
        }
        self.converter = converter
        if let format, let codec {
            (info, declaredFrames) = Self.describe(format, stream: Int(streamIndex), codec: codec, path: path,
                                                   sampleRate: Int(converter.sampleRate), channels: Int(converter.channels))
        }
        try convertCurrentFrame()
    }

    deinit {
        avcodec_free_context(&codec)
        avformat_close_input(&format)
        av_packet_free(&packet)
        av_frame_free(&frame)
        pending?.deallocate()
    }

    /// Reads up to `buffer.count / channels` frames (interleaved); 0 means the end.
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channels = info.channels
        let wanted = buffer.count / channels
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        var written = 0
        while written < wanted {
            if pendingFrames == 0 {
                guard try decodeNextFrame() else { break }
                try convertCurrentFrame()
                continue
            }
            guard let pending else { break }
            let count = min(pendingFrames, wanted - written)
            (base + written * channels).update(from: pending + pendingStart * channels, count: count * channels)
            pendingStart += count
            pendingFrames -= count
            written += count
        }
        delivered += Int64(written)
        if written < wanted && finished && damage == nil { damage = assessDamage() }
        return written
    }

    /// Moves to the packet at or before `seconds` from the stream's start, so that what is
    /// read next runs from about there to the end; false where the container cannot seek.
    /// The position is then known only roughly: the count of frames delivered, and so the
    /// damage assessed at the end, no longer measure the whole input.
    func seek(toAboutSeconds seconds: Double) -> Bool {
        guard let format, let codec, let streams = format.pointee.streams,
              let stream = streams[Int(streamIndex)] else { return false }
        let base = stream.pointee.time_base
        guard base.num > 0, base.den > 0 else { return false }
        let origin = stream.pointee.start_time == qix_av_nopts_value() ? 0 : stream.pointee.start_time
        let target = origin + Int64(max(0, seconds) * Double(base.den) / Double(base.num))
        guard av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0 else { return false }
        avcodec_flush_buffers(codec)
        pendingFrames = 0
        pendingStart = 0
        draining = false
        finished = false
        return true
    }

    /// Probes the bytes (never the name) and reads the stream headers.
    private func openContainer() throws {
        _ = LibavLog.installed
        LibavLog.clear()
        guard let context = avformat_alloc_context() else { throw AudioError("cannot read audio", path, "out of memory") }
        context.pointee.pb = io.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // No protocols at all: playlists and concat lists name other files or URLs, and a
        // recording must not make QixKit open them.
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "none", 0)
        defer { av_dict_free(&options) }
        // On failure avformat_open_input frees the context itself and leaves nil here.
        let status = avformat_open_input(&opened, "", nil, &options)
        format = opened
        guard status >= 0, let format else { throw Self.failure(path, Self.unopenable, status) }
        let found = avformat_find_stream_info(format, nil)
        guard found >= 0 else { throw Self.failure(path, "cannot read the stream headers", found) }
    }

    /// Why FFmpeg's libraries could not open an input.
    static let unopenable = "FFmpeg's libraries cannot open it"

    /// Picks the first audio stream that has a decoder, ignores the others, opens the decoder.
    private func openDecoder() throws {
        guard let format, let streams = format.pointee.streams else { return }
        let count = Int(format.pointee.nb_streams)
        var chosen: (index: Int, decoder: UnsafePointer<AVCodec>)?
        var undecodable: String?
        for index in 0..<count {
            guard let parameters = streams[index]?.pointee.codecpar, parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { continue }
            if let decoder = avcodec_find_decoder(parameters.pointee.codec_id) { chosen = (index, decoder); break }
            undecodable = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        }
        guard let chosen, let stream = streams[chosen.index] else {
            throw AudioError("cannot read audio", path, undecodable.map { "no decoder for its \($0) audio" }
                             ?? "no audio stream in this \(Self.containerName(format)) file (\(count) stream\(count == 1 ? "" : "s"))")
        }
        for index in 0..<count where index != chosen.index { streams[index]?.pointee.discard = AVDISCARD_ALL }
        streamIndex = Int32(chosen.index)
        codec = avcodec_alloc_context3(chosen.decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let codec, packet != nil, frame != nil else { throw AudioError("cannot read audio", path, "out of memory") }
        var status = avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        // One core per input: a scan runs one input per core.
        codec.pointee.thread_count = 1
        codec.pointee.pkt_timebase = stream.pointee.time_base
        if status >= 0 { status = avcodec_open2(codec, chosen.decoder, nil) }
        guard status >= 0 else { throw Self.failure(path, "cannot open the \(Self.codecName(codec.pointee.codec_id)) decoder", status) }
    }

    /// Decodes until `frame` holds the next frame; false at the end of the stream.
    private func decodeNextFrame() throws -> Bool {
        guard let codec, let frame else { return false }
        var failuresInARow = 0
        while !finished {
            let received = avcodec_receive_frame(codec, frame)
            if received >= 0 { return true }
            if received == qix_averror_eof() || (received == qix_averror_eagain() && draining) {
                finished = true
            } else if received == qix_averror_eagain() {
                sendNextPacket()
            } else {
                // The frame is lost; the decoder goes on with the next packet.
                failedPacket()
                failuresInARow += 1
                if failuresInARow > 10_000 { throw Self.failure(path, "the decoder keeps failing", received) }
            }
        }
        return false
    }

    /// Reads the next packet of the chosen stream and sends it to the decoder; at the end
    /// of the input (or where it breaks) puts the decoder into draining.
    private func sendNextPacket() {
        guard let format, let codec, let packet else { return }
        let status = av_read_frame(format, packet)
        guard status >= 0 else {
            if status != qix_averror_eof() { readFailure = Self.errorText(status) }
            draining = true
            avcodec_send_packet(codec, nil)
            return
        }
        defer { av_packet_unref(packet) }
        guard packet.pointee.stream_index == streamIndex else { return }
        packets += 1
        lastPacketCorrupt = packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0
        let sent = avcodec_send_packet(codec, packet)
        if sent < 0 && sent != qix_averror_eagain() { failedPacket() }
    }

    private func failedPacket() {
        failedPackets += 1
        lastFailedPacket = packets
    }

    /// Converts the decoded frame into `pending` and releases it.
    private func convertCurrentFrame() throws {
        guard let frame, let converter else { return }
        defer { av_frame_unref(frame) }
        let needed = converter.maximumFrames(for: frame)
        if needed > pendingCapacity {
            pending?.deallocate()
            pending = .allocate(capacity: needed * info.channels)
            pendingCapacity = needed
        }
        guard let pending else { return }
        pendingFrames = try converter.convert(frame, into: pending, capacity: pendingCapacity, subject: path)
        pendingStart = 0
    }

    /// What the input lost, from the decoding's end state; nil for an intact input.
    private func assessDamage() -> AudioDamage? {
        let rate = Double(info.sampleRate)
        // A cut shows as a last packet flagged corrupt, a read error, or (ADTS, where the
        // parser re-frames the bytes) a last packet the decoder refuses.
        let lastPacketFailed = packets > 0 && lastFailedPacket == packets
        let endsMidFrame = lastPacketCorrupt || readFailure != nil || lastPacketFailed
        let skipped = failedPackets - (lastPacketFailed ? 1 : 0)
        var declaredEnd: Double?
        // A tenth of a second of slack: encoder delay and edit lists round differently.
        if let declaredFrames, declaredFrames - delivered > Int64(info.sampleRate / 10) {
            declaredEnd = Double(declaredFrames) / rate
        }
        guard endsMidFrame || skipped > 0 || declaredEnd != nil else { return nil }
        return AudioDamage(path: path, end: Double(delivered) / rate, declaredEnd: declaredEnd,
                           endsMidFrame: endsMidFrame, skippedPackets: skipped)
    }
}
