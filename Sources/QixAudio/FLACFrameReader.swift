import CFLACFrame
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a plain FLAC file frame by frame through QixKit's own frame decoder (CFLACFrame)
/// for `FLACDecoder`: 1.6-1.9x libFLAC 1.4's speed on 16-bit stereo (docs/scan.md), where
/// decoding was most of a scan's time.
///
/// It takes 8-24 bit streams whose frames carry the stream's channel count. A frame it
/// refuses (damaged, cut, reserved fields, junk after the last frame) ends its part: `next`
/// says where libFLAC is to go on, so a damaged file decodes and is reported exactly as
/// with libFLAC alone.
final class FLACFrameReader {
    /// What `next` found.
    enum Step {
        /// A frame, decoded into `planes`.
        case frame(qix_flac_frame_header)
        /// The end of the file, right after the last frame.
        case end
        /// A frame this decoder does not take: libFLAC should decode from byte `offset`, the
        /// last frame this decoder took (its samples already delivered, so `replayed` frames
        /// are to be dropped), or from the refused frame itself when it was the first.
        /// libFLAC judges a damaged frame by the one before it: started at the damaged one,
        /// it drops it where alone it would deliver it as silence.
        case handOver(offset: Int64, replayed: Int)
    }

    /// The largest block FLAC allows: every plane holds this many samples.
    static let planeCapacity = 65_536
    /// Bytes of file held at once; a frame longer than this goes to libFLAC.
    static let bufferCapacity = 4 << 20

    /// STREAMINFO's rate, channels and sample size, for frame headers that defer to them.
    private var stream: qix_flac_stream_info
    /// One plane of samples per channel, as `FLACDecoder.deliver` reads them.
    let planes: UnsafeMutablePointer<UnsafePointer<Int32>?>
    private let writablePlanes: UnsafeMutablePointer<UnsafeMutablePointer<Int32>?>
    private let channels: Int
    private let file: Int32
    /// File bytes from `bufferOffset` on; `buffer[start ..< filled]` not yet decoded, then
    /// `QIX_FLAC_PADDING` zero bytes.
    private let buffer: UnsafeMutablePointer<UInt8>
    private var start = 0, filled = 0
    private var bufferOffset: Int64
    private var atEndOfFile = false, readFailed = false
    /// Byte offset of the last frame decoded.
    private var lastFrameOffset: Int64?
    /// Frames and samples decoded so far, which the next frame's number must match.
    private var framesDecoded: UInt64 = 0, samplesDecoded: UInt64 = 0
    /// Whether the baseline x86-64 build decodes, not the best one for this CPU (for tests).
    private let portable: Bool

    /// Reads the metadata of the FLAC file open on `fd` (kept open by the caller; this reader
    /// holds a duplicate and reads at explicit offsets, leaving the file position to libFLAC's
    /// stdio stream on the same file); nil when the file is not plain FLAC with a STREAMINFO
    /// this decoder takes (libFLAC then decodes all of it). `portable` picks the baseline
    /// build of the decoder, which tests compare with the best one.
    init?(fd: Int32, channels: Int, portable: Bool = false) {
        let file = dup(fd)
        guard file >= 0 else { return nil }
        guard let (info, firstFrame) = Self.readMetadata(file), Int(info.channels) == channels,
              (4...24).contains(info.bits_per_sample) else {
            close(file)
            return nil
        }
        self.file = file
        self.channels = channels
        self.portable = portable
        stream = info
        bufferOffset = firstFrame
        // Only what the decoder reads is written: the file bytes and the padding after them
        // (zeroed on every refill), not all 4 MB for every recording opened.
        buffer = .allocate(capacity: Self.bufferCapacity + Int(QIX_FLAC_PADDING))
        buffer.initialize(repeating: 0, count: Int(QIX_FLAC_PADDING))
        writablePlanes = .allocate(capacity: channels)
        planes = .allocate(capacity: channels)
        for c in 0..<channels {
            let plane = UnsafeMutablePointer<Int32>.allocate(capacity: Self.planeCapacity)
            writablePlanes[c] = plane
            planes[c] = UnsafePointer(plane)
        }
    }

    deinit {
        close(file)
        buffer.deallocate()
        for c in 0..<channels { writablePlanes[c]?.deallocate() }
        writablePlanes.deallocate()
        planes.deallocate()
    }

