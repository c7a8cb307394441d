#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a non-seekable input (standard input, a pipe, a FIFO) into an anonymous
/// temporary file, so that decoders which seek (FLAC, Ogg, MP3) can read it.
///
/// The file is unlinked as soon as it is created: it vanishes with the descriptor,
/// whatever happens to the process, and memory stays bounded by the copy buffer.
enum InputSpool {
    /// Spools everything readable from `source` and returns a descriptor positioned at
    /// the start of the copy, plus the number of bytes copied.
    static func spool(from source: Int32, subject: String) throws -> (fd: Int32, bytes: Int) {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/qix-spool-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw AudioError("cannot buffer input", subject, "no temporary file in \(directory): \(errnoText())")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var total = 0
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got = read(source, buffer, chunk)
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                close(fd)
                throw AudioError("cannot read input", subject, errnoText())
            }
            var offset = 0
            while offset < got {
                let put = write(fd, buffer + offset, got - offset)
                if put < 0 {
                    if errno == EINTR { continue }
                    close(fd)
                    throw AudioError("cannot buffer input", subject, errnoText())
                }
                offset += put
            }
            total += got
        }
        lseek(fd, 0, SEEK_SET)
        return (fd, total)
    }
}

/// The C library's text for the current `errno`.
func errnoText() -> String { String(cString: strerror(errno)) }
