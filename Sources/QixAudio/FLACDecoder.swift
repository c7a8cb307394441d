import CFLAC
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a FLAC file into interleaved `Float` frames, scaled exactly as libsndfile scales
/// them (sample / 2^(bits - 1)), for `AudioFileReader`: frames through QixKit's own frame
/// decoder (`FLACFrameReader`) while it takes them, through libFLAC from the first one it
/// does not take (and for seeks).
///
/// libsndfile decodes FLAC through libFLAC too, but copies and converts every sample
/// through its own buffers; calling libFLAC directly saved about a fifth of the decoding
/// time of a 44.1 kHz stereo file, and the own frame decoder about 40 % of the rest.
final class FLACDecoder {
    /// Which decoder reads the frames.
    enum Frames {
        /// `FLACFrameReader` while it takes the frames, then libFLAC.
        case own
        /// The same with the decoder's baseline x86-64 build (tests compare the two).
        case ownPortable
        /// libFLAC throughout (the reference the own decoder is tested against).
        case libFLAC
    }

    /// Channels in the file (STREAMINFO's).
    private(set) var channels = 0
    /// STREAMINFO as libFLAC read it (rate, channels, bits per sample, total frames or 0).
    private(set) var streamInfo: FLAC__StreamMetadata_StreamInfo?
    /// Whether frames are delivered as the channel average (see `switchToDownmix`).
    private(set) var downmix = false
    /// Values per delivered frame.
    private var stride: Int { downmix ? 1 : channels }
    /// The first stream error libFLAC reported (it skips the bad part and goes on).
    private(set) var streamError: String?
    /// Whether decoding stopped on a fatal error rather than at the end of the stream.
    private(set) var failed = false
    private var ended = false
    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    /// The file libFLAC reads (and closes in finish): moved to a frame's offset on a hand-over.
    private let file: UnsafeMutablePointer<FILE>
    /// The own frame decoder, until it hands the stream to libFLAC.
    private var ownFrames: FLACFrameReader?
    /// Where the own decoder handed the stream to libFLAC (byte offset), if it did.
    private(set) var handedOverAt: Int64?
    /// Frames libFLAC decodes again after a hand-over, already delivered: dropped.
    private var replayedFrames = 0
    /// Where the frame being decoded goes first: the caller's buffer, `room` frames.
    private var target: UnsafeMutablePointer<Float>?
    private var room = 0
    /// Frames of the last decoded frame that did not fit, interleaved, from `pendingHead`.
    private var pending = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private var pendingCapacity = 0
    private var pendingHead = 0
    private var pendingCount = 0
    /// The file's stdio buffer: closed with the file before it is freed.
    private static let readBufferSize = 1 << 20
    private let readBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: FLACDecoder.readBufferSize)

    /// Opens `path` for decoding; nil when libFLAC cannot or the file does not have
    /// `channels` channels (tests; `AudioFileReader` passes the descriptor it has open).
    convenience init?(path: String, channels: Int, frames: Frames = .own) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        self.init(fd: fd, frames: frames)
        guard self.channels == channels else { return nil }
    }

    /// Starts decoding the FLAC file open on `fd` (positioned at its start) and reads its
    /// metadata; nil when libFLAC cannot. The caller keeps `fd`: libFLAC reads through stdio
    /// on a duplicate, and the own frame decoder reads another at explicit offsets, so the
    /// file is opened once.
    init?(fd: Int32, frames: Frames = .own) {
        // libFLAC reads through stdio; with its default 4 KB buffer a 48 MB recording
        // takes 12 000 read calls, with this one 48. (glibc ignores the size unless the
        // buffer is given.) libFLAC owns the stream and closes it in finish.
        let descriptor = dup(fd)
        guard descriptor >= 0 else { return nil }
        guard let file = fdopen(descriptor, "rb") else {
            close(descriptor)
            return nil
        }
        guard let decoder = FLAC__stream_decoder_new() else {
            fclose(file)
            return nil
        }
        self.decoder = decoder
        self.file = file
        setvbuf(file, readBuffer, _IOFBF, Self.readBufferSize)
        let status = FLAC__stream_decoder_init_FILE(
            decoder, file,
            { _, frame, buffer, client in
                guard let frame, let buffer, let client else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
                let header = frame.pointee.header
                let owner = Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue()
                if owner.replayedFrames > 0 {
                    owner.replayedFrames -= 1
                    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
                }
                owner.deliver(
                    frames: Int(header.blocksize), bitsPerSample: Int(header.bits_per_sample),
                    channelsInFrame: Int(header.channels), buffer)
                return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
            },
            { _, metadata, client in
                // libFLAC passes only STREAMINFO unless asked for more.
                guard let metadata, let client, metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
                Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue().streamInfo = metadata.pointee.data.stream_info
            },
            { _, status, client in
                guard let client else { return }
                let owner = Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue()
                if owner.streamError == nil { owner.streamError = FLACDecoder.describe(status) }
            },
            Unmanaged.passUnretained(self).toOpaque())
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK,
              FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0,
              let streamInfo, streamInfo.channels > 0 else {
            return nil   // fully initialised, so deinit releases the decoder
        }
        channels = Int(streamInfo.channels)
        if frames != .libFLAC { ownFrames = FLACFrameReader(fd: fd, channels: channels, portable: frames == .ownPortable) }
    }

    deinit {
        FLAC__stream_decoder_finish(decoder)
        FLAC__stream_decoder_delete(decoder)
        pending.deallocate()
        readBuffer.deallocate()
    }

    /// Takes one decoded frame (from libFLAC or the own decoder): planar integers to
    /// interleaved floats, straight into the caller's buffer, the overflow into `pending`.
    private func deliver(frames: Int, bitsPerSample: Int, channelsInFrame: Int,
                         _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>) {
        let channels = self.channels, stride = self.stride
        let scale = 1 / Float(1 << (bitsPerSample - 1))
        let direct = min(frames, room)
        // libFLAC can deliver two frames in one call (a damaged frame, then the next), so
        // the overflow goes after whatever still waits, which is moved to the front.
        let waiting = pendingCount - pendingHead
        if waiting > 0 && pendingHead > 0 { pending.update(from: pending + pendingHead, count: waiting) }
        let needed = waiting + (frames - direct) * stride
        if pendingCapacity < needed {
            let grown = UnsafeMutablePointer<Float>.allocate(capacity: max(needed, frames * channels))
            grown.update(from: pending, count: waiting)
            pending.deallocate()
            pending = grown
            pendingCapacity = max(needed, frames * channels)
        }
        let overflow = pending + waiting
        let available = min(channels, channelsInFrame)
        if downmix {
            if let target { Self.mix(buffer, channels: channels, available: available, from: 0, count: direct, scale: scale, into: target) }
            Self.mix(buffer, channels: channels, available: available, from: direct, count: frames - direct, scale: scale, into: overflow)
        } else if channels == 2, available == 2, let left = buffer[0], let right = buffer[1] {
            if let target { Self.interleave(left, right, count: direct, scale: scale, into: target) }
            Self.interleave(left + direct, right + direct, count: frames - direct, scale: scale, into: overflow)
        } else {
            for c in 0..<channels {
                guard c < available, let source = buffer[c] else {
                    if let target { for i in 0..<direct { target[i * channels + c] = 0 } }
                    for i in direct..<frames { overflow[(i - direct) * channels + c] = 0 }
                    continue
                }
                if let target { Self.convert(source, count: direct, scale: scale, into: target + c, stride: channels) }
                Self.convert(source + direct, count: frames - direct, scale: scale, into: overflow + c, stride: channels)
            }
        }
        if direct > 0 { target = target.map { $0 + direct * stride } }
        room -= direct
        pendingHead = 0
        pendingCount = needed
    }

    /// The average of the channels of frames `from ..< from + count`, with the same
    /// operations in the same order as `ChannelMixer.mixDown` on the converted floats.
    private static func mix(_ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>, channels: Int, available: Int,
                            from: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
        guard count > 0 else { return }
        if channels == 2, available == 2, let left = buffer[0], let right = buffer[1] {
            for i in 0..<count {
                output[i] = 0.5 * (Float(left[from + i]) * scale + Float(right[from + i]) * scale)
            }
            return
        }
        let share = 1 / Float(channels)
        for i in 0..<count {
            var sum: Float = 0
            for c in 0..<channels {
                let value: Float = c < available ? buffer[c].map { Float($0[from + i]) * scale } ?? 0 : 0
                sum += value
            }
            output[i] = channels == 1 ? sum : sum * share
        }
    }

    /// From now on delivers the channel average (as `ChannelMixer` computes it, bit for
    /// bit) instead of interleaved frames: one pass from libFLAC's planar integers to the
    /// mono signal detection needs. Frames already waiting are mixed the same way.
    func switchToDownmix() {
        guard !downmix else { return }
        downmix = true
        let frames = (pendingCount - pendingHead) / channels
        let share = 1 / Float(channels)
        for i in 0..<frames {
            let base = pendingHead + i * channels
            if channels == 2 { pending[i] = 0.5 * (pending[base] + pending[base + 1]); continue }
            var sum: Float = 0
            for c in 0..<channels { sum += pending[base + c] }
            pending[i] = channels == 1 ? sum : sum * share
        }
        pendingHead = 0
        pendingCount = frames
    }

    /// Stereo frames four at a time: the same conversions and products as `convert`,
    /// written as L R L R without a strided store per value.
    private static func interleave(_ left: UnsafePointer<FLAC__int32>, _ right: UnsafePointer<FLAC__int32>, count: Int,
                                   scale: Float, into output: UnsafeMutablePointer<Float>) {
        let l = UnsafeRawPointer(left), r = UnsafeRawPointer(right), out = UnsafeMutableRawPointer(output)
        var i = 0
        while i + 4 <= count {
            let a = SIMD4<Float>(l.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Int32>.self)) * scale
            let b = SIMD4<Float>(r.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Int32>.self)) * scale
            let pairs = SIMD8<Float>(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
            out.storeBytes(of: pairs, toByteOffset: i * 8, as: SIMD8<Float>.self)
            i += 4
        }
        while i < count {
            output[2 * i] = Float(left[i]) * scale
            output[2 * i + 1] = Float(right[i]) * scale
            i += 1
        }
    }

    @inline(__always)
    private static func convert(_ source: UnsafePointer<FLAC__int32>, count: Int, scale: Float,
                                into output: UnsafeMutablePointer<Float>, stride: Int) {
        for i in 0..<count { output[i * stride] = Float(source[i]) * scale }
    }

    /// Fills `buffer` (interleaved, or mono with `downmix`) with as many frames as fit; returns
    /// how many; 0 means the end of the stream (or a fatal error: see `failed`).
    func read(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let stride = self.stride
        let wanted = buffer.count / stride
        let fromPending = min(wanted * stride, pendingCount - pendingHead)
        if fromPending > 0 {
            base.update(from: pending + pendingHead, count: fromPending)
            pendingHead += fromPending
        }
        var got = fromPending / stride
        while got < wanted && pendingHead == pendingCount && !ended {
            target = base + got * stride
            room = wanted - got
            if let ownFrames {
                switch ownFrames.next() {
                case .frame(let header):
                    deliver(frames: Int(header.blocksize), bitsPerSample: Int(header.bits_per_sample),
                            channelsInFrame: Int(header.channels), ownFrames.planes)
                case .end:
                    ended = true
                case .handOver(let offset, let replayed):
                    handOver(at: offset, replayed: replayed)
                }
            } else if FLAC__stream_decoder_process_single(decoder) == 0 {
                failed = true
                ended = true
            } else if FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM {
                ended = true
            }
            got = wanted - room
        }
        target = nil
        room = 0
        return got
    }

    /// libFLAC's stream errors in words.
    static func describe(_ status: FLAC__StreamDecoderErrorStatus) -> String {
        switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: return "lost sync"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: return "bad frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: return "frame CRC mismatch"
        default: return "unparseable stream"
        }
    }

    /// libFLAC decodes from the frame at byte `offset` on (its input moved there and
    /// flushed), dropping the first `replayed` frames it delivers.
    private func handOver(at offset: Int64, replayed: Int) {
        ownFrames = nil
        handedOverAt = offset
        replayedFrames = replayed
        if fseeko(file, off_t(offset), SEEK_SET) != 0 || FLAC__stream_decoder_flush(decoder) == 0 {
            if streamError == nil { streamError = "cannot resume decoding at byte \(offset)" }
            failed = true
            ended = true
        }
    }

    /// Moves to `frame` from the start; false when libFLAC cannot. libFLAC decodes from then on.
    func seek(toFrame frame: Int64) -> Bool {
        ownFrames = nil
        replayedFrames = 0
        pendingHead = 0
        pendingCount = 0
        ended = false
        failed = false
        if FLAC__stream_decoder_seek_absolute(decoder, FLAC__uint64(frame)) != 0 { return true }
        if FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_SEEK_ERROR {
            _ = FLAC__stream_decoder_flush(decoder)
        }
        return false
    }
}
