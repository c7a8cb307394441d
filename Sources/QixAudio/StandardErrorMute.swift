#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Silences C libraries that print to stderr themselves: libmpg123, under libsndfile, says
/// "Warning: Xing stream size off by more than 1%" when it opens a cut MP3, and libsndfile
/// gives no way to quiet it. QixKit reports the cut itself, once, in its own words.
///
/// The descriptor is process-wide, so opens are serialised; a line another thread writes
/// during the few microseconds of an open would be lost, so only MP3 opens are muted.
enum StandardErrorMute {
    private static let lock = MuteLock()

    /// Runs `body` with file descriptor 2 pointed at /dev/null, then restores it.
    static func muted<T>(_ body: () throws -> T) rethrows -> T {
        try lock.locked {
            let saved = dup(STDERR_FILENO)
            let null = open("/dev/null", O_WRONLY)
            guard saved >= 0, null >= 0 else {
                if saved >= 0 { close(saved) }
                if null >= 0 { close(null) }
                return try body()
            }
            dup2(null, STDERR_FILENO)
            close(null)
            defer {
                dup2(saved, STDERR_FILENO)
                close(saved)
            }
            return try body()
        }
    }
}

/// A pthread mutex around the swap of descriptor 2.
private final class MuteLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
