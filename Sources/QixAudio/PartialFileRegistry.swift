import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The partial files this process is writing, removed by a signal handler when SIGINT,
/// SIGTERM or SIGHUP ends the process, so an interrupted write leaves nothing behind.
///
/// The handler may run at any instruction of any thread, so it allocates nothing and takes
/// no lock: the paths live in a table of fixed slots allocated before the handler is
/// installed, and a slot's path is complete before the slot is marked in use.
enum PartialFileRegistry {
    /// Paths written at the same time beyond this are not registered (the next run's sweep
    /// of stale partials still removes them).
    static let capacity = 64
    /// Bytes per slot, the terminating zero included.
    static let slotBytes = Int(PATH_MAX)

    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
        let table = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotBytes)
        table.initialize(repeating: 0, count: capacity * slotBytes)
        return table
    }()
    nonisolated(unsafe) private static let inUse: UnsafeMutablePointer<sig_atomic_t> = {
        let flags = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: capacity)
        flags.initialize(repeating: 0, count: capacity)
        return flags
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    /// Registers `path` for removal on a fatal signal; returns its slot, or nil when the
    /// table is full or the path too long.
    static func register(_ path: String) -> Int? {
        let bytes = Array(path.utf8CString)
        guard bytes.count <= slotBytes else { return nil }
        lock.lock()
        defer { lock.unlock() }
        installHandlers()
        guard let slot = (0..<capacity).first(where: { inUse[$0] == 0 }) else { return nil }
        let start = paths + slot * slotBytes
        bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: bytes.count) }
        inUse[slot] = 1
        return slot
    }

    /// Forgets a slot once its file is renamed into place or removed.
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        inUse[slot] = 0
        lock.unlock()
    }

    /// Whether this process is writing `path` right now.
    static func contains(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return (0..<capacity).contains { inUse[$0] != 0 && String(cString: paths + $0 * slotBytes) == path }
    }

    /// Installs the handler for each signal whose disposition is still the default: a
    /// signal the parent chose to ignore (nohup, a background job) stays ignored.
    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(signalNumber, removeAndRaise)
            // SIG_DFL is the null handler.
            if unsafeBitCast(previous, to: Int.self) != 0 { signal(signalNumber, previous) }
        }
    }

    /// The handler: removes every registered partial file, then dies of the same signal
    /// with the default action, so the exit status says what ended the process.
    private static let removeAndRaise: @convention(c) (Int32) -> Void = { signalNumber in
        for slot in 0..<PartialFileRegistry.capacity where PartialFileRegistry.inUse[slot] != 0 {
            unlink(PartialFileRegistry.paths + slot * PartialFileRegistry.slotBytes)
        }
        signal(signalNumber, SIG_DFL)
        raise(signalNumber)
    }
}