    /// Decodes the next frame into `planes`.
    func next() -> Step {
        while true {
            let available = filled - start
            if available == 0 && atEndOfFile && !readFailed { return .end }
            var header = qix_flac_frame_header()
            var consumed = 0
            let status = portable
                ? qix_flac_decode_frame_portable(buffer + start, available, &stream, writablePlanes,
                                                 UInt32(Self.planeCapacity), &header, &consumed)
                : qix_flac_decode_frame(buffer + start, available, &stream, writablePlanes,
                                        UInt32(Self.planeCapacity), &header, &consumed)
            // A frame out of sequence (its number mutated, CRCs intact) is libFLAC's too:
            // libFLAC fills the gap it sees in the numbering.
            if status == QIX_FLAC_FRAME_OK && header.number == expectedNumber(header) {
                lastFrameOffset = bufferOffset + Int64(start)
                start += consumed
                framesDecoded += 1
                samplesDecoded += UInt64(header.blocksize)
                return .frame(header)
            }
            if status == QIX_FLAC_FRAME_NEED_MORE && !atEndOfFile && available < Self.bufferCapacity {
                refill()
                continue
            }
            return lastFrameOffset.map { .handOver(offset: $0, replayed: 1) }
                ?? .handOver(offset: bufferOffset + Int64(start), replayed: 0)
        }
    }

    /// The number the next frame must carry: its index in a fixed-block-size stream, its
    /// first sample's in a variable one.
    private func expectedNumber(_ header: qix_flac_frame_header) -> UInt64 {
        header.variable_blocksize != 0 ? samplesDecoded : framesDecoded
    }

    /// Moves the bytes not yet decoded to the front and reads until the buffer is full or
    /// the file ends; a read error ends the file here, and libFLAC meets it again.
    private func refill() {
        let kept = filled - start
        if start > 0 {
            buffer.update(from: buffer + start, count: kept)
            bufferOffset += Int64(start)
            start = 0
            filled = kept
        }
        while filled < Self.bufferCapacity {
            let got = pread(file, buffer + filled, Self.bufferCapacity - filled, off_t(bufferOffset + Int64(filled)))
            if got > 0 { filled += got; continue }
            if got < 0 && errno == EINTR { continue }
            readFailed = got < 0
            atEndOfFile = true
            break
        }
        (buffer + filled).update(repeating: 0, count: Int(QIX_FLAC_PADDING))
    }

    /// A frame CRC-16 by carry-less multiplication folding (where the CPU has it) or by
    /// tables, for tests comparing the two.
    static func crc16(_ bytes: [UInt8], folded: Bool) -> UInt16 {
        bytes.withUnsafeBufferPointer { qix_flac_crc16($0.baseAddress, $0.count, folded ? 1 : 0) }
    }

    /// STREAMINFO and the byte offset of the first frame, from "fLaC" and the metadata
    /// block headers (RFC 9639 section 8); nil for anything else.
    private static func readMetadata(_ file: Int32) -> (qix_flac_stream_info, Int64)? {
        var bytes = [UInt8](repeating: 0, count: 34)
        func readAt(_ offset: Int64, _ count: Int) -> Bool {
            bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, count, off_t(offset)) == count }
        }
        guard readAt(0, 4), bytes[0..<4].elementsEqual("fLaC".utf8) else { return nil }
        var offset: Int64 = 4
        var info: qix_flac_stream_info?
        for _ in 0..<100_000 {
            guard readAt(offset, 4) else { return nil }
            let last = bytes[0] & 0x80 != 0, type = bytes[0] & 0x7f
            let length = Int64(bytes[1]) << 16 | Int64(bytes[2]) << 8 | Int64(bytes[3])
            guard type != 127 else { return nil }
            if type == 0 {
                guard length >= 34, readAt(offset + 4, 34) else { return nil }
                let rate = UInt32(bytes[10]) << 12 | UInt32(bytes[11]) << 4 | UInt32(bytes[12]) >> 4
                let channels = UInt32(bytes[12] >> 1 & 7) + 1
                let bits = (UInt32(bytes[12] & 1) << 4 | UInt32(bytes[13] >> 4)) + 1
                info = qix_flac_stream_info(sample_rate: rate, channels: channels, bits_per_sample: bits)
            }
            offset += 4 + length
            if last { return info.map { ($0, offset) } }
        }
        return nil
    }
}
