import CSndFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What C libraries print on the C `stderr` stream while QixKit calls them (libmpg123's
/// "[src/libmpg123/layer3.c:...] error: dequantization failed!" and "Note: Illegal
/// Audio-MPEG-Header", reached through libsndfile), caught so that they reach the user in
/// one voice: folded into an error's reason or summed up in one warning.
///
/// `stderr` is pointed once, for the whole process, at a stream whose writes go to the
/// calling thread's capture when it has one open, and to file descriptor 2 unchanged
/// otherwise; so parallel readers each get their own messages, and nothing else is lost.
/// Swift code writes to descriptor 2 directly and is never caught.
public enum LibraryMessages {
    /// One thread's open capture.
    final class Sink {
        var bytes: [UInt8] = []
    }

    private static let key = "QixAudio.LibraryMessages"

    private static let installed: Bool = {
        #if os(Linux)
        var functions = qix_cookie_functions()
        functions.write = forward
        guard let stream = qix_fopencookie(nil, "w", functions) else { return false }
        // Unbuffered, as stderr is: each message arrives while its thread's capture is open.
        setvbuf(stream, nil, _IONBF, 0)
        qix_set_c_stderr(stream)
        return true
        #else
        return false
        #endif
    }()

    /// The stream's write function: to the current thread's capture, or on to stderr's descriptor.
    private static let forward: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> Int = { _, text, count in
        guard let text, count > 0 else { return 0 }
        if let sink = Thread.current.threadDictionary[LibraryMessages.key] as? Sink {
            text.withMemoryRebound(to: UInt8.self, capacity: count) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
            return count
        }
        var offset = 0
        while offset < count {
            let put = write(STDERR_FILENO, text + offset, count - offset)
            if put <= 0 { break }
            offset += put
        }
        return count
    }

    /// Runs `body` and returns what libraries printed on `stderr` meanwhile on this thread,
    /// one entry per non-empty line.
    public static func capture<T>(_ body: () throws -> T) rethrows -> (result: T, messages: [String]) {
        guard installed else { return (try body(), []) }
        let dictionary = Thread.current.threadDictionary
        if dictionary[key] != nil { return (try body(), []) }   // nested: the outer capture collects
        let sink = Sink()
        dictionary[key] = sink
        defer { dictionary.removeObject(forKey: key) }
        let result = try body()
        let text = String(decoding: sink.bytes, as: UTF8.self)
        return (result, text.split(whereSeparator: \.isNewline).map(clean).filter { !$0.isEmpty })
    }

    /// A message without libmpg123's source location ("[src/libmpg123/parse.c:f():12] ")
    /// and its "Note: " prefix, trimmed.
    static func clean(_ line: Substring) -> String {
        var text = line
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") { text = text[text.index(after: close)...] }
        var result = text.trimmingCharacters(in: .whitespaces)
        for prefix in ["Note: ", "error: ", "warning: ", "Warning: "] where result.hasPrefix(prefix) {
            result.removeFirst(prefix.count)
        }
        return result
    }

    /// One clause for an error or warning: the first message, and how many followed.
    public static func summary(_ messages: [String]) -> String? {
        guard let first = messages.first else { return nil }
        return messages.count == 1 ? first : "\(first) (and \(messages.count - 1) more decoder messages)"
    }
}
