import CAVFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FFmpeg reads through this instead of opening names itself: it reads the descriptor
/// QixKit opened (a file, or the spool of a pipe), so a path is never taken for a URL or
/// a protocol (`http:`, `concat:`), and the format is found from the bytes alone.
final class LibavFileIO {
    /// The AVIOContext handed to libavformat.
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private let fd: Int32

    /// Wraps `fd`, which this object closes when it goes.
    init(fd: Int32, subject: String) throws {
        self.fd = fd
        // Another reader (libsndfile, trying first) may have moved the shared offset.
        lseek(fd, 0, SEEK_SET)
        let size = 1 << 16
        guard let buffer = av_malloc(size) else {
            close(fd)
            throw AudioError("cannot read audio", subject, "out of memory")
        }
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 0,
                                     Unmanaged.passUnretained(self).toOpaque(), readPacket, nil, seekStream)
        if context == nil {
            av_free(buffer)
            close(fd)
            throw AudioError("cannot read audio", subject, "out of memory")
        }
    }

    deinit {
        if let context { av_freep(&context.pointee.buffer) }
        avio_context_free(&context)
        close(fd)
    }

    fileprivate func readBytes(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int32) -> Int32 {
        while true {
            let got = read(fd, buffer, Int(size))
            if got > 0 { return Int32(got) }
            if got == 0 { return qix_averror_eof() }
            if errno != EINTR { return -errno }
        }
    }

    fileprivate func seekBytes(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & qix_avseek_size() != 0 {
            var status = stat()
            return fstat(fd, &status) == 0 ? Int64(status.st_size) : Int64(-errno)
        }
        let moved = lseek(fd, off_t(offset), whence & ~Int32(AVSEEK_FORCE))
        return moved >= 0 ? Int64(moved) : Int64(-errno)
    }
}

private let readPacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, size in
    guard let opaque, let buffer else { return qix_averror_eof() }
    return Unmanaged<LibavFileIO>.fromOpaque(opaque).takeUnretainedValue().readBytes(buffer, size)
}

private let seekStream: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return -1 }
    return Unmanaged<LibavFileIO>.fromOpaque(opaque).takeUnretainedValue().seekBytes(offset, whence)
}
