import CAVFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps FFmpeg's own log lines off stderr and folds the last error each thread logged
/// into the error QixKit reports ("moov atom not found" says more than "invalid data").
///
/// The libraries log through one process-wide callback, so messages are kept per thread:
/// scans decode several recordings at once.
enum LibavLog {
    /// The callback and level, installed once before the first file is opened.
    static let installed: Bool = {
        qix_av_log_install(sink)
        return true
    }()

    private static let lock = LibavLogLock()
    nonisolated(unsafe) private static var lastError: [UInt: String] = [:]

    /// Forgets what this thread logged before, so that an error names its own cause.
    static func clear() {
        _ = installed
        lock.locked { lastError[threadID()] = nil }
    }

    /// The last error line logged on this thread since `clear()`, if any; clears it.
    static func take() -> String? {
        lock.locked { lastError.removeValue(forKey: threadID()) }
    }

    fileprivate static func record(_ message: String) {
        lock.locked { lastError[threadID()] = message }
    }

    private static func threadID() -> UInt { UInt(pthread_self()) }
}

/// Receives FFmpeg's error lines, formatted by the C callback, and keeps their first line.
private let sink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { _, line in
    guard let line else { return }
    let text = String(cString: line)
    let first = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
    if !first.isEmpty { LibavLog.record(first) }
}

/// A pthread mutex: FFmpeg logs from whichever thread decodes.
private final class LibavLogLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
